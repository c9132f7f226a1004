// SPDX-License-Identifier: BSD-3-Clause
// Definition of transpose_kernel_set<Element, Real>: included only by the
// generated transpose_<shape>_<precision>.cu units, which instantiate it for their three orders (apart from
// the forward kernels, so that the 2-core build compiles the two halves in parallel).
//
// What is instantiated per element: C = 1..compiled_components and the run-time-C kernel
// (layout/component_kernels.hpp) for each of
//   values, reference gradients      without geometry (S unused), and with it (weighted) for each S;
//   physical gradients               with geometry, for each S (weighted or not at run time);
//   fused                            values (mass) and physical gradients (diffusion) of the field itself,
//                                    with geometry (always weighted), for each S.
#pragma once

#include <stdexcept>
#include <string>

#include <feinterp/cuda/kernels/component_dispatch.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>
#include <feinterp/cuda/kernels/tabulate_kernel.cuh>
#include <feinterp/cuda/kernels/transpose/transpose_kernel.cuh>

namespace feinterp::backends::cuda {

namespace detail {

template <class Element, int C, Operation Forward, int S, bool Geometric, bool Fused, class Real>
void launch_transpose(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, const KernelArgs<Real>& args) {
  transpose_kernel<Element, C, Forward, S, Geometric, Fused, Real><<<grid, block, shared_bytes, stream>>>(args);
}

template <class Element, Operation Forward, int S, bool Geometric, bool Fused, class Real>
KernelSet<Real> transposes_by_components(int components, bool run_time) {
  return for_components(components, run_time, [](auto c) {
    constexpr int C = decltype(c)::value;
    return KernelSet<Real>{reinterpret_cast<const void*>(&transpose_kernel<Element, C, Forward, S, Geometric, Fused, Real>),
                           nullptr, &launch_transpose<Element, C, Forward, S, Geometric, Fused, Real>, nullptr,
                           &launch_tabulate<Element, Real>};
  });
}

template <class Element, Operation Forward, bool Fused, class Real>
KernelSet<Real> transposes_by_geometry(int components, int space_dimension, bool weighted, bool run_time) {
  constexpr int D = Element::dimension;
  if constexpr (Forward != Operation::physical_gradients)
    if (!weighted) return transposes_by_components<Element, Forward, D == 3 ? 3 : 2, false, false, Real>(components, run_time);
  if (space_dimension == 3) return transposes_by_components<Element, Forward, 3, true, Fused, Real>(components, run_time);
  if constexpr (D <= 2)
    if (space_dimension == 2) return transposes_by_components<Element, Forward, 2, true, Fused, Real>(components, run_time);
  throw std::invalid_argument("space dimension " + std::to_string(space_dimension) + " for an element of dimension " +
                              std::to_string(D) + ": expected " + (D == 3 ? "3" : "2 or 3"));
}

}  // namespace detail

template <class Element, class Real>
KernelSet<Real> transpose_kernel_set(Operation op, int components, int space_dimension, bool weighted, bool fused,
                                     bool run_time_components) {
  if (fused && op == Operation::reference_gradients_transpose)
    throw std::invalid_argument("transpose_kernel_set: the fused operators are the values (mass) and physical-gradient "
                                "(diffusion) transposes");
  const bool run_time = run_time_components;
  switch (op) {
    case Operation::values_transpose:
      if (fused)
        return detail::transposes_by_geometry<Element, Operation::values, true, Real>(components, space_dimension, true,
                                                                                      run_time);
      return detail::transposes_by_geometry<Element, Operation::values, false, Real>(components, space_dimension,
                                                                                     weighted, run_time);
    case Operation::reference_gradients_transpose:
      return detail::transposes_by_geometry<Element, Operation::reference_gradients, false, Real>(
          components, space_dimension, weighted, run_time);
    case Operation::physical_gradients_transpose:
      if (fused)
        return detail::transposes_by_geometry<Element, Operation::physical_gradients, true, Real>(
            components, space_dimension, true, run_time);
      return detail::transposes_by_geometry<Element, Operation::physical_gradients, false, Real>(
          components, space_dimension, weighted, run_time);
    default: break;
  }
  throw std::invalid_argument(std::string("transpose_kernel_set: ") + operation_name(op) + " is not a transpose");
}

}  // namespace feinterp::backends::cuda
