// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/kernels/tensor_cores/tensor_core_kernel_set.hpp>

#include <stdexcept>
#include <type_traits>

#include <feinterp/elements/visit.hpp>

namespace feinterp::backends::cuda {

template <class Real>
KernelSet<Real> tensor_core_kernel_set(ElementType type, Operation op, int components, bool run_time_components) {
  if constexpr (std::is_same_v<Real, double>) {
    return visit(type, [&](auto element) {
      return tensor_core_kernel_set<decltype(element)>(op, components, run_time_components);
    });
  } else {
    throw std::invalid_argument("no tensor-core kernel in fp32: the FP64 tensor cores (DMMA) take double, and "
                                "the FP32 ones round their inputs to TF32 (10-bit mantissas)");
  }
}

template KernelSet<double> tensor_core_kernel_set<double>(ElementType, Operation, int, bool);
template KernelSet<float> tensor_core_kernel_set<float>(ElementType, Operation, int, bool);

}  // namespace feinterp::backends::cuda
