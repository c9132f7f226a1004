// SPDX-License-Identifier: BSD-3-Clause
// Executor: where a plan computes and its arrays live, as a value: a kind (cpu, cuda, or automatic: cuda
// when a GPU is usable, else cpu), and for cuda a device ordinal and a stream. A plan resolves its
// executor when it is built and keeps it: a cuda plan computes on that device and launches on that
// stream whatever device is current when it is called (in the manner of Ginkgo's executors).
//
//   Executor::cpu()
//   Executor::cuda()              the device current when a plan or array is made, its default stream
//   Executor::cuda(1, stream)     device 1, launches on `stream` (a cudaStream_t of device 1)
//   Executor::automatic()         cuda on the current device if a GPU is usable, else cpu
//   parse_executor("cuda:1")      from a command line: "cpu", "cuda", "cuda:N", "auto" or "automatic"
#pragma once

#include <string>

namespace feinterp {

enum class ExecutorKind { cpu, cuda, automatic };

class Executor {
 public:
  /// The device ordinal that stands for the device current when the executor is resolved.
  static constexpr int current_device = -1;

  /// The automatic executor.
  Executor() = default;
  static Executor cpu() { return Executor(ExecutorKind::cpu, current_device, nullptr); }
  /// `device`: a device ordinal, or current_device. `stream`: a cudaStream_t of that device for the
  /// launches of plans and the copies of arrays made with this executor; null for the device's default
  /// (legacy) stream. Throws std::invalid_argument for an ordinal below -1; one the machine does not have
  /// is refused when the executor is resolved.
  static Executor cuda(int device = current_device, void* stream = nullptr);
  static Executor automatic() { return Executor(ExecutorKind::automatic, current_device, nullptr); }

  ExecutorKind kind() const { return kind_; }
  /// cuda: the device ordinal, current_device until resolved; cpu, automatic: current_device.
  int device() const { return device_; }
  /// cuda: the cudaStream_t (null: the device's default stream); cpu, automatic: null.
  void* stream() const { return stream_; }

  friend bool operator==(const Executor& a, const Executor& b) {
    return a.kind_ == b.kind_ && a.device_ == b.device_ && a.stream_ == b.stream_;
  }
  friend bool operator!=(const Executor& a, const Executor& b) { return !(a == b); }

 private:
  Executor(ExecutorKind kind, int device, void* stream) : kind_(kind), device_(device), stream_(stream) {}
  ExecutorKind kind_ = ExecutorKind::automatic;
  int device_ = current_device;
  void* stream_ = nullptr;
};

/// "cpu", "cuda" or "auto".
const char* executor_name(ExecutorKind kind);
/// The name of the executor's kind: "cpu", "cuda" or "auto".
const char* executor_name(const Executor& executor);

/// What parse_executor reads back: "cpu", "cuda" (the current device), "cuda:1", "auto". The stream is
/// not part of it.
std::string to_string(const Executor& executor);

/// "cpu", "cuda", "cuda:N" (N a device ordinal: 0, 1, ...), "auto" or "automatic"; throws
/// std::invalid_argument naming what was given and what is expected.
Executor parse_executor(const std::string& name);

/// True when this feinterp was built with CUDA and a GPU is usable. Never throws.
bool cuda_usable();

/// Why cuda_usable() is false, in one line ("" when it is true).
std::string cuda_unusable_reason();

/// The number of CUDA devices; 0 in a build without CUDA or without a usable GPU. Never throws.
int cuda_device_count();

/// The executor a plan or an array made with `requested` uses: cpu, or cuda with a device ordinal (the
/// current device for Executor::current_device) and the requested stream; automatic resolves to cuda on
/// the current device when a GPU is usable, else to cpu. Throws std::runtime_error for cuda when no GPU
/// is usable (cuda_unusable_reason()), std::invalid_argument for a device the machine does not have
/// (naming the ordinal and the number of devices).
Executor resolve_executor(const Executor& requested);

/// "NVIDIA H100 80GB HBM3 (compute capability 9.0)" (the executor's device) or "CPU, 16 threads", for
/// `executor` resolved as above. For the CPU, the count a plan with InterpolatorOptions::threads =
/// `threads` uses on a large block: `threads`, or for 0 FEINTERP_NUM_THREADS, OMP_NUM_THREADS, else the
/// CPUs this process may use (affinity and cgroup quota). Throws std::invalid_argument for a bad count or
/// environment value, and as resolve_executor does.
std::string describe_executor(const Executor& executor, int threads = 0);

/// The threads a CPU plan with InterpolatorOptions::threads = `threads` uses on a large block (as above).
int cpu_thread_count(int threads = 0);

}  // namespace feinterp
