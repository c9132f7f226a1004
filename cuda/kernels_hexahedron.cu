// Instantiates the kernels of the hexahedron (orders 1-3, operations x C = 1..9).
#include "../elements/hexahedron.hpp"
#include "kernel_set.cuh"

namespace feinterp::cuda {
template KernelSet kernel_set<Hexahedron<1>>(Operation, int, int);
template KernelSet kernel_set<Hexahedron<2>>(Operation, int, int);
template KernelSet kernel_set<Hexahedron<3>>(Operation, int, int);
}  // namespace feinterp::cuda
