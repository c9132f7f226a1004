// SPDX-License-Identifier: BSD-3-Clause
// physical_group_nodes (mesh/physical_group_nodes.hpp): the nodes of a generated mesh's "boundary" group
// are the boundary nodes found from the elements alone (fem/boundary.hpp), for triangles, quadrilaterals,
// tetrahedra and hexahedra of orders 1-3; groups are found by name and by tag; a name that matches nothing
// and a group whose dimension has no block are refused, saying why.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <feinterp/fem/boundary.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/physical_group_nodes.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>

using namespace feinterp;

namespace {

class PhysicalGroupNodes : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(Types, PhysicalGroupNodes,
                         ::testing::Values(ElementType{Shape::triangle, 1}, ElementType{Shape::quadrilateral, 2},
                                           ElementType{Shape::tetrahedron, 3}, ElementType{Shape::hexahedron, 2}),
                         [](const auto& info) {
                           return std::string(shape_name(info.param.shape)) + "_p" + std::to_string(info.param.order);
                         });

TEST_P(PhysicalGroupNodes, TheBoundaryGroupIsTheDomainsBoundary) {
  GenerateOptions options{GetParam(), 400, 3};
  options.boundary = true;
  const Mesh mesh = generate_mesh(options);
  std::vector<BlockView> domain;
  for (const ElementBlock& b : mesh.blocks)
    if (dimension(b.type.shape) == mesh.dimension) domain.push_back(b.view());
  ASSERT_FALSE(domain.empty());
  const std::vector<node_index> nodes = physical_group_nodes(mesh, boundary_group_name);
  EXPECT_EQ(nodes, boundary_nodes(domain, mesh.node_count()));
  const PhysicalGroup& group = find_physical_group(mesh, boundary_group_name);
  EXPECT_EQ(group.dimension, mesh.dimension - 1);
  EXPECT_EQ(physical_group_nodes(mesh, group), nodes);
  // By tag: the group of the highest dimension with that tag.
  const PhysicalGroup& by_tag = find_physical_group(mesh, std::to_string(group.tag));
  EXPECT_EQ(by_tag.tag, group.tag);
  // Every node of the domain group.
  EXPECT_EQ(physical_group_nodes(mesh, domain_group_name).size(), std::size_t(mesh.node_count()));
}

TEST(PhysicalGroupNodes, RefusesWhatItCannotFind) {
  GenerateOptions options{{Shape::triangle, 2}, 200, 1};
  options.boundary = true;
  Mesh mesh = generate_mesh(options);
  test::expect_invalid([&] { find_physical_group(mesh, "wall"); }, "no physical group named 'wall': the mesh has physical group");
  test::expect_invalid([&] { find_physical_group(mesh, "99"); }, "no physical group named '99'");
  // The boundary lines dropped, as a mesh loaded without keep_lower_dimensional.
  const PhysicalGroup boundary = find_physical_group(mesh, boundary_group_name);
  mesh.blocks.erase(std::remove_if(mesh.blocks.begin(), mesh.blocks.end(),
                                   [&](const ElementBlock& b) { return dimension(b.type.shape) < mesh.dimension; }),
                    mesh.blocks.end());
  test::expect_invalid([&] { physical_group_nodes(mesh, boundary); }, "keep_lower_dimensional");
  PhysicalGroup elsewhere = find_physical_group(mesh, domain_group_name);
  elsewhere.tag += 1000;
  test::expect_invalid([&] { physical_group_nodes(mesh, elsewhere); }, "no element of its dimension carries its tag");
}

}  // namespace
