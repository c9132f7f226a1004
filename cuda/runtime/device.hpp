// SPDX-License-Identifier: BSD-3-Clause
// The GPUs: whether there is one, how many, which is current, and the properties the launch
// configuration depends on.
#pragma once

#include <cstddef>
#include <string>

namespace feinterp::backends::cuda {

struct DeviceInfo {
  int ordinal = -1;
  std::string name;            ///< e.g. "NVIDIA H100 80GB HBM3"
  int major = 0, minor = 0;    ///< compute capability
  int multiprocessors = 0;
  std::size_t shared_per_block_optin = 0;  ///< the most dynamic shared memory one block can get
  std::size_t shared_per_multiprocessor = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_bytes = 0;
  int max_threads_per_block = 0;
  int driver_version = 0, runtime_version = 0;
  std::string compute_capability() const { return std::to_string(major) + "." + std::to_string(minor); }
};

/// True if a CUDA device is usable (a driver and at least one device). Never throws.
bool cuda_available();

/// A one-line reason when cuda_available() is false (for skipped tests and tool messages).
std::string cuda_unavailable_reason();

/// The number of CUDA devices; 0 without a driver or a device. Never throws.
int device_count();

/// The device ordinal that stands for the calling thread's current device, resolved (resolve_device)
/// when a plan, a block or an array is made.
inline constexpr int current_device_ordinal = -1;

/// The calling thread's current device (cudaGetDevice). Throws CudaError.
int get_current_device();

/// `ordinal` if this machine has that device, the current device for current_device_ordinal. Throws
/// std::invalid_argument naming the ordinal and the number of devices for any other value.
int resolve_device(int ordinal);

/// Properties of device `ordinal` (cached per ordinal). Throws CudaError without one.
const DeviceInfo& device_info(int ordinal);

/// Properties of the current device. Throws CudaError without one.
const DeviceInfo& current_device();

}  // namespace feinterp::backends::cuda
