// SPDX-License-Identifier: BSD-3-Clause
// Definition of sum_factorised_kernel_set<Element, Real>: included only by the files that
// cuda/kernels/instantiations.cmake generates, one per shape, order and
// precision. Per order: Q1 = 1..p+3 (layout/tensor_launch_shape.hpp) x C (layout/component_kernels.hpp)
// x values, reference gradients and physical gradients per S.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_kernel.cuh>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, int Q1, int C, Operation Op, int S, class Real>
void launch_tensor(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs<Real>& args) {
  sum_factorised_kernel<Element, Q1, C, Op, S, Real><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, int Q1, Operation Op, int S, class Real>
KernelSet<Real> tensor_by_components(int components, bool run_time) {
  return for_components<compiled_components>(components, run_time, [](auto c) {
    constexpr int C = decltype(c)::value;
    return KernelSet<Real>{reinterpret_cast<const void*>(&sum_factorised_kernel<Element, Q1, C, Op, S, Real>), nullptr,
                           &launch_tensor<Element, Q1, C, Op, S, Real>, nullptr, nullptr};
  });
}

// Only physical gradients read the space dimension (as in kernel_set.cuh).
template <class Element, int Q1, Operation Op, class Real>
KernelSet<Real> tensor_by_space_dimension(int components, int space_dimension, bool run_time) {
  constexpr int D = Element::dimension;
  constexpr int default_s = D == 3 ? 3 : 2;
  if constexpr (Op != Operation::physical_gradients) {
    return tensor_by_components<Element, Q1, Op, default_s, Real>(components, run_time);
  } else {
    if (space_dimension == 3) return tensor_by_components<Element, Q1, Op, 3, Real>(components, run_time);
    if constexpr (D <= 2)
      if (space_dimension == 2) return tensor_by_components<Element, Q1, Op, 2, Real>(components, run_time);
    throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                                std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
  }
}

template <class Element, int Q1, class Real>
KernelSet<Real> tensor_by_operation(Operation op, int components, int space_dimension, bool run_time) {
  switch (op) {
    case Operation::values:
      return tensor_by_space_dimension<Element, Q1, Operation::values, Real>(components, space_dimension, run_time);
    case Operation::reference_gradients:
      return tensor_by_space_dimension<Element, Q1, Operation::reference_gradients, Real>(components, space_dimension, run_time);
    case Operation::physical_gradients:
      return tensor_by_space_dimension<Element, Q1, Operation::physical_gradients, Real>(components, space_dimension, run_time);
    default: break;
  }
  throw std::invalid_argument(std::string("sum_factorised_kernel_set: ") + operation_name(op) + " is not a forward operation");
}

template <class Element, class Real, int... Offsets>
KernelSet<Real> tensor_by_points(Operation op, int components, int space_dimension, int points_per_direction,
                                 bool run_time, std::integer_sequence<int, Offsets...>) {
  constexpr int first = min_tensor_points_per_direction;
  KernelSet<Real> set{};
  const bool found =
      ((points_per_direction == first + Offsets &&
        (set = tensor_by_operation<Element, first + Offsets, Real>(op, components, space_dimension, run_time), true)) ||
       ...);
  if (!found)
    throw std::invalid_argument("no sum-factorised kernel for " + to_string(Element::type()) + " at " +
                                std::to_string(points_per_direction) + " points per direction: compiled for " +
                                std::to_string(first) + " to " + std::to_string(max_tensor_points_per_direction(Element::order)));
  return set;
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> sum_factorised_kernel_set(Operation op, int components, int space_dimension, int points_per_direction,
                                          bool run_time_components) {
  static_assert(Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron,
                "sum factorisation needs a tensor-product element");
  constexpr int count = max_tensor_points_per_direction(Element::order) - min_tensor_points_per_direction + 1;
  return detail::tensor_by_points<Element, Real>(op, components, space_dimension, points_per_direction,
                                                 run_time_components, std::make_integer_sequence<int, count>{});
}

}  // namespace feinterp::backends::cuda
