// SPDX-License-Identifier: BSD-3-Clause
// A fused operator's coefficient at one point (core/operation.hpp's CoefficientShape): rho scales the
// mass operator's value, kappa multiplies the diffusion operator's physical gradient, a scalar or a
// symmetric s x s tensor stored as its upper triangle row by row. Shared by the CPU and CUDA backends.
#pragma once

#include <feinterp/core/config.hpp>

namespace feinterp {

/// Index of entry (i, j), i <= j, of a symmetric S x S tensor stored as its upper triangle row by row.
FEINTERP_HD constexpr int symmetric_entry(int S, int i, int j) { return i * S - i * (i - 1) / 2 + (j - i); }

/// g <- kappa g, kappa being `entries` values at the point: 0 (none: g unchanged), 1 (a scalar) or
/// S(S+1)/2 (a symmetric tensor).
template <int S, class T, class Stored>
FEINTERP_HD void apply_coefficient(const Stored* kappa, int entries, T (&g)[S]) {
  if (entries == 0) return;
  if (entries == 1) {
    const T k = T(kappa[0]);
#pragma unroll
    for (int i = 0; i < S; ++i) g[i] *= k;
    return;
  }
  T h[S];
#pragma unroll
  for (int i = 0; i < S; ++i) {
    T sum = T(0);
#pragma unroll
    for (int j = 0; j < S; ++j) sum += T(kappa[i <= j ? symmetric_entry(S, i, j) : symmetric_entry(S, j, i)]) * g[j];
    h[i] = sum;
  }
#pragma unroll
  for (int i = 0; i < S; ++i) g[i] = h[i];
}

}  // namespace feinterp
