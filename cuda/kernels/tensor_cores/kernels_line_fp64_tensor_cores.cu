// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the tensor-core kernels of the line (orders 1-3, values and reference gradients x
// C = 1..9, double).
#include <feinterp/elements/line.hpp>
#include <feinterp/cuda/kernels/tensor_cores/dense_mma_kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<double> dense_mma_kernel_set<Line<1>>(Operation, int);
template KernelSet<double> dense_mma_kernel_set<Line<2>>(Operation, int);
template KernelSet<double> dense_mma_kernel_set<Line<3>>(Operation, int);
}  // namespace feinterp::backends::cuda
