// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/runtime/device_memory.hpp>

#include <cuda_runtime.h>

#include <exception>
#include <string>

#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/runtime/scoped_device.hpp>

namespace feinterp::backends::cuda {

void* allocate_device_memory(std::size_t bytes, int device) {
  if (bytes == 0) return nullptr;
  const ScopedDevice on_device(device);
  void* data = nullptr;
  check(cudaMalloc(&data, bytes),
        "allocating " + std::to_string(bytes) + " bytes of memory on device " + std::to_string(on_device.device()));
  return data;
}

void free_device_memory(void* data, int device) noexcept {
  if (!data) return;
  try {
    const ScopedDevice on_device(device);
    cudaFree(data);
  } catch (const std::exception&) {
    // The device cannot be made current (a failed context, the runtime unloading): its memory went with it.
  }
}

namespace {

// One copy on `device`'s stream, waited for when asked: the three directions below differ only in their
// kind and in what their error says they were doing.
void copy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind, int device,
          void* stream_handle, bool wait, const char* doing) {
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  const ScopedDevice on_device(device);
  if (bytes) check(cudaMemcpyAsync(destination, source, bytes, kind, stream), doing);
  if (wait) check(cudaStreamSynchronize(stream), doing);
}

}  // namespace

void copy_to_device(void* device_data, const void* host, std::size_t bytes, int device, void* stream_handle,
                    bool wait) {
  copy(device_data, host, bytes, cudaMemcpyHostToDevice, device, stream_handle, wait, "copying to the device");
}

void copy_to_host(void* host, const void* device_data, std::size_t bytes, int device, void* stream_handle) {
  copy(host, device_data, bytes, cudaMemcpyDeviceToHost, device, stream_handle, true, "copying from the device");
}

void copy_on_device(void* destination, const void* source, std::size_t bytes, int device, void* stream_handle) {
  copy(destination, source, bytes, cudaMemcpyDeviceToDevice, device, stream_handle, true, "copying on the device");
}

}  // namespace feinterp::backends::cuda
