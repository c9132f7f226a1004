// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the dense_async_gather variant's kernels in float (every element type, values and reference
// gradients, C = 1).
#include <feinterp/cuda/kernels/dense/async_gather_kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<float> async_gather_kernel_set<float>(ElementType, Operation, int);
}  // namespace feinterp::backends::cuda
