// SPDX-License-Identifier: BSD-3-Clause
// Definition of dense_64_registers_kernel_set<Element>: included only by the units that
// cuda/kernels/instantiations.cmake generates (dense_64_registers_<shape>_double.cu: tetrahedra and
// hexahedra, 3 orders x C = 1..compiled_components each).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/kernels/dense/dense_64_registers_kernel_set.hpp>
#include <feinterp/cuda/kernels/dense/kernel_set.cuh>

namespace feinterp::backends::cuda {

template <class Element>
KernelSet<double> dense_64_registers_kernel_set(Operation op, int components) {
  static_assert(Element::dimension == 3, "compiled for tetrahedra and hexahedra: S = 3");
  if (op != Operation::physical_gradients || components < 1 || components > compiled_components)
    throw std::invalid_argument(std::string("no 64-register kernel for ") + operation_name(op) + " at C = " +
                                std::to_string(components) + ": physical_gradients at C = 1.." +
                                std::to_string(compiled_components) + " only");
  const auto make = [](auto c) {
    constexpr int C = decltype(c)::value;
    return detail::kernel_entry<&packed_kernel_64_registers<Element, C, Operation::physical_gradients, 3, double, false>,
                                double>();
  };
  return detail::make_for_compiled_components(components, make, std::make_integer_sequence<int, compiled_components>{});
}

}  // namespace feinterp::backends::cuda
