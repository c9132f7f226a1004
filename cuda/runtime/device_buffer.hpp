// SPDX-License-Identifier: BSD-3-Clause
// DeviceBuffer<T>: RAII ownership of an array in device memory, on the device that was current when it
// was allocated. Move-only; freed on destruction, with its own device current for that whatever device
// is current then. Allocation, copies and release go through device_memory.hpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/device_memory.hpp>

namespace feinterp::backends::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// `count` elements on the current device. Throws CudaError.
  explicit DeviceBuffer(std::size_t count)
      : device_(count ? get_current_device() : current_device_ordinal),
        data_(static_cast<T*>(allocate_device_memory(count * sizeof(T), device_))),
        count_(count) {}
  /// Allocates and copies `host` (synchronously).
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host.data(), host.size()); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : device_(other.device_), data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      device_ = other.device_;
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  /// The device the buffer lives on (current_device_ordinal for an empty buffer).
  int device() const { return device_; }

  /// Copies `count` elements from the host, on `stream` (of the buffer's device): synchronous on the
  /// null stream; on another, `host` must stay unchanged until the stream has run the copy.
  void upload(const T* host, std::size_t count, cudaStream_t stream = nullptr) {
    check_count(count, "upload");
    copy_to_device(data_, host, count * sizeof(T), device_, stream, /*wait=*/!stream);
  }
  /// Copies `count` elements to the host on `stream` (of the buffer's device), after the work queued
  /// there, and waits for it.
  void download(T* host, std::size_t count, cudaStream_t stream = nullptr) const {
    check_count(count, "download");
    copy_to_host(host, data_, count * sizeof(T), device_, stream);
  }
  /// The whole buffer, copied on `stream` after the work queued there (synchronises that stream).
  std::vector<T> to_host(cudaStream_t stream = nullptr) const {
    std::vector<T> host(count_);
    download(host.data(), count_, stream);
    return host;
  }

 private:
  void check_count(std::size_t count, const char* what) const {
    if (count > count_)
      throw std::invalid_argument(std::string("DeviceBuffer::") + what + " of " + std::to_string(count) +
                                  " elements into a buffer of " + std::to_string(count_));
  }
  void release() noexcept {
    free_device_memory(data_, device_);
    data_ = nullptr;
    count_ = 0;
  }
  int device_ = current_device_ordinal;
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace feinterp::backends::cuda
