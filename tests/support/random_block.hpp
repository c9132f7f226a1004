// SPDX-License-Identifier: BSD-3-Clause
// Test support: random element blocks and fields, drawn fresh each run (the seed is printed by
// SCOPED_TRACE so that a failure can be replayed with FEINTERP_TEST_SEED).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/apps/common/relative_difference.hpp>

namespace feinterp::test {

/// A fresh seed per call, or FEINTERP_TEST_SEED when set.
inline unsigned test_seed() {
  if (const char* fixed = std::getenv("FEINTERP_TEST_SEED")) return unsigned(std::strtoul(fixed, nullptr, 10));
  return std::random_device{}();
}

/// Independent elements (no shared nodes): element e is a random affine image of the reference element
/// in a space of dimension S (`space_dimension`, 0: the default, 2 for lines and 2D elements, 3 for 3D
/// ones; z = 0 when S = 2), orientation-preserving when D = S, its nodes then moved by up to
/// `curvature` (curved elements; 0.01 keeps det J > 0 for p = 3, whose nodes are 1/3 apart on the
/// reference element, where 0.05 did not), and the node numbering shuffled so that gathers are
/// scattered.
struct RandomBlock {
  ElementType type;
  int space_dimension = 0;
  std::vector<double> coordinates;  // x[node*3 + k]
  std::vector<node_index> connectivity;
  offset_t elements = 0;
  offset_t node_count() const { return offset_t(coordinates.size() / 3); }
  BlockView view() const { return {type, connectivity.data(), elements, space_dimension}; }
};

inline RandomBlock random_block(ElementType type, offset_t elements, std::mt19937_64& rng, double curvature = 0.01,
                                int space_dimension = 0) {
  RandomBlock block;
  block.type = type;
  block.elements = elements;
  const int N = nodes_per_element(type), D = dimension(type.shape);
  const int S = space_dimension ? space_dimension : default_space_dimension(type);
  block.space_dimension = S;
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
    // A (S x D) = the first D columns of I + 0.3 * random. For D = S, retry until det A > 0.2 (||0.3 R||
    // < 1 is not guaranteed for entries in [-1, 1]); for D < S, until the columns span a D-dimensional
    // measure > 0.2 (sqrt(det(A^T A))).
    double A[3][3], b[3];
    double measure = 0.0;
    do {
      for (int i = 0; i < S; ++i)
        for (int j = 0; j < D; ++j) A[i][j] = (i == j ? 1.0 : 0.0) + 0.3 * unit(rng);
      if (D == S) {
        measure = D == 2 ? A[0][0] * A[1][1] - A[0][1] * A[1][0]
                         : A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                               A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                               A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
      } else if (D == 1) {
        measure = 0.0;
        for (int i = 0; i < S; ++i) measure += A[i][0] * A[i][0];
        measure = std::sqrt(measure);
      } else {  // D = 2, S = 3: |A_0 x A_1|
        const double n[3] = {A[1][0] * A[2][1] - A[2][0] * A[1][1], A[2][0] * A[0][1] - A[0][0] * A[2][1],
                             A[0][0] * A[1][1] - A[1][0] * A[0][1]};
        measure = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      }
    } while (measure < 0.2);
    for (int i = 0; i < S; ++i) b[i] = 10.0 * unit(rng);
    for (int n = 0; n < N; ++n) {
      const node_index node = label[std::size_t(e * N + n)];
      block.connectivity[std::size_t(e * N + n)] = node;
      for (int i = 0; i < S; ++i) {
        double x = b[i];
        for (int j = 0; j < D; ++j) x += A[i][j] * reference[std::size_t(n) * D + j];
        block.coordinates[std::size_t(node) * 3 + i] = x + (type.order > 1 ? curvature * unit(rng) : 0.0);
      }
    }
  }
  return block;
}

/// A random rotation of 3D space (Q of the QR factorisation of a random matrix, det Q = +1), row-major.
inline std::array<double, 9> random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  double q[3][3];
  for (auto& row : q)
    for (double& x : row) x = normal(rng);
  // Gram-Schmidt on the rows, then the third row as the cross product of the first two (det = +1).
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < i; ++j) {
      double dot = 0;
      for (int k = 0; k < 3; ++k) dot += q[i][k] * q[j][k];
      for (int k = 0; k < 3; ++k) q[i][k] -= dot * q[j][k];
    }
    double norm = 0;
    for (int k = 0; k < 3; ++k) norm += q[i][k] * q[i][k];
    for (int k = 0; k < 3; ++k) q[i][k] /= std::sqrt(norm);
  }
  q[2][0] = q[0][1] * q[1][2] - q[0][2] * q[1][1];
  q[2][1] = q[0][2] * q[1][0] - q[0][0] * q[1][2];
  q[2][2] = q[0][0] * q[1][1] - q[0][1] * q[1][0];
  return {q[0][0], q[0][1], q[0][2], q[1][0], q[1][1], q[1][2], q[2][0], q[2][1], q[2][2]};
}

/// The block moved rigidly into 3D space: x' = R x + t for every node (z = 0 before, for a planar
/// block), space dimension 3. Connectivity and numbering unchanged.
inline RandomBlock rotated(const RandomBlock& planar, const std::array<double, 9>& R, const double (&t)[3]) {
  RandomBlock block = planar;
  block.space_dimension = 3;
  for (offset_t n = 0; n < planar.node_count(); ++n) {
    const double* x = &planar.coordinates[std::size_t(n) * 3];
    for (int i = 0; i < 3; ++i)
      block.coordinates[std::size_t(n) * 3 + i] = t[i] + R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
  }
  return block;
}

/// Physical gradients of a planar block (S = 2, rows of 2 per component) rotated by R: rows of 3,
/// R (g_x, g_y, 0). What the rotated block's physical gradients must equal.
inline std::vector<double> rotate_gradients(const std::vector<double>& planar, const std::array<double, 9>& R) {
  std::vector<double> out(planar.size() / 2 * 3);
  for (std::size_t r = 0; r < planar.size() / 2; ++r)
    for (int i = 0; i < 3; ++i) out[3 * r + std::size_t(i)] = R[3 * i] * planar[2 * r] + R[3 * i + 1] * planar[2 * r + 1];
  return out;
}

inline std::vector<double> random_field(offset_t node_count, int components, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> u(std::size_t(node_count) * components);
  for (double& x : u) x = unit(rng);
  return u;
}

/// feinterp's comparison (apps/common/relative_difference.hpp).
inline double relative_error(const std::vector<double>& a, const std::vector<double>& b) {
  return max_relative_difference(a, b);
}

inline std::vector<double> poisoned(std::size_t size) {
  return std::vector<double>(size, std::numeric_limits<double>::quiet_NaN());
}

}  // namespace feinterp::test
