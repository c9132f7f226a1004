// SPDX-License-Identifier: BSD-3-Clause
// Executors as values (interpolator/executor.hpp): what the factories make, the names and their parser
// (refusals name what was given), and resolution: cpu stays cpu, automatic becomes cpu or cuda on the
// current device, and a cuda executor is refused for a device the machine does not have (naming the
// ordinal and the number of devices) or, without a usable GPU, at all. Host only: on a machine without a
// GPU it checks the refusals such a machine gives.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/interpolator/executor.hpp>
#include <feinterp/interpolator/executor_array.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>

namespace feinterp {
namespace {

using test::expect_invalid;

TEST(Executor, FactoriesMakeWhatTheyName) {
  EXPECT_EQ(Executor::cpu().kind(), ExecutorKind::cpu);
  EXPECT_EQ(Executor::automatic().kind(), ExecutorKind::automatic);
  EXPECT_EQ(Executor(), Executor::automatic());

  const Executor current = Executor::cuda();
  EXPECT_EQ(current.kind(), ExecutorKind::cuda);
  EXPECT_EQ(current.device(), Executor::current_device);
  EXPECT_EQ(current.stream(), nullptr);

  int token = 0;  // any address stands for a stream here: nothing is launched
  const Executor on_one = Executor::cuda(1, &token);
  EXPECT_EQ(on_one.device(), 1);
  EXPECT_EQ(on_one.stream(), &token);
  EXPECT_NE(on_one, Executor::cuda(1));
  EXPECT_NE(Executor::cuda(0), Executor::cuda(1));
  EXPECT_NE(Executor::cuda(0), Executor::cpu());

  expect_invalid([] { Executor::cuda(-2); }, "CUDA device -2");
}

TEST(Executor, NamesParseBack) {
  EXPECT_EQ(parse_executor("cpu"), Executor::cpu());
  EXPECT_EQ(parse_executor("cuda"), Executor::cuda());
  EXPECT_EQ(parse_executor("cuda:0"), Executor::cuda(0));
  EXPECT_EQ(parse_executor("cuda:12"), Executor::cuda(12));
  EXPECT_EQ(parse_executor("auto"), Executor::automatic());
  EXPECT_EQ(parse_executor("automatic"), Executor::automatic());

  EXPECT_STREQ(executor_name(Executor::cuda(3)), "cuda");
  EXPECT_STREQ(executor_name(ExecutorKind::automatic), "auto");
  EXPECT_EQ(to_string(Executor::cuda(3)), "cuda:3");
  EXPECT_EQ(to_string(Executor::cuda()), "cuda");
  for (const Executor& executor : {Executor::cpu(), Executor::cuda(), Executor::cuda(3), Executor::automatic()})
    EXPECT_EQ(parse_executor(to_string(executor)), executor) << to_string(executor);
}

TEST(Executor, BadNamesAreRefusedByName) {
  for (const std::string bad : {"", "gpu", "CPU", "cuda0", "cpu:0", "auto:1"})
    expect_invalid([&] { parse_executor(bad); }, "unknown executor '" + bad + "'");
  // A device ordinal is digits only, and fits an int.
  for (const std::string bad : {"cuda:", "cuda:x", "cuda:-1", "cuda:+1", "cuda: 1", "cuda:1x", "cuda:1:2", "cuda:0x1",
                                "cuda:99999999999"})
    expect_invalid([&] { parse_executor(bad); }, "executor '" + bad + "': expected a device ordinal");
}

TEST(Executor, ResolvesToWhereAPlanComputes) {
  EXPECT_EQ(resolve_executor(Executor::cpu()), Executor::cpu());
  const int count = cuda_device_count();
  const Executor automatic = resolve_executor(Executor::automatic());
  if (!cuda_usable()) {
    EXPECT_EQ(count, 0);
    EXPECT_EQ(automatic, Executor::cpu());
    for (const Executor& cuda : {Executor::cuda(), Executor::cuda(0), Executor::cuda(1000)}) {
      EXPECT_THROW(resolve_executor(cuda), std::runtime_error) << to_string(cuda);
      EXPECT_THROW(ExecutorArray<double>(cuda, 4), std::runtime_error) << to_string(cuda);
      EXPECT_THROW(describe_executor(cuda), std::runtime_error) << to_string(cuda);
    }
    return;
  }
  ASSERT_GE(count, 1);
  EXPECT_EQ(automatic.kind(), ExecutorKind::cuda);
  EXPECT_GE(automatic.device(), 0);
  EXPECT_LT(automatic.device(), count);
  EXPECT_EQ(resolve_executor(Executor::cuda()), automatic);  // both: the current device
  EXPECT_EQ(resolve_executor(Executor::cuda(count - 1)), Executor::cuda(count - 1));
  int token = 0;
  EXPECT_EQ(resolve_executor(Executor::cuda(0, &token)).stream(), &token);
  const std::string devices = std::to_string(count) + (count == 1 ? " CUDA device" : " CUDA devices");
  for (int missing : {count, count + 7}) {
    const std::string named = "CUDA device " + std::to_string(missing) + " does not exist";
    expect_invalid([&] { resolve_executor(Executor::cuda(missing)); }, named);
    expect_invalid([&] { resolve_executor(Executor::cuda(missing)); }, devices);
    expect_invalid([&] { ExecutorArray<double>(Executor::cuda(missing), 4); }, named);
    expect_invalid([&] { describe_executor(Executor::cuda(missing)); }, named);
  }
}

TEST(Executor, ACpuArrayRefusesACopyFromDeviceMemory) {
  ExecutorArray<double> on_cpu(Executor::cpu(), 3);
  const std::vector<double> values{1.0, 2.0, 3.0};
  expect_invalid([&] { on_cpu.copy_from_device(values.data(), 3); }, "a copy from device memory into an array of the cpu executor");
}

TEST(Executor, ArraysKeepTheirResolvedExecutor) {
  const std::vector<double> values{1.0, 2.0, 3.0};
  const ExecutorArray<double> on_cpu(Executor::cpu(), values);
  EXPECT_EQ(on_cpu.executor(), Executor::cpu());
  EXPECT_EQ(on_cpu.to_vector(), values);
  const ExecutorArray<double> automatic(Executor::automatic(), values);
  EXPECT_EQ(automatic.executor(), resolve_executor(Executor::automatic()));
  EXPECT_EQ(automatic.to_vector(), values);
}

}  // namespace
}  // namespace feinterp
