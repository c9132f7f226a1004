// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/interpolator/executor_array.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/core/config.hpp>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/runtime/device_memory.hpp>
#endif

namespace feinterp {

#if FEINTERP_HAS_CUDA
namespace {
bool on_device(const Executor& executor) { return executor.kind() == ExecutorKind::cuda; }
}  // namespace
#endif

template <class T>
ExecutorArray<T>::ExecutorArray(const Executor& executor, std::size_t size)
    : executor_(resolve_executor(executor)), size_(size) {
  if (size == 0) return;
#if FEINTERP_HAS_CUDA
  if (on_device(executor_)) {
    data_ = static_cast<T*>(backends::cuda::allocate_device_memory(size * sizeof(T), executor_.device()));
    return;
  }
#endif
  data_ = new T[size];
}

template <class T>
ExecutorArray<T>::ExecutorArray(const Executor& executor, const std::vector<T>& host)
    : ExecutorArray(executor, host.size()) {
  copy_from(host.data(), host.size());
}

template <class T>
ExecutorArray<T>::ExecutorArray(ExecutorArray&& other) noexcept
    : executor_(other.executor_), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

template <class T>
ExecutorArray<T>& ExecutorArray<T>::operator=(ExecutorArray&& other) noexcept {
  if (this != &other) {
    release();
    executor_ = other.executor_;
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

template <class T>
ExecutorArray<T>::~ExecutorArray() {
  release();
}

template <class T>
void ExecutorArray<T>::release() noexcept {
  if (!data_) return;
#if FEINTERP_HAS_CUDA
  if (on_device(executor_))
    backends::cuda::free_device_memory(data_, executor_.device());
  else
#endif
    delete[] data_;
  data_ = nullptr;
  size_ = 0;
}

template <class T>
void ExecutorArray<T>::copy_from(const T* host, std::size_t count) {
  if (count > size_)
    throw std::invalid_argument("ExecutorArray: copying " + std::to_string(count) + " values into " +
                                std::to_string(size_));
  if (count == 0) return;
#if FEINTERP_HAS_CUDA
  if (on_device(executor_))
    return backends::cuda::copy_to_device(data_, host, count * sizeof(T), executor_.device(), executor_.stream(),
                                          /*wait=*/true);
#endif
  std::memcpy(data_, host, count * sizeof(T));
}

template <class T>
void ExecutorArray<T>::copy_from_device(const T* device_source, std::size_t count) {
  if (count > size_)
    throw std::invalid_argument("ExecutorArray: copying " + std::to_string(count) + " values into " +
                                std::to_string(size_));
#if FEINTERP_HAS_CUDA
  if (on_device(executor_))
    return backends::cuda::copy_on_device(data_, device_source, count * sizeof(T), executor_.device(),
                                          executor_.stream());
#endif
  (void)device_source;
  throw std::invalid_argument("ExecutorArray: a copy from device memory into an array of the " + to_string(executor_) +
                              " executor (expected a cuda array)");
}

template <class T>
void ExecutorArray<T>::copy_to(T* host, std::size_t count) const {
  if (count > size_)
    throw std::invalid_argument("ExecutorArray: copying " + std::to_string(count) + " values out of " +
                                std::to_string(size_));
  if (count == 0) return;
#if FEINTERP_HAS_CUDA
  if (on_device(executor_))
    return backends::cuda::copy_to_host(host, data_, count * sizeof(T), executor_.device(), executor_.stream());
#endif
  std::memcpy(host, data_, count * sizeof(T));
}

template <class T>
std::vector<T> ExecutorArray<T>::to_vector() const {
  std::vector<T> host(size_);
  copy_to(host.data(), size_);
  return host;
}

template class ExecutorArray<double>;
template class ExecutorArray<float>;
template class ExecutorArray<node_index>;

}  // namespace feinterp
