// SPDX-License-Identifier: BSD-3-Clause
// Timing on the GPU, as the benchmark and the sweep both do it: the kernels alone, over batches of
// back-to-back launches between two events, warm-up launches first, the median over batches of the time
// per launch. Each batch is issued behind a hold (stream_hold.hpp), so that the GPU runs it from the start
// event without waiting for the host's first launch; within a batch the host's preparation of one launch
// overlaps the GPU's work on the previous one. The host's cost of one call (its checks and the launch
// itself) is measured on the side, as the wall clock of issuing a batch. And the yardstick: device-to-device
// copy bandwidth, measured in the same run on a buffer far larger than L2.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/cuda/runtime/device_buffer.hpp>
#include <feinterp/cuda/runtime/error.hpp>

#include <feinterp/apps/common/stream_hold.hpp>

namespace feinterp::tuning {

namespace cuda = feinterp::backends::cuda;

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;  ///< per launch, over batches
  double host_us = 0;                            ///< host time to issue one call (median over batches)
  int batches = 0, launches_per_batch = 0;
};

/// How a timed batch is issued. `held` (the default): behind a StreamHold, released once the batch's
/// launches and its stop event are issued, so the GPU runs them back to back from the start event.
/// `live`: the start event on an idle GPU and the launches as the host issues them, which times the GPU's
/// wait for the host's first launch as well, once per batch: kept to measure the difference
/// (feinterp-bench --live-batches).
enum class BatchIssue { held, live };

/// Runs launch(i) `warmup` times, then `batches` batches of `per_batch` launches each between two events;
/// launch(i) gets the launch's index (to rotate buffers). launch() must not wait for the stream: behind a
/// hold that would wait for the hold's timeout, which is an error.
inline Timing time_launches(const std::function<void(int)>& launch, int warmup, int batches, int per_batch = 10,
                            cudaStream_t stream = nullptr, BatchIssue issue = BatchIssue::held) {
  struct Events {  // destroyed on the way out of an exception too
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
      if (start) cudaEventDestroy(start);
      if (stop) cudaEventDestroy(stop);
    }
  } events;
  cuda::check(cudaEventCreate(&events.start), "creating an event");
  cuda::check(cudaEventCreate(&events.stop), "creating an event");
  const cudaEvent_t start = events.start, stop = events.stop;
  int index = 0;
  // Held, at least one launch goes first: CUDA loads a kernel at its first launch (lazy loading), and a
  // load waits for the kernels running, so a first launch behind a hold waits for the hold's timeout.
  const int untimed = issue == BatchIssue::held ? std::max(warmup, 1) : warmup;
  for (int i = 0; i < untimed; ++i) launch(index++);
  cuda::check(cudaStreamSynchronize(stream), "waiting for the warm-up launches");
  StreamHold hold;
  std::vector<double> device_ms, host_us;
  for (int b = 0; b < batches; ++b) {
    if (issue == BatchIssue::held) hold.hold(stream);
    cuda::check(cudaEventRecord(start, stream), "recording an event");
    const auto host_start = std::chrono::steady_clock::now();
    for (int i = 0; i < per_batch; ++i) launch(index++);
    const auto host_stop = std::chrono::steady_clock::now();
    cuda::check(cudaEventRecord(stop, stream), "recording an event");
    hold.release();
    cuda::check(cudaEventSynchronize(stop), "waiting for a timed batch");
    if (hold.timed_out())
      throw std::runtime_error("a timed batch of " + std::to_string(per_batch) +
                               " launches was not issued within the stream hold's " +
                               std::to_string(int(hold.timeout_seconds())) + " s (a launch that waits for the stream?)");
    float ms = 0;
    cuda::check(cudaEventElapsedTime(&ms, start, stop), "reading an event timer");
    device_ms.push_back(double(ms) / per_batch);
    host_us.push_back(std::chrono::duration<double, std::micro>(host_stop - host_start).count() / per_batch);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  };
  Timing t;
  t.batches = batches;
  t.launches_per_batch = per_batch;
  t.median_ms = median(device_ms);
  t.min_ms = *std::min_element(device_ms.begin(), device_ms.end());
  t.max_ms = *std::max_element(device_ms.begin(), device_ms.end());
  t.host_us = median(host_us);
  return t;
}

/// Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes written, on `bytes`-byte
/// buffers (use several times the L2 size: 1 GiB by default).
inline double copy_bandwidth_gbs(std::size_t bytes = std::size_t(1) << 30, int batches = 10,
                                 BatchIssue issue = BatchIssue::held) {
  cuda::DeviceBuffer<char> source(bytes), target(bytes);
  cuda::check(cudaMemset(source.data(), 1, bytes), "filling the copy-bandwidth buffer");
  const Timing t = time_launches(
      [&](int) {
        cuda::check(cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice), "timing a copy");
      },
      3, batches, 2, nullptr, issue);
  return 2.0 * double(bytes) / (t.median_ms * 1e-3) / 1e9;
}

}  // namespace feinterp::tuning
