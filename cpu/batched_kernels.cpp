// SPDX-License-Identifier: BSD-3-Clause
// The element-batched dense kernels (batched_kernels.hpp), one element per SIMD lane (lanes.hpp). Per
// batch: the gather into ue[node][component] (and the coordinates into xe[node][k] for physical
// gradients), then per point the products with the tabulation, the table entry broadcast to every lane,
// and the store of every lane's results into its element's rows. Field values are combined in the plan's
// precision Real, the geometry (J, det J, its inverse) in double, with fem/geometry.hpp's formulas, so the
// results equal the Eigen product's to rounding.
#include <algorithm>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cpu/batched_kernels.hpp>
#include <feinterp/cpu/lanes.hpp>

namespace feinterp::backends::cpu {

namespace {

constexpr int L = lanes;
static_assert(batch_lanes % L == 0, "a thread's range holds whole batches");

// CC: the number of components as a compile-time constant, or 0 for call.components. S: the space
// dimension (read by physical gradients only).
template <class Element, int CC, int S, class Real>
void run_range(const DenseCall<Real>& p, offset_t begin, offset_t end) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int CMAX = CC ? CC : max_components;
  const int C = CC ? CC : p.components;
  const int Q = p.points;
  const bool physical = p.op == Operation::physical_gradients;
  const int W = p.op == Operation::values ? 1 : physical ? S : D;
  const int row = C * W;  // one point's values in an element's output rows
  const Real* T = p.table_matrix;                             // column-major (Q*W x N)
  const double* shape_gradients = p.table->gradients.data();  // [(q * N + n) * D + d], for J in double
  using V = Lanes<Real>;
  using VD = Lanes<double>;
  V ue[N][CMAX];
  VD xe[N][S];
  LaneArray<Real> result[CMAX * 3];
  LaneArray<double> det_staged;
  Real* element_out[L];
  const node_index* element_nodes[L];
  for (offset_t first = begin; first < end; first += L) {
    const int m = int(std::min<offset_t>(L, end - first));
    for (int l = 0; l < L; ++l) {
      const offset_t e = first + std::min(l, m - 1);  // spare lanes repeat the last element
      element_out[l] = p.out + e * Q * row;
      element_nodes[l] = p.connectivity + e * N;
    }
    // Built from registers rather than stored lane by lane and loaded whole, which stalls the load on
    // the stores (store-to-load forwarding fails) and cost P1 values a third of their time.
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < C; ++c)
        ue[n][c] = V([&](auto l) { return p.u[offset_t(element_nodes[l][n]) * C + c]; });
    if (physical) gather_coordinates(p.coordinates, element_nodes, xe);
    LaneOrientations orientations;
    for (int q = 0; q < Q; ++q) {
      if (p.op == Operation::values) {
        V acc[CMAX];
        for (int c = 0; c < C; ++c) acc[c] = Real(0);
        for (int n = 0; n < N; ++n) {
          const Real t = T[offset_t(n) * Q + q];
#pragma GCC unroll 9
          for (int c = 0; c < C; ++c) acc[c] += t * ue[n][c];
        }
        for (int c = 0; c < C; ++c) result[c].store(acc[c]);
      } else {
        V reference[CMAX][D];
        for (int c = 0; c < C; ++c)
          for (int d = 0; d < D; ++d) reference[c][d] = Real(0);
        for (int n = 0; n < N; ++n)
#pragma GCC unroll 3
          for (int d = 0; d < D; ++d) {
            const Real t = T[(offset_t(n) * Q + q) * D + d];
#pragma GCC unroll 9
            for (int c = 0; c < C; ++c) reference[c][d] += ue[n][c] * t;
          }
        if (!physical) {
          for (int c = 0; c < C; ++c)
            for (int d = 0; d < D; ++d) result[c * D + d].store(reference[c][d]);
        } else {
          VD J[S][D];
          jacobian_lanes(xe, shape_gradients + offset_t(q) * N * D, J);
          const VD det = jacobian_determinant(J);
          const VD quality = shape_quality_lanes(J, det);
          VD K[S][D];
          inverse_transpose(J, det, K);  // meaningless where det is 0; the element is then refused
          for (int c = 0; c < C; ++c) {
            VD gradient[D], physical_gradient_lanes[S];
            for (int d = 0; d < D; ++d) gradient[d] = stdx::static_simd_cast<VD>(reference[c][d]);
            physical_gradient<S, D>(K, gradient, physical_gradient_lanes);
            for (int k = 0; k < S; ++k) result[c * S + k].store(stdx::static_simd_cast<V>(physical_gradient_lanes[k]));
          }
          // Checked once the results are stored: ahead of them, the check's branch and lane reductions
          // delay K (15% of tetrahedra p1's physical gradients).
          orientations.add(q, det, quality, m);
          if (p.detj) {
            det_staged.store(det);
            for (int l = 0; l < m; ++l) p.detj[(first + l) * Q + q] = Real(det_staged.lane[l]);
          }
        }
      }
      for (int l = 0; l < m; ++l) {
        Real* o = element_out[l] + q * row;
        for (int j = 0; j < row; ++j) o[j] = result[j].lane[l];
      }
    }
    if (physical)
      for (int l = 0; l < m; ++l) check_orientation(*p.block, first + l, orientations.record[l], D < S);
  }
}

}  // namespace

template <class Real>
void run_batched(const DenseCall<Real>& call, offset_t begin, offset_t end) {
  visit(call.table->type, [&](auto element) {
    using Element = decltype(element);
    with_space_dimension<Element::dimension>(call, [&](auto s) {
      constexpr int S = decltype(s)::value;
      switch (call.components) {
        case 1: return run_range<Element, 1, S>(call, begin, end);
        case 2: return run_range<Element, 2, S>(call, begin, end);
        case 3: return run_range<Element, 3, S>(call, begin, end);
        default: return run_range<Element, 0, S>(call, begin, end);
      }
    });
  });
}

template void run_batched<double>(const DenseCall<double>&, offset_t, offset_t);
template void run_batched<float>(const DenseCall<float>&, offset_t, offset_t);

}  // namespace feinterp::backends::cpu
