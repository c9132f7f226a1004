// SPDX-License-Identifier: BSD-3-Clause
// Definition of tensor_core_kernel_set<Element>: included only by the generated tensor_cores_<shape>_double.cu
// files, which instantiate it for their three orders (values and reference gradients x C =
// 1..compiled_dense_components and the run-time-C kernel).
#pragma once

#include <stdexcept>
#include <string>

#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/kernels/tensor_cores/tensor_core_kernel.cuh>
#include <feinterp/cuda/kernels/tensor_cores/tensor_core_kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, int C, Operation Op>
void launch_tensor_core(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                      const KernelArgs<double>& args) {
  tensor_core_kernel<Element, C, Op><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, Operation Op>
KernelSet<double> tensor_core_by_components(int components, bool run_time) {
  return for_components<compiled_dense_components>(components, run_time, [](auto c) {
    constexpr int C = decltype(c)::value;
    return KernelSet<double>{reinterpret_cast<const void*>(&tensor_core_kernel<Element, C, Op>), nullptr,
                             &launch_tensor_core<Element, C, Op>, nullptr, nullptr};
  });
}

}  // namespace detail

template <class Element>
KernelSet<double> tensor_core_kernel_set(Operation op, int components, bool run_time_components) {
  switch (op) {
    case Operation::values:
      return detail::tensor_core_by_components<Element, Operation::values>(components, run_time_components);
    case Operation::reference_gradients:
      return detail::tensor_core_by_components<Element, Operation::reference_gradients>(components, run_time_components);
    default: break;
  }
  throw std::invalid_argument(std::string("no tensor-core kernel for ") + operation_name(op) +
                              ": values and reference_gradients only");
}

}  // namespace feinterp::backends::cuda
