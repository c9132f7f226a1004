// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_kernel_set.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_operator_kernel_set.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_transpose_kernel_set.hpp>

#include <stdexcept>
#include <string>

#include <feinterp/elements/visit.hpp>

namespace feinterp::backends::cuda {

template <class Real>
KernelSet<Real> sum_factorised_kernel_set(ElementType type, Operation op, int components, int space_dimension,
                                          int points_per_direction, bool run_time_components) {
  return visit(type, [&](auto element) -> KernelSet<Real> {
    using Element = decltype(element);
    if constexpr (Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron)
      return sum_factorised_kernel_set<Element, Real>(op, components, space_dimension, points_per_direction,
                                                      run_time_components);
    else
      throw std::invalid_argument("no sum-factorised kernel for " + to_string(type) +
                                  ": only quadrilaterals and hexahedra have a tensor-product basis");
  });
}

template <class Real>
KernelSet<Real> sum_factorised_transpose_kernel_set(ElementType type, Operation op, int components, int space_dimension,
                                                    bool weighted, int points_per_direction, bool run_time_components) {
  return visit(type, [&](auto element) -> KernelSet<Real> {
    using Element = decltype(element);
    if constexpr (Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron)
      return sum_factorised_transpose_kernel_set<Element, Real>(op, components, space_dimension, weighted,
                                                                points_per_direction, run_time_components);
    else
      throw std::invalid_argument("no sum-factorised kernel for " + to_string(type) +
                                  ": only quadrilaterals and hexahedra have a tensor-product basis");
  });
}

template <class Real>
KernelSet<Real> sum_factorised_operator_kernel_set(ElementType type, TensorOperatorKind kind, int components,
                                                   int space_dimension, int points_per_direction,
                                                   bool run_time_components) {
  return visit(type, [&](auto element) -> KernelSet<Real> {
    using Element = decltype(element);
    if constexpr (Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron)
      return sum_factorised_operator_kernel_set<Element, Real>(kind, components, space_dimension, points_per_direction,
                                                               run_time_components);
    else
      throw std::invalid_argument("no sum-factorised kernel for " + to_string(type) +
                                  ": only quadrilaterals and hexahedra have a tensor-product basis");
  });
}

template KernelSet<double> sum_factorised_kernel_set<double>(ElementType, Operation, int, int, int, bool);
template KernelSet<float> sum_factorised_kernel_set<float>(ElementType, Operation, int, int, int, bool);
template KernelSet<double> sum_factorised_transpose_kernel_set<double>(ElementType, Operation, int, int, bool, int, bool);
template KernelSet<float> sum_factorised_transpose_kernel_set<float>(ElementType, Operation, int, int, bool, int, bool);
template KernelSet<double> sum_factorised_operator_kernel_set<double>(ElementType, TensorOperatorKind, int, int, int, bool);
template KernelSet<float> sum_factorised_operator_kernel_set<float>(ElementType, TensorOperatorKind, int, int, int, bool);

}  // namespace feinterp::backends::cuda
