// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the sum-factorised kernels of the hexahedron in double (orders 1-3, each at its range of
// points per direction x C = 1..9 x values, reference gradients, physical gradients).
#include "../../../elements/hexahedron.hpp"
#include "tensor_kernel_set.cuh"

namespace feinterp::backends::cuda {
template KernelSet<double> tensor_kernel_set<Hexahedron<1>, double>(Operation, int, int, int);
template KernelSet<double> tensor_kernel_set<Hexahedron<2>, double>(Operation, int, int, int);
template KernelSet<double> tensor_kernel_set<Hexahedron<3>, double>(Operation, int, int, int);
}  // namespace feinterp::backends::cuda
