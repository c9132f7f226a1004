// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/interpolator/detail/array_location.hpp>

#include <stdexcept>
#include <string>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/runtime/memory_location.hpp>
#endif

namespace feinterp::detail {

#if FEINTERP_HAS_CUDA
namespace {

std::string describe(const backends::cuda::MemoryLocation& where) {
  std::string text = backends::cuda::memory_kind_name(where.kind);
  if (where.kind == backends::cuda::MemoryKind::device) text += " of cuda:" + std::to_string(where.device);
  return text;
}

}  // namespace

void check_array_location(const char* call, const char* name, const void* data, std::size_t size,
                          const Executor& executor) {
  using backends::cuda::MemoryKind;
  if (data == nullptr || size == 0) return;
  const backends::cuda::MemoryLocation where = backends::cuda::memory_location(data);
  const std::string prefix = std::string(call) + ": " + name + ": " + describe(where) + ", but the plan computes on ";
  if (executor.kind() == ExecutorKind::cpu) {
    if (where.kind == MemoryKind::device)
      throw std::invalid_argument(prefix + "the cpu; expected host or managed memory (copy it to the host, or "
                                           "build the plan on Executor::cuda())");
    return;
  }
  const int device = executor.device();
  const bool reachable =
      (where.kind == MemoryKind::device && where.device == device) || where.kind == MemoryKind::managed ||
      where.kind == MemoryKind::pinned_host ||
      (where.kind == MemoryKind::pageable_host && backends::cuda::device_reads_host_page_tables(device));
  if (!reachable)
    throw std::invalid_argument(prefix + "cuda:" + std::to_string(device) +
                                "; expected memory of that device (ExecutorArray, cudaMalloc), managed or pinned "
                                "host memory (or build the plan on Executor::cpu())");
}
#else
void check_array_location(const char*, const char*, const void*, std::size_t, const Executor&) {}
#endif

}  // namespace feinterp::detail
