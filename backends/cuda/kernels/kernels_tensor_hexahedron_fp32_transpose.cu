// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the sum-factorised transpose kernels of the hexahedron in float (orders 1-3;
// tensor_transpose_kernel_set.cuh lists what).
#include "../../../elements/hexahedron.hpp"
#include "tensor_transpose_kernel_set.cuh"

namespace feinterp::backends::cuda {
template KernelSet<float> tensor_transpose_kernel_set<Hexahedron<1>, float>(Operation, int, int, bool, int);
template KernelSet<float> tensor_transpose_kernel_set<Hexahedron<2>, float>(Operation, int, int, bool, int);
template KernelSet<float> tensor_transpose_kernel_set<Hexahedron<3>, float>(Operation, int, int, bool, int);
}  // namespace feinterp::backends::cuda
