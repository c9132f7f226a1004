// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the transpose kernels of the hexahedron in double (orders 1-3; transpose_kernel_set.cuh
// lists what).
#include <feinterp/elements/hexahedron.hpp>
#include <feinterp/cuda/kernels/transpose/transpose_kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<double> transpose_kernel_set<Hexahedron<1>, double>(Operation, int, int, bool, bool);
template KernelSet<double> transpose_kernel_set<Hexahedron<2>, double>(Operation, int, int, bool, bool);
template KernelSet<double> transpose_kernel_set<Hexahedron<3>, double>(Operation, int, int, bool, bool);
}  // namespace feinterp::backends::cuda
