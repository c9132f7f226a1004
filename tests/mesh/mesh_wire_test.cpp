// SPDX-License-Identifier: BSD-3-Clause
// The wire format between the reader process and load_msh (mesh/detail/mesh_wire.hpp): a Mesh travels
// whole, warnings arrive in order, and a truncated or lying stream is a MeshError, never an allocation
// of what a count claims.
#include <gtest/gtest.h>

#include <cstring>
#include <feinterp/mesh/detail/loaded_mesh_checks.hpp>
#include <feinterp/mesh/detail/mesh_wire.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/generate.hpp>

using namespace feinterp;
using namespace feinterp::detail;

namespace {

TEST(MeshWire, AMeshTravelsWhole) {
  Mesh mesh = generate_mesh({{Shape::tetrahedron, 2}, 300, 1});
  mesh.fields.push_back({"u", 2, std::vector<double>(2 * std::size_t(mesh.node_count()), 0.5)});
  mesh.physical_groups.push_back({3, 7, "solid"});
  for (int& p : mesh.blocks[0].physical_tags) p = 7;
  mesh.skipped_elements = 12;
  std::vector<std::string> warnings;
  const WireResult back =
      read_wire(wire_bytes(mesh, {"first", "second"}), [&](const std::string& w) { warnings.push_back(w); }, "ctx");
  ASSERT_TRUE(back.ok);
  EXPECT_EQ(warnings, (std::vector<std::string>{"first", "second"}));
  const Mesh& m = back.mesh;
  EXPECT_EQ(m.dimension, mesh.dimension);
  EXPECT_EQ(m.space_dimension, 3);
  EXPECT_EQ(m.skipped_elements, 12);
  EXPECT_EQ(m.coordinates, mesh.coordinates);
  EXPECT_EQ(m.node_tags, mesh.node_tags);
  ASSERT_EQ(m.blocks.size(), mesh.blocks.size());
  EXPECT_EQ(m.blocks[0].type, mesh.blocks[0].type);
  EXPECT_EQ(m.blocks[0].space_dimension, 3);
  EXPECT_EQ(m.blocks[0].connectivity, mesh.blocks[0].connectivity);
  EXPECT_EQ(m.blocks[0].element_tags, mesh.blocks[0].element_tags);
  EXPECT_EQ(m.blocks[0].physical_tags, mesh.blocks[0].physical_tags);
  ASSERT_EQ(m.fields.size(), 1u);
  EXPECT_EQ(m.fields[0].name, "u");
  EXPECT_EQ(m.fields[0].components, 2);
  EXPECT_EQ(m.fields[0].values, mesh.fields[0].values);
  ASSERT_EQ(m.physical_groups.size(), 1u);
  EXPECT_EQ(m.physical_groups[0].name, "solid");
}

TEST(MeshWire, TruncatedOrLyingStreamsAreErrors) {
  const Mesh mesh = generate_mesh({{Shape::triangle, 1}, 50, 1});
  const std::string bytes = wire_bytes(mesh);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 97) {
    try {
      read_wire(bytes.substr(0, cut), {}, "ctx");
      ADD_FAILURE() << "no error at " << cut;
    } catch (const MeshError& e) {
      EXPECT_NE(std::string(e.what()).find("ctx: the reader sent a malformed result"), std::string::npos) << e.what();
    }
  }
  // A count of 2^60 coordinates in a short stream: refused before any allocation.
  std::string lying = bytes.substr(0, 8 + 1 + 4 + 4);  // header, 'M', dimension, space dimension
  const std::uint64_t huge = std::uint64_t(1) << 60;
  lying.append(reinterpret_cast<const char*>(&huge), sizeof huge);
  EXPECT_THROW(read_wire(lying, {}, "ctx"), MeshError);
  EXPECT_THROW(read_wire("FEIW\2\0\0\0M", {}, "ctx"), MeshError);  // another version
  EXPECT_THROW(read_wire(bytes.substr(0, 8) + "X", {}, "ctx"), MeshError);  // unknown record
}

// The space dimension decides which coordinates the kernels read: load_msh recomputes it from the
// coordinates and refuses a reader that says otherwise, for the mesh or for one block.
TEST(LoadedMeshChecks, SpaceDimensionIsWhatTheCoordinatesSay) {
  Mesh planar = generate_mesh({{Shape::triangle, 2}, 40, 1});
  ASSERT_EQ(planar.space_dimension, 2);
  const std::size_t nodes = std::size_t(planar.node_count());
  EXPECT_NO_THROW(check_loaded_mesh(planar, nodes, "ctx"));
  Mesh lying = planar;
  lying.space_dimension = 3;
  for (ElementBlock& b : lying.blocks) b.space_dimension = 3;
  try {
    check_loaded_mesh(lying, nodes, "ctx");
    ADD_FAILURE() << "a planar mesh said to be in 3D was accepted";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("ctx: the reader returned space dimension 3 (expected 2"), std::string::npos)
        << e.what();
  }
  Mesh raised = planar;
  raised.coordinates[2] = 0.25;  // node 0 off the plane: 3D, whatever the reader says
  EXPECT_THROW(check_loaded_mesh(raised, nodes, "ctx"), MeshError);
  raised.space_dimension = 3;
  EXPECT_THROW(check_loaded_mesh(raised, nodes, "ctx"), MeshError);  // its block still says 2
  for (ElementBlock& b : raised.blocks) b.space_dimension = 3;
  EXPECT_NO_THROW(check_loaded_mesh(raised, nodes, "ctx"));
  Mesh skipped = planar;
  skipped.skipped_elements = -1;
  EXPECT_THROW(check_loaded_mesh(skipped, nodes, "ctx"), MeshError);
}

TEST(MeshWire, ErrorsTravelAsRecords) {
  std::string bytes;
  WireWriter writer(bytes);
  writer.warning("careful");
  writer.error("cannot load mesh 'a.msh': because");
  writer.flush();
  const WireResult result = read_wire(bytes, {}, "ctx");
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.error, "cannot load mesh 'a.msh': because");
}

}  // namespace
