// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/runtime/kernel_attributes.hpp>

#include <cuda_runtime.h>

#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/runtime/scoped_device.hpp>

namespace feinterp::backends::cuda {

KernelAttributes kernel_attributes(const void* kernel, int device) {
  const ScopedDevice on_device(device);
  cudaFuncAttributes attributes{};
  check(cudaFuncGetAttributes(&attributes, kernel), "reading a kernel's attributes");
  return KernelAttributes{attributes.numRegs, attributes.localSizeBytes, attributes.sharedSizeBytes,
                          attributes.maxThreadsPerBlock};
}

}  // namespace feinterp::backends::cuda
