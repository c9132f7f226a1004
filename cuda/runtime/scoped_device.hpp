// SPDX-License-Identifier: BSD-3-Clause
// ScopedDevice: a device made current for one scope, and the caller's current device given back at its
// end, also when the scope is left by an exception. CUDA's current device is a per-thread setting that
// every allocation, launch, query and null stream refers to; the backend's objects remember the device
// they were made on and take it for each of their calls through this guard, so that they work whatever
// device the caller has made current, and leave it as it was.
#pragma once

namespace feinterp::backends::cuda {

class ScopedDevice {
 public:
  /// Makes `device` current (nothing to do when it already is, or for current_device_ordinal, -1).
  /// Throws CudaError when it cannot be made current.
  explicit ScopedDevice(int device);
  /// Makes the device that was current before current again, if it changed.
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

  /// The device current in this scope.
  int device() const { return device_; }

 private:
  int device_ = 0, previous_ = 0;
};

}  // namespace feinterp::backends::cuda
