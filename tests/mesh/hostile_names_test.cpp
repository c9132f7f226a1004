// SPDX-License-Identifier: BSD-3-Clause
// The loader's messages quote what a file holds escaped (core/printable_text.hpp), while the Mesh keeps
// the file's bytes: section names, physical names and view names of tests/data/msh-corpus/hostile_names_*
// and of crafted files, holding ESC sequences, a NUL and bytes of invalid UTF-8; the path of the file;
// and the reader child's own messages, as untrusted as the file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <feinterp/mesh/detail/mesh_wire.hpp>
#include <feinterp/mesh/detail/msh_scan.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>
#include <feinterp/tests/support/hostile_msh.hpp>

using namespace feinterp;
using namespace std::string_literals;

namespace {

const std::string corpus = std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/";

// Whether `message` holds a byte a terminal would act on (a control character, DEL, or a byte >= 0x80
// outside a valid sequence of the few multibyte characters these files hold).
bool has_raw_control(const std::string& message) {
  for (const char ch : message) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f || c == 0xff || c == 0xfe || c == 0xc0) return true;
  }
  return false;
}

std::string load_error(const std::string& path, LoadOptions options = {}) {
  try {
    load_msh(path, options);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "";
}

TEST(HostileNames, TheMeshKeepsTheFilesBytes) {
  for (const char* file : {"hostile_names_v22a.msh", "hostile_names_v41a.msh"}) {
    SCOPED_TRACE(file);
    const Mesh mesh = load_msh(corpus + file);
    ASSERT_EQ(mesh.physical_groups.size(), 1u);
    // Gmsh 4.8 ends a quoted name at the 0xff that closes it (it reads as EOF); the NUL stays.
    EXPECT_EQ(mesh.physical_groups[0].name, "\x1b[2J\x1b]0;pwned\x07 領域\0\xfe\xc0\xaf Température"s);
    ASSERT_EQ(mesh.fields.size(), 1u);
    EXPECT_EQ(mesh.fields[0].name, "\x1b[2J\0\xff température"s);
  }
}

TEST(HostileNames, MessagesQuoteViewNamesEscaped) {
  const Mesh mesh = load_msh(corpus + "hostile_names_v41a.msh");
  try {
    feinterp::field(mesh, "\x1b[31mred");
    FAIL() << "no error";
  } catch (const MeshError& e) {
    const std::string message = e.what();
    EXPECT_FALSE(has_raw_control(message)) << message;
    EXPECT_NE(message.find("no field named '\\x1b[31mred'"), std::string::npos) << message;
    EXPECT_NE(message.find("'\\x1b[2J\\x00\\xff température'"), std::string::npos) << message;
  }
  try {
    feinterp::field(mesh, mesh.fields[0].name, 3);
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_EQ(std::string(e.what()), "field '\\x1b[2J\\x00\\xff température' has 1 components: expected 3");
  }
}

TEST(HostileNames, ScanErrorsQuoteSectionPhysicalAndViewNamesEscaped) {
  using test::hostile::square22;
  const std::string name("\x1b[2J\0\xff", 6);
  const std::string elements = "$Elements\n2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n$EndElements\n";  // lines 11-15
  const std::string view = "$NodeData\n1\n\"" + name + "\"\n1\n0\n3\n0\n1\n4\n1 1\n2 2\n3 inf\n4 4\n$EndNodeData\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {test::hostile::header22 + "$PhysicalNames\n1\n2 7 \"" + name + "\n$EndPhysicalNames\n",
       "cannot load mesh 'crafted\\x1b[2J.msh': section $PhysicalNames, line 6: found ' \"\\x1b[2J\\x00\\xff' where the "
       "physical name should be; expected a name in double quotes"},
      {square22 + elements + view,
       "cannot load mesh 'crafted\\x1b[2J.msh': section $NodeData, line 27: the value of view '\\x1b[2J\\x00\\xff' at "
       "node 3 is inf; expected finite numbers"},
      {square22 + elements + "$\x1b]0;pwned\x07\n",
       "cannot load mesh 'crafted\\x1b[2J.msh': section $\\x1b]0;pwned\\x07, line 17: section $\\x1b]0;pwned\\x07 has "
       "no $End\\x1b]0;pwned\\x07 line; expected one to close it (the file is truncated?)"},
      {test::hostile::header22 + "$End\x1b[2J\xff\n",
       "cannot load mesh 'crafted\\x1b[2J.msh': section $End\\x1b[2J\\xff, line 4: $End\\x1b[2J\\xff closes a section "
       "that was not opened; expected $\\x1b[2J\\xff before it"},
      {square22 + elements + "$\x1b[2J\nabc\n$End\x1b[2J\n\x1b[2J\xc3\n",
       "cannot load mesh 'crafted\\x1b[2J.msh': line 19: found '\\x1b[2J\\xc3' between sections; expected a section "
       "header such as $Nodes"},
  };
  for (const auto& [content, expected] : cases) {
    try {
      detail::scan_msh(content, "crafted\x1b[2J.msh", {true});
      ADD_FAILURE() << "no error for: " << expected;
    } catch (const MeshError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  }
}

TEST(HostileNames, ThePathIsQuotedEscaped) {
  test::TempDir dir;
  const std::string path = dir / "mesh\x1b]0;pwned\x07\xff.msh";
  const std::string printed = dir.path() + "/mesh\\x1b]0;pwned\\x07\\xff.msh";
  const std::string missing = load_error(path);
  EXPECT_EQ(missing.rfind("cannot load mesh '" + printed + "': ", 0), 0u) << missing;
  test::write_file(path, test::hostile::square22 + "$Elements\n1\n1 2 2 0 1 1 2 9\n$EndElements\n");
  const std::string unknown_node = load_error(path);
  EXPECT_EQ(unknown_node.rfind("cannot load mesh '" + printed + "': section $Elements, line 13", 0), 0u) << unknown_node;
  for (const std::string& message : {missing, unknown_node}) EXPECT_FALSE(has_raw_control(message)) << message;
}

TEST(HostileNames, TheReadersMessagesAreEscapedOnArrival) {
  std::string bytes;
  detail::WireWriter writer(bytes);
  writer.warning("view \x1b]0;pwned\x07 ignored\xff");
  writer.error("cannot load mesh 'a.msh': Gmsh says \x1b[2J\0 and more"s);
  writer.flush();
  std::vector<std::string> warnings;
  const detail::WireResult result = detail::read_wire(bytes, [&](const std::string& w) { warnings.push_back(w); }, "ctx");
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(warnings, std::vector<std::string>{"view \\x1b]0;pwned\\x07 ignored\\xff"});
  EXPECT_EQ(result.error, "cannot load mesh 'a.msh': Gmsh says \\x1b[2J\\x00 and more");
}

}  // namespace
