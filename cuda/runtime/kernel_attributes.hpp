// SPDX-License-Identifier: BSD-3-Clause
// What the compiler made of a kernel (cudaFuncGetAttributes), asked of the runtime that registered it:
// the one linked into libfeinterp_cuda.so, which alone knows the kernels' handles (a program's own
// runtime answers cudaErrorInvalidResourceHandle for them). For the tests that hold a register cap.
#pragma once

#include <cstddef>

namespace feinterp::backends::cuda {

struct KernelAttributes {
  int registers = 0;                 ///< per thread
  std::size_t local_bytes = 0;       ///< per thread: spills and local arrays
  std::size_t static_shared_bytes = 0;
  int max_threads_per_block = 0;     ///< what __launch_bounds__ and the registers allow
};

/// The attributes of `kernel` (a KernelSet's `packed` or `baseline`) on `device` (current_device_ordinal: the
/// calling thread's). Throws CudaError.
KernelAttributes kernel_attributes(const void* kernel, int device);

}  // namespace feinterp::backends::cuda
