// SPDX-License-Identifier: BSD-3-Clause
// Definition of tensor_core_kernel_set<Element>: included only by the generated tensor_cores_<shape>_double.cu
// files, which instantiate it for their three orders (values and reference gradients x C = 1..9).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/core/limits.hpp>
#include <feinterp/cuda/kernels/tensor_cores/tensor_core_kernel.cuh>
#include <feinterp/cuda/kernels/tensor_cores/tensor_core_kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, int C, Operation Op>
void launch_tensor_core(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                      const KernelArgs<double>& args) {
  tensor_core_kernel<Element, C, Op><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, Operation Op, int... Cs>
KernelSet<double> tensor_core_by_components(int components, std::integer_sequence<int, Cs...>) {
  KernelSet<double> set{};
  const bool found = ((components == Cs + 1 &&
                       (set = KernelSet<double>{reinterpret_cast<const void*>(&tensor_core_kernel<Element, Cs + 1, Op>),
                                                nullptr, &launch_tensor_core<Element, Cs + 1, Op>, nullptr, nullptr},
                        true)) ||
                      ...);
  if (!found)
    throw std::invalid_argument("unsupported component count " + std::to_string(components) + ": expected 1 to " +
                                std::to_string(max_components));
  return set;
}

}  // namespace detail

template <class Element>
KernelSet<double> tensor_core_kernel_set(Operation op, int components) {
  using Cs = std::make_integer_sequence<int, max_components>;
  switch (op) {
    case Operation::values: return detail::tensor_core_by_components<Element, Operation::values>(components, Cs{});
    case Operation::reference_gradients:
      return detail::tensor_core_by_components<Element, Operation::reference_gradients>(components, Cs{});
    default: break;
  }
  throw std::invalid_argument(std::string("no tensor-core kernel for ") + operation_name(op) +
                              ": values and reference_gradients only");
}

}  // namespace feinterp::backends::cuda
