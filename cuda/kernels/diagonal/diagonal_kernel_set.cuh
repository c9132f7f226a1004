// SPDX-License-Identifier: BSD-3-Clause
// Definition of diagonal_kernel_set<Element, Real>: included only by the generated diagonal_<shape>_<precision>.cu
// units (kernels/instantiations.cmake), which instantiate it for their three orders.
#pragma once

#include <stdexcept>
#include <string>

#include <feinterp/cuda/kernels/diagonal/diagonal_kernel.cuh>
#include <feinterp/cuda/kernels/diagonal/diagonal_kernel_set.hpp>
#include <feinterp/cuda/kernels/tabulate_kernel.cuh>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, FusedOperator Op, int S, class Real>
void launch_diagonal(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs<Real>& args) {
  diagonal_kernel<Element, Op, S, Real><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, FusedOperator Op, class Real>
KernelSet<Real> diagonal_by_space_dimension(int space_dimension) {
  constexpr int D = Element::dimension;
  if (space_dimension == 3)
    return {reinterpret_cast<const void*>(&diagonal_kernel<Element, Op, 3, Real>), nullptr,
            &launch_diagonal<Element, Op, 3, Real>, nullptr, &launch_tabulate<Element, Real>};
  if constexpr (D <= 2)
    if (space_dimension == 2)
      return {reinterpret_cast<const void*>(&diagonal_kernel<Element, Op, 2, Real>), nullptr,
              &launch_diagonal<Element, Op, 2, Real>, nullptr, &launch_tabulate<Element, Real>};
  throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                              std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> diagonal_kernel_set(FusedOperator op, int space_dimension) {
  if (op == FusedOperator::mass) return detail::diagonal_by_space_dimension<Element, FusedOperator::mass, Real>(space_dimension);
  return detail::diagonal_by_space_dimension<Element, FusedOperator::diffusion, Real>(space_dimension);
}

}  // namespace feinterp::backends::cuda
