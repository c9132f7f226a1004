// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/runtime/device.hpp>

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include <feinterp/cuda/runtime/error.hpp>

namespace feinterp::backends::cuda {

bool cuda_available() { return device_count() > 0; }

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  cudaGetLastError();
  if (code != cudaSuccess) return std::string("no usable CUDA device: ") + cudaGetErrorString(code);
  if (count == 0) return "no CUDA device found";
  return "";
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls are not confused by it
    return 0;
  }
  return count;
}

int get_current_device() {
  int ordinal = 0;
  check(cudaGetDevice(&ordinal), "querying the current device");
  return ordinal;
}

int resolve_device(int ordinal) {
  if (ordinal == current_device_ordinal) return get_current_device();
  const int count = device_count();
  if (ordinal < 0 || ordinal >= count) {
    const std::string devices = std::to_string(count) + (count == 1 ? " CUDA device" : " CUDA devices") +
                                (count > 0 ? " (ordinals 0 to " + std::to_string(count - 1) + ")" : std::string());
    throw std::invalid_argument("CUDA device " + std::to_string(ordinal) + " does not exist: this machine has " +
                                devices);
  }
  return ordinal;
}

const DeviceInfo& device_info(int ordinal) {
  static std::mutex mutex;
  static std::map<int, DeviceInfo> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(ordinal);
  if (found != cache.end()) return found->second;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "querying the properties of device " + std::to_string(ordinal));
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

const DeviceInfo& current_device() { return device_info(get_current_device()); }

}  // namespace feinterp::backends::cuda
