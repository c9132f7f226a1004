// Test support: random element blocks and fields, drawn fresh each run (the seed is printed by
// SCOPED_TRACE so that a failure can be replayed with FEINTERP_TEST_SEED).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/relative_difference.hpp>

namespace feinterp::test {

/// A fresh seed per call, or FEINTERP_TEST_SEED when set.
inline unsigned test_seed() {
  if (const char* fixed = std::getenv("FEINTERP_TEST_SEED")) return unsigned(std::strtoul(fixed, nullptr, 10));
  return std::random_device{}();
}

/// Independent elements (no shared nodes): element e is a random orientation-preserving affine image
/// of the reference element, its nodes then moved by up to `curvature` (curved elements; 0.01 keeps
/// det J > 0 for p = 3, whose nodes are 1/3 apart on the reference element, where 0.05 did not), and the node numbering shuffled so that gathers are scattered.
struct RandomBlock {
  ElementType type;
  std::vector<double> coordinates;  // x[node*3 + k]
  std::vector<node_index> connectivity;
  offset_t elements = 0;
  offset_t node_count() const { return offset_t(coordinates.size() / 3); }
  BlockView view() const { return {type, connectivity.data(), elements}; }
};

inline RandomBlock random_block(ElementType type, offset_t elements, std::mt19937_64& rng, double curvature = 0.01) {
  RandomBlock block;
  block.type = type;
  block.elements = elements;
  const int N = nodes_per_element(type), D = dimension(type.shape);
  const offset_t nodes = elements * N;
  block.coordinates.assign(std::size_t(nodes) * 3, 0.0);
  block.connectivity.resize(std::size_t(nodes));
  std::vector<node_index> label(static_cast<std::size_t>(nodes));
  std::iota(label.begin(), label.end(), 0);
  std::shuffle(label.begin(), label.end(), rng);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> reference(std::size_t(N) * D);
  visit(type, [&](auto element) {
    for (int n = 0; n < N; ++n) decltype(element)::reference_node(n, &reference[std::size_t(n) * D]);
  });
  for (offset_t e = 0; e < elements; ++e) {
    // A = I + 0.3 * random, which keeps det A > 0 (||0.3 R|| < 1 for D <= 3 entries in [-1, 1] is
    // not guaranteed, so retry until det > 0.2).
    double A[3][3], b[3];
    double det = 0.0;
    do {
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) A[i][j] = (i == j ? 1.0 : 0.0) + 0.3 * unit(rng);
      det = D == 2 ? A[0][0] * A[1][1] - A[0][1] * A[1][0]
                   : A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    } while (det < 0.2);
    for (int i = 0; i < D; ++i) b[i] = 10.0 * unit(rng);
    for (int n = 0; n < N; ++n) {
      const node_index node = label[std::size_t(e * N + n)];
      block.connectivity[std::size_t(e * N + n)] = node;
      for (int i = 0; i < D; ++i) {
        double x = b[i];
        for (int j = 0; j < D; ++j) x += A[i][j] * reference[std::size_t(n) * D + j];
        block.coordinates[std::size_t(node) * 3 + i] = x + (type.order > 1 ? curvature * unit(rng) : 0.0);
      }
      if (D == 2) block.coordinates[std::size_t(node) * 3 + 2] = unit(rng);  // ignored by 2D elements
    }
  }
  return block;
}

inline std::vector<double> random_field(offset_t node_count, int components, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> u(std::size_t(node_count) * components);
  for (double& x : u) x = unit(rng);
  return u;
}

/// The library's comparison (fem/relative_difference.hpp).
inline double relative_error(const std::vector<double>& a, const std::vector<double>& b) {
  return max_relative_difference(a, b);
}

inline std::vector<double> poisoned(std::size_t size) {
  return std::vector<double>(size, std::numeric_limits<double>::quiet_NaN());
}

}  // namespace feinterp::test
