// SPDX-License-Identifier: BSD-3-Clause
// Physical gradients without the reference gradients in shared memory: the last forward stage and the
// per-point geometry fused, one worker per column of the point lattice (fixed q_0 .. q_(d-2), all q_(d-1)).
//
// Why. The sum-factorised kernel's physical gradients (backends/cuda/kernels/tensor_kernel.cuh) write the
// last stage's reference gradients of all F = C + S fields to shared memory, F x d x Q reals, and the
// points step reads them back to form J, K and the C x S gradients: at hex p3 C = 1 that is 768 reals
// written and 768 read per element, ~31% of the element's shared traffic, and the kernel is bound by it
// (L1 at 86-88%, 25-40% of copy; backends/cuda/tuning/results/nvidia-h100-80gb-hbm3/
// targets-values-physical.md). A column worker reads each field's line once (P1 x d reals, as the last
// line stage does), keeps J at its Q1 points in registers (Q1 x S x d doubles), and writes only the C x S
// results per point.
//
// The work: columns = Q1^(d-1) per element, each computed by `groups` workers (the components dealt
// among them; each computes the column's J, so the coordinates' lines are read once per group). The
// arithmetic is the last line stage's (accumulate_stage_term, the same order) followed by
// tensor_physical_gradients' (J, det J and K in double from the Real reference gradients), so the
// results are bit for bit those of tensor_contract_lines + tensor_physical_gradients.
//
// Status: tested on the CPU (tests/fem/sum_factorisation_test.cpp, bit for bit against the line stages);
// the kernel does not call it yet. Switching it over changes the kernel's shared layout and the last
// stage's parallelism (16 x F to 16 x groups workers at hex p3), so it lands only after a measurement.
#pragma once

#include "../core/config.hpp"
#include "geometry.hpp"
#include "orientation.hpp"
#include "sum_factorisation.hpp"
#include "sum_factorisation_lines.hpp"

namespace feinterp {

/// Workers per column: the components dealt to as many as the workers allow, at most C.
FEINTERP_HD constexpr int tensor_column_groups(int columns, int workers, int components) {
  const int groups = workers / columns;
  return groups < 1 ? 1 : groups > components ? components : groups;
}

/// The last stage of C component fields and S coordinate fields (fields C .. C + S - 1), read from stage
/// d - 2's output in the line layout (`in`, fem/sum_factorisation_lines.hpp), and the physical
/// gradients at every point: out[point_of_lattice[l] * point_stride + c * S + k]. report(l, det J) is
/// called once per lattice point l (by the worker of group 0). Returns the points' orientation bits
/// (fem/orientation.hpp), or-ed.
template <int D, int P1, int Q1, int C, int S, class Real, class Report>
FEINTERP_HD unsigned tensor_physical_columns(int worker, int workers, const Real* in, Real* out, const Real* B,
                                             const Real* G, const int* point_of_lattice, int point_stride,
                                             Report report) {
  using Shape = TensorStage<D, P1, Q1, true, D - 1>;
  constexpr int columns = Shape::inner, Vin = Shape::variants_in, Vout = Shape::variants_out;
  static_assert(Shape::outer == 1 && Vout == D, "the last stage: one column per inner index, d gradients");
  constexpr int in_step = tensor_lines_stage_row(Q1, D - 2);  // along a_(d-1)
  constexpr int in_size = P1 * in_step;                       // per field and variant
  const int groups = tensor_column_groups(columns, workers, C);
  unsigned orientation = 0u;
  for (int unit = worker; unit < columns * groups; unit += workers) {
    const int i = unit % columns, group = unit / columns;
    // One field's line, every variant, contracted to its d reference gradients at the column's q.
    auto gradients_at = [&](int f, auto&& use) {
      Real x[P1][Vin];
      const Real* source = in + f * Vin * in_size + i;
#pragma unroll
      for (int a = 0; a < P1; ++a)
#pragma unroll
        for (int t = 0; t < Vin; ++t) x[a][t] = source[t * in_size + a * in_step];
#pragma unroll
      for (int q = 0; q < Q1; ++q) {
        Real sum[Vout];
#pragma unroll
        for (int v = 0; v < Vout; ++v) sum[v] = Real(0);
#pragma unroll
        for (int a = 0; a < P1; ++a) accumulate_stage_term<Vin, Vout, true, true>(sum, B[q * P1 + a], G[q * P1 + a], x[a]);
        use(q, sum);
      }
    };
    // J at the column's points, then K in place.
    double K[Q1][S][D];
#pragma unroll
    for (int k = 0; k < S; ++k)
      gradients_at(C + k, [&](int q, const Real(&sum)[Vout]) {
#pragma unroll
        for (int d = 0; d < D; ++d) K[q][k][d] = double(sum[d]);
      });
#pragma unroll
    for (int q = 0; q < Q1; ++q) {
      double J[S][D];
#pragma unroll
      for (int k = 0; k < S; ++k)
#pragma unroll
        for (int d = 0; d < D; ++d) J[k][d] = K[q][k][d];
      const double det = jacobian_determinant(J);
      orientation |= orientation_of(det, shape_quality(J, det));
      inverse_transpose(J, det, K[q]);
      if (group == 0) report(q * columns + i, det);
    }
    for (int c = group; c < C; c += groups)
      gradients_at(c, [&](int q, const Real(&sum)[Vout]) {
        double reference[D], gradient[S];
#pragma unroll
        for (int d = 0; d < D; ++d) reference[d] = double(sum[d]);
        physical_gradient<S, D>(K[q], reference, gradient);
        Real* target = out + point_of_lattice[q * columns + i] * point_stride + c * S;
#pragma unroll
        for (int k = 0; k < S; ++k) target[k] = Real(gradient[k]);
      });
  }
  return orientation;
}

}  // namespace feinterp
