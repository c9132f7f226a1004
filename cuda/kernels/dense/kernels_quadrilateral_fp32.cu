// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the kernels of the quadrilateral in float (orders 1-3, operations x C = 1..9, S = 2 and 3
// for physical gradients of lines and 2D elements).
#include <feinterp/elements/quadrilateral.hpp>
#include <feinterp/cuda/kernels/dense/kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<float> kernel_set<Quadrilateral<1>, float>(Operation, int, int);
template KernelSet<float> kernel_set<Quadrilateral<2>, float>(Operation, int, int);
template KernelSet<float> kernel_set<Quadrilateral<3>, float>(Operation, int, int);
}  // namespace feinterp::backends::cuda
