// SPDX-License-Identifier: BSD-3-Clause
// A mesh of two physical volumes made by Gmsh: a generated box of p = 2 tetrahedra, its elements put in
// the groups "left" and "right" by their centroids, written with write_msh and loaded back (one block of
// tetrahedra carrying two physical tags). physical_group_blocks splits it into one block per group; a
// MeshOperator over the two equals the one over the whole block (mass and diffusion, 1e-12), the volumes
// add up to the box's, a coefficient per material weights each group's volume, the groups' boundary is
// the whole block's, and the two groups' nodes cover the mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <feinterp/fem/boundary.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/physical_group_blocks.hpp>
#include <feinterp/mesh/physical_group_nodes.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/temp_dir.hpp>

using namespace feinterp;

namespace {

Mesh two_volumes(const std::string& path) {
  Mesh mesh = generate_mesh({{Shape::tetrahedron, 2}, 1500, 4});
  ElementBlock& block = mesh.blocks.front();
  const std::size_t N = std::size_t(nodes_per_element(block.type));
  block.physical_tags.assign(std::size_t(block.element_count()), 0);
  for (std::size_t e = 0; e < block.physical_tags.size(); ++e) {
    double x = 0;
    for (std::size_t n = 0; n < N; ++n) x += mesh.coordinates[std::size_t(block.connectivity[e * N + n]) * 3];
    block.physical_tags[e] = x / double(N) < 0.5 ? 7 : 9;
  }
  mesh.physical_groups = {{3, 7, "left"}, {3, 9, "right"}};
  write_msh(path, mesh);
  return load_msh(path);
}

std::vector<OperatorBlock> operator_blocks(const std::vector<ElementBlock>& blocks) {
  std::vector<OperatorBlock> out;
  for (const ElementBlock& b : blocks) out.push_back({b.view(), quadrature_rule(b.type.shape, 2 * b.type.order)});
  return out;
}

std::vector<double> apply(const MeshOperator<double>& op, FusedOperator form, const std::vector<double>& u,
                          BasicCoefficientView<double> coefficient = {}) {
  std::vector<double> r(u.size());
  op.apply_operator(form, {u.data(), u.size(), 1}, {r.data(), r.size()}, coefficient);
  return r;
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

TEST(PhysicalGroupBlocks, TwoVolumesFromGmshAreOneOperator) {
  test::TempDir dir;
  const Mesh mesh = two_volumes(dir / "two-volumes.msh");
  ASSERT_EQ(mesh.blocks.size(), 1u);
  ASSERT_EQ(mesh.physical_groups.size(), 2u);
  const std::vector<ElementBlock> groups = physical_group_blocks(mesh);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].element_count() + groups[1].element_count(), mesh.blocks.front().element_count());
  EXPECT_GT(groups[0].element_count(), 0);
  EXPECT_GT(groups[1].element_count(), 0);
  for (const ElementBlock& g : groups)
    EXPECT_TRUE(std::all_of(g.physical_tags.begin(), g.physical_tags.end(), [&](int t) { return t == g.physical_tags[0]; }));

  const InterpolatorOptions cpu{Executor::cpu()};
  const MeshOperator<double> whole(operator_blocks(mesh.blocks), mesh.node_count(), mesh.coordinates.data(), cpu);
  const MeshOperator<double> split(operator_blocks(groups), mesh.node_count(), mesh.coordinates.data(), cpu);
  EXPECT_EQ(split.block_count(), 2u);
  std::mt19937_64 rng(test::test_seed());
  const std::vector<double> u = test::random_field(mesh.node_count(), 1, rng);
  for (FusedOperator form : {FusedOperator::mass, FusedOperator::diffusion})
    EXPECT_LE(test::relative_error(apply(split, form, u), apply(whole, form, u)), 1e-12) << fused_operator_name(form);

  // The volumes: the box's in all; with rho = 1 on the left and 3 on the right, left + 3 right.
  const std::vector<double> ones(std::size_t(mesh.node_count()), 1.0);
  const MeshOperator<double> left({operator_blocks(groups)[0]}, mesh.node_count(), mesh.coordinates.data(), cpu);
  const double left_volume = sum(apply(left, FusedOperator::mass, ones)), volume = sum(apply(split, FusedOperator::mass, ones));
  EXPECT_NEAR(volume, 1.0, 1e-12);
  std::vector<double> rho(split.coefficient_size(CoefficientShape::scalar), 3.0);
  std::fill(rho.begin(), rho.begin() + std::ptrdiff_t(split.coefficient_offset(1, CoefficientShape::scalar)), 1.0);
  EXPECT_NEAR(sum(apply(split, FusedOperator::mass, ones, {rho.data(), rho.size(), CoefficientShape::scalar})),
              left_volume + 3 * (volume - left_volume), 1e-12);

  // The groups' boundary is the whole block's; their nodes cover the mesh.
  EXPECT_EQ(boundary_nodes({groups[0].view(), groups[1].view()}, mesh.node_count()),
            boundary_nodes({mesh.blocks.front().view()}, mesh.node_count()));
  std::vector<node_index> covered = physical_group_nodes(mesh, "left");
  const std::vector<node_index> right = physical_group_nodes(mesh, "right");
  covered.insert(covered.end(), right.begin(), right.end());
  std::sort(covered.begin(), covered.end());
  covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
  EXPECT_EQ(covered.size(), std::size_t(mesh.node_count()));

  test::expect_invalid([&] { physical_group_blocks(mesh, 2); }, "no block of dimension 2");
  test::expect_invalid([&] { physical_group_blocks(mesh, 4); }, "dimension 4, expected 0 to 3");
}

}  // namespace
