// SPDX-License-Identifier: BSD-3-Clause
// indices(): the dof layout, and the promise behind Gmsh-ordered connectivity: however an element's
// vertices are labelled (any orientation-preserving relabelling), gathering through its connectivity
// yields the same geometry and the same interpolated fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include <feinterp/tests/elements/test_support.hpp>

namespace feinterp {
namespace {

using namespace feinterp::testing;

template <class Element>
class Indices : public ::testing::Test {};

TYPED_TEST_SUITE(Indices, AllElements, ElementName);

TYPED_TEST(Indices, DofIsNodeTimesComponentsPlusComponent) {
  using E = TypeParam;
  constexpr int N = E::nodes_per_element;
  const unsigned seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937 random(seed);
  std::uniform_int_distribution<node_index> node(0, std::numeric_limits<node_index>::max());
  node_index connectivity[N];
  for (auto& n : connectivity) n = node(random);
  connectivity[0] = std::numeric_limits<node_index>::max();  // node * C must not overflow 32 bits
  for (int C = 1; C <= 9; ++C) {
    offset_t dofs[N * 9];
    indices<E>(connectivity, C, dofs);
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < C; ++c) EXPECT_EQ(dofs[n * C + c], offset_t(connectivity[n]) * C + c);
  }
}

// An affine map xi -> M xi + t of the reference element onto itself, taking vertex i to vertex
// perm[i], with det M > 0.
template <class E>
struct Symmetry {
  double M[3][3] = {}, t[3] = {};
  void apply(const double* xi, double* out) const {
    for (int k = 0; k < E::dimension; ++k) {
      out[k] = t[k];
      for (int d = 0; d < E::dimension; ++d) out[k] += M[k][d] * xi[d];
    }
  }
};

template <class E>
constexpr int vertex_count = E::simplex ? E::dimension + 1 : 1 << E::dimension;

// All vertex permutations that are orientation-preserving symmetries of the reference element.
template <class E>
std::vector<Symmetry<E>> rotations() {
  constexpr int V = vertex_count<E>, D = E::dimension;
  double r[V][3] = {};
  for (int i = 0; i < V; ++i) E::reference_node(i, r[i]);
  // Vertices along each axis from vertex 0: simplices 1..D; line 1; quadrilateral 1, 3; hexahedron 1, 3, 4.
  const int axis_vertex[3] = {1, E::simplex ? 2 : 3, E::simplex ? 3 : 4};
  std::vector<int> perm(V);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<Symmetry<E>> result;
  do {
    Symmetry<E> s;
    const double scale = E::simplex ? 1.0 : 2.0;
    for (int d = 0; d < D; ++d)
      for (int k = 0; k < D; ++k) s.M[k][d] = (r[perm[axis_vertex[d]]][k] - r[perm[0]][k]) / scale;
    for (int k = 0; k < D; ++k) {
      s.t[k] = r[perm[0]][k];
      for (int d = 0; d < D; ++d) s.t[k] -= s.M[k][d] * r[0][d];
    }
    bool maps_vertices = true;
    for (int i = 0; i < V && maps_vertices; ++i) {
      double image[3];
      s.apply(r[i], image);
      for (int k = 0; k < D; ++k) maps_vertices &= std::abs(image[k] - r[perm[i]][k]) < 1e-12;
    }
    double det = D == 1   ? s.M[0][0]
                 : D == 2 ? s.M[0][0] * s.M[1][1] - s.M[0][1] * s.M[1][0]
                          : s.M[0][0] * (s.M[1][1] * s.M[2][2] - s.M[1][2] * s.M[2][1]) -
                                s.M[0][1] * (s.M[1][0] * s.M[2][2] - s.M[1][2] * s.M[2][0]) +
                                s.M[0][2] * (s.M[1][0] * s.M[2][1] - s.M[1][1] * s.M[2][0]);
    if (maps_vertices && det > 0) result.push_back(s);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return result;
}

TYPED_TEST(Indices, RelabelledElementGathersTheSameGeometryAndField) {
  using E = TypeParam;
  constexpr int N = E::nodes_per_element, D = E::dimension, C = 2;
  const unsigned seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);

  const auto symmetries = rotations<E>();
  // A line has one: the identity (its reversal is orientation-reversing, det = -1).
  const std::size_t expected = E::shape == Shape::line            ? 1
                               : E::shape == Shape::triangle      ? 3
                               : E::shape == Shape::quadrilateral ? 4
                               : E::shape == Shape::tetrahedron   ? 12
                                                                  : 24;
  ASSERT_EQ(symmetries.size(), expected);

  // The original element: reference nodes through a random affine map, each node then moved by up
  // to 5% (a curved element), stored at randomly numbered global nodes among some unused ones.
  const int global_nodes = 3 * N;
  std::vector<node_index> numbering(global_nodes);
  std::iota(numbering.begin(), numbering.end(), 0);
  std::shuffle(numbering.begin(), numbering.end(), random);
  node_index connectivity[N];
  std::copy(numbering.begin(), numbering.begin() + N, connectivity);
  double A[3][3], b[3];
  for (int k = 0; k < 3; ++k) {
    b[k] = uniform(random);
    for (int d = 0; d < 3; ++d) A[k][d] = (k == d ? 2.0 : 0.0) + 0.3 * uniform(random);
  }
  std::vector<double> coordinates(std::size_t(global_nodes) * 3, 1e300), field(std::size_t(global_nodes) * C, 1e300);
  // Field: two random polynomials of the element's space in the original element's reference
  // coordinates.
  const auto monomials = reproduced_monomials<E>();
  std::vector<double> coefficients(monomials.size() * C);
  for (double& a : coefficients) a = uniform(random);
  auto polynomial = [&](const double* xi, int c) {
    double v = 0;
    for (std::size_t i = 0; i < monomials.size(); ++i) v += coefficients[i * C + c] * monomial(monomials[i], xi, D);
    return v;
  };
  double reference[N][3] = {};
  for (int n = 0; n < N; ++n) {
    E::reference_node(n, reference[n]);
    for (int k = 0; k < 3; ++k) {
      double x = b[k] + 0.05 * uniform(random);
      for (int d = 0; d < D; ++d) x += A[k][d] * reference[n][d];
      coordinates[std::size_t(connectivity[n]) * 3 + k] = x;
    }
    for (int c = 0; c < C; ++c) field[std::size_t(connectivity[n]) * C + c] = polynomial(reference[n], c);
  }
  // x(xi) and u(xi) of an element with connectivity `conn`, gathered through indices().
  auto evaluate = [&](const node_index* conn, const double* xi, double* x, double* u) {
    offset_t coordinate_dofs[N * 3], field_dofs[N * C];
    indices<E>(conn, 3, coordinate_dofs);
    indices<E>(conn, C, field_dofs);
    double values[N];
    E::shape_functions(xi, values);
    for (int k = 0; k < 3; ++k) x[k] = 0;
    for (int c = 0; c < C; ++c) u[c] = 0;
    for (int n = 0; n < N; ++n) {
      for (int k = 0; k < 3; ++k) x[k] += values[n] * coordinates[std::size_t(coordinate_dofs[n * 3 + k])];
      for (int c = 0; c < C; ++c) u[c] += values[n] * field[std::size_t(field_dofs[n * C + c])];
    }
  };

  for (std::size_t s = 0; s < symmetries.size(); ++s) {
    SCOPED_TRACE("symmetry " + std::to_string(s));
    const auto& symmetry = symmetries[s];
    // The relabelled element's node n sits where the original's node m does, m being the node at
    // the image of n's reference position: match reference positions through the symmetry.
    node_index relabelled[N];
    std::vector<bool> used(N, false);
    for (int n = 0; n < N; ++n) {
      double image[3] = {};
      symmetry.apply(reference[n], image);
      int match = -1;
      for (int m = 0; m < N; ++m) {
        double distance = 0;
        for (int d = 0; d < D; ++d) distance += std::abs(image[d] - reference[m][d]);
        if (distance < 1e-12) match = m;
      }
      ASSERT_GE(match, 0) << "node " << n << " has no image node";
      ASSERT_FALSE(used[match]) << "two nodes map to node " << match;
      used[match] = true;
      relabelled[n] = connectivity[match];
    }
    // The relabelled element's nodes are the original's (the same physical point set)...
    for (int n = 0; n < N; ++n) {
      double x[3], u[C];
      evaluate(relabelled, reference[n], x, u);
      for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(x[k], coordinates[std::size_t(relabelled[n]) * 3 + k], 1e-12) << "node " << n;
    }
    // ...and everywhere x'(xi) = x(S xi) and u'(xi) = u(S xi) = the polynomial at S xi.
    for (int i = 0; i < 20; ++i) {
      const auto xi = random_reference_point<E>(random);
      double image[3] = {};
      symmetry.apply(xi.data(), image);
      double x1[3], u1[C], x0[3], u0[C];
      evaluate(relabelled, xi.data(), x1, u1);
      evaluate(connectivity, image, x0, u0);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(x1[k], x0[k], 1e-12) << "axis " << k;
      for (int c = 0; c < C; ++c) {
        EXPECT_NEAR(u1[c], u0[c], 1e-12) << "component " << c;
        EXPECT_NEAR(u1[c], polynomial(image, c), 1e-11) << "component " << c;
      }
    }
  }
}

}  // namespace
}  // namespace feinterp
