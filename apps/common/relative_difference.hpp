// SPDX-License-Identifier: BSD-3-Clause
// How feinterp compares two result arrays, everywhere it does (tests, the benchmark's cross-check of
// kernels, the demo's check against exact values): the largest difference relative to the largest
// reference value. A non-finite entry (an output left unwritten after NaN poisoning) never passes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace feinterp {

/// max_i |a_i - b_i| / max_i |b_i| (the absolute difference when b is all zero); infinity when an
/// entry of either array is not finite or the sizes differ.
inline double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double difference = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return std::numeric_limits<double>::infinity();
    difference = std::max(difference, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return scale > 0.0 ? difference / scale : difference;
}

}  // namespace feinterp
