// SPDX-License-Identifier: BSD-3-Clause
// The element-batched dense kernels (batched_kernels.hpp), on std::experimental::simd (the Parallelism
// TS 2, in GCC's libstdc++): one fixed_size_simd of batch_lanes elements per quantity, which the compiler
// maps onto whatever registers the target has (four SSE2, two AVX2 or one AVX-512 register of doubles).
// Per batch: the gather into ue[node][component] (and the coordinates into xe[node][k] for physical
// gradients), then per point the products with the tabulation, the table entry broadcast to every lane,
// and the store of every lane's results into its element's rows. Field values are combined in the plan's
// precision Real, the geometry (J, det J, its inverse) in double, with fem/geometry.hpp's formulas, so the
// results equal the Eigen product's to rounding.
#include <algorithm>
#include <experimental/simd>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cpu/batched_kernels.hpp>

namespace feinterp::backends::cpu {

namespace {

namespace stdx = std::experimental;

// Lanes per batch: one register of doubles (2 with SSE2, 4 with AVX2, 8 with AVX-512). Wider batches
// spill: with 8 lanes in SSE2 registers, J alone takes 36 of the 16 and physical gradients ran 1.3x slower.
constexpr int L = int(stdx::native_simd<double>::size());
static_assert(batch_lanes % L == 0, "a thread's range holds whole batches");

template <class T>
using Lanes = stdx::fixed_size_simd<T, L>;

// One quantity of every lane, staged in memory for the gather and the store.
template <class T>
struct alignas(64) LaneArray {
  T lane[L];
  Lanes<T> load() const { return Lanes<T>(lane, stdx::element_aligned); }
  void store(const Lanes<T>& v) { v.copy_to(lane, stdx::element_aligned); }
};

// shape_quality (fem/geometry.hpp) on every lane: |det J| over the product of J's column lengths.
template <int S, int D>
Lanes<double> shape_quality_lanes(const Lanes<double> (&J)[S][D], const Lanes<double>& det) {
  Lanes<double> quality = stdx::abs(det);
  for (int d = 0; d < D; ++d) {
    Lanes<double> length2 = 0.0;
    for (int k = 0; k < S; ++k) length2 += J[k][d] * J[k][d];
    quality /= stdx::sqrt(length2);
  }
  return quality;
}

// orientation_positive (or _negative) when orientation_of gives it on every lane, else 0: the common
// case, in which the points leave every record as it is once each record holds that bit alone.
inline unsigned uniform_orientation(const Lanes<double>& det, const Lanes<double>& quality) {
  using namespace orientation_limits;
  const auto shaped = quality > rounding;
  if (stdx::all_of(shaped && det >= smallest && det <= largest)) return orientation_positive;
  if (stdx::all_of(shaped && det <= -smallest && det >= -largest)) return orientation_negative;
  return 0;
}

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
  LaneArray<double> det_staged, quality_staged;
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
    if (physical)
      for (int n = 0; n < N; ++n)
        for (int k = 0; k < S; ++k)
          xe[n][k] = VD([&](auto l) { return double(p.coordinates[offset_t(element_nodes[l][n]) * 3 + k]); });
    OrientationRecord record[L];
    unsigned batch_orientation = 0;  // the bits every lane's record holds, when they are one and the same
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
          for (int k = 0; k < S; ++k)
            for (int d = 0; d < D; ++d) J[k][d] = 0.0;
          const double* g = shape_gradients + offset_t(q) * N * D;
          // k and d unrolled whole keep J in registers; n by 4 only: whole, this file took 85 s to compile
          // instead of 49, for no speed.
#pragma GCC unroll 4
          for (int n = 0; n < N; ++n)
#pragma GCC unroll 3
            for (int k = 0; k < S; ++k)
#pragma GCC unroll 3
              for (int d = 0; d < D; ++d) J[k][d] += xe[n][k] * g[n * D + d];
          const VD det = jacobian_determinant(J);
          const VD quality = shape_quality_lanes(J, det);
          det_staged.store(det);
          quality_staged.store(quality);
          VD K[S][D];
          inverse_transpose(J, det, K);  // meaningless where det is 0; the element is then refused
          for (int c = 0; c < C; ++c) {
            VD gradient[D], physical_gradient_lanes[S];
            for (int d = 0; d < D; ++d) gradient[d] = stdx::static_simd_cast<VD>(reference[c][d]);
            physical_gradient<S, D>(K, gradient, physical_gradient_lanes);
            for (int k = 0; k < S; ++k) result[c * S + k].store(stdx::static_simd_cast<V>(physical_gradient_lanes[k]));
          }
          const unsigned bit = uniform_orientation(det, quality);
          if (bit == 0 || bit != batch_orientation) {
            batch_orientation = orientation_positive | orientation_negative;  // the first lane's below
            for (int l = 0; l < m; ++l) {
              const double d = det_staged.lane[l];
              record[l].add(q, d, orientation_of(d, quality_staged.lane[l]));
              if (record[l].bits != record[0].bits) batch_orientation = 0;
            }
            batch_orientation = batch_orientation ? record[0].bits : 0u;
          }
          if (p.detj)
            for (int l = 0; l < m; ++l) p.detj[(first + l) * Q + q] = Real(det_staged.lane[l]);
        }
      }
      for (int l = 0; l < m; ++l) {
        Real* o = element_out[l] + q * row;
        for (int j = 0; j < row; ++j) o[j] = result[j].lane[l];
      }
    }
    if (physical)
      for (int l = 0; l < m; ++l) check_orientation(*p.block, first + l, record[l], D < S);
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
