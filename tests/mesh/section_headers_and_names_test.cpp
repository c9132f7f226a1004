// SPDX-License-Identifier: BSD-3-Clause
// Small edges of the MSH reader and writer: section header lines with trailing blanks or '\r' load as
// Gmsh writes them without (Gmsh 4.8's 4.1 reader alone skipped to the end of the file, "the file has no
// elements"); write_msh writes what load_msh reads (tag 2147483647 with a point cloud, gradients of a
// 9-component field one direction at a time); a view without a name is chosen as "#N".
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

std::string corpus_file(const std::string& name) {
  return test::read_file(std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/" + name);
}

}  // namespace

TEST(SectionHeaders, TrailingBlanksAndCarriageReturnsLoadAsWithout) {
  const test::TempDir dir;
  for (const std::string file : {"tri1_named_v41a.msh", "tri1_named_v41b.msh", "tri1_named_v22a.msh", "tet2_v41a.msh",
                                 "tri1_views_v41a.msh"}) {
    const std::string original = corpus_file(file);
    test::write_file(dir / "plain.msh", original);
    const Mesh reference = load_msh(dir / "plain.msh");
    for (const std::string section : {"MeshFormat", "EndMeshFormat", "PhysicalNames", "Entities", "Nodes", "EndNodes",
                                      "Elements", "EndElements"}) {
      for (const std::string blanks : {"   ", "\t", " \r"}) {
        const std::string line = "\n$" + section + "\n";
        const std::size_t at = original.find(line);
        if (at == std::string::npos) continue;
        SCOPED_TRACE(file + ": $" + section + " + '" + blanks + "'");
        std::string padded = original;
        padded.insert(at + line.size() - 1, blanks);
        test::write_file(dir / "padded.msh", padded);
        Mesh mesh;
        ASSERT_NO_THROW(mesh = load_msh(dir / "padded.msh"));
        EXPECT_EQ(mesh.element_count(), reference.element_count());
        EXPECT_EQ(mesh.node_tags, reference.node_tags);
        EXPECT_EQ(mesh.fields.size(), reference.fields.size());
      }
    }
  }
}

TEST(WriteMsh, TheLargestTagsWithAPointCloudLoadBack) {
  const test::TempDir dir;
  test::write_file(dir / "in.msh", corpus_file("tri1_named_v41a.msh"));
  Mesh mesh = load_msh(dir / "in.msh");
  mesh.node_tags.back() = 2147483647;
  mesh.blocks[0].element_tags.back() = 2147483647;
  NodalField field{"u", 1, std::vector<double>(mesh.node_tags.size(), 1.5)};
  const std::vector<double> points = {0.5, 0.5, 0, 0.25, 0.25, 0};
  const std::vector<double> values = {1.5, 1.5};
  PointCloud cloud;
  cloud.blocks.push_back({points.data(), 2});
  cloud.field_values.push_back({values.data(), values.size(), 1, 0});
  for (const double version : {4.1, 2.2})
    for (const bool binary : {false, true}) {
      SCOPED_TRACE(std::to_string(version) + (binary ? " binary" : " ASCII"));
      WriteOptions options;
      options.version = version;
      options.binary = binary;
      ASSERT_NO_THROW(write_msh(dir / "out.msh", mesh, {field}, {}, options, &cloud));
      LoadOptions load;
      load.keep_lower_dimensional = true;
      const Mesh back = load_msh(dir / "out.msh", load);
      EXPECT_EQ(back.node_count(), mesh.node_count() + 2);  // the cloud's nodes, tagged below 2147483647
      for (const double v : feinterp::field(back, "u").values) EXPECT_EQ(v, 1.5);
    }
}

TEST(WriteMsh, GradientsOfNineComponentsOneDirectionAtATime) {
  const test::TempDir dir;
  test::write_file(dir / "in.msh", corpus_file("tri1_named_v41a.msh"));
  const Mesh mesh = load_msh(dir / "in.msh");
  NodalField field{"t", 9, std::vector<double>(mesh.node_tags.size() * 9, 2.0)};
  // Two points, 9 components, 2 directions each: [(p*9 + c)*2 + d] = 10 p + c + d / 10.
  std::vector<double> gradients(2 * 9 * 2), points = {0.5, 0.5, 0, 0.25, 0.25, 0};
  for (int p = 0; p < 2; ++p)
    for (int c = 0; c < 9; ++c)
      for (int d = 0; d < 2; ++d) gradients[std::size_t((p * 9 + c) * 2 + d)] = 10 * p + c + d / 10.0;
  PointCloud cloud;
  cloud.blocks.push_back({points.data(), 2});
  PointCloud::View whole{"all", {{gradients.data(), gradients.size(), 9, 2}}};
  cloud.views.push_back(whole);
  try {  // 27 values per point: no MSH view type holds them
    write_msh(dir / "out.msh", mesh, {field}, {}, {}, &cloud);
    ADD_FAILURE() << "no error";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 9 per point"), std::string::npos) << e.what();
  }
  cloud.views.clear();
  for (int k = 0; k < 3; ++k) {
    PointValues values{gradients.data(), gradients.size(), 9, 2};
    values.direction = k;
    cloud.views.push_back({"d" + std::to_string(k), {values}});
  }
  WriteOptions ascii;
  ascii.binary = false;
  ASSERT_NO_THROW(write_msh(dir / "out.msh", mesh, {field}, {}, ascii, &cloud));
  const std::string text = test::read_file(dir / "out.msh");
  // The first point's d1 view: 0.1 1.1 ... 8.1; its d2 view (beyond the 2 directions): zeros.
  EXPECT_NE(text.find(" 1 0.1 1.1 2.1 3.1 4.1 5.1 6.1 7.1 8.1\n"), std::string::npos);
  EXPECT_NE(text.find(" 1 0 0 0 0 0 0 0 0 0\n"), std::string::npos);
  LoadOptions load;
  load.read_fields = false;  // the field has no values at the points: only the views are looked at here
  EXPECT_EQ(load_msh(dir / "out.msh", load).node_count(), mesh.node_count() + 2);
}

TEST(Fields, AViewWithoutANameIsChosenByItsNumber) {
  Mesh mesh;
  mesh.node_tags = {1, 2};
  mesh.fields = {{"T", 1, {1, 2}}, {"", 2, {1, 2, 3, 4}}};
  EXPECT_EQ(&field(mesh, "#2"), &mesh.fields[1]);
  EXPECT_EQ(&field(mesh, "#1"), &mesh.fields[0]);
  EXPECT_EQ(&field(mesh, ""), &mesh.fields[1]);
  mesh.fields.push_back({"#1", 1, {5, 6}});  // a field really called "#1" is found by its name
  EXPECT_EQ(&field(mesh, "#1"), &mesh.fields[2]);
  for (const std::string bad : {"#0", "#4", "#", "#x", "#99999999999999999999"}) {
    try {
      field(mesh, bad);
      ADD_FAILURE() << bad;
    } catch (const MeshError& e) {
      EXPECT_NE(std::string(e.what()).find("(fields: #1 'T', #2 '', #3 '#1')"), std::string::npos) << e.what();
    }
  }
}
