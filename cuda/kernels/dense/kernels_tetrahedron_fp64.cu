// SPDX-License-Identifier: BSD-3-Clause
// Instantiates the kernels of the tetrahedron in double (orders 1-3, operations x C = 1..9, S = 2 and 3
// for physical gradients of lines and 2D elements).
#include <feinterp/elements/tetrahedron.hpp>
#include <feinterp/cuda/kernels/dense/kernel_set.cuh>

namespace feinterp::backends::cuda {
template KernelSet<double> kernel_set<Tetrahedron<1>, double>(Operation, int, int);
template KernelSet<double> kernel_set<Tetrahedron<2>, double>(Operation, int, int);
template KernelSet<double> kernel_set<Tetrahedron<3>, double>(Operation, int, int);
}  // namespace feinterp::backends::cuda
