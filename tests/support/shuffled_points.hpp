// SPDX-License-Identifier: BSD-3-Clause
// A point set with its points in a random order, weights along: what fem/tensor_structure.hpp's point
// permutation is for. Shared by the tensor-structure tests on the CPU and the sum-factorised kernel's tests.
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include <feinterp/fem/point_set.hpp>

namespace feinterp::test {

inline PointSet shuffled(const PointSet& points, std::mt19937_64& rng) {
  std::vector<int> order(std::size_t(points.size()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  PointSet out = points;
  const int d = points.dimension();
  for (std::size_t q = 0; q < order.size(); ++q) {
    for (int k = 0; k < d; ++k)
      out.coordinates[q * d + std::size_t(k)] = points.coordinates[std::size_t(order[q]) * d + std::size_t(k)];
    if (!points.weights.empty()) out.weights[q] = points.weights[std::size_t(order[q])];
  }
  out.name = points.name + " (shuffled)";
  return out;
}

}  // namespace feinterp::test
