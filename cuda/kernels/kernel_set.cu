// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/kernels/kernel_set.hpp>

#include <stdexcept>
#include <string>

#include <feinterp/elements/visit.hpp>
#include <feinterp/cuda/kernels/dense/dense_64_registers_kernel_set.hpp>

namespace feinterp::backends::cuda {

template <class Real>
KernelSet<Real> kernel_set(ElementType type, Operation op, int components, int space_dimension, bool weighted, bool fused,
                           bool run_time_components) {
  return visit(type, [&](auto element) {
    using Element = decltype(element);
    if (is_transpose(op))
      return transpose_kernel_set<Element, Real>(op, components, space_dimension, weighted, fused, run_time_components);
    return kernel_set<Element, Real>(op, components, space_dimension, run_time_components);
  });
}

template KernelSet<double> kernel_set<double>(ElementType, Operation, int, int, bool, bool, bool);
template KernelSet<float> kernel_set<float>(ElementType, Operation, int, int, bool, bool, bool);

KernelSet<double> dense_64_registers_kernel_set(ElementType type, Operation op, int components) {
  return visit(type, [&](auto element) -> KernelSet<double> {
    using Element = decltype(element);
    if constexpr (Element::dimension == 3)
      return dense_64_registers_kernel_set<Element>(op, components);
    else
      throw std::invalid_argument("no 64-register kernel for a " + std::string(shape_name(type.shape)) +
                                  ": tetrahedra and hexahedra only");
  });
}

}  // namespace feinterp::backends::cuda
