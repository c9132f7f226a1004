// Definition of kernel_set<Element>: included only by the kernels_<shape>.cu files, which instantiate
// it for their three orders (four files, so that a 2-core build compiles them in parallel).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "../fem/layout.hpp"
#include "baseline_kernel.cuh"
#include "kernel_set.hpp"
#include "packed_kernel.cuh"
#include "tabulate_kernel.cuh"

namespace feinterp::cuda {

namespace detail {

template <class Element, int C, Operation Op>
void launch_packed(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs& args) {
  packed_kernel<Element, C, Op><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, Operation Op>
void launch_baseline(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs& args) {
  baseline_kernel<Element, Op><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element>
void launch_tabulate(const double* points, int Q, double* values, double* gradients, cudaStream_t stream) {
  tabulate_kernel<Element><<<(Q + 127) / 128, 128, 0, stream>>>(points, Q, values, gradients);
}

template <class Element, Operation Op, int... Cs>
KernelSet by_components(int components, std::integer_sequence<int, Cs...>) {
  KernelSet set{};
  const bool found = ((components == Cs + 1 &&
                       (set = KernelSet{reinterpret_cast<const void*>(&packed_kernel<Element, Cs + 1, Op>),
                                        reinterpret_cast<const void*>(&baseline_kernel<Element, Op>),
                                        &launch_packed<Element, Cs + 1, Op>, &launch_baseline<Element, Op>,
                                        &launch_tabulate<Element>},
                        true)) ||
                      ...);
  if (!found)
    throw std::invalid_argument("unsupported component count " + std::to_string(components) +
                                ": expected 1 to " + std::to_string(max_components));
  return set;
}

}  // namespace detail

template <class Element>
KernelSet kernel_set(Operation op, int components) {
  using Cs = std::make_integer_sequence<int, max_components>;
  switch (op) {
    case Operation::values: return detail::by_components<Element, Operation::values>(components, Cs{});
    case Operation::reference_gradients:
      return detail::by_components<Element, Operation::reference_gradients>(components, Cs{});
    case Operation::physical_gradients:
      return detail::by_components<Element, Operation::physical_gradients>(components, Cs{});
  }
  throw std::invalid_argument("unknown operation");
}

}  // namespace feinterp::cuda
