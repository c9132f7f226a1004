// SPDX-License-Identifier: BSD-3-Clause
// Renumbering a Mesh (mesh/renumber.hpp), on generated meshes with a boundary block that shares the
// domain's nodes, their nodes shuffled: the permutations are bijections; every node keeps its tag and
// coordinates, every element its tag, physical tag and the node tags it lists (in both blocks); the CPU
// executor's results on the renumbered mesh, moved back with the permutations, equal the original's to
// 1e-14 (to rounding: see the test); restoring gives
// the original arrays back; RCM undoes the shuffle's damage to locality; the load option equals the
// function; inconsistent meshes are refused before anything changes. Fields are fresh random each run.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include <feinterp/fem/ordering/gather_locality.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/renumber.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

using test::expect_invalid;

Mesh shuffled_mesh(ElementType type, offset_t elements) {
  GenerateOptions options{type, elements, 3, true};
  options.boundary = true;  // a second block on the same nodes
  Mesh mesh = generate_mesh(options);
  EXPECT_EQ(mesh.blocks.size(), 2u);
  return mesh;
}

// Each element, by tag: its physical tag and the tags of its nodes in local order.
std::map<std::size_t, std::vector<std::size_t>> elements_by_tag(const Mesh& mesh) {
  std::map<std::size_t, std::vector<std::size_t>> by_tag;
  for (const ElementBlock& b : mesh.blocks) {
    const std::size_t N = std::size_t(nodes_per_element(b.type));
    for (std::size_t e = 0; e < std::size_t(b.element_count()); ++e) {
      std::vector<std::size_t>& row = by_tag[b.element_tags[e]];
      row.push_back(std::size_t(b.physical_tags[e]));
      for (std::size_t n = 0; n < N; ++n) row.push_back(mesh.node_tags[std::size_t(b.connectivity[e * N + n])]);
    }
  }
  return by_tag;
}

void expect_bijection(const std::vector<node_index>& new_to_old) {
  std::vector<char> seen(new_to_old.size(), 0);
  for (node_index v : new_to_old) {
    ASSERT_GE(v, 0);
    ASSERT_LT(std::size_t(v), seen.size());
    ASSERT_FALSE(seen[std::size_t(v)]) << "node " << v << " twice";
    seen[std::size_t(v)] = 1;
  }
}

class RenumberMesh : public ::testing::TestWithParam<RenumberMethod> {};

TEST_P(RenumberMesh, TagsCoordinatesAndElementsFollowInEveryBlock) {
  const RenumberMethod method = GetParam();
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::hexahedron, 1}}) {
    SCOPED_TRACE(to_string(type));
    const Mesh original = shuffled_mesh(type, 400);
    Mesh mesh = original;
    const Renumbering& r = renumber(mesh, method);
    ASSERT_EQ(r.method, method);
    ASSERT_EQ(r.nodes.size(), std::size_t(mesh.node_count()));
    expect_bijection(r.nodes.new_to_old);
    ASSERT_EQ(r.elements.size(), 2u);
    for (std::size_t i = 0; i < std::size_t(mesh.node_count()); ++i) {
      const std::size_t old = std::size_t(r.nodes.new_to_old[i]);
      ASSERT_EQ(r.nodes.old_to_new[old], node_index(i));
      ASSERT_EQ(mesh.node_tags[i], original.node_tags[old]);
      for (std::size_t k = 0; k < 3; ++k) ASSERT_EQ(mesh.coordinates[3 * i + k], original.coordinates[3 * old + k]);
    }
    for (std::size_t b = 0; b < 2; ++b) {
      ASSERT_EQ(r.elements[b].size(), std::size_t(original.blocks[b].element_count()));
      for (std::size_t e = 0; e < r.elements[b].size(); ++e)
        ASSERT_EQ(mesh.blocks[b].element_tags[e], original.blocks[b].element_tags[std::size_t(r.elements[b].new_to_old[e])]);
      EXPECT_NO_THROW(validate_connectivity(mesh.blocks[b].view(), mesh.node_count()));
    }
    EXPECT_EQ(elements_by_tag(mesh), elements_by_tag(original));
    EXPECT_EQ(mesh.physical_groups.size(), original.physical_groups.size());
    restore_original_numbering(mesh);
    EXPECT_EQ(mesh.renumbering.method, RenumberMethod::none);
    EXPECT_EQ(mesh.coordinates, original.coordinates);
    EXPECT_EQ(mesh.node_tags, original.node_tags);
    for (std::size_t b = 0; b < 2; ++b) {
      EXPECT_EQ(mesh.blocks[b].connectivity, original.blocks[b].connectivity);
      EXPECT_EQ(mesh.blocks[b].element_tags, original.blocks[b].element_tags);
      EXPECT_EQ(mesh.blocks[b].physical_tags, original.blocks[b].physical_tags);
    }
  }
}

// An element's computation reads only its own nodes' values and coordinates, in its local order, which
// the renumbering keeps; but the CPU backend's Eigen products (cpu/kernels.cpp, gemm) round an
// element's sums by where its column falls in a product (measured: up to 1.2e-16 of the largest result
// on reference and physical gradients of tetrahedra p2 volumes; every other case here came out bitwise
// equal, but nothing promises it), and the nodal transposes add the elements into a node in another
// order: equal to 1e-14 relative.
TEST_P(RenumberMesh, CpuResultsMovedBackEqualTheOriginals) {
  const RenumberMethod method = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : {ElementType{Shape::tetrahedron, 2}, ElementType{Shape::quadrilateral, 3}}) {
    SCOPED_TRACE(to_string(type));
    const Mesh original = shuffled_mesh(type, 300);
    Mesh mesh = original;
    renumber(mesh, method);
    const int C = 2;
    const std::vector<double> u = test::random_field(original.node_count(), C, rng);
    const std::vector<double> u_new = mesh.renumbering.nodes.to_new_order(u);
    for (std::size_t b = 0; b < 2; ++b) {
      const PointSet points = quadrature_rule(type.shape == Shape::tetrahedron && b == 1 ? Shape::triangle
                                              : type.shape == Shape::quadrilateral && b == 1 ? Shape::line
                                                                                             : type.shape,
                                              2 * type.order);
      const Interpolator<double> before = test::cpu_plan(original, original.blocks[b], points);
      const Interpolator<double> after = test::cpu_plan(mesh, mesh.blocks[b], points);
      const Permutation<offset_t>& elements = mesh.renumbering.elements[b];
      for (Operation op : forward_operations) {
        SCOPED_TRACE(std::string(operation_name(op)) + " on block " + std::to_string(b));
        std::vector<double> expected(before.output_size(op, C)), got(expected.size());
        std::vector<double> detj(op == Operation::physical_gradients ? before.detj_size() : 0), detj_new(detj.size());
        before.apply(op, {u.data(), u.size(), C}, {expected.data(), expected.size()}, {detj.data(), detj.size()});
        after.apply(op, {u_new.data(), u_new.size(), C}, {got.data(), got.size()}, {detj_new.data(), detj_new.size()});
        EXPECT_LE(test::relative_error(elements.to_old_order(got), expected), 1e-14);
        EXPECT_LE(test::relative_error(elements.to_old_order(detj_new), detj), 1e-14);
        // The transpose into the nodes, of the forward result as point data.
        std::vector<double> r(u.size()), r_new(u.size());
        const TransposeOptions weighted{TransposeTarget::nodes, true, false};
        before.apply_transpose(op, {expected.data(), expected.size(), C}, {r.data(), r.size()}, weighted);
        after.apply_transpose(op, {got.data(), got.size(), C}, {r_new.data(), r_new.size()}, weighted);
        EXPECT_LE(test::relative_error(mesh.renumbering.nodes.to_old_order(r_new), r), 1e-14);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, RenumberMesh, ::testing::Values(RenumberMethod::rcm, RenumberMethod::hilbert),
                         [](const auto& info) { return std::string(renumber_method_name(info.param)); });

// A shuffled mesh scatters the gather: a quarter of each 32-byte sector used, the spread of an element's
// nodes a quarter to a half of the node count. Both methods bring the gathered sectors per element down
// by 2.5x or more, RCM the bandwidth by 5x or more (60x in 2D, 7x in 3D, where a level of the search
// is a surface of ~n^(2/3) nodes). (Measured at 20k elements: sectors per element 2.81
// shuffled, 0.33 rcm, 0.33 hilbert for triangles p1; 9.50, 1.80, 1.46 for tetrahedra p2. Gmsh's own
// numbering of a mesh this small is nearly as scattered as the shuffle: docs/design/RENUMBERING.md.)
TEST(RenumberMesh, RestoresLocalityOfAShuffledMesh) {
  for (ElementType type : {ElementType{Shape::triangle, 1}, ElementType{Shape::tetrahedron, 2}}) {
    SCOPED_TRACE(to_string(type));
    const Mesh shuffled = generate_mesh({type, 20000, 5, true});
    const GatherLocality s = measure_gather_locality(shuffled.blocks[0].view(), shuffled.node_count());
    EXPECT_LT(s.sector_efficiency, 0.3);
    EXPECT_GT(s.mean_spread, 0.25 * double(shuffled.node_count()));
    for (RenumberMethod method : {RenumberMethod::rcm, RenumberMethod::hilbert}) {
      SCOPED_TRACE(renumber_method_name(method));
      Mesh mesh = shuffled;
      renumber(mesh, method);
      const GatherLocality g = measure_gather_locality(mesh.blocks[0].view(), mesh.node_count());
      EXPECT_LT(g.sectors_per_element, s.sectors_per_element / 2.5);
      EXPECT_GT(g.sector_efficiency, s.sector_efficiency + 0.2);
      EXPECT_LT(g.mean_spread, 0.15 * s.mean_spread);
      if (method == RenumberMethod::rcm) EXPECT_LT(g.bandwidth, s.bandwidth / 5);
    }
  }
}

TEST(RenumberMesh, RenumberingsComposeFromTheOriginalOrder) {
  const Mesh original = shuffled_mesh({Shape::triangle, 1}, 300);
  Mesh mesh = original;
  renumber(mesh, RenumberMethod::rcm);
  renumber(mesh, RenumberMethod::hilbert);
  const Renumbering& r = mesh.renumbering;
  EXPECT_EQ(r.method, RenumberMethod::hilbert);
  EXPECT_EQ(mesh.node_tags, r.nodes.to_new_order(original.node_tags));
  for (std::size_t b = 0; b < 2; ++b)
    EXPECT_EQ(mesh.blocks[b].element_tags, r.elements[b].to_new_order(original.blocks[b].element_tags));
  Mesh direct = original;
  renumber(direct, RenumberMethod::hilbert);  // Hilbert depends on coordinates only, ties aside
  EXPECT_EQ(renumber(mesh, RenumberMethod::none).method, RenumberMethod::hilbert) << "none changed the mesh";
  restore_original_numbering(mesh);
  EXPECT_EQ(mesh.node_tags, original.node_tags);
  EXPECT_EQ(mesh.blocks[1].connectivity, original.blocks[1].connectivity);
}

// load_msh(renumber = rcm) is load_msh then renumber, fields included (they move with their nodes).
TEST(RenumberMesh, LoadOptionMovesFieldsWithTheirNodes) {
  const std::string path = std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/tri1_views_v41b.msh";
  const Mesh plain = load_msh(path);
  ASSERT_FALSE(plain.fields.empty());
  LoadOptions options;
  options.renumber = RenumberMethod::rcm;
  const Mesh loaded = load_msh(path, options);
  Mesh renumbered = plain;
  renumber(renumbered, RenumberMethod::rcm);
  EXPECT_EQ(loaded.renumbering.nodes.new_to_old, renumbered.renumbering.nodes.new_to_old);
  EXPECT_EQ(loaded.node_tags, renumbered.node_tags);
  EXPECT_EQ(loaded.blocks[0].connectivity, renumbered.blocks[0].connectivity);
  ASSERT_EQ(loaded.fields.size(), plain.fields.size());
  for (std::size_t f = 0; f < plain.fields.size(); ++f) {
    const std::size_t C = std::size_t(plain.fields[f].components);
    for (std::size_t i = 0; i < std::size_t(loaded.node_count()); ++i)
      for (std::size_t c = 0; c < C; ++c)
        ASSERT_EQ(loaded.fields[f].values[i * C + c],
                  plain.fields[f].values[std::size_t(loaded.renumbering.nodes.new_to_old[i]) * C + c]);
  }
}

// Errors name elements by their file tag, which stays with the element: a degenerate element moved by
// the renumbering is still reported as the file's element.
TEST(RenumberMesh, ErrorsNameTheFilesElementTag) {
  Mesh mesh = generate_mesh({{Shape::triangle, 1}, 200, 7, true});
  ElementBlock& block = mesh.blocks[0];
  const std::size_t victim = std::size_t(block.element_count()) / 2;  // its three nodes moved onto one line
  const std::size_t tag = block.element_tags[victim];
  const node_index* nodes = &block.connectivity[3 * victim];
  for (int k = 0; k < 2; ++k) {
    mesh.coordinates[3 * std::size_t(nodes[2]) + std::size_t(k)] =
        0.5 * (mesh.coordinates[3 * std::size_t(nodes[0]) + std::size_t(k)] + mesh.coordinates[3 * std::size_t(nodes[1]) + std::size_t(k)]);
  }
  // The victim is flat; its p = 1 neighbours keep a constant det J, at worst negative (mirrored: valid).
  for (RenumberMethod method : {RenumberMethod::rcm, RenumberMethod::hilbert}) {
    Mesh renumbered = mesh;
    renumber(renumbered, method);
    const std::size_t moved = std::size_t(renumbered.renumbering.elements[0].old_to_new[victim]);
    ASSERT_EQ(renumbered.blocks[0].element_tags[moved], tag);
    const Interpolator<double> plan = test::cpu_plan(renumbered, renumbered.blocks[0], quadrature_rule(Shape::triangle, 2));
    std::vector<double> u(std::size_t(renumbered.node_count()), 1.0), out(plan.output_size(Operation::physical_gradients, 1));
    try {
      plan.apply(Operation::physical_gradients, {u.data(), u.size(), 1}, {out.data(), out.size()});
      ADD_FAILURE() << "no DegenerateElementError";
    } catch (const DegenerateElementError& error) {
      ASSERT_TRUE(error.tag().has_value());
      EXPECT_EQ(*error.tag(), tag);
      EXPECT_EQ(std::size_t(error.element()), moved);
      EXPECT_NE(std::string(error.what()).find("element tag " + std::to_string(tag)), std::string::npos) << error.what();
    }
  }
}

TEST(RenumberMesh, EmptyAndInconsistentMeshes) {
  Mesh empty;
  EXPECT_EQ(renumber(empty, RenumberMethod::rcm).nodes.size(), 0u);
  restore_original_numbering(empty);
  EXPECT_EQ(empty.renumbering.method, RenumberMethod::none);

  const Mesh original = generate_mesh({{Shape::triangle, 1}, 50, 1});
  Mesh bad = original;
  bad.coordinates.pop_back();
  expect_invalid([&] { renumber(bad, RenumberMethod::rcm); }, "coordinates (expected 3 per node)");
  bad = original;
  bad.blocks[0].connectivity[4] = node_index(bad.node_count());
  expect_invalid([&] { renumber(bad, RenumberMethod::hilbert); }, "local node 1 has node index");
  EXPECT_EQ(bad.node_tags, original.node_tags) << "changed before refusing";
  bad = original;
  bad.fields.push_back({"short", 2, std::vector<double>(3)});
  expect_invalid([&] { renumber(bad, RenumberMethod::rcm); }, "field 'short' has 3 values of 2 components");
  Mesh changed = original;
  renumber(changed, RenumberMethod::rcm);
  changed.blocks.push_back(changed.blocks[0]);
  expect_invalid([&] { restore_original_numbering(changed); }, "does not match the mesh");
}

}  // namespace
