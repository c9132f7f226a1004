// SPDX-License-Identifier: BSD-3-Clause
// detail::refine_uniformly (the fast path of generate_mesh for large targets): element counts,
// conformity (boundary facets split exactly, no hanging nodes), orientation, no duplicate nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/mesh/detail/refine.hpp>
#include <feinterp/mesh/generate.hpp>
#include <map>
#include <set>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

// Facets (edges in 2D, faces in 3D) given by their sorted vertices, and how many elements hold each.
std::map<std::vector<node_index>, int> facets(const ElementBlock& b) {
  static const std::vector<std::vector<int>> tri = {{0, 1}, {1, 2}, {2, 0}}, quad = {{0, 1}, {1, 2}, {2, 3}, {3, 0}},
                                             tet = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}},
                                             hex = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                                    {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  const auto& local = b.type.shape == Shape::triangle ? tri : b.type.shape == Shape::quadrilateral ? quad
                      : b.type.shape == Shape::tetrahedron ? tet : hex;
  const std::size_t n = std::size_t(nodes_per_element(b.type));
  std::map<std::vector<node_index>, int> count;
  for (offset_t e = 0; e < b.element_count(); ++e)
    for (const auto& f : local) {
      std::vector<node_index> key;
      for (int i : f) key.push_back(b.connectivity[std::size_t(e) * n + std::size_t(i)]);
      std::sort(key.begin(), key.end());
      ++count[key];
    }
  return count;
}

TEST(Refine, ConformingAndOriented) {
  for (Shape shape : {Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron}) {
    SCOPED_TRACE(shape_name(shape));
    for (Domain domain : {Domain::box, Domain::ball}) {
      GenerateOptions options{{shape, 1}, 300, 4};
      options.domain = domain;
      Mesh mesh = generate_mesh(options);
      const auto before = facets(mesh.blocks[0]);
      const offset_t elements = mesh.element_count();
      std::size_t boundary_before = 0;
      for (const auto& [f, c] : before) boundary_before += c == 1;
      detail::refine_uniformly(mesh);
      const int dim = dimension(shape);
      EXPECT_EQ(mesh.element_count(), elements * (dim == 2 ? 4 : 8));
      const auto after = facets(mesh.blocks[0]);
      std::size_t boundary_after = 0;
      for (const auto& [f, c] : after) {
        ASSERT_LE(c, 2) << "a facet shared by 3 elements";
        boundary_after += c == 1;
      }
      EXPECT_EQ(boundary_after, boundary_before * (dim == 2 ? 2 : 4)) << "hanging nodes or a non-conforming split";
      EXPECT_GT(test::min_detj_at_nodes(mesh, mesh.blocks[0]), 0.0);
      std::set<std::array<double, 3>> points;
      for (std::size_t i = 0; i < mesh.coordinates.size(); i += 3)
        points.insert({mesh.coordinates[i], mesh.coordinates[i + 1], mesh.coordinates[i + 2]});
      EXPECT_EQ(offset_t(points.size()), mesh.node_count()) << "duplicate nodes";
      EXPECT_NO_THROW(validate_connectivity(mesh.blocks[0].view(), mesh.node_count()));
    }
  }
}

// With the boundary kept (generate_mesh's boundary = true), the refined boundary block is the refined
// volume's boundary: the same facets, over the same nodes (a quadrilateral's centre is its hexahedron
// face's centre, not a node of its own).
TEST(Refine, BoundaryBlockStaysTheBoundary) {
  for (Shape shape : {Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron}) {
    SCOPED_TRACE(shape_name(shape));
    for (Domain domain : {Domain::box, Domain::ball}) {
      GenerateOptions options{{shape, 1}, 300, 4};
      options.domain = domain;
      options.boundary = true;
      Mesh mesh = generate_mesh(options);
      detail::refine_uniformly(mesh);
      const int dim = dimension(shape);
      const ElementBlock* volume = nullptr;
      std::set<std::vector<node_index>> boundary_elements;
      for (const ElementBlock& b : mesh.blocks) {
        if (dimension(b.type.shape) == dim) {
          volume = &b;
          continue;
        }
        const std::size_t n = std::size_t(nodes_per_element(b.type));
        for (offset_t e = 0; e < b.element_count(); ++e) {
          std::vector<node_index> key(b.connectivity.begin() + std::ptrdiff_t(std::size_t(e) * n),
                                      b.connectivity.begin() + std::ptrdiff_t(std::size_t(e + 1) * n));
          std::sort(key.begin(), key.end());
          boundary_elements.insert(key);
        }
      }
      ASSERT_NE(volume, nullptr);
      std::set<std::vector<node_index>> boundary_facets;
      for (const auto& [f, c] : facets(*volume))
        if (c == 1) boundary_facets.insert(f);
      EXPECT_FALSE(boundary_facets.empty());
      EXPECT_EQ(boundary_elements, boundary_facets) << "the boundary block is not the volume's boundary";
    }
  }
}

TEST(Refine, GenerateRefinedHighOrder) {
  // 120k triangles: 30k coarse > 25k, so one refinement of 7.5k, then setOrder(2) on the result.
  const Mesh mesh = generate_mesh({{Shape::triangle, 2}, 120000, 1});
  ASSERT_EQ(mesh.blocks.size(), 1u);
  EXPECT_EQ(mesh.blocks[0].type, (ElementType{Shape::triangle, 2}));
  EXPECT_NEAR(double(mesh.element_count()) / 120000.0, 1.0, 0.07);
  EXPECT_GT(test::min_detj_at_nodes(mesh, mesh.blocks[0]), 0.0);
  EXPECT_THROW(detail::refine_uniformly(const_cast<Mesh&>(mesh)), std::exception);  // order 2: refused
}

}  // namespace
