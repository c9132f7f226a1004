// SPDX-License-Identifier: BSD-3-Clause
// boundary_nodes (fem/boundary.hpp) on the structured unit interval, square and cube of every element
// type and order (their boundary nodes are exactly those with a coordinate 0 or 1), on a square of
// quadrilaterals beside triangles over one node lattice, on the cube in two blocks, and its refusals.
#include <gtest/gtest.h>

#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/boundary.hpp>
#include <feinterp/fem/structured_box.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>

namespace feinterp {
namespace {

/// The nodes of the box with a coordinate, among its first `D`, equal to 0 or 1, or the first one equal
/// to `cut` (the lattice puts nodes exactly there).
std::vector<node_index> on_the_box_faces(const StructuredBox& box, int D, double cut = 1.0) {
  std::vector<node_index> nodes;
  for (offset_t n = 0; n < box.node_count(); ++n) {
    bool face = false;
    for (int d = 0; d < D; ++d) {
      const double x = box.coordinates[std::size_t(n) * 3 + std::size_t(d)];
      face = face || x == 0.0 || x == 1.0 || (d == 0 && x == cut);
    }
    if (face) nodes.push_back(node_index(n));
  }
  return nodes;
}

BlockView view_of(ElementType type, const std::vector<node_index>& connectivity) {
  return {type, connectivity.data(), offset_t(connectivity.size()) / nodes_per_element(type), 0};
}

class BoundaryNodes : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(AllTypes, BoundaryNodes, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(BoundaryNodes, AreTheStructuredBoxFaces) {
  const ElementType type = GetParam();
  const int D = dimension(type.shape);
  for (int cells : {1, 3}) {
    SCOPED_TRACE("cells " + std::to_string(cells));
    const StructuredBox box = structured_box(type, cells);
    EXPECT_EQ(boundary_nodes({box.view()}, box.node_count()), on_the_box_faces(box, D));
  }
}

TEST_P(BoundaryNodes, TwoHalvesAreOneDomain) {
  const ElementType type = GetParam();
  const StructuredBox box = structured_box(type, 4);
  const std::vector<node_index> left = test::structured_half(box, true);
  const std::vector<node_index> right = test::structured_half(box, false);
  const std::vector<node_index> expected = on_the_box_faces(box, dimension(type.shape));
  EXPECT_EQ(boundary_nodes({view_of(type, left), view_of(type, right)}, box.node_count()), expected);
  // The left half alone is the box [0, 1/2] x [0, 1]^(d-1): the cut is its boundary too.
  std::vector<char> used(std::size_t(box.node_count()), 0);
  for (node_index n : left) used[std::size_t(n)] = 1;
  std::vector<node_index> left_faces;
  for (node_index n : on_the_box_faces(box, dimension(type.shape), 0.5))
    if (used[std::size_t(n)]) left_faces.push_back(n);
  EXPECT_EQ(boundary_nodes({view_of(type, left)}, box.node_count()), left_faces);
}

TEST(BoundaryNodesMixed, QuadrilateralsBesideTrianglesAreOneSquare) {
  for (int p = 1; p <= 3; ++p) {
    SCOPED_TRACE("p = " + std::to_string(p));
    const StructuredBox quads = structured_box({Shape::quadrilateral, p}, 4);
    const StructuredBox triangles = structured_box({Shape::triangle, p}, 4);
    ASSERT_EQ(quads.coordinates, triangles.coordinates);
    const std::vector<node_index> left = test::structured_half(quads, true);
    const std::vector<node_index> right = test::structured_half(triangles, false);
    EXPECT_EQ(boundary_nodes({view_of(quads.type, left), view_of(triangles.type, right)}, quads.node_count()),
              on_the_box_faces(quads, 2));
  }
}

TEST(BoundaryNodesErrors, RefusesWhatIsNotOneManifoldOfOneDimension) {
  // Three triangles on the edge 0-1.
  const std::vector<node_index> fan = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  test::expect_invalid([&] { boundary_nodes({view_of({Shape::triangle, 1}, fan)}, 5); },
                       "shared by 3 elements, among them element");
  const std::vector<node_index> line = {0, 1};
  test::expect_invalid(
      [&] { boundary_nodes({view_of({Shape::triangle, 1}, fan), view_of({Shape::line, 1}, line)}, 5); },
      "block 1 (line p1) has dimension 1; expected the first block's, 2");
  test::expect_invalid([&] { boundary_nodes({view_of({Shape::triangle, 1}, fan)}, 4); }, "element");
  EXPECT_TRUE(boundary_nodes({}, 5).empty());
}

}  // namespace
}  // namespace feinterp
