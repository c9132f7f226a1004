// SPDX-License-Identifier: BSD-3-Clause
// feinterp-cpu-bench runs and its CSV holds what it says: every row's rate over the triad bandwidth of
// the same run (apps/cpu-bench/triad_bandwidth.hpp), the same DoF rate in every row of one case and C
// relative to its time, the forward operations, their transposes and the fused operators each once; and
// a bad option is one line and a non-zero exit.
// No timing is judged here: only that the columns agree with each other.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.push_back(field), field.clear();
    else field += c;
  }
  out.push_back(field);
  return out;
}

}  // namespace

TEST(CpuBench, RowsAreSharesOfTheTriadOfTheSameRun) {
  const std::string csv = ::testing::TempDir() + "cpu-bench-" + std::to_string(::getpid()) + ".csv";
  const std::string command = std::string(FEINTERP_CPU_BENCH_EXE) +
                              " --case tri:1 --case hex:1 --elements 4000 --runs 1 --triad-mib 8 --csv " + csv +
                              " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream file(csv);
  std::string line;
  ASSERT_TRUE(std::getline(file, line));
  const std::vector<std::string> header = fields(line);
  ASSERT_EQ(header.size(), 12u) << line;
  EXPECT_EQ(header[1], "operation");
  EXPECT_EQ(header[6], "seconds");
  EXPECT_EQ(header[8], "GB_per_second");
  EXPECT_EQ(header[9], "triad_GB_per_second");
  EXPECT_EQ(header[10], "share_of_triad");
  EXPECT_EQ(header[11], "GDoF_per_second");
  std::vector<std::string> operations;
  int rows = 0;
  double dofs = 0;  // nodes * C of the current case and C: GDoF/s * seconds, the same in each of its rows
  while (std::getline(file, line)) {
    const std::vector<std::string> f = fields(line);
    ASSERT_EQ(f.size(), 12u) << line;
    const double seconds = std::stod(f[6]), rate = std::stod(f[8]), triad = std::stod(f[9]), share = std::stod(f[10]);
    EXPECT_GT(rate, 0) << line;
    EXPECT_GT(triad, 0) << line;
    EXPECT_NEAR(share, rate / triad, 1e-5 * share) << line;
    const double row_dofs = std::stod(f[11]) * 1e9 * seconds;
    if (rows % 8 == 0) dofs = row_dofs;
    EXPECT_NEAR(row_dofs, dofs, 1e-4 * dofs) << line;
    if (rows < 8) operations.push_back(f[1]);
    ++rows;
  }
  EXPECT_EQ(rows, 2 * 2 * 8);  // two types, C = 1 and dim, eight operations
  EXPECT_EQ(operations, (std::vector<std::string>{"values", "reference_gradients", "physical_gradients", "values_transpose",
                                                   "reference_gradients_transpose", "physical_gradients_transpose",
                                                   "operator mass", "operator diffusion"}));
  std::remove(csv.c_str());
}

TEST(CpuBench, BadTriadSizeIsOneLineAndAFailure) {
  for (const char* size : {"-3", "x", "0.5"}) {
    const std::string command = std::string(FEINTERP_CPU_BENCH_EXE) + " --triad-mib " + size + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
    const int status = ::pclose(pipe);
    EXPECT_NE(status, 0) << size;
    EXPECT_NE(output.find("feinterp-cpu-bench: error: --triad-mib"), std::string::npos) << output;
    EXPECT_EQ(output.find('\n'), output.size() - 1) << output;
  }
}
