// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the tensor-core kernels of the hexahedron (orders 1-3, values and reference gradients x
// C = 1..9, double).
#include <feinterp/elements/hexahedron.hpp>
#include <feinterp/cuda/kernels/tensor_cores/dense_mma_kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<double> dense_mma_kernel_set<Hexahedron<1>>(Operation, int);
template KernelSet<double> dense_mma_kernel_set<Hexahedron<2>>(Operation, int);
template KernelSet<double> dense_mma_kernel_set<Hexahedron<3>>(Operation, int);
}  // namespace feinterp::backends::cuda
