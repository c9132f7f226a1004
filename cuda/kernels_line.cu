// Instantiates the kernels of the line (orders 1-3, operations x C = 1..9, S = 2 and 3 for physical
// gradients).
#include "../elements/line.hpp"
#include "kernel_set.cuh"

namespace feinterp::cuda {
template KernelSet kernel_set<Line<1>>(Operation, int, int);
template KernelSet kernel_set<Line<2>>(Operation, int, int);
template KernelSet kernel_set<Line<3>>(Operation, int, int);
}  // namespace feinterp::cuda
