// SPDX-License-Identifier: BSD-3-Clause
// Running the feinterp binary from tests: arguments in, exit status, stdout and stderr out; plus a
// temporary directory and a minimal reader for the numbers of its --json output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/temp_dir.hpp"

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
  std::vector<std::string> error_lines() const {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) lines.push_back(line);
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

/// The numbers of the array at "key":[...] in `json` (the first occurrence after `after`, if given).
/// Enough for feinterp's flat, known output; not a JSON parser.
inline std::vector<double> json_numbers(const std::string& json, const std::string& key, const std::string& after = "") {
  std::size_t from = after.empty() ? 0 : json.find(after);
  if (from == std::string::npos) throw std::runtime_error("no '" + after + "' in the JSON");
  const std::size_t at = json.find("\"" + key + "\":", from);
  if (at == std::string::npos) throw std::runtime_error("no key '" + key + "' in the JSON");
  std::size_t i = at + key.size() + 3;
  std::vector<double> numbers;
  const bool array = json[i] == '[';
  if (array) ++i;
  while (i < json.size()) {
    char* end = nullptr;
    numbers.push_back(std::strtod(json.c_str() + i, &end));
    i = std::size_t(end - json.c_str());
    if (!array || json[i] != ',') break;
    ++i;
  }
  return numbers;
}

}  // namespace feinterp::test
