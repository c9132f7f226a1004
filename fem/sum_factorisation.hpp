// SPDX-License-Identifier: BSD-3-Clause
// Sum factorisation of one quadrilateral or hexahedron (fem/tensor_structure.hpp says when it applies),
// cut into stages that a group of workers shares: the threads of one element in the sum-factorised
// kernel (cuda/kernels/sum_factorised/sum_factorised_kernel.cuh), with a barrier between two stages, or a plain loop
// on the CPU (tests/fem/sum_factorisation_test.cpp runs the stages that way against the dense
// tabulation). Host and device code, like geometry.hpp.
//
// Data of F fields (the C components of the field; for physical gradients also the S node coordinates,
// as fields C .. C + S - 1, so that J is contracted by the same stages) on the P1^d node lattice,
// a = (a_2 P1 + a_1) P1 + a_0, is contracted one axis at a time, axis 0 first:
//
//   stage s     in   [f][v][a_(d-1) .. a_s][q_(s-1) .. q_0]      v < variants_in(s)
//               out  [f][v'][a_(d-1) .. a_(s+1)][q_s .. q_0]     v' < variants_out(s)
//               out[.., q_s, ..] = sum_(a_s < P1) T[q_s][a_s] in[.., a_s, ..],  T = B or G (Q1 x P1)
//
// and after stage d - 1 the data sits on the Q1^d point lattice, l = (q_2 Q1 + q_1) Q1 + q_0. Each
// stage's output is Q1/P1 times its input's size per variant; at Q1 = P1 every stage costs P1^(d+1)
// multiply-adds per field and variant.
//
// Variants carry the derivatives. Values have one (B along every axis). Reference gradients need, per
// direction k, G along axis k and B along the others; after stage s the partial products are
//   v = 0      B along axes 0..s           (not yet differentiated)
//   v = 1 + t  G along axis t <= s, B along the other axes done
// so stage s < d - 1 turns 1 + s inputs (1 for s = 0) into 2 + s outputs: B on each, and G on v = 0.
// The last stage keeps only the d differentiated ones, in direction order: B on v = 1 + t gives
// direction t < d - 1, G on v = 0 gives direction d - 1. Hexahedra: 2, 3 and 3 variants out of the
// three stages, 8 contractions where three independent chains (one per direction) would take 9.
//
// The transposes (integration) run the adjoint stages (tensor_contract_transpose) in reverse order, from
// the point data back to the nodal lattice, after a per-point step (tensor_transpose_point) that applies
// the geometry: K^T for physical gradients, w_q |det J| when weighted.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>

namespace feinterp {

FEINTERP_HD constexpr int integer_power(int base, int exponent) {
  int result = 1;
  for (int i = 0; i < exponent; ++i) result *= base;
  return result;
}

/// Variants entering stage s of a d-dimensional forward contraction (values: 1).
FEINTERP_HD constexpr int tensor_variants_in(bool gradients, int s) { return !gradients || s == 0 ? 1 : s + 1; }

/// Variants leaving stage s (values: 1; gradients: s + 2, and d after the last stage).
FEINTERP_HD constexpr int tensor_variants_out(int d, bool gradients, int s) {
  return !gradients ? 1 : s < d - 1 ? s + 2 : d;
}

/// Reals in stage s's output for F fields, s < d - 1 (the last stage writes where its caller says).
FEINTERP_HD constexpr int tensor_stage_size(int d, int P1, int Q1, int fields, bool gradients, int s) {
  return fields * tensor_variants_out(d, gradients, s) * integer_power(P1, d - 1 - s) * integer_power(Q1, s + 1);
}

/// The compile-time shape of stage `Stage` (see above), shared by the unit stages and the line stages
/// (cuda/layout/sum_factorisation_lines.hpp).
template <int D, int P1, int Q1, bool Gradients, int Stage>
struct TensorStage {
  static_assert(D >= 2 && Stage >= 0 && Stage < D, "a stage of a 2D or 3D contraction");
  static constexpr bool last = Stage == D - 1;
  static constexpr int inner = integer_power(Q1, Stage);          // q_(s-1) .. q_0, done
  static constexpr int outer = integer_power(P1, D - 1 - Stage);  // a_(d-1) .. a_(s+1), to do
  static constexpr int variants_in = tensor_variants_in(Gradients, Stage);
  static constexpr int variants_out = tensor_variants_out(D, Gradients, Stage);
};

/// Writes one output position's variants of field f: an intermediate stage at
/// out[(f * Vout + v) * size + position], the last stage at
/// out[(f * Vout + v) * out_stride + target * point_stride], target = point_map[position] (null map:
/// position itself): rows per variant (point_stride 1), or points per row (out_stride 1).
template <int Vout, bool Last, class Real>
FEINTERP_HD void store_stage_outputs(Real* out, int f, int position, const Real (&sum)[Vout], int size, int out_stride,
                                     const int* point_map, int point_stride) {
  if constexpr (Last) {
    const int target = (point_map ? point_map[position] : position) * point_stride;
#pragma unroll
    for (int v = 0; v < Vout; ++v) out[(f * Vout + v) * out_stride + target] = sum[v];
  } else {
#pragma unroll
    for (int v = 0; v < Vout; ++v) out[(f * Vout + v) * size + position] = sum[v];
  }
}

/// One input position's contribution to a stage's variants (see above): x[t] is variant t of the input
/// at a_s, b and g the table entries T[q_s][a_s]. Values: B on the one variant. Gradients: B on each
/// input variant, G on the underived one (variant 0) into the last output; the last stage drops the
/// underived output (Last), so its variants shift down by one. Shared by the unit and the line stages
/// (cuda/layout/sum_factorisation_lines.hpp), which differ only in how they walk the data.
template <int Vin, int Vout, bool Gradients, bool Last, class Real>
FEINTERP_HD void accumulate_stage_term(Real (&sum)[Vout], Real b, Real g, const Real (&x)[Vin]) {
  if constexpr (!Gradients) {
    sum[0] += b * x[0];
  } else {
    constexpr int shift = Last ? 1 : 0;
    if constexpr (!Last) sum[0] += b * x[0];
#pragma unroll
    for (int t = 1; t < Vin; ++t) sum[t - shift] += b * x[t];
    sum[Vout - 1] += g * x[0];
  }
}

/// Stage `Stage` for `worker` of `workers` (see above): the units (f, a_(d-1) .. a_(s+1), q_s, q_(s-1)
/// .. q_0), q_0 fastest, are dealt out round-robin, so that consecutive workers read consecutive
/// inputs from stage 1 on. Each unit computes its variants_out outputs from P1 inputs per variant.
///
/// Intermediate stages write out[(f * variants_out + v') * size + position], size the stage's output
/// per variant, position the output's place in the layout above. The last stage writes
/// out[(f * d + k) * out_stride + point_map[l] * point_stride] (values: f * out_stride + ...): the
/// caller's strides, and the lattice point l mapped to the point set's order (null: l itself).
template <int D, int P1, int Q1, bool Gradients, int Stage, class Real>
FEINTERP_HD void tensor_contract(int fields, int worker, int workers, const Real* in, Real* out, const Real* B,
                                 const Real* G, int out_stride = 0, const int* point_map = nullptr, int point_stride = 1) {
  using Shape = TensorStage<D, P1, Q1, Gradients, Stage>;
  constexpr bool last = Shape::last;
  constexpr int inner = Shape::inner, outer = Shape::outer, Vin = Shape::variants_in, Vout = Shape::variants_out;
  const int units = fields * outer * Q1 * inner;
  constexpr int in_size = outer * P1 * inner;    // per variant
  constexpr int out_size = outer * Q1 * inner;   // per variant (intermediate stages)
  for (int unit = worker; unit < units; unit += workers) {
    // All divisors are constants: multiplications and shifts, no division instruction.
    const int i = unit % inner;
    int rest = unit / inner;
    const int q = rest % Q1;
    rest /= Q1;
    const int o = rest % outer;
    const int f = rest / outer;
    const Real* source = in + f * Vin * in_size + o * P1 * inner + i;
    Real sum[Vout];
#pragma unroll
    for (int v = 0; v < Vout; ++v) sum[v] = Real(0);
#pragma unroll
    for (int a = 0; a < P1; ++a) {
      Real x[Vin];
#pragma unroll
      for (int t = 0; t < Vin; ++t) x[t] = source[t * in_size + a * inner];
      accumulate_stage_term<Vin, Vout, Gradients, last>(sum, B[q * P1 + a], Gradients ? G[q * P1 + a] : Real(0), x);
    }
    store_stage_outputs<Vout, last>(out, f, (o * Q1 + q) * inner + i, sum, out_size, out_stride, point_map,
                                    point_stride);
  }
}

/// The adjoint of stage `Stage`, for the transposes (integration): from the layout stage Stage writes to
/// the one it reads, out[.., a_s, ..] = sum_(q_s < Q1) T[q_s][a_s] in[.., q_s, ..], with the variants
/// merged as the forward stage split them (the exact transpose of tensor_contract's linear map). A
/// transpose runs the adjoint stages in reverse, Stage = d - 1 first, down to Stage = 0, which writes the
/// F x P1^d nodal lattice, out[f * P1^d + a].
///
/// The first adjoint stage (Stage = d - 1) reads point data rows in the point set's order,
/// in[(f * rows_per_field + k) * in_stride + point_map[l]] (values: k = 0; gradients: k < d, the
/// direction; rows_per_field lets physical gradients, mapped back to d reference directions in rows of
/// S, be read in place); the others read the previous adjoint stage's output.
template <int D, int P1, int Q1, bool Gradients, int Stage, class Real>
FEINTERP_HD void tensor_contract_transpose(int fields, int worker, int workers, const Real* in, Real* out, const Real* B,
                                           const Real* G, int in_stride = 0, int rows_per_field = 0,
                                           const int* point_map = nullptr) {
  static_assert(D >= 2 && Stage >= 0 && Stage < D, "a stage of a 2D or 3D contraction");
  constexpr bool first = Stage == D - 1;  // the forward's last stage: its adjoint reads the point data
  constexpr int inner = integer_power(Q1, Stage);
  constexpr int outer = integer_power(P1, D - 1 - Stage);
  const int units = fields * outer * P1 * inner;
  constexpr int Vnodes = tensor_variants_in(Gradients, Stage);       // variants written (the forward's input)
  constexpr int Vpoints = tensor_variants_out(D, Gradients, Stage);  // variants read (the forward's output)
  constexpr int nodes_size = outer * P1 * inner;                     // per variant written
  constexpr int points_size = outer * Q1 * inner;                    // per variant read (later stages)
  for (int unit = worker; unit < units; unit += workers) {
    const int i = unit % inner;
    int rest = unit / inner;
    const int a = rest % P1;
    rest /= P1;
    const int o = rest % outer;
    const int f = rest / outer;
    Real sum[Vnodes];
#pragma unroll
    for (int v = 0; v < Vnodes; ++v) sum[v] = Real(0);
#pragma unroll
    for (int q = 0; q < Q1; ++q) {
      const Real b = B[q * P1 + a];
      const int position = (o * Q1 + q) * inner + i;
      Real x[Vpoints];  // the variants read at (o, q, i)
      if constexpr (first) {
        const int column = point_map ? point_map[position] : position;
#pragma unroll
        for (int v = 0; v < Vpoints; ++v) x[v] = in[(f * rows_per_field + v) * in_stride + column];
      } else {
#pragma unroll
        for (int v = 0; v < Vpoints; ++v) x[v] = in[(f * Vpoints + v) * points_size + position];
      }
      if constexpr (!Gradients) {
        sum[0] += b * x[0];
      } else {
        const Real g = G[q * P1 + a];
        if constexpr (first) {  // direction t < d - 1 came from variant 1 + t by B, direction d - 1 from 0 by G
          sum[0] += g * x[D - 1];
#pragma unroll
          for (int t = 1; t < Vnodes; ++t) sum[t] += b * x[t - 1];
        } else {  // variant 0 gave 0 by B and Vnodes by G; variant t gave t by B
          sum[0] += b * x[0] + g * x[Vnodes];
#pragma unroll
          for (int t = 1; t < Vnodes; ++t) sum[t] += b * x[t];
        }
      }
    }
#pragma unroll
    for (int v = 0; v < Vnodes; ++v) out[(f * Vnodes + v) * nodes_size + (o * P1 + a) * inner + i] = sum[v];
  }
}

/// J at lattice point l from the last stage's reference gradients of the S coordinates, which start at
/// field row `first_field`: J[k][d] = R[((first_field + k) * D + d) * row_stride + l], in double as in the
/// dense kernels. Returns det J; or-s the point's orientation bit (fem/orientation.hpp) into `orientation`.
template <int D, int S, class Real>
FEINTERP_HD double tensor_jacobian(const Real* R, int row_stride, int l, int first_field, double (&J)[S][D],
                                   unsigned& orientation) {
#pragma unroll
  for (int k = 0; k < S; ++k)
#pragma unroll
    for (int d = 0; d < D; ++d) J[k][d] = double(R[((first_field + k) * D + d) * row_stride + l]);
  const double det = jacobian_determinant(J);
  orientation |= orientation_of(det, shape_quality(J, det));
  return det;
}

/// Physical gradients at lattice point l, from the last stage's reference gradients of C field
/// components and S coordinates, R[(f * D + k) * row_stride + l] (f < C + S; the coordinates' rows are
/// J's: J[k][d] = R[((C + k) * D + d) * row_stride + l]): J, det J and K in double as in the dense
/// kernels (fem/geometry.hpp), the C x S gradients written to out[(c * S + k) * out_stride + target].
/// Returns det J; or-s the point's orientation bit (fem/orientation.hpp) into `orientation`.
template <int D, int S, class Real>
FEINTERP_HD double tensor_physical_gradients(int C, const Real* R, int row_stride, int l, Real* out, int out_stride,
                                             int target, unsigned& orientation) {
  double J[S][D];
  const double det = tensor_jacobian<D, S>(R, row_stride, l, C, J, orientation);
  double K[S][D];
  inverse_transpose(J, det, K);
#pragma unroll
  for (int c = 0; c < C; ++c) {
    double reference[D], gradient[S];
#pragma unroll
    for (int d = 0; d < D; ++d) reference[d] = double(R[(c * D + d) * row_stride + l]);
    physical_gradient<S, D>(K, reference, gradient);
#pragma unroll
    for (int k = 0; k < S; ++k) out[(c * S + k) * out_stride + target] = Real(gradient[k]);
  }
  return det;
}

/// A transpose's work at lattice point l, point q of the set, before its adjoint stages: J from the
/// reference gradients of the S coordinates (R rows as for tensor_physical_gradients, here with C = 0
/// fields before them), det J and its orientation bit; physical gradients g (rows (c * S + k) of `rows`,
/// column q) mapped back to the d reference directions, K^T g, in place (rows (c * S + d)); then, when
/// `weight` is not null, every row of the point multiplied by weight[q] |det J|. Returns det J.
template <int D, int S, int Rows, bool Physical, class Real>
FEINTERP_HD double tensor_transpose_point(int C, const Real* R, int row_stride, int l, Real* rows, int out_stride, int q,
                                          const Real* weight, unsigned& orientation) {
  double J[S][D];
  const double det = tensor_jacobian<D, S>(R, row_stride, l, 0, J, orientation);
  const double factor = weight ? double(weight[q]) * (det < 0 ? -det : det) : 1.0;
  if constexpr (Physical) {
    static_assert(Rows == S, "physical gradients: S numbers per component");
    double K[S][D];
    inverse_transpose(J, det, K);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      double g[S], back[D];
#pragma unroll
      for (int k = 0; k < S; ++k) g[k] = double(rows[(c * S + k) * out_stride + q]);
      physical_gradient_transpose<S, D>(K, g, back);
#pragma unroll
      for (int d = 0; d < D; ++d) rows[(c * S + d) * out_stride + q] = Real(back[d] * factor);
    }
  } else if (weight) {
#pragma unroll
    for (int r = 0; r < C * Rows; ++r) rows[r * out_stride + q] = Real(double(rows[r * out_stride + q]) * factor);
  }
  return det;
}

/// The fused diffusion operator's work at lattice point l, point q of the set, between its forward and
/// adjoint stages: from the last stage's reference gradients of C field components and S coordinates (R
/// rows as for tensor_physical_gradients), each component's K^T kappa K grad-hat times w_q |det J|, written
/// to rows (c * D + d) of `rows`, column q: the reference-gradient point data the adjoint stages read.
/// `kappa` is the point's coefficient, `kappa_entries` values (fem/coefficient.hpp; 0: none). Returns det J.
template <int D, int S, class Real>
FEINTERP_HD double tensor_diffusion_point(int C, const Real* R, int row_stride, int l, Real* rows, int out_stride, int q,
                                          const Real* weight, const Real* kappa, int kappa_entries,
                                          unsigned& orientation) {
  double J[S][D];
  const double det = tensor_jacobian<D, S>(R, row_stride, l, C, J, orientation);
  const double factor = double(weight[q]) * (det < 0 ? -det : det);
  double K[S][D];
  inverse_transpose(J, det, K);
  for (int c = 0; c < C; ++c) {
    double reference[D], g[S], back[D];
#pragma unroll
    for (int d = 0; d < D; ++d) reference[d] = double(R[(c * D + d) * row_stride + l]);
    physical_gradient<S, D>(K, reference, g);
    apply_coefficient<S>(kappa, kappa_entries, g);
    physical_gradient_transpose<S, D>(K, g, back);
#pragma unroll
    for (int d = 0; d < D; ++d) rows[(c * D + d) * out_stride + q] = Real(back[d] * factor);
  }
  return det;
}

/// Entries of the diffusion operator's geometric factor at a point, the symmetric d x d matrix
/// w_q |det J| K^T K stored as its upper triangle (fem/coefficient.hpp's symmetric_entry).
FEINTERP_HD constexpr int diffusion_factor_entries(int d) { return d * (d + 1) / 2; }

/// The geometric factors that the fused operators read when a plan precomputes them, at lattice point l,
/// point q: from the last stage's reference gradients of the S coordinates (R rows (k * D + d), C = 0
/// fields before them), w_q |det J| (mass) or w_q |det J| K^T K (diffusion), written to
/// factor[t * factor_stride], t < 1 or diffusion_factor_entries(D). Or-s the point's orientation bit into
/// `orientation`, as every geometric kernel does.
template <int D, int S, bool Diffusion, class Real>
FEINTERP_HD void tensor_operator_factors(const Real* R, int row_stride, int l, Real weight, Real* factor,
                                         int factor_stride, unsigned& orientation) {
  double J[S][D];
  const double det = tensor_jacobian<D, S>(R, row_stride, l, 0, J, orientation);
  const double measure = double(weight) * (det < 0 ? -det : det);
  if constexpr (!Diffusion) {
    factor[0] = Real(measure);
  } else {
    double K[S][D];
    inverse_transpose(J, det, K);
#pragma unroll
    for (int a = 0; a < D; ++a)
#pragma unroll
      for (int b = a; b < D; ++b) {
        double sum = 0;
#pragma unroll
        for (int k = 0; k < S; ++k) sum += K[k][a] * K[k][b];
        factor[symmetric_entry(D, a, b) * factor_stride] = Real(measure * sum);
      }
  }
}

/// The fused operators' work at lattice point l, point q, with precomputed factors (see above, read at
/// factor[t * factor_stride]) and a scalar coefficient `scale` (rho or kappa; 1 for none): from the last
/// stage's values (mass: rows c) or reference gradients (diffusion: rows c * D + d) of C components in R,
/// the point data the adjoint stages read, rows[(c * V + v) * out_stride + q], V = 1 or D.
template <int D, bool Diffusion, class Real>
FEINTERP_HD void tensor_precomputed_operator_point(int C, const Real* R, int row_stride, int l, Real* rows,
                                                   int out_stride, int q, const Real* factor, int factor_stride,
                                                   Real scale) {
  if constexpr (!Diffusion) {
    const Real m = factor[0] * scale;
    for (int c = 0; c < C; ++c) rows[c * out_stride + q] = m * R[c * row_stride + l];
  } else {
    constexpr int T = diffusion_factor_entries(D);
    Real G[T];
#pragma unroll
    for (int t = 0; t < T; ++t) G[t] = factor[t * factor_stride] * scale;
    for (int c = 0; c < C; ++c) {
      Real g[D];
#pragma unroll
      for (int d = 0; d < D; ++d) g[d] = R[(c * D + d) * row_stride + l];
#pragma unroll
      for (int a = 0; a < D; ++a) {
        Real sum = Real(0);
#pragma unroll
        for (int b = 0; b < D; ++b) sum += G[a <= b ? symmetric_entry(D, a, b) : symmetric_entry(D, b, a)] * g[b];
        rows[(c * D + a) * out_stride + q] = sum;
      }
    }
  }
}

}  // namespace feinterp
