// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the sum-factorised kernels of the quadrilateral in float (orders 1-3, each at its range of
// points per direction x C = 1..9 x values, reference gradients, physical gradients for S = 2 and 3).
#include "../../../elements/quadrilateral.hpp"
#include "tensor_kernel_set.cuh"

namespace feinterp::backends::cuda {
template KernelSet<float> tensor_kernel_set<Quadrilateral<1>, float>(Operation, int, int, int);
template KernelSet<float> tensor_kernel_set<Quadrilateral<2>, float>(Operation, int, int, int);
template KernelSet<float> tensor_kernel_set<Quadrilateral<3>, float>(Operation, int, int, int);
}  // namespace feinterp::backends::cuda
