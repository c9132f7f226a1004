// SPDX-License-Identifier: BSD-3-Clause
// The element-batched transposes (batched_transpose.hpp). Per batch: the lanes' coordinates gathered into
// xe[node][k] when the geometry is used and, for a fused operator, its field into ue[node][component];
// per point: J, det J and K = J^-T on every lane; the point data (read from f, or the field's value or
// physical gradient computed from ue and times the coefficient), mapped back to reference directions
// through K^T and times w_q |det J| when weighted; then y[n][c] += table(q, n, .) . data[c][.], each table
// entry broadcast to every lane. Last, each lane's y stored into its element vector or added to its nodes.
// Sums are in the plan's precision Real, the geometry in double, as in the forward kernels.
#include <algorithm>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cpu/batched_transpose.hpp>
#include <feinterp/cpu/lanes.hpp>
#include <feinterp/cpu/space_dimension.hpp>

namespace feinterp::backends::cpu {

namespace {

constexpr int L = lanes;
constexpr int max_coefficient_entries = 6;  // a symmetric 3 x 3 tensor

// CC: the number of components as a compile-time constant, or 0 for call.components. S: the space
// dimension (read only where the geometry is used).
template <class Element, int CC, int S, class Real>
void transpose_range(const TransposeCall<Real>& p, const offset_t* elements, offset_t begin, offset_t end,
                     bool to_nodes, Real* out, FirstError& errors) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int CMAX = CC ? CC : max_components;
  const int C = CC ? CC : p.components;
  const int Q = p.points;
  const int T = p.coefficient_entries;
  const bool physical = p.forward == Operation::physical_gradients;
  const bool values = p.forward == Operation::values;
  const int R = result_directions(p.forward, D, S);  // point-data directions
  const GradientsLayout in{p.elements, Q, C, R};
  using V = Lanes<Real>;
  using VD = Lanes<double>;
  V ue[N][CMAX], y[N][CMAX];
  VD xe[N][S];
  offset_t element[L];
  const node_index* element_nodes[L];
  for (offset_t first = begin; first < end; first += L) {
    const int m = int(std::min<offset_t>(L, end - first));
    for (int l = 0; l < L; ++l) {  // spare lanes repeat the last element
      const offset_t i = first + std::min(l, m - 1);
      element[l] = elements ? elements[i] : i;
      element_nodes[l] = p.block->connectivity + element[l] * N;
    }
    if (p.geometric) gather_coordinates(p.coordinates, element_nodes, xe);
    if (p.u)
      for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c) ue[n][c] = V([&](auto l) { return p.u[offset_t(element_nodes[l][n]) * C + c]; });
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < C; ++c) y[n][c] = Real(0);
    LaneOrientations orientations;
    for (int q = 0; q < Q; ++q) {
      const double* g = p.table->gradients.data() + offset_t(q) * N * D;
      const double* t = p.table->values.data() + offset_t(q) * N;
      // This point's data of lane l: f + point[l] (f's rows of one element and point are contiguous).
      offset_t point[L];
      if (p.f)
        for (int l = 0; l < L; ++l) point[l] = in(element[l], q, 0, 0);
      V data[CMAX * 3];
      VD det, quality;  // where the geometry is used; checked once the point's sums are done (batched_kernels.cpp)
      if (p.factors) {  // a fused operator, its geometry precomputed (run_operator_factors), kappa a scalar or none
        const int F = physical ? D * (D + 1) / 2 : 1;
        VD G[D * (D + 1) / 2];
        for (int j = 0; j < F; ++j)
          G[j] = VD([&](auto l) { return double(p.factors[(element[l] * Q + q) * F + j]); });
        const VD kappa = T ? VD([&](auto l) { return double(p.coefficient[(element[l] * Q + q) * T]); }) : VD(1.0);
        for (int c = 0; c < C; ++c) {
          if (physical) {
            VD reference[D];
            for (int d = 0; d < D; ++d) {
              V sum = Real(0);
              for (int n = 0; n < N; ++n) sum += ue[n][c] * Real(g[n * D + d]);
              reference[d] = stdx::static_simd_cast<VD>(sum);
            }
            for (int d = 0; d < D; ++d) {
              VD sum = 0.0;
              for (int d2 = 0; d2 < D; ++d2) sum += G[d <= d2 ? symmetric_entry(D, d, d2) : symmetric_entry(D, d2, d)] * reference[d2];
              data[c * D + d] = stdx::static_simd_cast<V>(sum * kappa);
            }
          } else {
            V sum = Real(0);
            for (int n = 0; n < N; ++n) sum += ue[n][c] * Real(t[n]);
            data[c] = stdx::static_simd_cast<V>(stdx::static_simd_cast<VD>(sum) * kappa * G[0]);
          }
        }
      } else if (!p.geometric) {
        for (int i = 0; i < C * R; ++i) data[i] = V([&](auto l) { return p.f[point[l] + i]; });
      } else {
        VD J[S][D];
        jacobian_lanes(xe, g, J);
        det = jacobian_determinant(J);
        quality = shape_quality_lanes(J, det);
        const VD factor = p.weighted ? VD(p.weights[q]) * stdx::abs(det) : VD(1.0);
        VD kappa[max_coefficient_entries];
        for (int j = 0; j < T; ++j)
          kappa[j] = VD([&](auto l) { return double(p.coefficient[(element[l] * Q + q) * T + j]); });
        VD K[S][D];
        if (physical) inverse_transpose(J, det, K);  // meaningless where det is 0; the element is then refused
        if (p.diagonal) {  // y[n] += factor * rho phi_n^2, or factor * (K grad phi_n) . kappa (K grad phi_n)
          for (int n = 0; n < N; ++n) {
            VD term;
            if (physical) {
              VD reference[D], gn[S], kgn[S];
              for (int d = 0; d < D; ++d) reference[d] = g[n * D + d];
              physical_gradient<S, D>(K, reference, gn);
              for (int k = 0; k < S; ++k) kgn[k] = gn[k];
              apply_coefficient<S>(kappa, T, kgn);
              term = 0.0;
              for (int k = 0; k < S; ++k) term += gn[k] * kgn[k];
            } else {
              VD value[1] = {VD(t[n] * t[n])};
              apply_coefficient<1>(kappa, T, value);
              term = value[0];
            }
            const V contribution = stdx::static_simd_cast<V>(term * factor);
            for (int c = 0; c < C; ++c) y[n][c] += contribution;
          }
          orientations.add(q, det, quality, m);
          continue;
        }
        if (physical) {
          for (int c = 0; c < C; ++c) {
            VD physical_data[S], reference[D];
            if (p.u) {  // fused: this point's physical gradient of the field, times kappa
              VD computed[D];
              for (int d = 0; d < D; ++d) {
                V sum = Real(0);
                for (int n = 0; n < N; ++n) sum += ue[n][c] * Real(g[n * D + d]);
                computed[d] = stdx::static_simd_cast<VD>(sum);
              }
              physical_gradient<S, D>(K, computed, physical_data);
              apply_coefficient<S>(kappa, T, physical_data);
            } else {
              for (int k = 0; k < S; ++k)
                physical_data[k] = VD([&](auto l) { return double(p.f[point[l] + c * S + k]); });
            }
            physical_gradient_transpose<S, D>(K, physical_data, reference);
            for (int d = 0; d < D; ++d) data[c * D + d] = stdx::static_simd_cast<V>(reference[d] * factor);
          }
        } else if (p.u) {  // fused mass: this point's value of the field, times rho
          for (int c = 0; c < C; ++c) {
            V sum = Real(0);
            for (int n = 0; n < N; ++n) sum += ue[n][c] * Real(t[n]);
            VD value[1] = {stdx::static_simd_cast<VD>(sum)};
            apply_coefficient<1>(kappa, T, value);
            data[c] = stdx::static_simd_cast<V>(value[0] * factor);
          }
        } else {
          for (int i = 0; i < C * R; ++i)
            data[i] = stdx::static_simd_cast<V>(VD([&](auto l) { return double(p.f[point[l] + i]); }) * factor);
        }
      }
      if (values) {
        for (int n = 0; n < N; ++n) {
          const Real tn = Real(t[n]);
#pragma GCC unroll 9
          for (int c = 0; c < C; ++c) y[n][c] += tn * data[c];
        }
      } else {
        for (int n = 0; n < N; ++n)
#pragma GCC unroll 9
          for (int c = 0; c < C; ++c) {
            V sum = Real(0);
#pragma GCC unroll 3
            for (int d = 0; d < D; ++d) sum += Real(g[n * D + d]) * data[c * D + d];
            y[n][c] += sum;
          }
      }
      if (p.geometric) orientations.add(q, det, quality, m);
    }
    bool refused = false;
    if (p.geometric)
      for (int l = 0; l < m; ++l) try {
          check_orientation(*p.block, element[l], orientations.record[l], D < S);
        } catch (const DegenerateElementError&) {
          errors.keep(element[l], std::current_exception());
          refused = true;
        }
    if (refused) continue;
    LaneArray<Real> staged;
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < C; ++c) {
        staged.store(y[n][c]);
        if (to_nodes)
          for (int l = 0; l < m; ++l) out[offset_t(element_nodes[l][n]) * C + c] += staged.lane[l];
        else
          for (int l = 0; l < m; ++l) out[(element[l] * N + n) * C + c] = staged.lane[l];
      }
  }
}

template <class Element, int S, class Real>
void factors_range(FusedOperator op, const BlockView& block, const Real* coordinates, const Tabulation& table,
                   const double* weights, offset_t begin, offset_t end, Real* factors, FirstError& errors) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int F = D * (D + 1) / 2;
  const int Q = table.points;
  const bool diffusion = op == FusedOperator::diffusion;
  using VD = Lanes<double>;
  VD xe[N][S];
  const node_index* element_nodes[L];
  LaneArray<double> staged[F];
  for (offset_t first = begin; first < end; first += L) {
    const int m = int(std::min<offset_t>(L, end - first));
    for (int l = 0; l < L; ++l) element_nodes[l] = block.connectivity + (first + std::min(l, m - 1)) * N;
    gather_coordinates(coordinates, element_nodes, xe);
    LaneOrientations orientations;
    for (int q = 0; q < Q; ++q) {
      VD J[S][D];
      jacobian_lanes(xe, table.gradients.data() + offset_t(q) * N * D, J);
      const VD det = jacobian_determinant(J);
      const VD factor = VD(weights[q]) * stdx::abs(det);
      if (diffusion) {  // w_q |det J| K^T K, its upper triangle
        VD K[S][D];
        inverse_transpose(J, det, K);
        for (int i = 0; i < D; ++i)
          for (int j = i; j < D; ++j) {
            VD sum = 0.0;
            for (int k = 0; k < S; ++k) sum += K[k][i] * K[k][j];
            staged[symmetric_entry(D, i, j)].store(sum * factor);
          }
      } else {
        staged[0].store(factor);
      }
      const int entries = diffusion ? F : 1;
      for (int l = 0; l < m; ++l)
        for (int j = 0; j < entries; ++j) factors[((first + l) * Q + q) * entries + j] = Real(staged[j].lane[l]);
      orientations.add(q, det, shape_quality_lanes(J, det), m);
    }
    for (int l = 0; l < m; ++l) try {
        check_orientation(block, first + l, orientations.record[l], D < S);
      } catch (const DegenerateElementError&) {
        errors.keep(first + l, std::current_exception());
      }
  }
}

}  // namespace

template <class Real>
void run_operator_factors(FusedOperator op, const BlockView& block, const Real* coordinates, const Tabulation& table,
                          const double* weights, offset_t begin, offset_t end, Real* factors, FirstError& errors) {
  visit(block.type, [&](auto element) {
    using Element = decltype(element);
    with_space_dimension<Element::dimension>(space_dimension(block), [&](auto s) {
      factors_range<Element, decltype(s)::value>(op, block, coordinates, table, weights, begin, end, factors, errors);
    });
  });
}

template <class Real>
void run_batched_transpose(const TransposeCall<Real>& call, const offset_t* elements, offset_t begin, offset_t end,
                           bool to_nodes, Real* out, FirstError& errors) {
  visit(call.block->type, [&](auto element) {
    using Element = decltype(element);
    constexpr int D = Element::dimension;
    auto with_s = [&](auto s) {
      constexpr int S = decltype(s)::value;
      if (call.components == 1) return transpose_range<Element, 1, S>(call, elements, begin, end, to_nodes, out, errors);
      transpose_range<Element, 0, S>(call, elements, begin, end, to_nodes, out, errors);
    };
    // Only a transpose that uses the geometry reads the space dimension.
    with_space_dimension<D>(call.geometric ? space_dimension(*call.block) : (D == 3 ? 3 : 2), with_s);
  });
}

template void run_batched_transpose<double>(const TransposeCall<double>&, const offset_t*, offset_t, offset_t, bool,
                                            double*, FirstError&);
template void run_batched_transpose<float>(const TransposeCall<float>&, const offset_t*, offset_t, offset_t, bool,
                                           float*, FirstError&);
template void run_operator_factors<double>(FusedOperator, const BlockView&, const double*, const Tabulation&,
                                           const double*, offset_t, offset_t, double*, FirstError&);
template void run_operator_factors<float>(FusedOperator, const BlockView&, const float*, const Tabulation&,
                                          const double*, offset_t, offset_t, float*, FirstError&);

}  // namespace feinterp::backends::cpu
