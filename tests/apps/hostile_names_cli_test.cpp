// SPDX-License-Identifier: BSD-3-Clause
// Bytes from a mesh file never reach the terminal raw (core/printable_text.hpp): the physical names,
// view names and section names of tests/data/msh-corpus/hostile_names_*.msh hold ESC sequences that
// clear the screen and set the window title, a NUL, and bytes of invalid UTF-8 beside valid UTF-8.
// Whatever feinterp prints of them (info's table, --json, interpolate's errors, the file's path) is
// printable UTF-8 with those bytes written \xHH, its --json is valid JSON, and the messages still say
// what was wrong and where.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp::test;

namespace {

const std::string corpus = std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/";
const std::vector<std::string> hostile_files = {"hostile_names_v22a.msh", "hostile_names_v41a.msh"};

// The names of the files, as feinterp prints them. The physical name ends at its 0xff: Gmsh 4.8's
// reader stops a quoted name at a byte that reads as EOF.
const std::string physical_name = "\\x1b[2J\\x1b]0;pwned\\x07 領域\\x00\\xfe\\xc0\\xaf Température";
const std::string view_name = "\\x1b[2J\\x00\\xff température";

// The first byte of `text` that a terminal or a JSON parser must not get (a control character but the
// newline that ends each line, a C1 control, or a byte of invalid UTF-8), with its offset; "" if none.
std::string first_unprintable(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    bool bad = n == 0 || i + n > text.size() || (c < 0x20 && c != '\n') || c == 0x7f;
    if (!bad && n == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) bad = true;
    if (!bad && n >= 2) {
      const unsigned char second = static_cast<unsigned char>(text[i + 1]);
      bad = (c == 0xe0 && second < 0xa0) || (c == 0xed && second > 0x9f) || (c == 0xf0 && second < 0x90) ||
            (c == 0xf4 && second > 0x8f);
      for (std::size_t k = 1; k < n && !bad; ++k) bad = (static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80;
    }
    if (bad) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      return std::string(hex) + " at offset " + std::to_string(i);
    }
    i += n;
  }
  return "";
}

void expect_printable(const Result& run) {
  EXPECT_EQ(first_unprintable(run.out), "") << "stdout:\n" << run.out;
  EXPECT_EQ(first_unprintable(run.err), "") << "stderr:\n" << run.err;
}

void expect_one_error_line(const Result& run, const std::vector<std::string>& fragments) {
  EXPECT_EQ(run.status, 1);
  expect_printable(run);
  const std::vector<std::string> lines = run.error_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("feinterp: error: ", 0), 0u) << lines[0];
  for (const std::string& f : fragments) EXPECT_NE(lines[0].find(f), std::string::npos) << "'" << f << "' not in: " << lines[0];
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST(HostileNamesCli, InfoPrintsTheNamesEscaped) {
  for (const std::string& file : hostile_files) {
    SCOPED_TRACE(file);
    const Result run = run_feinterp({"info", corpus + file});
    EXPECT_EQ(run.status, 0) << run.err;
    expect_printable(run);
    EXPECT_NE(run.out.find("2D 7      " + physical_name), std::string::npos) << run.out;
    EXPECT_NE(run.out.find(" " + view_name + " 1 component, range [1, 4]"), std::string::npos) << run.out;
  }
}

TEST(HostileNamesCli, InfoJsonIsValidJsonWithTheNamesEscapedOnce) {
  for (const std::string& file : hostile_files) {
    SCOPED_TRACE(file);
    const Result run = run_feinterp({"info", corpus + file, "--json"});
    ASSERT_EQ(run.status, 0) << run.err;
    expect_printable(run);
    const Json doc = parse_json(run.out);  // nlohmann refuses invalid UTF-8 and raw control characters
    expect_document(doc, "feinterp.info/1", "info");
    ASSERT_EQ(doc.at("physical_groups").size(), 1u) << doc;
    EXPECT_EQ(doc.at("physical_groups")[0].at("name"), physical_name);  // one level of escapes once parsed
    EXPECT_EQ(doc.at("physical_groups")[0].at("tag"), 7);
    ASSERT_EQ(doc.at("fields").size(), 1u) << doc;
    EXPECT_EQ(doc.at("fields")[0].at("name"), view_name);
    // What the JSON text holds: the escape's backslash written as JSON's \\, nothing else.
    EXPECT_NE(run.out.find("\"\\\\x1b[2J\\\\x00\\\\xff température\""), std::string::npos) << run.out;
  }
}

TEST(HostileNamesCli, InterpolateJsonIsValidJson) {
  TempDir dir;
  const std::string path = dir / "mesh\x1b[2J\xff.msh";
  write_text(path, read_text(corpus + hostile_files[1]));
  const Result run = run_feinterp({"interpolate", path, "--expr", "x", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  expect_printable(run);
  const Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.interpolate/1", "interpolate");
  EXPECT_EQ(doc.at("mesh"), dir.path() + "/mesh\\x1b[2J\\xff.msh");
}

TEST(HostileNamesCli, AnUnknownFieldListsTheFilesViewNamesEscaped) {
  for (const std::string& file : hostile_files) {
    SCOPED_TRACE(file);
    expect_one_error_line(run_feinterp({"interpolate", corpus + file, "--field", "\x1b[31mred"}),
                          {"no field named '\\x1b[31mred'", "'" + view_name + "')"});
  }
}

TEST(HostileNamesCli, ErrorsQuoteTheFilesNamesEscapedAndSayWhere) {
  TempDir dir;
  const std::string header = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string square = "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n"
                             "$Elements\n2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n$EndElements\n";  // lines 4-14
  const std::string name("\x1b[2J\0\xff", 6);
  struct Case {
    std::string content;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      // A physical name without its closing quote.
      {header + "$PhysicalNames\n1\n2 7 \"" + name + "\n$EndPhysicalNames\n" + square,
       {"section $PhysicalNames, line 6: found ' \"\\x1b[2J\\x00\\xff' where the physical name should be",
        "expected a name in double quotes"}},
      // A view with a non-finite value.
      {header + square + "$NodeData\n1\n\"" + name + "\"\n1\n0\n3\n0\n1\n4\n1 1\n2 2\n3 inf\n4 4\n$EndNodeData\n",
       {"section $NodeData, line 27: the value of view '\\x1b[2J\\x00\\xff' at node 3 is inf; expected finite numbers"}},
      // A section named by an escape sequence that has no end.
      {header + square + "$\x1b]0;pwned\x07\n",
       {"section $\\x1b]0;pwned\\x07, line 17: section $\\x1b]0;pwned\\x07 has no $End\\x1b]0;pwned\\x07 line"}},
      // The same name opening a section where one should close.
      {header + "$End\x1b[2J\xff\n",
       {"line 4: $End\\x1b[2J\\xff closes a section that was not opened; expected $\\x1b[2J\\xff before it"}},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    const std::string path = dir / ("case" + std::to_string(i) + ".msh");
    write_text(path, cases[i].content);
    std::vector<std::string> fragments = cases[i].expected;
    fragments.push_back("cannot load mesh '" + path + "'");
    expect_one_error_line(run_feinterp({"info", path}), fragments);
    expect_one_error_line(run_feinterp({"interpolate", path, "--expr", "x"}), fragments);
  }
}

TEST(HostileNamesCli, APathWithControlCharactersIsPrintedEscaped) {
  TempDir dir;
  const std::string file = "\x1b]0;pwned\x07\x1b[2J\xff.msh";
  const std::string printed = dir.path() + "/\\x1b]0;pwned\\x07\\x1b[2J\\xff.msh";
  write_text(dir / file, read_text(corpus + hostile_files[1]));
  const Result info = run_feinterp({"info", dir / file});
  EXPECT_EQ(info.status, 0) << info.err;
  expect_printable(info);
  EXPECT_EQ(info.out.rfind(printed + ": 2D elements in 2D space", 0), 0u) << info.out;

  const Result json = run_feinterp({"info", dir / file, "--json"});
  ASSERT_EQ(json.status, 0) << json.err;
  expect_printable(json);
  EXPECT_EQ(parse_json(json.out).at("mesh"), printed);

  const Result table = run_feinterp({"interpolate", dir / file, "--expr", "x", "--csv", dir / (file + ".csv")});
  EXPECT_EQ(table.status, 0) << table.err;
  expect_printable(table);
  EXPECT_EQ(table.out.rfind(printed + ": ", 0), 0u) << table.out;
  EXPECT_NE(table.out.find("wrote " + printed + ".csv"), std::string::npos) << table.out;

  write_text(dir / file, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n");
  expect_one_error_line(run_feinterp({"info", dir / file}), {"cannot load mesh '" + printed + "': section $Nodes, line 7: the file ends here"});
  expect_one_error_line(run_feinterp({"info", dir / "missing\x1b[2J.msh"}),
                        {"cannot load mesh '" + dir.path() + "/missing\\x1b[2J.msh'"});
}

}  // namespace
