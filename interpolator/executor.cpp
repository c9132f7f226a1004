// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/interpolator/executor.hpp>

#include <cctype>
#include <stdexcept>

#include <feinterp/cpu/default_threads.hpp>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/runtime/device.hpp>
#endif

namespace feinterp {

Executor Executor::cuda(int device, void* stream) {
  if (device < current_device)
    throw std::invalid_argument("CUDA device " + std::to_string(device) +
                                ": expected a device ordinal (0, 1, ...) or Executor::current_device (-1)");
  return Executor(ExecutorKind::cuda, device, stream);
}

const char* executor_name(ExecutorKind kind) {
  switch (kind) {
    case ExecutorKind::cpu: return "cpu";
    case ExecutorKind::cuda: return "cuda";
    case ExecutorKind::automatic: return "auto";
  }
  return "unknown";
}

const char* executor_name(const Executor& executor) { return executor_name(executor.kind()); }

std::string to_string(const Executor& executor) {
  if (executor.kind() == ExecutorKind::cuda && executor.device() != Executor::current_device)
    return "cuda:" + std::to_string(executor.device());
  return executor_name(executor);
}

Executor parse_executor(const std::string& name) {
  if (name == "cpu") return Executor::cpu();
  if (name == "cuda") return Executor::cuda();
  if (name == "auto" || name == "automatic") return Executor::automatic();
  const std::string prefix = "cuda:";
  if (name.compare(0, prefix.size(), prefix) == 0) {
    const std::string ordinal = name.substr(prefix.size());
    // Digits only, and few enough for an int: std::stoi would take "+1", " 1" and "1x".
    bool digits = !ordinal.empty() && ordinal.size() <= 9;
    for (char c : ordinal) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits)
      throw std::invalid_argument("executor '" + name + "': expected a device ordinal (0, 1, ...) after 'cuda:', " +
                                  "got '" + ordinal + "'");
    return Executor::cuda(std::stoi(ordinal));
  }
  throw std::invalid_argument("unknown executor '" + name +
                              "': expected cpu, cuda, cuda:N (N a device ordinal) or auto");
}

bool cuda_usable() {
#if FEINTERP_HAS_CUDA
  return backends::cuda::cuda_available();
#else
  return false;
#endif
}

std::string cuda_unusable_reason() {
#if FEINTERP_HAS_CUDA
  return backends::cuda::cuda_unavailable_reason();
#else
  return "this feinterp was built without CUDA (FEINTERP_CUDA=OFF)";
#endif
}

int cuda_device_count() {
#if FEINTERP_HAS_CUDA
  return backends::cuda::device_count();
#else
  return 0;
#endif
}

Executor resolve_executor(const Executor& requested) {
  if (requested.kind() == ExecutorKind::cpu) return requested;
  if (!cuda_usable()) {
    if (requested.kind() == ExecutorKind::cuda)
      throw std::runtime_error("the cuda executor: " + cuda_unusable_reason());
    return Executor::cpu();
  }
#if FEINTERP_HAS_CUDA
  return Executor::cuda(backends::cuda::resolve_device(requested.device()), requested.stream());
#else
  return Executor::cpu();  // not reached: cuda_usable() is false without CUDA
#endif
}

int cpu_thread_count(int threads) { return backends::cpu::resolve_threads(threads); }

std::string describe_executor(const Executor& executor, int threads) {
  const Executor resolved = resolve_executor(executor);
#if FEINTERP_HAS_CUDA
  if (resolved.kind() == ExecutorKind::cuda) {
    const backends::cuda::DeviceInfo& info = backends::cuda::device_info(resolved.device());
    return info.name + " (compute capability " + info.compute_capability() + ")";
  }
#endif
  const int count = cpu_thread_count(threads);
  return "CPU, " + std::to_string(count) + (count == 1 ? " thread" : " threads");
}

}  // namespace feinterp
