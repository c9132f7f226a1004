// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/runtime/memory_location.hpp>

#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/error.hpp>

namespace feinterp::backends::cuda {

MemoryLocation memory_location(const void* pointer) {
  // Asked once per process: a program of CPU plans on a machine without a GPU never calls the driver again.
  static const bool any_device = device_count() > 0;
  if (!any_device || pointer == nullptr) return {};
  cudaPointerAttributes attributes{};
  const cudaError_t code = cudaPointerGetAttributes(&attributes, pointer);
  if (code == cudaErrorInvalidValue) {  // drivers before CUDA 11 said so for pageable host memory
    cudaGetLastError();
    return {};
  }
  check(code, "querying where an array lives (cudaPointerGetAttributes)");
  switch (attributes.type) {
    case cudaMemoryTypeDevice: return {MemoryKind::device, attributes.device};
    case cudaMemoryTypeManaged: return {MemoryKind::managed, attributes.device};
    case cudaMemoryTypeHost: return {MemoryKind::pinned_host, attributes.device};
    default: return {};
  }
}

bool device_reads_host_page_tables(int device) {
  static std::mutex mutex;
  static std::map<int, bool> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = cache.find(device);
  if (found != cache.end()) return found->second;
  int value = 0;
  check(cudaDeviceGetAttribute(&value, cudaDevAttrPageableMemoryAccessUsesHostPageTables, device),
        "querying whether a device reads host memory through the host's page tables");
  return cache[device] = value != 0;
}

const char* memory_kind_name(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::pageable_host: return "pageable host memory";
    case MemoryKind::pinned_host: return "pinned host memory";
    case MemoryKind::device: return "device memory";
    case MemoryKind::managed: return "managed memory";
  }
  return "memory";
}

}  // namespace feinterp::backends::cuda
