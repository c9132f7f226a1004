// SPDX-License-Identifier: BSD-3-Clause
#include "kernel_set.hpp"

#include "../../../elements/visit.hpp"

namespace feinterp::backends::cuda {

template <class Real>
KernelSet<Real> kernel_set(ElementType type, Operation op, int components, int space_dimension) {
  return visit(type, [&](auto element) { return kernel_set<decltype(element), Real>(op, components, space_dimension); });
}

template KernelSet<double> kernel_set<double>(ElementType, Operation, int, int);
template KernelSet<float> kernel_set<float>(ElementType, Operation, int, int);

}  // namespace feinterp::backends::cuda
