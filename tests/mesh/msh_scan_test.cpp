// SPDX-License-Identifier: BSD-3-Clause
// The pre-scan (mesh/detail/msh_scan.hpp) on its own, in memory: every hostile class of issue 10 is
// refused with the section, the line or byte offset and what was expected; every real Gmsh file of the
// corpus passes; positions, line limits, whole numbers and section order; and its memory does not
// follow the counts a file announces.
#include <gtest/gtest.h>

#include <cmath>
#include <feinterp/mesh/detail/msh_scan.hpp>
#include <feinterp/mesh/detail/sandbox.hpp>
#include <feinterp/mesh/error.hpp>
#include <filesystem>

#include <feinterp/tests/support/hostile_msh.hpp>
#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;
using namespace feinterp::detail;
using namespace std::string_literals;

namespace {

std::string scan_error(const std::string& content, const std::string& name = "crafted.msh") {
  try {
    scan_msh(content, name, {true});
  } catch (const MeshError& e) {
    return e.what();
  }
  return "";
}

void expect_scan_error(const std::string& content, const std::vector<std::string>& fragments) {
  const std::string message = scan_error(content);
  ASSERT_FALSE(message.empty()) << "no error";
  EXPECT_EQ(message.rfind("cannot load mesh 'crafted.msh': ", 0), 0u) << message;
  for (const std::string& f : fragments) EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
}

std::vector<std::filesystem::path> corpus() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus"))
    if (entry.path().extension() == ".msh") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(MshScan, EveryHostileClassIsRefusedWithWhereAndWhat) {
  const std::vector<test::HostileFile> files = test::hostile_files("/nonexistent/marker");
  ASSERT_GE(files.size(), 40u);
  for (const test::HostileFile& f : files) {
    SCOPED_TRACE(f.name);
    const std::string message = scan_error(f.content, f.name + ".msh");
    ASSERT_FALSE(message.empty()) << "no error";
    EXPECT_EQ(message.rfind("cannot load mesh '" + f.name + ".msh': ", 0), 0u) << message;
    EXPECT_NE(message.find("expected"), std::string::npos) << message;
    for (const std::string& fragment : f.expected)
      EXPECT_NE(message.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << message;
  }
}

TEST(MshScan, EveryGmshFileOfTheCorpusPasses) {
  const std::vector<std::filesystem::path> files = corpus();
  // 40 written by Gmsh, 4 crafted (hostile_names_*: names with control bytes; blank_headers_v41a: header lines
  // with trailing blanks and '\r'; largest_tags_views_v41a: tag 2147483647, 9 components, a view without a name)
  ASSERT_EQ(files.size(), 44u);
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    const std::string bytes = test::read_file(file.string());
    MshScan scan;
    ASSERT_NO_THROW(scan = scan_msh(bytes, file.string(), {true}));
    EXPECT_GT(scan.node_count, 0u);
    EXPECT_GT(scan.element_count, 0u);
    EXPECT_EQ(scan.binary, file.stem().string().back() == 'b');
    EXPECT_EQ(scan.version, file.stem().string().find("_v41") != std::string::npos ? 4.1 : 2.2);
    for (const MshSection& s : scan.sections) {
      const bool mesh = s.name == "MeshFormat" || s.name == "PhysicalNames" || s.name == "Entities" ||
                        s.name == "PartitionedEntities" || s.name == "Nodes" || s.name == "ParametricNodes" ||
                        s.name == "Elements";
      EXPECT_EQ(s.for_gmsh, mesh) << s.name;
      EXPECT_EQ(bytes.compare(s.begin, s.name.size() + 1, "$" + s.name), 0) << s.where;
    }
  }
}

TEST(MshScan, NodeDataIsReadWithItsHeader) {
  const MshScan scan =
      scan_msh(test::read_file(std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/tri1_views_v41b.msh"), "views", {true});
  ASSERT_EQ(scan.node_data.size(), 3u);  // temperature at steps 0 and 1, velocity
  EXPECT_EQ(scan.node_data[0].name, "temperature");
  EXPECT_EQ(scan.node_data[1].step, 1);
  EXPECT_EQ(scan.node_data[2].name, "velocity");
  EXPECT_EQ(scan.node_data[2].components, 3);
  for (const ScannedNodeData& d : scan.node_data) {
    EXPECT_EQ(d.values.size(), d.tags.size() * std::size_t(d.components));
    EXPECT_NE(d.where.find("section $NodeData, byte offset"), std::string::npos) << d.where;
  }
  EXPECT_TRUE(scan_msh(test::hostile::square41() + test::hostile::view(), "x", {false}).node_data.empty());
}

TEST(MshScan, GmshGetsOnlyTheMeshSections) {
  using namespace test::hostile;
  EXPECT_TRUE(scan_msh(square41(), "x").all_for_gmsh(square41().size()));
  for (const std::string& extra : {view(), "$Comments\nanything, even $Nodes\n$EndComments\n"s,
                                    "$Periodic\n0\n$EndPeriodic\n"s, "$Unknown\n1 2 3\n$EndUnknown\n"s}) {
    const MshScan scan = scan_msh(square41() + extra, "x");
    EXPECT_FALSE(scan.all_for_gmsh(square41().size() + extra.size())) << extra;
    EXPECT_FALSE(scan.sections.back().for_gmsh) << extra;
  }
  EXPECT_FALSE(scan_msh(square41() + "\n\n", "x").all_for_gmsh(square41().size() + 2));  // bytes between sections
}

TEST(MshScan, StructureAndOrder) {
  using namespace test::hostile;
  expect_scan_error(header41 + entities41 + elements41() + nodes41(), {"section $Elements, line 8", "before $Nodes"});
  expect_scan_error(square41() + view() + nodes41(), {"section $Nodes", "after post-processing data", "line 26"});
  expect_scan_error(square41() + elements41(), {"a second $Elements section"});
  expect_scan_error(header41 + "$EndNodes\n", {"line 4", "closes a section that was not opened"});
  expect_scan_error(header41, {"the file has no elements", "$Elements"});
  expect_scan_error(square41().substr(0, square41().size() - 1) + "x\n", {"section $Elements", "$EndElementsx"});
  // Entities of an element block must exist, with the dimension of the element type.
  expect_scan_error(header41 + entities41 + nodes41() + elements41("1 2 1 2", "3 1 2 2\n1 1 2 3\n2 1 3 4\n"),
                    {"section $Elements, line 22", "Triangle 3 (dimension 2) but its entity has dimension 3"});
  expect_scan_error(header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 7 2 2\n1 1 2 3\n2 1 3 4\n"),
                    {"section $Elements, line 22", "(dimension 2, tag 7) is in neither $Entities nor $Nodes"});
  expect_scan_error(header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 1 34 2\n1 1 2 3\n2 1 3 4\n"),
                    {"section $Elements, line 22", "element type 34 is not one feinterp lets Gmsh read"});
}

TEST(MshScan, NumbersAreWholeTokens) {
  using namespace test::hostile;
  expect_scan_error(header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3x\n4\n") + elements41(),
                    {"section $Nodes, line 13", "found '3x' where the node tag should be"});
  expect_scan_error(header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n4\n", "0 0 0\n1 0 0\n1 1.0.0 0\n0 1 0\n") + elements41(),
                    {"section $Nodes, line 17", "found '1.0.0' where a coordinate should be; expected a number"});
  expect_scan_error(header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n4.0\n") + elements41(), {"found '4.0'"});
  expect_scan_error(header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n99999999999999999999\n") + elements41(),
                    {"line 14", "out of range"});
  // A leading '+' is a number (fscanf reads it); "+-1" is not.
  EXPECT_NO_THROW(scan_msh(header41 + entities41 + nodes41("1 4 1 4", "+1\n2\n3\n4\n") + elements41(), "x"));
  expect_scan_error(header41 + entities41 + nodes41("1 4 1 4", "+-1\n2\n3\n4\n") + elements41(), {"found '+-1'"});
}

TEST(MshScan, LinesLongerThanGmshsBuffersAreRefused) {
  using namespace test::hostile;
  // An ASCII 4.1 element's nodes are read with fgets into 10000 bytes.
  const std::string padded = "2 1 2 2\n1 1 2" + std::string(10000, ' ') + "3\n2 1 3 4\n";
  expect_scan_error(header41 + entities41 + nodes41() + elements41("1 2 1 2", padded), {"line 23", "expected at most 9999"});
  // A view's name is read with fgets into 256 bytes.
  expect_scan_error(square41() + "$NodeData\n1\n\"" + std::string(300, 'n') + "\"\n1\n0\n3\n0\n1\n0\n$EndNodeData\n",
                    {"section $NodeData, line 28", "expected at most 256"});
  // An element's nodes on the next line: Gmsh would read an empty line.
  expect_scan_error(header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 1 2 2\n1\n1 2 3\n2 1 3 4\n"),
                    {"line 23", "the line ends where a node tag of the element should be"});
}

TEST(MshScan, ByteOffsetsInBinaryFiles) {
  const std::string good = test::hostile::binary_square41(4);
  EXPECT_NO_THROW(scan_msh(good, "x"));
  for (std::size_t cut : {std::size_t(100), std::size_t(200), std::size_t(300), good.size() - 5}) {
    const std::string message = scan_error(good.substr(0, cut));
    EXPECT_NE(message.find("byte offset"), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
  }
  std::string wrong_order = good;
  wrong_order[20] = 0, wrong_order[23] = 1;  // the integer 1 written in the other byte order
  expect_scan_error(wrong_order, {"another byte order"});
}

TEST(MshScan, MemoryDoesNotFollowAnnouncedCounts) {
  // In a child allowed 64 MiB: every hostile file (some announce 1e12 nodes or 2^31 - 1 of something)
  // must be refused, not allocated for.
  SandboxLimits limits;
  limits.memory_bytes = std::size_t(64) << 20;
  limits.cpu_seconds = 10;
  limits.wall_seconds = 30;
  limits.output_bytes = 1 << 20;
  Sandbox child(limits, [](int out) {
    int refused = 0;
    for (const test::HostileFile& f : test::hostile_files("/nonexistent/marker")) try {
        scan_msh(f.content, f.name);
      } catch (const MeshError&) {
        ++refused;
      }
    if (::write(out, &refused, sizeof refused) != sizeof refused) std::abort();
  });
  int refused = 0;
  child.read(&refused, sizeof refused);
  child.finish();
  EXPECT_EQ(std::size_t(refused), test::hostile_files("/nonexistent/marker").size());
}

}  // namespace
