// SPDX-License-Identifier: BSD-3-Clause
// The forward stages of fem/sum_factorisation.hpp with one worker per line instead of one per output:
// the work of the sum-factorised forward kernel (cuda/kernels/sum_factorised/sum_factorised_kernel.cuh).
//
// Why lines. A unit worker (tensor_contract) reads its P1 inputs per variant and a row of B and G for
// every output it writes, so each input is read Q1 times and the table rows once per unit. Under Nsight
// Compute the unit kernel at hex p3, reference gradients, C = 1 costs 250 shared-memory wavefronts per
// element and keeps the L1/shared unit at 92% while DRAM idles at 38% (docs/performance/
// nvidia-h100-80gb-hbm3/profile-sum-factorised.md). A line worker fixes every index but the stage's axis,
// reads the line's P1 inputs per variant once into registers, and writes its Q1 outputs per variant:
// at hex p3 reference gradients, per element, 384 data loads and 512 stores instead of 1,600 and 512.
// Every line worker reads the same table entry at the same moment, so B and G can be uniform operands
// (the kernel takes them as kernel parameters, not from shared memory).
//
// The line layout. Stage s has P1^(d-1-s) Q1^s lines per field (the launch's threads per element are
// the largest stage's count: 16 for a p3 hexahedron at Q1 = 4, 4 for a p3 quadrilateral). Consecutive
// workers take consecutive lines, the innermost done index i = (q_(s-1) .. q_0) fastest, then the
// outer index o = (a_(d-1) .. a_(s+1)). Every row a worker walks is padded so that the 16 workers of
// a half warp, whose 8-byte words fill a 128-byte wavefront, land in 16 different bank pairs:
//
//   - the gathered lattice's rows to P1 | 1: stage 0 (no done index) steps workers by a row when reading;
//   - each intermediate stage's output row, the Q1 * inner reals of one outer index, to (Q1 | 1) * inner:
//     the inner workers of one outer index take consecutive words, and an odd number of inner-sized
//     groups between outer indices puts the next outer index's workers in the next free groups.
//
// At P1 = Q1 = 4 unpadded rows of 4 (stage 0) and of 16 (stage 1 of a hexahedron) put four workers on
// each bank pair: Nsight Compute measured 61% of the line kernel's shared stores as bank conflicts with
// stage 0 alone padded (docs/performance/nvidia-h100-80gb-hbm3/profile-sum-factorised.md).
// Odd Q1 pads nothing. So, per variant and field:
//
//   gathered lattice  [a_(d-1) .. a_1][a_0 < P1 | 1]                      P1^(d-1) (P1 | 1) reals
//   stage s < d - 1   [a_(d-1) .. a_(s+1)][q_s < Q1 | 1][q_(s-1) .. q_0]  P1^(d-1-s) Q1^s (Q1 | 1) reals
//
// and the last stage writes the output rows as tensor_contract does. The variants and their arithmetic
// are tensor_contract's (accumulate_stage_term), so the two agree to the last bit.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/fem/sum_factorisation.hpp>

namespace feinterp {

/// Lines of stage s per field: P1^(d-1-s) Q1^s.
FEINTERP_HD constexpr int tensor_lines(int d, int P1, int Q1, int s) {
  return integer_power(P1, d - 1 - s) * integer_power(Q1, s);
}

/// The largest stage's line count: the forward kernel's threads per element (one field keeps every
/// thread busy at the largest stage; more fields loop).
FEINTERP_HD constexpr int tensor_line_threads_per_element(int d, int P1, int Q1) {
  int largest = 1;
  for (int s = 0; s < d; ++s)
    if (tensor_lines(d, P1, Q1, s) > largest) largest = tensor_lines(d, P1, Q1, s);
  return largest;
}

/// Reals per field of the gathered lattice in the line layout: P1^(d-1) rows of P1 | 1.
FEINTERP_HD constexpr int tensor_lines_lattice_size(int d, int P1) { return integer_power(P1, d - 1) * (P1 | 1); }

/// Where lattice position l = (a_2 P1 + a_1) P1 + a_0 (fem/tensor_structure.hpp's node_lattice) sits in
/// the gathered lattice of the line layout.
FEINTERP_HD constexpr int tensor_lines_lattice_slot(int l, int P1) { return l / P1 * (P1 | 1) + l % P1; }

/// Reals from one outer index of stage s's output to the next (s < d - 1): Q1^s inner positions per
/// q_s, and Q1 | 1 of those.
FEINTERP_HD constexpr int tensor_lines_stage_row(int Q1, int s) { return integer_power(Q1, s) * (Q1 | 1); }

/// Reals of stage s's output per field and variant (s < d - 1) in the line layout.
FEINTERP_HD constexpr int tensor_lines_stage_size_per_variant(int d, int P1, int Q1, int s) {
  return integer_power(P1, d - 1 - s) * tensor_lines_stage_row(Q1, s);
}

/// Reals of stage s's output for F fields (s < d - 1) in the line layout.
FEINTERP_HD constexpr int tensor_lines_stage_size(int d, int P1, int Q1, int fields, bool gradients, int s) {
  return fields * tensor_variants_out(d, gradients, s) * tensor_lines_stage_size_per_variant(d, P1, Q1, s);
}

/// Stage `Stage`, one line per worker, in the line layout above; the arguments are tensor_contract's.
/// The last stage writes out[(f * Vout + v) * out_stride + point_map[l] * point_stride] (null map: l
/// itself).
template <int D, int P1, int Q1, bool Gradients, int Stage, class Real>
FEINTERP_HD void tensor_contract_lines(int fields, int worker, int workers, const Real* in, Real* out, const Real* B,
                                       const Real* G, int out_stride = 0, const int* point_map = nullptr,
                                       int point_stride = 1) {
  using Shape = TensorStage<D, P1, Q1, Gradients, Stage>;
  constexpr bool last = Shape::last;
  constexpr int inner = Shape::inner, outer = Shape::outer, Vin = Shape::variants_in, Vout = Shape::variants_out;
  const int lines = fields * outer * inner;
  // Input steps along a_s and o: stage 0 reads the padded lattice rows, a later stage the previous
  // stage's padded rows (a_s is that stage's first outer index).
  constexpr int in_step = Stage == 0 ? 1 : tensor_lines_stage_row(Q1, Stage - 1);
  constexpr int in_outer_step = Stage == 0 ? (P1 | 1) : P1 * in_step;
  constexpr int in_size = outer * in_outer_step;  // per variant
  // Output step along o: an intermediate stage writes padded rows; the last (outer = 1) the plain lattice.
  constexpr int out_outer_step = last ? Q1 * inner : tensor_lines_stage_row(Q1, Stage);
  constexpr int out_size = outer * out_outer_step;  // per variant (intermediate stages)
  for (int line = worker; line < lines; line += workers) {
    const int i = line % inner;  // constants: multiplications and shifts, no division instruction
    int rest = line / inner;
    const int o = rest % outer;
    const int f = rest / outer;
    const Real* source = in + f * Vin * in_size + o * in_outer_step + i;
    Real x[P1][Vin];  // the line, every variant, held for all Q1 outputs
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
      for (int a = 0; a < P1; ++a)
        accumulate_stage_term<Vin, Vout, Gradients, last>(sum, B[q * P1 + a], Gradients ? G[q * P1 + a] : Real(0), x[a]);
      // The last stage (outer = 1): position is the lattice point.
      store_stage_outputs<Vout, last>(out, f, o * out_outer_step + q * inner + i, sum, out_size, out_stride, point_map,
                                      point_stride);
    }
  }
}

}  // namespace feinterp
