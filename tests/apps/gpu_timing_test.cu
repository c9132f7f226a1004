// SPDX-License-Identifier: BSD-3-Clause
// The benchmarks' timing (apps/common/gpu_timing.hpp): a held batch times the kernels back to back even
// when the host issues them far more slowly than the GPU runs them, a live batch times the host's gaps
// (which is what holding removes), and a hold that is never released lets its stream go after its
// timeout instead of hanging it. GPU tests: skipped, visibly, without a usable device.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include <feinterp/apps/common/globaltimer.cuh>
#include <feinterp/apps/common/gpu_timing.hpp>
#include <feinterp/apps/common/stream_hold.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>

namespace feinterp::tuning {
namespace {

// Runs for `duration_ns` of the GPU's clock, then records that it ran.
__global__ void spin(unsigned long long duration_ns, int* ran) {
  const unsigned long long start = globaltimer_ns();
  while (globaltimer_ns() - start < duration_ns) {
  }
  atomicAdd(ran, 1);
}

struct Spin {
  double kernel_us;  // what each launch runs on the GPU
  double host_gap_us;  // what the host spends before each launch
  cuda::DeviceBuffer<int> ran{std::size_t(1)};
  void operator()(int) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(host_gap_us);
    while (std::chrono::steady_clock::now() < until) {
    }
    spin<<<1, 1>>>((unsigned long long)(kernel_us * 1e3), ran.data());
    cuda::check(cudaGetLastError(), "launching the spin kernel");
  }
  int launches() { return ran.to_host()[0]; }
};

TEST(GpuTiming, HeldBatchesTimeTheKernelsAloneAndLiveOnesTheHostsGaps) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937 rng(std::random_device{}());
  Spin launch{std::uniform_real_distribution<double>(15.0, 40.0)(rng), 300.0};
  cuda::check(cudaMemset(launch.ran.data(), 0, sizeof(int)), "clearing the launch count");
  SCOPED_TRACE("kernel " + std::to_string(launch.kernel_us) + " us, host " + std::to_string(launch.host_gap_us) + " us per launch");
  const int warmup = 2, batches = 5, per_batch = 10;

  const Timing held = time_launches(std::ref(launch), warmup, batches, per_batch, nullptr, BatchIssue::held);
  EXPECT_EQ(launch.launches(), warmup + batches * per_batch);
  EXPECT_EQ(held.batches, batches);
  EXPECT_EQ(held.launches_per_batch, per_batch);
  // At least the kernel's own time (its clock runs it that long), and far from the host's 300 us per launch:
  // the launches ran back to back, a few us apart.
  EXPECT_GE(held.min_ms * 1e3, 0.99 * launch.kernel_us);
  EXPECT_LT(held.median_ms * 1e3, launch.kernel_us + 30.0);
  EXPECT_GE(held.host_us, launch.host_gap_us);

  const Timing live = time_launches(std::ref(launch), warmup, batches, per_batch, nullptr, BatchIssue::live);
  EXPECT_EQ(launch.launches(), 2 * (warmup + batches * per_batch));
  // Each launch waited for the host.
  EXPECT_GT(live.median_ms * 1e3, 0.8 * launch.host_gap_us);
}

// A fresh process's first launch of a kernel loads it, which waits for the kernels running: time_launches
// makes one untimed launch even without warm-up, so that its first held batch does not stall.
TEST(GpuTiming, HeldBatchesWithoutWarmUpDoNotWaitForTheHoldsTimeout) {
  FEINTERP_REQUIRE_GPU();
  Spin launch{5.0, 0.0};
  cuda::check(cudaMemset(launch.ran.data(), 0, sizeof(int)), "clearing the launch count");
  const auto start = std::chrono::steady_clock::now();
  const Timing held = time_launches(std::ref(launch), 0, 3, 4, nullptr, BatchIssue::held);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_EQ(launch.launches(), 1 + 3 * 4);
  EXPECT_LT(held.median_ms * 1e3, 5.0 + 30.0);
}

TEST(GpuTiming, AHoldNobodyReleasesLetsItsStreamGoAtItsTimeout) {
  FEINTERP_REQUIRE_GPU();
  StreamHold hold(0.2);
  Spin launch{1.0, 0.0};
  cuda::check(cudaMemset(launch.ran.data(), 0, sizeof(int)), "clearing the launch count");
  const auto start = std::chrono::steady_clock::now();
  hold.hold(nullptr);
  launch(0);
  cuda::check(cudaStreamSynchronize(nullptr), "waiting past an unreleased hold");
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(hold.timed_out());
  EXPECT_EQ(launch.launches(), 1);
  EXPECT_GE(waited, 0.19);
  EXPECT_LT(waited, 5.0);
}

TEST(GpuTiming, AReleasedHoldRunsWhatWaitedBehindIt) {
  FEINTERP_REQUIRE_GPU();
  StreamHold hold;
  Spin launch{1.0, 0.0};
  cuda::check(cudaMemset(launch.ran.data(), 0, sizeof(int)), "clearing the launch count");
  launch(0);  // loaded before the hold (StreamHold::hold)
  cuda::check(cudaStreamSynchronize(nullptr), "waiting for the first launch");
  for (int round = 1; round <= 3; ++round) {
    hold.hold(nullptr);
    launch(0);
    launch(1);
    hold.release();
    cuda::check(cudaStreamSynchronize(nullptr), "waiting past a released hold");
    EXPECT_FALSE(hold.timed_out());
    EXPECT_EQ(launch.launches(), 1 + 2 * round);
  }
}

}  // namespace
}  // namespace feinterp::tuning
