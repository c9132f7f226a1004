// Instantiates the kernels of the triangle (orders 1-3, operations x C = 1..9, S = 2 and 3 for physical
// gradients).
#include "../elements/triangle.hpp"
#include "kernel_set.cuh"

namespace feinterp::cuda {
template KernelSet kernel_set<Triangle<1>>(Operation, int, int);
template KernelSet kernel_set<Triangle<2>>(Operation, int, int);
template KernelSet kernel_set<Triangle<3>>(Operation, int, int);
}  // namespace feinterp::cuda
