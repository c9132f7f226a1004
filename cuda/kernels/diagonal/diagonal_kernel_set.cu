// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/kernels/diagonal/diagonal_kernel_set.hpp>

#include <feinterp/elements/visit.hpp>

namespace feinterp::backends::cuda {

template <class Real>
KernelSet<Real> diagonal_kernel_set(ElementType type, FusedOperator op, int space_dimension) {
  return visit(type, [&](auto element) { return diagonal_kernel_set<decltype(element), Real>(op, space_dimension); });
}

template KernelSet<double> diagonal_kernel_set<double>(ElementType, FusedOperator, int);
template KernelSet<float> diagonal_kernel_set<float>(ElementType, FusedOperator, int);

}  // namespace feinterp::backends::cuda
