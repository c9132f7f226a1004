// SPDX-License-Identifier: BSD-3-Clause
// Views appended to a mesh file by Gmsh itself (issue 40): gmsh::write(file), then
// gmsh::view::write(tag, file, append = true), which adds a $MeshFormat, a copy of the mesh
// (PostProcessing.SaveMesh, on by default) and the view. In all four MSH variants, with one view or
// two, such a file loads as the same mesh as the file without views, with the nodal view's values
// at the right nodes; an appended header in another format, or a copy of the mesh that is not the
// mesh, is refused with where and what was expected.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>
#include <feinterp/tests/support/msh_variants.hpp>

using namespace feinterp;

namespace {

using Variant = test::MshVariant;
constexpr const auto& variants = test::msh_variants;

void set_format(double version, bool binary) { test::set_msh_variant({version, binary, ""}); }

// The value of the nodal view "u" at a point: not symmetric in x and y, so that values given to the
// wrong nodes are seen.
double u_at(double x, double y) { return 1 + x + 10 * y; }

// A square of triangles with physical groups on the surface and on one side, meshed with the current
// session; Mesh.SaveAll 0 as Gmsh saves the mesh copied with a view.
void make_square() {
  gmsh::model::add("square");
  gmsh::option::setNumber("Mesh.MeshSizeMin", 0.3);
  gmsh::option::setNumber("Mesh.MeshSizeMax", 0.3);
  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.SaveAll", 0);
  gmsh::option::setNumber("Mesh.SaveParametric", 0);
  gmsh::option::setNumber("Mesh.ScalingFactor", 1);
  const int s = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1);
  gmsh::model::occ::synchronize();
  gmsh::model::addPhysicalGroup(2, {s}, 7);
  gmsh::model::addPhysicalGroup(1, {1}, 3);
  gmsh::model::mesh::generate(2);
}

// Appends the nodal view "u" (and, with `two`, an element view "e" of 2 components on the
// triangles) to `file`, in the current Mesh.MshFileVersion and Mesh.Binary.
void append_views(const std::string& file, bool two) {
  std::vector<std::size_t> tags;
  std::vector<double> x, parametric;
  gmsh::model::mesh::getNodes(tags, x, parametric, -1, -1, false, false);
  std::vector<std::vector<double>> values;
  for (std::size_t i = 0; i < tags.size(); ++i) values.push_back({u_at(x[3 * i], x[3 * i + 1])});
  const int u = gmsh::view::add("u");
  gmsh::view::addModelData(u, 0, "square", "NodeData", tags, values);
  gmsh::view::write(u, file, true);
  if (!two) return;
  std::vector<std::size_t> elements, nodes;
  gmsh::model::mesh::getElementsByType(2, elements, nodes);
  std::vector<std::vector<double>> per_element;
  for (std::size_t e : elements) per_element.push_back({double(e), -double(e)});
  const int v = gmsh::view::add("e");
  gmsh::view::addModelData(v, 0, "square", "ElementData", elements, per_element);
  gmsh::view::write(v, file, true);
}

void remove_views() {
  std::vector<int> tags;
  gmsh::view::getTags(tags);
  for (int tag : tags) gmsh::view::remove(tag);
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void expect_same_mesh(const Mesh& a, const Mesh& b) {
  EXPECT_EQ(a.dimension, b.dimension);
  EXPECT_EQ(a.space_dimension, b.space_dimension);
  ASSERT_EQ(a.node_tags, b.node_tags);
  ASSERT_EQ(a.coordinates, b.coordinates);
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    SCOPED_TRACE("block " + std::to_string(i));
    EXPECT_EQ(a.blocks[i].type, b.blocks[i].type);
    EXPECT_EQ(a.blocks[i].space_dimension, b.blocks[i].space_dimension);
    EXPECT_EQ(a.blocks[i].connectivity, b.blocks[i].connectivity);
    EXPECT_EQ(a.blocks[i].element_tags, b.blocks[i].element_tags);
    EXPECT_EQ(a.blocks[i].physical_tags, b.blocks[i].physical_tags);
  }
  ASSERT_EQ(a.physical_groups.size(), b.physical_groups.size());
  for (std::size_t i = 0; i < a.physical_groups.size(); ++i) {
    EXPECT_EQ(a.physical_groups[i].dimension, b.physical_groups[i].dimension);
    EXPECT_EQ(a.physical_groups[i].tag, b.physical_groups[i].tag);
  }
}

std::string load_error(const std::string& file) {
  try {
    load_msh(file);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "";
}

TEST(AppendedViews, LoadAsTheSameMeshInAllFourVariants) {
  test::TempDir dir;
  {
    GmshSession session;
    make_square();
    for (const Variant& v : variants)
      for (int save_mesh : {1, 0})
        for (bool two : {false, true}) {
          set_format(v.version, v.binary);
          gmsh::option::setNumber("PostProcessing.SaveMesh", save_mesh);
          const std::string stem = std::string(v.name) + "_save" + std::to_string(save_mesh) + (two ? "_two" : "_one");
          gmsh::write(dir / (stem + "_plain.msh"));
          gmsh::write(dir / (stem + "_views.msh"));
          append_views(dir / (stem + "_views.msh"), two);
          remove_views();
        }
    gmsh::option::setNumber("PostProcessing.SaveMesh", 1);
  }
  LoadOptions options;
  options.keep_lower_dimensional = true;  // the side's lines too: every block of the file is compared
  for (const Variant& v : variants)
    for (int save_mesh : {1, 0})
      for (bool two : {false, true}) {
        const std::string stem = std::string(v.name) + "_save" + std::to_string(save_mesh) + (two ? "_two" : "_one");
        SCOPED_TRACE(stem);
        const std::string file = dir / (stem + "_views.msh");
        // What the test is about: Gmsh repeated the header (and the mesh) for every view it appended.
        const std::string bytes = test::read_file(file);
        EXPECT_EQ(count_of(bytes, "$MeshFormat\n"), save_mesh ? (two ? 3u : 2u) : 1u);
        EXPECT_EQ(count_of(bytes, "$Nodes\n"), save_mesh ? (two ? 3u : 2u) : 1u);
        const Mesh plain = load_msh(dir / (stem + "_plain.msh"), options);
        Mesh views;
        ASSERT_NO_THROW(views = load_msh(file, options)) << load_error(file);
        ASSERT_EQ(plain.blocks.size(), 2u);  // triangles, and the side's lines
        EXPECT_TRUE(plain.fields.empty());
        expect_same_mesh(views, plain);
        // The nodal view, at the nodes it was written for; the element view is not a nodal field.
        ASSERT_EQ(views.fields.size(), 1u);
        const NodalField& u = field(views, "u", 1);
        for (offset_t i = 0; i < views.node_count(); ++i)
          ASSERT_DOUBLE_EQ(u.values[std::size_t(i)], u_at(views.coordinates[std::size_t(i) * 3],
                                                           views.coordinates[std::size_t(i) * 3 + 1]))
              << "node " << views.node_tags[std::size_t(i)];
      }
}

// An appended view whose $MeshFormat is not the first one's: Gmsh reads such a view in its own format,
// but feinterp wants one format per file.
TEST(AppendedViews, AnotherFormatIsRefused) {
  test::TempDir dir;
  struct Case {
    Variant mesh, view;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {{4.1, false, "41a"}, {2.2, false, "22a"}, {"section $MeshFormat, line ", "'2.2 0 8' but the file's first (line 2) is '4.1 0 8'"}},
      {{2.2, false, "22a"}, {4.1, false, "41a"}, {"section $MeshFormat, line ", "'4.1 0 8' but the file's first (line 2) is '2.2 0 8'"}},
      {{4.1, true, "41b"}, {4.1, false, "41a"}, {"section $MeshFormat, byte offset ", "'4.1 0 8' but the file's first (line 2) is '4.1 1 8'"}},
      {{2.2, false, "22a"}, {2.2, true, "22b"}, {"section $MeshFormat, line ", "'2.2 1 8' but the file's first (line 2) is '2.2 0 8'"}},
  };
  {
    GmshSession session;
    make_square();
    gmsh::option::setNumber("PostProcessing.SaveMesh", 1);
    for (const Case& c : cases) {
      const std::string file = dir / (std::string(c.mesh.name) + "_then_" + c.view.name + ".msh");
      set_format(c.mesh.version, c.mesh.binary);
      gmsh::write(file);
      set_format(c.view.version, c.view.binary);
      append_views(file, false);
      remove_views();
    }
  }
  for (const Case& c : cases) {
    const std::string file = dir / (std::string(c.mesh.name) + "_then_" + c.view.name + ".msh");
    SCOPED_TRACE(file);
    const std::string message = load_error(file);
    ASSERT_FALSE(message.empty()) << "no error";
    EXPECT_EQ(message.rfind("cannot load mesh '" + file + "': ", 0), 0u) << message;
    for (const std::string& f : c.expected) EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
    EXPECT_NE(message.find("expected the same version, file-type and data-size"), std::string::npos) << message;
  }
}

// The mesh written with Mesh.SaveAll = 1 holds the side's lines and the corners' points, which the
// copy Gmsh saves with the view (SaveAll off) leaves out: the view's tags would have to be read against
// another mesh than the file's, so the file is refused rather than given values that may be misplaced.
TEST(AppendedViews, ACopyThatIsNotTheMeshIsRefused) {
  test::TempDir dir;
  const std::string file = dir / "save_all.msh";
  {
    GmshSession session;
    make_square();
    set_format(4.1, false);
    gmsh::option::setNumber("PostProcessing.SaveMesh", 1);
    gmsh::option::setNumber("Mesh.SaveAll", 1);
    gmsh::write(file);
    gmsh::option::setNumber("Mesh.SaveAll", 0);
    append_views(file, false);
  }
  const std::string message = load_error(file);
  ASSERT_FALSE(message.empty()) << "no error";
  for (const std::string& f : {std::string("cannot load mesh '" + file + "': section $"), std::string("differs from the mesh's section $"),
                               std::string("expected the same mesh"), std::string("PostProcessing.SaveMesh = 0")})
    EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
}

}  // namespace
