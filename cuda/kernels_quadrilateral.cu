// Instantiates the kernels of the quadrilateral (orders 1-3, operations x C = 1..9, S = 2 and 3 for
// physical gradients).
#include "../elements/quadrilateral.hpp"
#include "kernel_set.cuh"

namespace feinterp::cuda {
template KernelSet kernel_set<Quadrilateral<1>>(Operation, int, int);
template KernelSet kernel_set<Quadrilateral<2>>(Operation, int, int);
template KernelSet kernel_set<Quadrilateral<3>>(Operation, int, int);
}  // namespace feinterp::cuda
