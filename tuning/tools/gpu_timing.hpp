// Timing on the GPU, as the benchmark and the sweep both do it: CUDA events around each launch,
// warm-up launches first, the median of the repeats. And the yardstick: device-to-device copy
// bandwidth, measured in the same run on a buffer far larger than L2.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <vector>

#include <feinterp/cuda/device_buffer.hpp>
#include <feinterp/cuda/error.hpp>

namespace feinterp::tuning {

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int repeats = 0;
};

/// Runs launch(i) `warmup` times, then `repeats` times each between two events; launch(i) gets the
/// repetition index (to rotate buffers).
inline Timing time_launches(const std::function<void(int)>& launch, int warmup, int repeats, cudaStream_t stream = nullptr) {
  cudaEvent_t start, stop;
  cuda::check(cudaEventCreate(&start), "creating an event");
  cuda::check(cudaEventCreate(&stop), "creating an event");
  for (int i = 0; i < warmup; ++i) launch(i);
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    cuda::check(cudaEventRecord(start, stream), "recording an event");
    launch(warmup + i);
    cuda::check(cudaEventRecord(stop, stream), "recording an event");
    cuda::check(cudaEventSynchronize(stop), "waiting for a timed launch");
    float ms = 0;
    cuda::check(cudaEventElapsedTime(&ms, start, stop), "reading an event timer");
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  Timing t;
  t.repeats = repeats;
  t.min_ms = times.front();
  t.max_ms = times.back();
  t.median_ms = times.size() % 2 ? times[times.size() / 2] : 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
  return t;
}

/// Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes written, on `bytes`-byte
/// buffers (use several times the L2 size: 1 GiB by default).
inline double copy_bandwidth_gbs(std::size_t bytes = std::size_t(1) << 30, int repeats = 20) {
  cuda::DeviceBuffer<char> source(bytes), target(bytes);
  cuda::check(cudaMemset(source.data(), 1, bytes), "filling the copy-bandwidth buffer");
  const Timing t = time_launches(
      [&](int) {
        cuda::check(cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice), "timing a copy");
      },
      3, repeats);
  return 2.0 * double(bytes) / (t.median_ms * 1e-3) / 1e9;
}

}  // namespace feinterp::tuning
