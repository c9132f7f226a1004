// Instantiates the kernels of the tetrahedron (orders 1-3, operations x C = 1..9).
#include "../elements/tetrahedron.hpp"
#include "kernel_set.cuh"

namespace feinterp::cuda {
template KernelSet kernel_set<Tetrahedron<1>>(Operation, int, int);
template KernelSet kernel_set<Tetrahedron<2>>(Operation, int, int);
template KernelSet kernel_set<Tetrahedron<3>>(Operation, int, int);
}  // namespace feinterp::cuda
