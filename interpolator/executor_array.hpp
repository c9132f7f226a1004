// SPDX-License-Identifier: BSD-3-Clause
// ExecutorArray<T>: an array where an executor computes: host memory for cpu, memory of the executor's
// device for cuda. For codes, tools and tests that move data to and from a plan without knowing which
// executor it has.
#pragma once

#include <cstddef>
#include <vector>

#include <feinterp/interpolator/executor.hpp>

namespace feinterp {

/// Allocated through the backend (the CUDA runtime is called by libfeinterp_cuda.so alone). Copies are
/// synchronous, ordered on the executor's stream (null: its device's default stream) after the work
/// queued there: results of a plan on the same executor are complete when copy_to returns (check() the
/// plan for its errors).
template <class T>
class ExecutorArray {
 public:
  /// `size` values (uninitialised) where `executor`, resolved (resolve_executor), computes. Throws as
  /// resolve_executor does, and backends::cuda::CudaError when device memory runs out.
  ExecutorArray(const Executor& executor, std::size_t size);
  /// A copy of `host` there.
  ExecutorArray(const Executor& executor, const std::vector<T>& host);
  ExecutorArray(ExecutorArray&&) noexcept;
  ExecutorArray& operator=(ExecutorArray&&) noexcept;
  ExecutorArray(const ExecutorArray&) = delete;
  ExecutorArray& operator=(const ExecutorArray&) = delete;
  ~ExecutorArray();

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  /// Resolved: cpu, or cuda with its device.
  const Executor& executor() const { return executor_; }
  void copy_from(const T* host, std::size_t count);
  /// A copy of `count` values of memory on this array's device (a cuda array only), done when this
  /// returns: the source may then change or be freed. Throws std::invalid_argument for a cpu array.
  void copy_from_device(const T* device_source, std::size_t count);
  void copy_to(T* host, std::size_t count) const;
  std::vector<T> to_vector() const;

 private:
  void release() noexcept;
  Executor executor_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace feinterp
