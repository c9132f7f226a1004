// SPDX-License-Identifier: BSD-3-Clause
// Definition of sum_factorised_operator_kernel_set<Element, Real>: included only by the files that
// cuda/kernels/instantiations.cmake generates, one per shape, order and precision. Per order: Q1 = p + 1
// and p + 2, the kind (layout/tensor_operator_layout.hpp), C (layout/component_kernels.hpp) where the
// kind has a field, and S (3; quadrilaterals also 2) where it reads the coordinates.
#pragma once

#include <stdexcept>
#include <string>

#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_operator_kernel.cuh>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_operator_kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, int Q1, int C, int S, class Real, TensorOperatorKind Kind>
void launch_tensor_operator(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                            const KernelArgs<Real>& args) {
  sum_factorised_operator_kernel<Element, Q1, C, S, Real, Kind><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, int Q1, int C, int S, class Real, TensorOperatorKind Kind>
KernelSet<Real> tensor_operator() {
  return KernelSet<Real>{reinterpret_cast<const void*>(&sum_factorised_operator_kernel<Element, Q1, C, S, Real, Kind>),
                         nullptr, &launch_tensor_operator<Element, Q1, C, S, Real, Kind>, nullptr, nullptr};
}

template <class Element, int Q1, int S, class Real, TensorOperatorKind Kind>
KernelSet<Real> tensor_operators_by_components(int components, bool run_time) {
  return for_components(components, run_time, [](auto c) {
    return tensor_operator<Element, Q1, decltype(c)::value, S, Real, Kind>();
  });
}

// The kinds that read the coordinates are compiled per S; the others once (S = 3, unread).
template <class Element, int Q1, class Real, TensorOperatorKind Kind>
KernelSet<Real> tensor_operators_by_space(int components, int space_dimension, bool run_time) {
  constexpr int D = Element::dimension;
  if (space_dimension != 3 && (D == 3 || space_dimension != 2))
    throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                                std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
  if constexpr (!gathers_coordinates(Kind)) {
    return tensor_operators_by_components<Element, Q1, 3, Real, Kind>(components, run_time);
  } else if constexpr (!gathers_field(Kind)) {  // a factor pass: no components
    if constexpr (D == 2)
      if (space_dimension == 2) return tensor_operator<Element, Q1, 1, 2, Real, Kind>();
    return tensor_operator<Element, Q1, 1, 3, Real, Kind>();
  } else {
    if constexpr (D == 2)
      if (space_dimension == 2) return tensor_operators_by_components<Element, Q1, 2, Real, Kind>(components, run_time);
    return tensor_operators_by_components<Element, Q1, 3, Real, Kind>(components, run_time);
  }
}

template <class Element, int Q1, class Real>
KernelSet<Real> tensor_operators_by_kind(TensorOperatorKind kind, int components, int space_dimension, bool run_time) {
  switch (kind) {
    case TensorOperatorKind::diffusion:
      return tensor_operators_by_space<Element, Q1, Real, TensorOperatorKind::diffusion>(components, space_dimension, run_time);
    case TensorOperatorKind::diffusion_precomputed:
      return tensor_operators_by_space<Element, Q1, Real, TensorOperatorKind::diffusion_precomputed>(components, space_dimension,
                                                                                                    run_time);
    case TensorOperatorKind::mass_precomputed:
      return tensor_operators_by_space<Element, Q1, Real, TensorOperatorKind::mass_precomputed>(components, space_dimension,
                                                                                               run_time);
    case TensorOperatorKind::diffusion_factors:
      return tensor_operators_by_space<Element, Q1, Real, TensorOperatorKind::diffusion_factors>(components, space_dimension,
                                                                                                run_time);
    case TensorOperatorKind::mass_factors:
      return tensor_operators_by_space<Element, Q1, Real, TensorOperatorKind::mass_factors>(components, space_dimension, run_time);
  }
  throw std::invalid_argument("unknown sum-factorised operator kind");
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> sum_factorised_operator_kernel_set(TensorOperatorKind kind, int components, int space_dimension,
                                                   int points_per_direction, bool run_time_components) {
  static_assert(Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron,
                "sum factorisation needs a tensor-product element");
  constexpr int first = operator_points_per_direction_min(Element::order);
  static_assert(operator_points_per_direction_max(Element::order) == first + 1, "two compiled Q1");
  if (points_per_direction == first)
    return detail::tensor_operators_by_kind<Element, first, Real>(kind, components, space_dimension, run_time_components);
  if (points_per_direction == first + 1)
    return detail::tensor_operators_by_kind<Element, first + 1, Real>(kind, components, space_dimension, run_time_components);
  throw std::invalid_argument("no sum-factorised operator kernel for " + to_string(Element::type()) + " at " +
                              std::to_string(points_per_direction) + " points per direction: compiled for " +
                              std::to_string(first) + " and " + std::to_string(first + 1));
}

}  // namespace feinterp::backends::cuda
