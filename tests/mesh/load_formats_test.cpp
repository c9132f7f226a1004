// SPDX-License-Identifier: BSD-3-Clause
// Every supported element type, in all four MSH variants (2.2/4.1 x ASCII/binary), written by Gmsh
// itself (not by feinterp), loads with the right nodes and the same connectivity as Gmsh's own
// getElementsByType, mapped through node tags. Plus mixed tri/quad and tet/hex files.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <feinterp/elements/visit.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <cmath>
#include <map>

#include <feinterp/tests/mesh/mesh_test_util.hpp>
#include <feinterp/tests/support/msh_variants.hpp>

using namespace feinterp;

namespace {

// What Gmsh itself says about the mesh it wrote: per type code, element tags and their node tags.
struct Reference {
  std::map<std::size_t, std::array<double, 3>> nodes;
  std::map<int, std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> elements;
};

Reference capture(const std::vector<int>& codes) {
  Reference ref;
  std::vector<std::size_t> tags;
  std::vector<double> x, u;
  gmsh::model::mesh::getNodes(tags, x, u, -1, -1, false, false);
  for (std::size_t i = 0; i < tags.size(); ++i) ref.nodes[tags[i]] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
  for (int code : codes) gmsh::model::mesh::getElementsByType(code, ref.elements[code].first, ref.elements[code].second);
  return ref;
}

using Variant = test::MshVariant;
constexpr const auto& variants = test::msh_variants;

void write_variants(const test::TempDir& dir, const std::string& stem) {
  for (const Variant& v : variants) {
    test::set_msh_variant(v);
    gmsh::option::setNumber("Mesh.SaveAll", 0);
    gmsh::write(dir / (stem + "_" + v.name + ".msh"));
  }
}

void set_common_options(double size) {
  gmsh::option::setNumber("Mesh.MeshSizeMin", size);
  gmsh::option::setNumber("Mesh.MeshSizeMax", size);
  gmsh::option::setNumber("Mesh.RecombineAll", 0);
  gmsh::option::setNumber("Mesh.SubdivisionAlgorithm", 0);
  gmsh::option::setNumber("Mesh.SecondOrderIncomplete", 0);
  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.Algorithm", 6);
  gmsh::option::setNumber("Mesh.Algorithm3D", 1);
}

// Transfinite hexahedra on one box volume, set explicitly (setTransfiniteAutomatic gave no hexahedra
// in Gmsh 4.8.4, measured).
void transfinite_hexahedra(int volume) {
  gmsh::vectorpair surfaces, curves;
  gmsh::model::getBoundary({{3, volume}}, surfaces, false, false, false);
  gmsh::model::getBoundary(surfaces, curves, false, false, false);
  for (const auto& c : curves) gmsh::model::mesh::setTransfiniteCurve(std::abs(c.second), 3);
  for (const auto& s : surfaces) {
    gmsh::model::mesh::setTransfiniteSurface(s.second);
    gmsh::model::mesh::setRecombine(2, s.second);
  }
  gmsh::model::mesh::setTransfiniteVolume(volume);
}

// A small mesh of one type, made with the SDK independently of feinterp's generator: a circular arc
// for lines, Blossom recombination for quads, a transfinite box for hexes. Physical group 7 on the
// domain.
Reference make_single_type(ElementType type) {
  const int dim = dimension(type.shape);
  gmsh::model::add("single");
  set_common_options(dim == 3 ? 0.5 : 0.3);
  if (dim == 1) {
    const int c = gmsh::model::occ::addCircle(0, 0, 0, 1, -1, 0, M_PI / 2);
    gmsh::model::occ::synchronize();
    gmsh::model::addPhysicalGroup(1, {c}, 7);
  } else if (dim == 2) {
    const int s = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1);
    gmsh::model::occ::synchronize();
    if (type.shape == Shape::quadrilateral) gmsh::model::mesh::setRecombine(2, s);
    gmsh::model::addPhysicalGroup(2, {s}, 7);
  } else {
    const int v = gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1.5);
    gmsh::model::occ::synchronize();
    if (type.shape == Shape::hexahedron) transfinite_hexahedra(v);
    gmsh::model::addPhysicalGroup(3, {v}, 7);
  }
  gmsh::model::mesh::generate(dim);
  if (type.order > 1) gmsh::model::mesh::setOrder(type.order);
  return capture({gmsh_type_code(type)});
}

// Element tags are compared for MSH 4.1 only: Gmsh's MSH 2.2 writer renumbers elements 1..N when it
// saves only physical groups (measured: triangles written as 1, 2, ... after their lines were dropped).
void expect_matches(const Mesh& mesh, const Reference& ref, const std::string& what, bool same_element_tags) {
  SCOPED_TRACE(what);
  ASSERT_EQ(std::size_t(mesh.node_count()), ref.nodes.size());
  for (offset_t i = 0; i < mesh.node_count(); ++i) {
    const auto it = ref.nodes.find(mesh.node_tags[std::size_t(i)]);
    ASSERT_NE(it, ref.nodes.end());
    for (int k = 0; k < 3; ++k)  // ASCII files round to 16 significant digits
      ASSERT_NEAR(mesh.coordinates[std::size_t(i) * 3 + std::size_t(k)], it->second[std::size_t(k)], 1e-15);
  }
  std::size_t blocks_expected = 0;
  for (const auto& [code, data] : ref.elements) blocks_expected += !data.first.empty();
  ASSERT_EQ(mesh.blocks.size(), blocks_expected);
  for (const ElementBlock& b : mesh.blocks) {
    const auto& [tags, nodes] = ref.elements.at(gmsh_type_code(b.type));
    if (same_element_tags) ASSERT_EQ(b.element_tags, tags) << to_string(b.type);
    ASSERT_EQ(b.element_tags.size(), tags.size());
    ASSERT_EQ(b.connectivity.size(), nodes.size());
    for (std::size_t k = 0; k < nodes.size(); ++k)
      ASSERT_EQ(mesh.node_tags[std::size_t(b.connectivity[k])], nodes[k]) << to_string(b.type) << " entry " << k;
  }
}

class LoadFormats : public ::testing::TestWithParam<ElementType> {};

TEST_P(LoadFormats, AllFourVariantsMatchGmsh) {
  const ElementType type = GetParam();
  test::TempDir dir;
  Reference ref;
  {
    GmshSession session;
    ref = make_single_type(type);
    write_variants(dir, "mesh");
  }
  ASSERT_FALSE(ref.elements.at(gmsh_type_code(type)).first.empty());
  for (const Variant& v : variants) {
    const Mesh mesh = load_msh(dir / (std::string("mesh_") + v.name + ".msh"));
    EXPECT_EQ(mesh.dimension, dimension(type.shape));
    EXPECT_EQ(mesh.space_dimension, dimension(type.shape) == 3 ? 3 : 2);  // the arc and square lie in z = 0
    ASSERT_EQ(mesh.blocks.size(), 1u);
    EXPECT_EQ(mesh.blocks[0].space_dimension, mesh.space_dimension);
    EXPECT_EQ(mesh.blocks[0].type, type);
    expect_matches(mesh, ref, to_string(type) + " " + v.name, v.version > 4);
    for (int p : mesh.blocks[0].physical_tags) ASSERT_EQ(p, 7);
    ASSERT_EQ(mesh.physical_groups.size(), 1u);
    EXPECT_EQ(mesh.physical_groups[0].tag, 7);
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, LoadFormats, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) {
                           std::string s = to_string(info.param);
                           for (char& c : s) if (c == ' ') c = '_';
                           return s;
                         });

TEST(LoadMixed, TrianglesAndQuadrilaterals) {
  for (int order : {1, 2}) {
    test::TempDir dir;
    Reference ref;
    {
      GmshSession session;
      gmsh::model::add("mixed2d");
      set_common_options(0.3);
      const int a = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1);
      const int b = gmsh::model::occ::addRectangle(1, 0, 0, 1, 1);
      gmsh::vectorpair out;
      std::vector<gmsh::vectorpair> map;
      gmsh::model::occ::fragment({{2, a}}, {{2, b}}, out, map);
      gmsh::model::occ::synchronize();
      gmsh::model::mesh::setRecombine(2, out.back().second);
      gmsh::model::mesh::generate(2);
      if (order > 1) gmsh::model::mesh::setOrder(order);
      ref = capture({gmsh_type_code({Shape::triangle, order}), gmsh_type_code({Shape::quadrilateral, order})});
      write_variants(dir, "mixed");
    }
    for (const Variant& v : variants) {
      const Mesh mesh = load_msh(dir / (std::string("mixed_") + v.name + ".msh"));
      ASSERT_EQ(mesh.blocks.size(), 2u);
      EXPECT_EQ(mesh.blocks[0].type, (ElementType{Shape::triangle, order}));
      EXPECT_EQ(mesh.blocks[1].type, (ElementType{Shape::quadrilateral, order}));
      expect_matches(mesh, ref, std::string("tri+quad ") + v.name, v.version > 4);
    }
  }
}

TEST(LoadMixed, TetrahedraAndHexahedra) {
  test::TempDir dir;
  Reference ref;
  {
    GmshSession session;
    gmsh::model::add("mixed3d");
    set_common_options(0.5);
    gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
    const int hex = gmsh::model::occ::addBox(2, 0, 0, 1, 1, 1);  // disjoint: no pyramids needed
    gmsh::model::occ::synchronize();
    transfinite_hexahedra(hex);
    gmsh::model::mesh::generate(3);
    ref = capture({4, 5});
    write_variants(dir, "mixed");
  }
  for (const Variant& v : variants) {
    const Mesh mesh = load_msh(dir / (std::string("mixed_") + v.name + ".msh"));
    ASSERT_EQ(mesh.blocks.size(), 2u);
    EXPECT_EQ(mesh.blocks[0].type, (ElementType{Shape::tetrahedron, 1}));
    EXPECT_EQ(mesh.blocks[1].type, (ElementType{Shape::hexahedron, 1}));
    expect_matches(mesh, ref, std::string("tet+hex ") + v.name, v.version > 4);
  }
}

TEST(LoadOptionsTest, LowerDimensionalBlocksOnlyWhenAsked) {
  test::TempDir dir;
  {
    GmshSession session;
    gmsh::model::add("cube");
    set_common_options(0.5);
    gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
    gmsh::model::occ::synchronize();
    gmsh::model::mesh::generate(3);
    gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
    gmsh::option::setNumber("Mesh.Binary", 0);
    gmsh::write(dir / "cube.msh");
  }
  const Mesh top = load_msh(dir / "cube.msh");
  ASSERT_EQ(top.blocks.size(), 1u);
  EXPECT_EQ(top.blocks[0].type.shape, Shape::tetrahedron);
  LoadOptions options;
  options.keep_lower_dimensional = true;
  const Mesh all = load_msh(dir / "cube.msh", options);
  // The volume, its boundary faces and its edges (points never become blocks), all in 3D space.
  ASSERT_EQ(all.blocks.size(), 3u);
  EXPECT_EQ(all.blocks[0].type.shape, Shape::tetrahedron);
  EXPECT_EQ(all.blocks[1].type.shape, Shape::triangle);
  EXPECT_EQ(all.blocks[2].type.shape, Shape::line);
  EXPECT_EQ(all.dimension, 3);
  EXPECT_EQ(all.space_dimension, 3);
  for (const ElementBlock& b : all.blocks) EXPECT_EQ(space_dimension(b.view()), 3);
}

// meshio's MSH 4.1 writer (meshio.write(path, mesh), its default format): no $Entities, every node and
// element block on entity 0, which Gmsh reads. The same mesh and field as the MSH 2.2 file it writes.
TEST(LoadOtherWriters, MeshioMsh41OnEntityZero) {
  test::TempDir dir;
  const std::string nodes =
      "0 0 0\n1 0 0\n0 1 0\n1 1 0\n";
  const std::string node_data =
      "$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n4\n1 1.5\n2 2.5\n3 3.5\n4 4.5\n$EndNodeData\n";
  test::write_file(dir / "meshio41.msh",
             "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n2 0 0 4\n1\n2\n3\n4\n" + nodes +
                 "$EndNodes\n$Elements\n1 2 1 2\n2 0 2 2\n1 1 2 3\n2 2 4 3\n$EndElements\n" + node_data);
  std::string nodes22 = "$Nodes\n4\n";
  for (int i = 0; i < 4; ++i) nodes22 += std::to_string(i + 1) + " " + nodes.substr(std::size_t(i) * 6, 6);
  test::write_file(dir / "meshio22.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n" + nodes22 +
                                       "$EndNodes\n$Elements\n2\n1 2 2 0 0 1 2 3\n2 2 2 0 0 2 4 3\n$EndElements\n" +
                                       node_data);
  const Mesh m41 = load_msh(dir / "meshio41.msh"), m22 = load_msh(dir / "meshio22.msh");
  for (const Mesh* m : {&m41, &m22}) {
    ASSERT_EQ(m->blocks.size(), 1u);
    EXPECT_EQ(m->blocks[0].type.shape, Shape::triangle);
    EXPECT_EQ(m->blocks[0].element_count(), 2);
    ASSERT_EQ(m->fields.size(), 1u);
    EXPECT_EQ(m->fields[0].name, "u");
  }
  EXPECT_EQ(m41.coordinates, m22.coordinates);
  EXPECT_EQ(m41.node_tags, m22.node_tags);
  EXPECT_EQ(m41.blocks[0].connectivity, m22.blocks[0].connectivity);
  EXPECT_EQ(m41.fields[0].values, m22.fields[0].values);
}

}  // namespace
