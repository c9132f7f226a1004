// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/runtime/scoped_device.hpp>

#include <cuda_runtime.h>

#include <string>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/error.hpp>

namespace feinterp::backends::cuda {

ScopedDevice::ScopedDevice(int device) : device_(device), previous_(get_current_device()) {
  if (device_ == current_device_ordinal) device_ = previous_;
  if (device_ != previous_) check(cudaSetDevice(device_), "making device " + std::to_string(device_) + " current");
}

ScopedDevice::~ScopedDevice() {
  // cudaSetDevice to a device that was current a moment ago does not fail; a destructor could not report it.
  if (device_ != previous_) cudaSetDevice(previous_);
}

}  // namespace feinterp::backends::cuda
