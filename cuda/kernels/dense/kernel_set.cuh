// SPDX-License-Identifier: BSD-3-Clause
// Definition of kernel_set<Element, Real>: included only by the units that cuda/kernels/instantiations.cmake
// generates (dense_<shape>_<precision>.cu, each instantiating it for its three orders: ten units, so that
// a 2-core build compiles them in parallel), and by async_gather_kernel_set.cuh, whose kernels are the
// packed kernel's too.
#pragma once

#include <stdexcept>
#include <string>

#include <feinterp/cuda/kernels/baseline/baseline_kernel.cuh>
#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>
#include <feinterp/cuda/kernels/dense/packed_kernel.cuh>
#include <feinterp/cuda/kernels/tabulate_kernel.cuh>

namespace feinterp::backends::cuda {

namespace detail {

// The packed kernel of a configuration: register-capped or not (packed_kernel.cuh says which and why), its
// gather loaded or copied (AsyncGather: the dense_async_gather variant) under the same caps. The
// dense_64_registers variant's kernels are packed_kernel_64_registers (dense_64_registers_kernel_set.cuh).
template <class Element, int C, Operation Op, int S, class Real, bool AsyncGather>
constexpr auto packed_kernel_of() {
  if constexpr (capped_at_40_registers<Element, C, Op, S, Real>())
    return &packed_kernel_40_registers<Element, C, Op, S, Real, AsyncGather>;
  else if constexpr (capped_at_32_registers<Element, C, Op, S, Real>())
    return &packed_kernel_32_registers<Element, C, Op, S, Real, AsyncGather>;
  else
    return &packed_kernel<Element, C, Op, S, Real, AsyncGather>;
}

template <auto Kernel, class Real>
void launch_kernel(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs<Real>& args) {
  Kernel<<<grid, block, shared_bytes, stream>>>(args);
}

/// A packed kernel's entry of a KernelSet and its launcher; the baseline and tabulation are added by the
/// dense set only.
template <auto Kernel, class Real>
KernelSet<Real> kernel_entry() {
  return KernelSet<Real>{reinterpret_cast<const void*>(Kernel), nullptr, &launch_kernel<Kernel, Real>, nullptr, nullptr};
}

/// The packed kernel of `dense` (AsyncGather false) or `dense_async_gather` (true).
template <class Element, int C, Operation Op, int S, class Real, bool AsyncGather>
KernelSet<Real> packed_only() {
  return kernel_entry<packed_kernel_of<Element, C, Op, S, Real, AsyncGather>(), Real>();
}

template <class Element, int C, Operation Op, int S, class Real>
KernelSet<Real> dense_set() {
  KernelSet<Real> set = packed_only<Element, C, Op, S, Real, false>();
  set.baseline = reinterpret_cast<const void*>(&baseline_kernel<Element, Op, S, Real>);
  set.launch_baseline = &launch_kernel<&baseline_kernel<Element, Op, S, Real>, Real>;
  set.tabulate = &launch_tabulate<Element, Real>;
  return set;
}

template <class Element, Operation Op, int S, class Real>
KernelSet<Real> by_components(int components, bool run_time) {
  return for_components<compiled_dense_components>(
      components, run_time, [](auto c) { return dense_set<Element, decltype(c)::value, Op, S, Real>(); });
}

/// The space dimension that values and reference gradients are instantiated with (they never read it):
/// 2 for lines and 2D elements, 3 for 3D ones.
template <class Element>
inline constexpr int default_space_dimension_of = Element::dimension == 3 ? 3 : 2;

// Only physical gradients read the space dimension: the other operations are instantiated once, with
// the element's default (default_space_dimension_of).
template <class Element, Operation Op, class Real>
KernelSet<Real> by_space_dimension(int components, int space_dimension, bool run_time) {
  constexpr int D = Element::dimension;
  if constexpr (Op != Operation::physical_gradients) {
    return by_components<Element, Op, default_space_dimension_of<Element>, Real>(components, run_time);
  } else {
    if (space_dimension == 3) return by_components<Element, Op, 3, Real>(components, run_time);
    if constexpr (D <= 2)
      if (space_dimension == 2) return by_components<Element, Op, 2, Real>(components, run_time);
    throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                                std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
  }
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> kernel_set(Operation op, int components, int space_dimension, bool run_time_components) {
  switch (op) {
    case Operation::values:
      return detail::by_space_dimension<Element, Operation::values, Real>(components, space_dimension, run_time_components);
    case Operation::reference_gradients:
      return detail::by_space_dimension<Element, Operation::reference_gradients, Real>(components, space_dimension, run_time_components);
    case Operation::physical_gradients:
      return detail::by_space_dimension<Element, Operation::physical_gradients, Real>(components, space_dimension, run_time_components);
    default: break;
  }
  throw std::invalid_argument(std::string("kernel_set: ") + operation_name(op) + " is not a forward operation");
}

}  // namespace feinterp::backends::cuda
