// SPDX-License-Identifier: BSD-3-Clause
// generate_mesh: every type, near the target count, valid connectivity, positive Jacobians,
// reproducible from the seed, and node shuffling that changes numbering but not geometry.
#include <gtest/gtest.h>

#include <algorithm>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/generate.hpp>
#include <set>

#include "mesh_test_util.hpp"

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
