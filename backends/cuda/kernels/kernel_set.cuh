// SPDX-License-Identifier: BSD-3-Clause
// Definition of kernel_set<Element, Real>: included only by the kernels_<shape>_<precision>.cu files,
// which instantiate it for their three orders (ten files, so that a 2-core build compiles them in
// parallel).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "../../../core/limits.hpp"
#include "baseline_kernel.cuh"
#include "kernel_set.hpp"
#include "packed_kernel.cuh"
#include "tabulate_kernel.cuh"

namespace feinterp::backends::cuda {

namespace detail {

// The packed kernel of a configuration: register-capped or not (packed_kernel.cuh says which and why).
template <class Element, int C, Operation Op, int S, class Real>
constexpr auto packed_kernel_of() {
  if constexpr (register_capped<Element, C, Op, S, Real>())
    return &packed_kernel_capped<Element, C, Op, S, Real>;
  else if constexpr (capped_at_40_registers<Element, C, Op, S, Real>())
    return &packed_kernel_40_registers<Element, C, Op, S, Real>;
  else if constexpr (capped_at_32_registers<Element, C, Op, S, Real>())
    return &packed_kernel_32_registers<Element, C, Op, S, Real>;
  else
    return &packed_kernel<Element, C, Op, S, Real>;
}

template <class Element, int C, Operation Op, int S, class Real>
void launch_packed(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs<Real>& args) {
  packed_kernel_of<Element, C, Op, S, Real>()<<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, Operation Op, int S, class Real>
void launch_baseline(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs<Real>& args) {
  baseline_kernel<Element, Op, S, Real><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, Operation Op, int S, class Real, int... Cs>
KernelSet<Real> by_components(int components, std::integer_sequence<int, Cs...>) {
  KernelSet<Real> set{};
  const bool found = ((components == Cs + 1 &&
                       (set = KernelSet<Real>{reinterpret_cast<const void*>(packed_kernel_of<Element, Cs + 1, Op, S, Real>()),
                                              reinterpret_cast<const void*>(&baseline_kernel<Element, Op, S, Real>),
                                              &launch_packed<Element, Cs + 1, Op, S, Real>,
                                              &launch_baseline<Element, Op, S, Real>, &launch_tabulate<Element, Real>},
                        true)) ||
                      ...);
  if (!found)
    throw std::invalid_argument("unsupported component count " + std::to_string(components) +
                                ": expected 1 to " + std::to_string(max_components));
  return set;
}

// Only physical gradients read the space dimension: the other operations are instantiated once, with
// the element's default (2 for lines and 2D elements, 3 for 3D ones).
template <class Element, Operation Op, class Real>
KernelSet<Real> by_space_dimension(int components, int space_dimension) {
  using Cs = std::make_integer_sequence<int, max_components>;
  constexpr int D = Element::dimension;
  constexpr int default_s = D == 3 ? 3 : 2;
  if constexpr (Op != Operation::physical_gradients) {
    return by_components<Element, Op, default_s, Real>(components, Cs{});
  } else {
    if (space_dimension == 3) return by_components<Element, Op, 3, Real>(components, Cs{});
    if constexpr (D <= 2)
      if (space_dimension == 2) return by_components<Element, Op, 2, Real>(components, Cs{});
    throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                                std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
  }
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> kernel_set(Operation op, int components, int space_dimension) {
  switch (op) {
    case Operation::values:
      return detail::by_space_dimension<Element, Operation::values, Real>(components, space_dimension);
    case Operation::reference_gradients:
      return detail::by_space_dimension<Element, Operation::reference_gradients, Real>(components, space_dimension);
    case Operation::physical_gradients:
      return detail::by_space_dimension<Element, Operation::physical_gradients, Real>(components, space_dimension);
    default: break;
  }
  throw std::invalid_argument(std::string("kernel_set: ") + operation_name(op) + " is not a forward operation");
}

}  // namespace feinterp::backends::cuda
