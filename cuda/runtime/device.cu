// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/runtime/device.hpp>

#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include <feinterp/cuda/runtime/error.hpp>

namespace feinterp::backends::cuda {

bool cuda_available() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls are not confused by it
    return false;
  }
  return count > 0;
}

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  cudaGetLastError();
  if (code != cudaSuccess) return std::string("no usable CUDA device: ") + cudaGetErrorString(code);
  if (count == 0) return "no CUDA device found";
  return "";
}

const DeviceInfo& current_device() {
  static std::mutex mutex;
  static std::map<int, DeviceInfo> cache;
  int ordinal = 0;
  check(cudaGetDevice(&ordinal), "querying the current device");
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(ordinal);
  if (found != cache.end()) return found->second;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "querying device properties");
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  info.shared_per_multiprocessor = prop.sharedMemPerMultiprocessor;
  info.l2_bytes = std::size_t(prop.l2CacheSize);
  info.global_bytes = prop.totalGlobalMem;
  info.max_threads_per_block = prop.maxThreadsPerBlock;
  check(cudaDriverGetVersion(&info.driver_version), "querying the driver version");
  check(cudaRuntimeGetVersion(&info.runtime_version), "querying the runtime version");
  return cache.emplace(ordinal, info).first->second;
}

}  // namespace feinterp::backends::cuda
