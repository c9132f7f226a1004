// SPDX-License-Identifier: BSD-3-Clause
// Untyped device memory: allocation, release and synchronous copies to and from the host, each call
// made with the memory's device current (ScopedDevice) and the caller's device given back. DeviceBuffer
// and the front door's ExecutorArray allocate through these functions, so that the CUDA runtime is
// called from libfeinterp_cuda.so only, never from code inlined into what links it; streams are passed
// as void* (a cudaStream_t converts to it) so that this header needs no CUDA header either.
#pragma once

#include <cstddef>

namespace feinterp::backends::cuda {

/// `bytes` of memory on `device` (an ordinal, or current_device_ordinal); null for 0 bytes. Throws
/// CudaError, saying how many bytes on which device.
void* allocate_device_memory(std::size_t bytes, int device);

/// Frees what allocate_device_memory returned for `device` (null: nothing). Never throws.
void free_device_memory(void* data, int device) noexcept;

/// Copies `bytes` of host memory to `device_data` on `device`, ordered on `stream` (a cudaStream_t of that
/// device; null: its default stream). With `wait`, returns when the copy is done; without, `host` must
/// stay unchanged until it is. An empty copy still waits when asked to. Throws CudaError.
void copy_to_device(void* device_data, const void* host, std::size_t bytes, int device, void* stream, bool wait);

/// Copies `bytes` of `device_data` on `device` to host memory, ordered on `stream` (a cudaStream_t of that
/// device; null: its default stream) after the work queued there, and returns when it is done (an empty
/// copy too: it waits for that work). Throws CudaError.
void copy_to_host(void* host, const void* device_data, std::size_t bytes, int device, void* stream);

/// Copies `bytes` from `source` to `destination`, both memory of `device`, ordered on `stream` (a
/// cudaStream_t of that device; null: its default stream) after the work queued there, and returns when
/// it is done: the source may then change or be freed. Throws CudaError.
void copy_on_device(void* destination, const void* source, std::size_t bytes, int device, void* stream);

}  // namespace feinterp::backends::cuda
