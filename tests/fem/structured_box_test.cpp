// SPDX-License-Identifier: BSD-3-Clause
// The structured box (fem/structured_box.hpp) for all 15 element types, at fresh random cell counts:
// element and node counts against their formulas; every node a lattice point, numbered from its
// position; every element's nodes its reference nodes placed on the straight-sided element, positively
// oriented; conformity (every facet shared by exactly two elements, node for node, unless it lies on
// the box's boundary, and as many boundary facets as the boundary has); the cell count for a target;
// refusals beyond what a 32-bit node_index numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/structured_box.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

offset_t power(offset_t base, int exponent) {
  offset_t result = 1;
  for (int i = 0; i < exponent; ++i) result *= base;
  return result;
}

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

class StructuredBoxTest : public ::testing::TestWithParam<ElementType> {
 protected:
  const unsigned seed = test::test_seed();
  const ::testing::ScopedTrace trace{__FILE__, __LINE__, "seed " + std::to_string(seed)};
  std::mt19937_64 rng{seed};
  /// 1 cell (everything on the boundary), then a fresh count: 2-6 cells in 3D, 2-12 in 2D, 2-40 for lines.
  std::vector<int> cell_counts() {
    const int D = dimension(GetParam().shape);
    std::uniform_int_distribution<int> cells(2, D == 3 ? 6 : D == 2 ? 12 : 40);
    return {1, cells(rng)};
  }
};

INSTANTIATE_TEST_SUITE_P(AllTypes, StructuredBoxTest, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(StructuredBoxTest, CountsAndNodesFollowTheLattice) {
  const ElementType type = GetParam();
  const int D = dimension(type.shape), N = nodes_per_element(type), p = type.order;
  for (int n : cell_counts()) {
    SCOPED_TRACE(std::to_string(n) + " cells per side");
    const StructuredBox box = structured_box(type, n);
    const offset_t per_cell = is_simplex(type.shape) ? factorial(D) : 1;
    const offset_t L = offset_t(p) * n;
    EXPECT_EQ(box.type, type);
    EXPECT_EQ(box.cells, n);
    EXPECT_EQ(box.element_count, per_cell * power(n, D));
    EXPECT_EQ(box.element_count, structured_box_element_count(type, n));
    EXPECT_EQ(box.node_count(), power(L + 1, D));
    EXPECT_EQ(box.node_count(), structured_box_node_count(type, n));
    ASSERT_EQ(box.connectivity.size(), std::size_t(box.element_count) * N);
    const BlockView view = box.view();
    EXPECT_EQ(view.space_dimension, default_space_dimension(type));
    EXPECT_EQ(view.connectivity, box.connectivity.data());
    EXPECT_NO_THROW(validate_connectivity(view, box.node_count()));
    // Node (a, b, c) is a + (L + 1) (b + (L + 1) c), at (a, b, c) / L exactly; unused axes are 0.
    for (offset_t node = 0; node < box.node_count(); ++node) {
      offset_t rest = node;
      for (int k = 0; k < 3; ++k) {
        const offset_t a = k < D ? rest % (L + 1) : 0;
        rest = k < D ? rest / (L + 1) : rest;
        ASSERT_EQ(box.coordinates[std::size_t(node * 3 + k)], double(a) / double(L)) << "node " << node << ", axis " << k;
      }
    }
    // Every node belongs to an element, and no element lists one twice.
    std::vector<int> used(std::size_t(box.node_count()), 0);
    for (offset_t e = 0; e < box.element_count; ++e) {
      std::vector<node_index> nodes(box.connectivity.begin() + e * N, box.connectivity.begin() + (e + 1) * N);
      for (node_index v : nodes) used[std::size_t(v)] = 1;
      std::sort(nodes.begin(), nodes.end());
      ASSERT_EQ(std::adjacent_find(nodes.begin(), nodes.end()), nodes.end()) << "element " << e << " repeats a node";
    }
    EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0) << "nodes in no element";
  }
}

// Each element is the affine image of its reference element: node n sits at x_0 + sum_d xi_d (x_{d+1} -
// x_0) for a simplex (vertices first, Gmsh's order), at x_0 + (xi + 1) h / 2 for a tensor shape, h = 1 / n.
// So det J is h^d (simplices) or (h / 2)^d (tensor shapes) at every point, never negative.
TEST_P(StructuredBoxTest, ElementsAreStraightSidedAndPositivelyOriented) {
  const ElementType type = GetParam();
  const int D = dimension(type.shape), N = nodes_per_element(type);
  for (int n : cell_counts()) {
    SCOPED_TRACE(std::to_string(n) + " cells per side");
    const StructuredBox box = structured_box(type, n);
    const double h = 1.0 / n;
    std::vector<double> reference(std::size_t(N) * 3, 0.0);
    const bool simplex = visit(type, [&](auto element) {
      for (int m = 0; m < N; ++m) decltype(element)::reference_node(m, &reference[std::size_t(m) * 3]);
      return decltype(element)::simplex;
    });
    for (offset_t e = 0; e < box.element_count; ++e) {
      auto x = [&](int m, int k) { return box.coordinates[std::size_t(box.connectivity[std::size_t(e * N + m)]) * 3 + k]; };
      double J[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // J[k][d]; identity beyond D
      for (int k = 0; k < D; ++k)
        for (int d = 0; d < D; ++d) J[k][d] = simplex ? x(d + 1, k) - x(0, k) : (k == d ? h / 2 : 0.0);
      const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
      ASSERT_NEAR(det, std::pow(simplex ? h : h / 2, D), 1e-14 * std::pow(h, D)) << "element " << e;
      for (int m = 0; m < N; ++m)
        for (int k = 0; k < 3; ++k) {
          double expected = k < D ? x(0, k) : 0.0;
          for (int d = 0; d < D; ++d)
            expected += J[k][d] * (simplex ? reference[std::size_t(m) * 3 + d] : reference[std::size_t(m) * 3 + d] + 1.0);
          ASSERT_NEAR(x(m, k), expected, 1e-15) << "element " << e << ", node " << m << ", axis " << k;
        }
    }
  }
}

// Conformity: collect every element's facets (faces in 3D, edges in 2D, end points of lines) as the
// sorted ids of the nodes on them. An interior facet is met exactly twice, with the same nodes from both
// sides (so its edge and face nodes are shared, not duplicated); one met once lies in a face of the box;
// and the box's boundary has 2 d n^(d-1) (d-1)! facets (simplices) or 2 d n^(d-1) (tensor shapes).
TEST_P(StructuredBoxTest, EveryInteriorFacetIsSharedNodeForNode) {
  const ElementType type = GetParam();
  const int D = dimension(type.shape), N = nodes_per_element(type), p = type.order;
  const bool simplex = is_simplex(type.shape);
  // Facets as node lists of the reference element, from the lattice indices of its nodes (elements/).
  std::vector<std::vector<int>> facets;
  visit(type, [&](auto element) {
    using E = decltype(element);
    auto index = [](int m, int d) { return E::Lattice::index(m, d); };
    for (int d = 0; d < D; ++d)
      for (int side : simplex ? std::vector<int>{0} : std::vector<int>{0, p}) {
        std::vector<int> nodes;
        for (int m = 0; m < N; ++m)
          if (index(m, d) == side) nodes.push_back(m);
        facets.push_back(nodes);
      }
    if (simplex) {  // the facet opposite vertex 0: sum of the lattice indices = p
      std::vector<int> nodes;
      for (int m = 0; m < N; ++m) {
        int sum = 0;
        for (int d = 0; d < D; ++d) sum += index(m, d);
        if (sum == p) nodes.push_back(m);
      }
      facets.push_back(nodes);
    }
  });
  // Nodes per facet: a (d-1)-simplex or (d-1)-cube of order p.
  const int facet_nodes = D == 1 ? 1 : simplex ? nodes_per_element({D == 2 ? Shape::line : Shape::triangle, p})
                                               : int(power(p + 1, D - 1));
  for (const auto& facet : facets) ASSERT_EQ(int(facet.size()), facet_nodes);
  for (int n : cell_counts()) {
    SCOPED_TRACE(std::to_string(n) + " cells per side");
    const StructuredBox box = structured_box(type, n);
    std::map<std::vector<node_index>, int> seen;
    for (offset_t e = 0; e < box.element_count; ++e)
      for (const auto& facet : facets) {
        std::vector<node_index> key;
        for (int m : facet) key.push_back(box.connectivity[std::size_t(e * N + m)]);
        std::sort(key.begin(), key.end());
        ++seen[key];
      }
    offset_t boundary = 0;
    for (const auto& [key, count] : seen) {
      ASSERT_LE(count, 2) << "a facet of " << count << " elements";
      if (count == 2) continue;
      ++boundary;
      bool on_a_face = false;  // all its nodes at x_k = 0, or all at x_k = 1, for some axis k
      for (int k = 0; k < D; ++k)
        for (double wall : {0.0, 1.0}) {
          bool all = true;
          for (node_index v : key) all = all && box.coordinates[std::size_t(v) * 3 + k] == wall;
          on_a_face = on_a_face || all;
        }
      ASSERT_TRUE(on_a_face) << "a facet met once (hanging or duplicated nodes) inside the box, first node " << key[0];
    }
    EXPECT_EQ(boundary, 2 * D * power(n, D - 1) * (simplex ? factorial(D - 1) : 1));
    EXPECT_EQ(offset_t(seen.size()) * 2 - boundary, box.element_count * offset_t(facets.size()));
  }
}

TEST(StructuredBox, CellsForATargetAreTheNearest) {
  EXPECT_EQ(structured_box_cells({Shape::hexahedron, 3}, 12000000), 229);  // 12,008,989 elements
  EXPECT_EQ(structured_box_element_count({Shape::hexahedron, 3}, 229), 12008989);
  EXPECT_EQ(structured_box_cells({Shape::triangle, 1}, 10000000), 2236);  // 2 * 2236^2 = 9,999,392
  EXPECT_EQ(structured_box_cells({Shape::tetrahedron, 2}, 10000000), 119);  // 6 * 119^3 = 10,111,194
  EXPECT_EQ(structured_box_cells({Shape::line, 1}, 12345), 12345);
  EXPECT_EQ(structured_box_cells({Shape::quadrilateral, 2}, 1), 1);
  EXPECT_EQ(structured_box_cells({Shape::tetrahedron, 1}, 0), 1);
  std::mt19937_64 rng(test::test_seed());
  for (ElementType type : all_element_types) {
    const offset_t target = std::uniform_int_distribution<offset_t>(1, 20000000)(rng);
    const int n = structured_box_cells(type, target);
    SCOPED_TRACE(to_string(type) + ", target " + std::to_string(target));
    const offset_t here = structured_box_element_count(type, n);
    if (n > 1) EXPECT_LE(std::abs(here - target), std::abs(structured_box_element_count(type, n - 1) - target));
    EXPECT_LE(std::abs(here - target), std::abs(structured_box_element_count(type, n + 1) - target));
  }
}

// node_index is 32-bit (core/config.hpp): the largest box has at most 2^31 - 1 nodes, one cell more
// would not. Nothing that large is built here: the counts are formulas.
TEST(StructuredBox, RefusesMoreNodesThanANodeIndexNumbers) {
  const offset_t most = 2147483647;
  for (ElementType type : all_element_types) {
    SCOPED_TRACE(to_string(type));
    const int n = structured_box_max_cells(type);
    EXPECT_LE(structured_box_node_count(type, n), most);
    EXPECT_GT(power(offset_t(type.order) * (n + 1) + 1, dimension(type.shape)), most);
    test::expect_invalid([&] { structured_box(type, n + 1); }, "expected at most " + std::to_string(n) + " cells per side");
    test::expect_invalid([&] { structured_box_node_count(type, n + 1); }, "32-bit node_index");
    test::expect_invalid([&] { structured_box(type, 0); }, "expected at least 1");
  }
  EXPECT_EQ(structured_box_max_cells({Shape::hexahedron, 3}), 429);
  EXPECT_EQ(structured_box_max_cells({Shape::triangle, 1}), 46339);
  test::expect_invalid([] { structured_box_cells({Shape::hexahedron, 3}, 100000000); }, "expected at most 429");
  test::expect_invalid([] { structured_box({Shape::hexahedron, 4}, 2); }, "expected 1, 2 or 3");
}

}  // namespace
}  // namespace feinterp
