// SPDX-License-Identifier: BSD-3-Clause
// Definition of sum_factorised_transpose_kernel_set<Element, Real>: included only by the files that
// cuda/kernels/instantiations.cmake generates, one per shape, order and precision.
// Per order and Q1 = 1..p+3 (layout/tensor_launch_shape.hpp), C (layout/component_kernels.hpp) of each of
//   values, reference gradients      without geometry (S unused), and with it (weighted) for each S;
//   physical gradients               with geometry, for each S (weighted or not at run time).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_transpose_kernel.cuh>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_transpose_kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, int Q1, int C, Operation Forward, int S, bool Geometric, class Real>
void launch_tensor_transpose(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                             const KernelArgs<Real>& args) {
  sum_factorised_transpose_kernel<Element, Q1, C, Forward, S, Geometric, Real><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, int Q1, Operation Forward, int S, bool Geometric, class Real>
KernelSet<Real> tensor_transposes_by_components(int components, bool run_time) {
  return for_components(components, run_time, [](auto c) {
    constexpr int C = decltype(c)::value;
    return KernelSet<Real>{
        reinterpret_cast<const void*>(&sum_factorised_transpose_kernel<Element, Q1, C, Forward, S, Geometric, Real>),
        nullptr, &launch_tensor_transpose<Element, Q1, C, Forward, S, Geometric, Real>, nullptr, nullptr};
  });
}

template <class Element, int Q1, Operation Forward, class Real>
KernelSet<Real> tensor_transposes_by_geometry(int components, int space_dimension, bool weighted, bool run_time) {
  constexpr int D = Element::dimension;
  if constexpr (Forward != Operation::physical_gradients)
    if (!weighted)
      return tensor_transposes_by_components<Element, Q1, Forward, D == 3 ? 3 : 2, false, Real>(components, run_time);
  if (space_dimension == 3) return tensor_transposes_by_components<Element, Q1, Forward, 3, true, Real>(components, run_time);
  if constexpr (D <= 2)
    if (space_dimension == 2) return tensor_transposes_by_components<Element, Q1, Forward, 2, true, Real>(components, run_time);
  throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                              std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
}

template <class Element, int Q1, class Real>
KernelSet<Real> tensor_transposes_by_operation(Operation op, int components, int space_dimension, bool weighted,
                                               bool run_time) {
  switch (op) {
    case Operation::values_transpose:
      return tensor_transposes_by_geometry<Element, Q1, Operation::values, Real>(components, space_dimension, weighted,
                                                                                  run_time);
    case Operation::reference_gradients_transpose:
      return tensor_transposes_by_geometry<Element, Q1, Operation::reference_gradients, Real>(
          components, space_dimension, weighted, run_time);
    case Operation::physical_gradients_transpose:
      return tensor_transposes_by_geometry<Element, Q1, Operation::physical_gradients, Real>(
          components, space_dimension, weighted, run_time);
    default: break;
  }
  throw std::invalid_argument(std::string("sum_factorised_transpose_kernel_set: ") + operation_name(op) + " is not a transpose");
}

template <class Element, class Real, int... Offsets>
KernelSet<Real> tensor_transposes_by_points(Operation op, int components, int space_dimension, bool weighted,
                                            int points_per_direction, bool run_time,
                                            std::integer_sequence<int, Offsets...>) {
  constexpr int first = min_tensor_points_per_direction;
  KernelSet<Real> set{};
  const bool found =
      ((points_per_direction == first + Offsets &&
        (set = tensor_transposes_by_operation<Element, first + Offsets, Real>(op, components, space_dimension, weighted,
                                                                              run_time),
         true)) ||
       ...);
  if (!found)
    throw std::invalid_argument("no sum-factorised transpose kernel for " + to_string(Element::type()) + " at " +
                                std::to_string(points_per_direction) + " points per direction: compiled for " +
                                std::to_string(first) + " to " + std::to_string(max_tensor_points_per_direction(Element::order)));
  return set;
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> sum_factorised_transpose_kernel_set(Operation op, int components, int space_dimension, bool weighted,
                                                    int points_per_direction, bool run_time_components) {
  static_assert(Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron,
                "sum factorisation needs a tensor-product element");
  constexpr int count = max_tensor_points_per_direction(Element::order) - min_tensor_points_per_direction + 1;
  return detail::tensor_transposes_by_points<Element, Real>(op, components, space_dimension, weighted,
                                                            points_per_direction, run_time_components,
                                                            std::make_integer_sequence<int, count>{});
}

}  // namespace feinterp::backends::cuda
