// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the dense_async_gather variant's kernels in double (every element type, values and reference
// gradients, C = 1).
#include <feinterp/cuda/kernels/dense/async_gather_kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<double> async_gather_kernel_set<double>(ElementType, Operation, int);
}  // namespace feinterp::backends::cuda
