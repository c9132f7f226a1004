// SPDX-License-Identifier: BSD-3-Clause
// Running the feinterp binary from tests: arguments in, exit status, stdout and stderr out; plus a
// temporary directory and the parsing of its --json output (nlohmann::json, Debian nlohmann-json3-dev).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <feinterp/tests/support/temp_dir.hpp>

namespace feinterp::test {

inline void write_text(const std::string& path, const std::string& content) { std::ofstream(path, std::ios::binary) << content; }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Result {
  int status = -1;
  std::string out, err;
  /// The stderr lines, for the "exactly one line" checks.
  /// stderr's non-empty lines but the progress display's (apps/common/progress.cpp), which a stage that
  /// runs over a second prints on any machine slow enough: "feinterp: <stage>: 2 s so far",
  /// "...: 45% after 2 s, ~3 s left", "...: done in 1.1 s", each possibly followed by "; <detail>".
  std::vector<std::string> error_lines() const {
    static const std::regex progress(R"(^[a-z-]+: (?!error: ).+: (done in .+|\S+( \S+)* so far(; .*)?|[0-9]+% after .+))");
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && !std::regex_match(line, progress)) lines.push_back(line);
    return lines;
  }
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs FEINTERP_EXE with `arguments` (no shell interpretation of them).
inline Result run_feinterp(const std::vector<std::string>& arguments) {
  static int counter = 0;
  const std::string base = std::filesystem::temp_directory_path().string() + "/feinterp-cli-run-" +
                           std::to_string(::getpid()) + "-" + std::to_string(counter++);
  std::string command = shell_quote(FEINTERP_EXE);
  for (const std::string& a : arguments) command += " " + shell_quote(a);
  command += " >" + base + ".out 2>" + base + ".err";
  const int status = std::system(command.c_str());
  Result run;
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_text(base + ".out");
  run.err = read_text(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return run;
}

/// feinterp's --json output parsed by a real JSON parser, keys kept in the file's order (ordered_json):
/// a syntax error fails with the text.
using Json = nlohmann::ordered_json;
inline Json parse_json(const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& error) {
    throw std::runtime_error(std::string("not a JSON document (") + error.what() + "):\n" + text);
  }
}

/// Checks the keys every feinterp --json document starts with: "schema" first (exactly `schema`, e.g.
/// "feinterp.info/1"), "feinterp_version" and "git_revision" (non-empty strings), "command".
inline void expect_document(const Json& doc, const std::string& schema, const std::string& command) {
  ASSERT_TRUE(doc.is_object()) << doc;
  ASSERT_TRUE(doc.contains("schema")) << doc;
  EXPECT_EQ(doc.at("schema"), schema);
  EXPECT_EQ(doc.begin().key(), "schema") << "the first key";
  for (const char* key : {"feinterp_version", "git_revision"}) {
    ASSERT_TRUE(doc.contains(key) && doc.at(key).is_string()) << key << " in " << doc;
    EXPECT_FALSE(doc.at(key).get<std::string>().empty()) << key;
  }
  EXPECT_EQ(doc.at("command"), command);
}

/// A JSON array of numbers as doubles (a type error if it holds anything else).
inline std::vector<double> numbers(const Json& array) {
  EXPECT_TRUE(array.is_array()) << array;
  return array.get<std::vector<double>>();
}

}  // namespace feinterp::test
