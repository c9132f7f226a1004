// SPDX-License-Identifier: BSD-3-Clause
// Elements in the lanes of a SIMD register, as deal.II's VectorizedArray puts cells: the types and the
// per-lane geometry checks shared by the element-batched forward kernels (batched_kernels.cpp) and
// transposes (batched_transpose.hpp), on std::experimental::simd (the Parallelism TS 2, in GCC's
// libstdc++). Internal to the CPU backend's sources.
#pragma once

#include <experimental/simd>

#include <feinterp/core/config.hpp>
#include <feinterp/fem/orientation.hpp>

namespace feinterp::backends::cpu {

namespace stdx = std::experimental;

/// Lanes per batch: one register of doubles (2 with SSE2, 4 with AVX2, 8 with AVX-512). Wider batches
/// spill: with 8 lanes in SSE2 registers, J alone takes 36 of the 16 and physical gradients ran 1.3x slower.
constexpr int lanes = int(stdx::native_simd<double>::size());

template <class T>
using Lanes = stdx::fixed_size_simd<T, lanes>;

/// One quantity of every lane, staged in memory for the gather and the store.
template <class T>
struct alignas(64) LaneArray {
  T lane[lanes];
  Lanes<T> load() const { return Lanes<T>(lane, stdx::element_aligned); }
  void store(const Lanes<T>& v) { v.copy_to(lane, stdx::element_aligned); }
};

/// Each lane's element coordinates xe[n][k] = x[nodes[l][n] * 3 + k], in double.
template <int N, int S, class Coordinate>
void gather_coordinates(const Coordinate* x, const node_index* const (&nodes)[lanes], Lanes<double> (&xe)[N][S]) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < S; ++k)
      xe[n][k] = Lanes<double>([&](auto l) { return double(x[offset_t(nodes[l][n]) * 3 + k]); });
}

/// J[k][d] = sum_n xe[n][k] g[n * D + d] on every lane (fem/geometry.hpp's jacobian), g one point's shape
/// gradients. k and d unrolled whole keep J in registers; n by 4 only: whole, a kernel file took 85 s to
/// compile instead of 49, for no speed.
template <int N, int S, int D>
void jacobian_lanes(const Lanes<double> (&xe)[N][S], const double* g, Lanes<double> (&J)[S][D]) {
  for (int k = 0; k < S; ++k)
    for (int d = 0; d < D; ++d) J[k][d] = 0.0;
#pragma GCC unroll 4
  for (int n = 0; n < N; ++n)
#pragma GCC unroll 3
    for (int k = 0; k < S; ++k)
#pragma GCC unroll 3
      for (int d = 0; d < D; ++d) J[k][d] += xe[n][k] * g[n * D + d];
}

/// shape_quality (fem/geometry.hpp) on every lane: |det J| over the product of J's column lengths.
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

/// orientation_positive (or _negative) when orientation_of gives it on every lane, else 0: the common
/// case, in which the points leave every record as it is once each record holds that bit alone.
inline unsigned uniform_orientation(const Lanes<double>& det, const Lanes<double>& quality) {
  using namespace orientation_limits;
  const auto shaped = quality > rounding;
  if (stdx::all_of(shaped && det >= smallest && det <= largest)) return orientation_positive;
  if (stdx::all_of(shaped && det <= -smallest && det >= -largest)) return orientation_negative;
  return 0;
}

/// The orientation records of a batch's first m lanes, with the bits they all hold while they hold the
/// same: a point whose determinants are uniformly of that orientation then costs one comparison.
struct LaneOrientations {
  OrientationRecord record[lanes];
  unsigned uniform = 0;

  void add(int q, const Lanes<double>& det, const Lanes<double>& quality, int m) {
    const unsigned bit = uniform_orientation(det, quality);
    if (bit != 0 && bit == uniform) return;
    LaneArray<double> det_staged, quality_staged;
    det_staged.store(det);
    quality_staged.store(quality);
    bool same = true;
    for (int l = 0; l < m; ++l) {
      const double d = det_staged.lane[l];
      record[l].add(q, d, orientation_of(d, quality_staged.lane[l]));
      same = same && record[l].bits == record[0].bits;
    }
    uniform = same ? record[0].bits : 0u;
  }
};

}  // namespace feinterp::backends::cpu
