// SPDX-License-Identifier: BSD-3-Clause
// $NodeData views: scalar and vector fields aligned with contiguous node indices, and the errors for
// incomplete views, wrong component counts and bad look-ups.
#include <gtest/gtest.h>

#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;
using test::msh22;

namespace {

std::string node_data(const std::string& name, int components, const std::string& rows, int count) {
  return "$NodeData\n1\n\"" + name + "\"\n1\n0.0\n3\n0\n" + std::to_string(components) + "\n" + std::to_string(count) +
         "\n" + rows + "$EndNodeData\n";
}

// Nodes listed out of order so that contiguous order differs from tag order.
const std::string nodes = "4\n3 1 1 0\n1 0 0 0\n4 0 1 0\n2 1 0 0\n";

TEST(NodeData, ScalarAndVectorFieldsFollowContiguousNodes) {
  test::TempDir dir;
  const std::string file = dir / "fields.msh";
  test::write_file(file, msh22(nodes, test::square_triangles(),
                               node_data("temperature", 1, "1 10\n2 20\n3 30\n4 40\n", 4) +
                                   node_data("velocity", 3, "4 4 40 400\n3 3 30 300\n2 2 20 200\n1 1 10 100\n", 4)));
  const Mesh mesh = load_msh(file);
  ASSERT_EQ(mesh.fields.size(), 2u);
  const NodalField& t = field(mesh, "temperature", 1);
  const NodalField& v = field(mesh, "velocity", 3);
  for (std::size_t i = 0; i < 4; ++i) {
    const double tag = double(mesh.node_tags[i]);
    EXPECT_EQ(t.values[i], 10 * tag);
    EXPECT_EQ(v.values[3 * i], tag);
    EXPECT_EQ(v.values[3 * i + 1], 10 * tag);
    EXPECT_EQ(v.values[3 * i + 2], 100 * tag);
  }
  LoadOptions no_fields;
  no_fields.read_fields = false;
  EXPECT_TRUE(load_msh(file, no_fields).fields.empty());
}

TEST(NodeData, MissingNodesAreAnError) {
  test::TempDir dir;
  const std::string file = dir / "partial.msh";
  test::write_file(file, msh22(nodes, test::square_triangles(), node_data("pressure", 1, "1 10\n2 20\n4 40\n", 3)));
  try {
    load_msh(file);
    FAIL() << "no error";
  } catch (const MeshError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(file), std::string::npos) << m;
    EXPECT_NE(m.find("'pressure'"), std::string::npos) << m;
    EXPECT_NE(m.find("1 of the mesh's 4 nodes"), std::string::npos) << m;
    EXPECT_NE(m.find("node 3"), std::string::npos) << m;
  }
  LoadOptions no_fields;
  no_fields.read_fields = false;
  EXPECT_EQ(load_msh(file, no_fields).node_count(), 4);
}

TEST(NodeData, WrongComponentCountIsAnError) {
  test::TempDir dir;
  const std::string file = dir / "components.msh";
  // The header says 3 components, each row has 1 value.
  test::write_file(file, msh22(nodes, test::square_triangles(), node_data("velocity", 3, "1 10\n2 20\n3 30\n4 40\n", 4)));
  try {
    load_msh(file);
    FAIL() << "no error";
  } catch (const MeshError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(file), std::string::npos) << m;
  }
  // And the next load works.
  test::write_file(file, msh22(nodes, test::square_triangles()));
  EXPECT_EQ(load_msh(file).element_count(), 2);
}

TEST(FieldLookup, Errors) {
  Mesh mesh;
  mesh.node_tags = {1, 2, 3};
  mesh.coordinates.assign(9, 0.0);
  mesh.fields.push_back({"u", 1, {1, 2, 3}});
  mesh.fields.push_back({"short", 2, {1, 2, 3}});
  EXPECT_EQ(field(mesh, "u").values.size(), 3u);
  try {
    field(mesh, "nope");
    FAIL();
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("'nope'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("'u'"), std::string::npos);  // lists what there is
  }
  EXPECT_THROW(field(mesh, "short"), MeshError);
  EXPECT_THROW(field(mesh, "u", 3), MeshError);
  EXPECT_NO_THROW(field(mesh, "u", 1));
}

}  // namespace
