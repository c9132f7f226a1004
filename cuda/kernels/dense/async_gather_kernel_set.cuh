// SPDX-License-Identifier: BSD-3-Clause
// Definition of async_gather_kernel_set<Real>: included only by kernels_async_gather_fp64.cu and
// kernels_async_gather_fp32.cu, which instantiate it for their precision (15 element types x values and
// reference gradients, C = 1: 30 kernels each).
#pragma once

#include <stdexcept>
#include <string>

#include <feinterp/elements/visit.hpp>
#include <feinterp/cuda/layout/elements_per_thread.hpp>
#include <feinterp/cuda/kernels/dense/async_gather_kernel_set.hpp>
#include <feinterp/cuda/kernels/dense/kernel_set.cuh>

namespace feinterp::backends::cuda {

template <class Real>
KernelSet<Real> async_gather_kernel_set(ElementType type, Operation op, int components) {
  if ((op != Operation::values && op != Operation::reference_gradients) || packed_elements_per_thread(op, components) < 2)
    throw std::invalid_argument(std::string("no asynchronous-gather kernel for ") + operation_name(op) + " at C = " +
                                std::to_string(components) + ": values and reference_gradients at C = 1 only");
  return visit(type, [&](auto element) {
    using Element = decltype(element);
    constexpr int S = detail::default_space_dimension_of<Element>;
    return op == Operation::values ? detail::packed_only<Element, 1, Operation::values, S, Real, true>()
                                   : detail::packed_only<Element, 1, Operation::reference_gradients, S, Real, true>();
  });
}

}  // namespace feinterp::backends::cuda
