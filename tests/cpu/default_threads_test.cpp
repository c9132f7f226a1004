// SPDX-License-Identifier: BSD-3-Clause
// The default thread count (cpu/default_threads.hpp): the order of its sources (an explicit
// request, FEINTERP_NUM_THREADS, OMP_NUM_THREADS, the CPUs available), the parsers of the variables and
// of the cgroup files, and bad values, which are errors naming the variable and the value.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include <feinterp/cpu/default_threads.hpp>
#include <feinterp/cpu/threads.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>

namespace feinterp::backends::cpu {
namespace {

// Sets (or with nullptr unsets) the two variables for one test and restores what was there before.
class Environment {
 public:
  Environment(const char* feinterp, const char* omp) {
    save("FEINTERP_NUM_THREADS", 0);
    save("OMP_NUM_THREADS", 1);
    set("FEINTERP_NUM_THREADS", feinterp);
    set("OMP_NUM_THREADS", omp);
  }
  ~Environment() {
    set("FEINTERP_NUM_THREADS", saved_[0] ? saved_[0]->c_str() : nullptr);
    set("OMP_NUM_THREADS", saved_[1] ? saved_[1]->c_str() : nullptr);
  }

 private:
  void save(const char* name, int i) {
    if (const char* value = std::getenv(name)) saved_[i] = value;
  }
  static void set(const char* name, const char* value) {
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  std::optional<std::string> saved_[2];
};

using test::expect_invalid;

TEST(DefaultThreads, RequestThenFeinterpThenOmpThenCpus) {
  {
    const Environment env("5", "7");
    EXPECT_EQ(resolve_threads(3), 3);  // the explicit request wins
    EXPECT_EQ(resolve_threads(0), 5);
    EXPECT_EQ(default_threads(), 5);
  }
  {
    const Environment env(nullptr, "7");
    EXPECT_EQ(resolve_threads(0), 7);
    EXPECT_EQ(resolve_threads(2), 2);
  }
  {
    const Environment env("", "6");  // empty counts as unset
    EXPECT_EQ(resolve_threads(0), 6);
  }
  {
    const Environment env(nullptr, nullptr);
    EXPECT_EQ(resolve_threads(0), available_cpus());
    EXPECT_GE(available_cpus(), 1);
  }
}

TEST(DefaultThreads, SmallBlocksUseFewerThreads) {
  const Environment env("8", nullptr);
  EXPECT_EQ(thread_count(0, 100), 1);
  EXPECT_EQ(thread_count(0, 3 * min_elements_per_thread), 3);
  EXPECT_EQ(thread_count(0, 100 * min_elements_per_thread), 8);
  EXPECT_EQ(thread_count(2, 100 * min_elements_per_thread), 2);
}

TEST(DefaultThreads, DescribeExecutorReportsTheCountUsed) {
  const Environment env("6", nullptr);
  EXPECT_EQ(describe_executor(Executor::cpu()), "CPU, 6 threads");
  EXPECT_EQ(describe_executor(Executor::cpu(), 3), "CPU, 3 threads");
  EXPECT_EQ(describe_executor(Executor::cpu(), 1), "CPU, 1 thread");
}

TEST(DefaultThreads, ParsesVariables) {
  EXPECT_EQ(parse_thread_variable("FEINTERP_NUM_THREADS", "12"), 12);
  EXPECT_EQ(parse_thread_variable("FEINTERP_NUM_THREADS", " 4\n"), 4);
  EXPECT_EQ(parse_thread_variable("OMP_NUM_THREADS", "4,2"), 4);
  EXPECT_EQ(parse_thread_variable("OMP_NUM_THREADS", "3 , 1"), 3);
  EXPECT_EQ(parse_thread_variable("OMP_NUM_THREADS", "1024"), 1024);
}

TEST(DefaultThreads, BadValuesAreErrorsNamingVariableAndValue) {
  for (const char* bad : {"abc", "0", "-2", "4x", "2.5", "1025", "99999999999999999999", ","}) {
    SCOPED_TRACE(bad);
    expect_invalid([&] { parse_thread_variable("FEINTERP_NUM_THREADS", bad); },
                   std::string("FEINTERP_NUM_THREADS=\"") + bad + "\"");
    expect_invalid([&] { parse_thread_variable("OMP_NUM_THREADS", bad); }, std::string("OMP_NUM_THREADS=\"") + bad + "\"");
  }
  // A list is OpenMP's only for OMP_NUM_THREADS.
  expect_invalid([] { parse_thread_variable("FEINTERP_NUM_THREADS", "4,2"); }, "FEINTERP_NUM_THREADS=\"4,2\"");
  {
    const Environment env("many", "4");  // a bad value is not skipped for the next source
    expect_invalid([] { resolve_threads(0); }, "FEINTERP_NUM_THREADS=\"many\"");
    EXPECT_EQ(resolve_threads(2), 2);  // an explicit request does not read the variables
  }
  {
    const Environment env(nullptr, "x,2");
    expect_invalid([] { resolve_threads(0); }, "OMP_NUM_THREADS=\"x,2\"");
    expect_invalid([] { thread_count(0, 1); }, "OMP_NUM_THREADS");
    expect_invalid([] { describe_executor(Executor::cpu()); }, "OMP_NUM_THREADS");
  }
  expect_invalid([] { resolve_threads(-1); }, "threads = -1");
  expect_invalid([] { resolve_threads(max_threads + 1); }, "threads = 1025");
}

TEST(DefaultThreads, CgroupCpuMax) {
  EXPECT_EQ(cgroup_cpu_limit("max 100000\n"), std::nullopt);
  EXPECT_EQ(cgroup_cpu_limit("200000 100000\n"), 2);
  EXPECT_EQ(cgroup_cpu_limit("150000 100000"), 2);  // 1.5 CPUs: round up, not down to 1
  EXPECT_EQ(cgroup_cpu_limit("50000 100000"), 1);   // half a CPU still needs one thread
  EXPECT_EQ(cgroup_cpu_limit("400000 50000"), 8);
  EXPECT_EQ(cgroup_cpu_limit("1 100000"), 1);
  for (const char* odd : {"", "max", "100000", "abc 100000", "100000 0", "-5 100000", "100000 x"}) {
    SCOPED_TRACE(odd);
    EXPECT_EQ(cgroup_cpu_limit(odd), std::nullopt);
  }
}

TEST(DefaultThreads, CgroupPath) {
  EXPECT_EQ(cgroup_v2_path("0::/\n"), "/");
  EXPECT_EQ(cgroup_v2_path("0::/user.slice/user-1000.slice/session-2.scope\n"), "/user.slice/user-1000.slice/session-2.scope");
  EXPECT_EQ(cgroup_v2_path("12:cpu,cpuacct:/docker/abc\n4:memory:/x\n0::/docker/abc\n"), "/docker/abc");
  EXPECT_EQ(cgroup_v2_path("12:cpu,cpuacct:/docker/abc\n"), std::nullopt);  // cgroup v1 only
  EXPECT_EQ(cgroup_v2_path(""), std::nullopt);
}

}  // namespace
}  // namespace feinterp::backends::cpu
