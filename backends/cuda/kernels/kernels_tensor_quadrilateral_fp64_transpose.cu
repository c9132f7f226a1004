// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the sum-factorised transpose kernels of the quadrilateral in double (orders 1-3;
// tensor_transpose_kernel_set.cuh lists what).
#include "../../../elements/quadrilateral.hpp"
#include "tensor_transpose_kernel_set.cuh"

namespace feinterp::backends::cuda {
template KernelSet<double> tensor_transpose_kernel_set<Quadrilateral<1>, double>(Operation, int, int, bool, int);
template KernelSet<double> tensor_transpose_kernel_set<Quadrilateral<2>, double>(Operation, int, int, bool, int);
template KernelSet<double> tensor_transpose_kernel_set<Quadrilateral<3>, double>(Operation, int, int, bool, int);
}  // namespace feinterp::backends::cuda
