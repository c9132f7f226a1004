// SPDX-License-Identifier: BSD-3-Clause
// generate_mesh: every type, near the target count, valid connectivity, positive Jacobians,
// reproducible from the seed, node shuffling that changes numbering but not geometry, and the boundary
// block and physical groups of GenerateOptions::boundary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/generate.hpp>
#include <set>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

class Generate : public ::testing::TestWithParam<ElementType> {};

TEST_P(Generate, CountValidityAndReproducibility) {
  const ElementType type = GetParam();
  for (Domain domain : {Domain::box, Domain::ball}) {
    GenerateOptions options{type, 600, 11};
    options.domain = domain;
    const Mesh mesh = generate_mesh(options);
    ASSERT_EQ(mesh.blocks.size(), 1u);
    const ElementBlock& b = mesh.blocks[0];
    EXPECT_EQ(b.type, type);
    EXPECT_EQ(mesh.dimension, dimension(type.shape));
    EXPECT_GT(b.element_count(), 600 * 0.6);  // small meshes: ~30% (see generate.hpp)
    EXPECT_LT(b.element_count(), 600 * 1.4);
    EXPECT_NO_THROW(validate_connectivity(b.view(), mesh.node_count()));
    EXPECT_GT(test::min_detj_at_nodes(mesh, b), 0.0) << to_string(type);
    std::set<node_index> used(b.connectivity.begin(), b.connectivity.end());
    EXPECT_EQ(offset_t(used.size()), mesh.node_count()) << "unused nodes";
    for (std::size_t i = 0; i < mesh.coordinates.size(); i += 3) {
      const double* x = &mesh.coordinates[i];
      if (domain == Domain::box)
        for (int k = 0; k < dimension(type.shape); ++k) ASSERT_TRUE(x[k] >= -1e-12 && x[k] <= 1 + 1e-12);
      else
        ASSERT_LE(x[0] * x[0] + x[1] * x[1] + x[2] * x[2], 1 + 1e-9);
    }
  }
  const Mesh a = generate_mesh({type, 300, 5}), b = generate_mesh({type, 300, 5}), c = generate_mesh({type, 300, 6});
  EXPECT_EQ(a.coordinates, b.coordinates);
  EXPECT_EQ(a.blocks[0].connectivity, b.blocks[0].connectivity);
  EXPECT_NE(a.coordinates, c.coordinates) << "the seed changes nothing";
}

INSTANTIATE_TEST_SUITE_P(AllTypes, Generate, ::testing::ValuesIn(all_element_types), [](const auto& info) {
  std::string s = to_string(info.param);
  for (char& ch : s)
    if (ch == ' ') ch = '_';
  return s;
});

TEST(Generate, ShuffledNodesSameGeometry) {
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::hexahedron, 1}}) {
    GenerateOptions options{type, 500, 9};
    const Mesh plain = generate_mesh(options);
    options.shuffle_nodes = true;
    const Mesh shuffled = generate_mesh(options);
    ASSERT_EQ(plain.node_count(), shuffled.node_count());
    ASSERT_EQ(plain.blocks[0].connectivity.size(), shuffled.blocks[0].connectivity.size());
    EXPECT_NE(plain.blocks[0].connectivity, shuffled.blocks[0].connectivity);
    for (std::size_t k = 0; k < plain.blocks[0].connectivity.size(); ++k) {
      const std::size_t p = std::size_t(plain.blocks[0].connectivity[k]), s = std::size_t(shuffled.blocks[0].connectivity[k]);
      ASSERT_EQ(plain.node_tags[p], shuffled.node_tags[s]);
      for (int d = 0; d < 3; ++d) ASSERT_EQ(plain.coordinates[p * 3 + std::size_t(d)], shuffled.coordinates[s * 3 + std::size_t(d)]);
    }
  }
}

TEST(Generate, BadOptions) {
  EXPECT_THROW(generate_mesh({{Shape::triangle, 4}, 100}), MeshError);
  EXPECT_THROW(generate_mesh({{Shape::triangle, 1}, 0}), MeshError);
}

// The boundary block of GenerateOptions::boundary: the right shape and order, in the named groups, on
// the mesh's own nodes, and on the ball exactly the nodes on the unit sphere (high-order ones included:
// the geometry is of the elements' order).
TEST(Generate, BallBoundaryGroup) {
  const ElementType types[] = {{Shape::triangle, 2}, {Shape::quadrilateral, 3}, {Shape::tetrahedron, 1},
                               {Shape::tetrahedron, 3}, {Shape::hexahedron, 2}};
  for (ElementType type : types) {
    GenerateOptions options{type, 300, 4};
    options.domain = Domain::ball;
    options.boundary = true;
    const Mesh mesh = generate_mesh(options);
    const int d = dimension(type.shape);
    ASSERT_EQ(mesh.blocks.size(), 2u) << to_string(type);
    const ElementBlock &cells = mesh.blocks[0], &faces = mesh.blocks[1];
    const Shape face_shape = d == 2 ? Shape::line : type.shape == Shape::tetrahedron ? Shape::triangle : Shape::quadrilateral;
    EXPECT_EQ(cells.type, type);
    EXPECT_EQ(faces.type, (ElementType{face_shape, type.order})) << to_string(type);
    EXPECT_NO_THROW(validate_connectivity(faces.view(), mesh.node_count()));

    ASSERT_EQ(mesh.physical_groups.size(), 2u);
    for (const PhysicalGroup& g : mesh.physical_groups) {
      const ElementBlock& b = g.dimension == d ? cells : faces;
      EXPECT_EQ(g.name, g.dimension == d ? domain_group_name : boundary_group_name);
      EXPECT_EQ(std::count(b.physical_tags.begin(), b.physical_tags.end(), g.tag), std::ptrdiff_t(b.element_count()));
    }
    const std::set<node_index> cell_nodes(cells.connectivity.begin(), cells.connectivity.end());
    const std::set<node_index> face_nodes(faces.connectivity.begin(), faces.connectivity.end());
    EXPECT_EQ(offset_t(cell_nodes.size()), mesh.node_count()) << "the boundary has nodes of its own";
    std::set<node_index> on_sphere;
    for (offset_t i = 0; i < mesh.node_count(); ++i) {
      const double* x = &mesh.coordinates[std::size_t(i) * 3];
      if (std::abs(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - 1) < 1e-9) on_sphere.insert(node_index(i));
    }
    EXPECT_EQ(face_nodes, on_sphere) << to_string(type);
  }
}

TEST(Generate, BoundaryOfARefinedMesh) {
  // 40k tetrahedra p2: a 5k coarse mesh refined once, then raised to order 2 with its boundary.
  GenerateOptions options{{Shape::tetrahedron, 2}, 40000, 1};
  options.domain = Domain::ball;
  options.boundary = true;
  const Mesh mesh = generate_mesh(options);
  ASSERT_EQ(mesh.blocks.size(), 2u);
  const ElementBlock &cells = mesh.blocks[0], &faces = mesh.blocks[1];
  EXPECT_EQ(faces.type, (ElementType{Shape::triangle, 2}));
  EXPECT_GT(faces.element_count(), 1000);
  const std::set<node_index> cell_nodes(cells.connectivity.begin(), cells.connectivity.end());
  EXPECT_EQ(offset_t(cell_nodes.size()), mesh.node_count()) << "the boundary has nodes of its own";
  ASSERT_EQ(mesh.physical_groups.size(), 2u);
  EXPECT_NE(faces.physical_tags.front(), cells.physical_tags.front());
  for (node_index v : faces.connectivity) {  // the refined boundary: the coarse polyhedron, inside the ball
    const double* x = &mesh.coordinates[std::size_t(v) * 3];
    ASSERT_GT(x[0] * x[0] + x[1] * x[1] + x[2] * x[2], 0.9);
  }
}

TEST(Generate, BoundaryOfNothing) {
  GenerateOptions line{{Shape::line, 1}, 50};
  line.boundary = true;
  EXPECT_THROW(generate_mesh(line), MeshError);
  GenerateOptions sphere{{Shape::triangle, 1}, 50};
  sphere.domain = Domain::sphere;
  sphere.boundary = true;
  EXPECT_THROW(generate_mesh(sphere), MeshError);
}

TEST(Generate, LargeTargetsUseRefinement) {
  // 60k triangles: a 15k coarse mesh refined once (x4); 60k hexes: 3.75k coarse tetrahedra, split
  // into 4 hexes each, refined once (x8). Both within ~5% of the target.
  for (Shape shape : {Shape::triangle, Shape::hexahedron}) {
    const Mesh mesh = generate_mesh({{shape, 1}, 60000, 2});
    EXPECT_GT(mesh.element_count(), 60000 * 0.93) << shape_name(shape);
    EXPECT_LT(mesh.element_count(), 60000 * 1.07) << shape_name(shape);
  }
}

}  // namespace
