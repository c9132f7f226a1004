// SPDX-License-Identifier: BSD-3-Clause
// DeviceBuffer<T>: RAII ownership of a cudaMalloc'd array. Move-only; freed on destruction.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <feinterp/cuda/runtime/error.hpp>

namespace feinterp::backends::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count)
      check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)),
            "allocating " + std::to_string(count * sizeof(T)) + " bytes of device memory");
  }
  /// Allocates and copies `host` (synchronously).
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host.data(), host.size()); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
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

  void upload(const T* host, std::size_t count, cudaStream_t stream = nullptr) {
    check_count(count, "upload");
    check(cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream), "copying to the device");
    if (!stream) check(cudaStreamSynchronize(stream), "copying to the device");
  }
  void download(T* host, std::size_t count, cudaStream_t stream = nullptr) const {
    check_count(count, "download");
    check(cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream), "copying from the device");
    check(cudaStreamSynchronize(stream), "copying from the device");
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
    if (data_) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace feinterp::backends::cuda
