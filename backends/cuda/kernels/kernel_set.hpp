// SPDX-License-Identifier: BSD-3-Clause
// KernelSet: the compiled kernels for one (element type, operation, component count, space dimension,
// precision), found at run time through a table (MFEM's qinterp does the same): the packed kernel is
// specialised on the element, on C = 1..9 and, for physical gradients, on the space dimension S, so
// its loops have compile-time trip counts and its accumulators live in registers; the baseline, like
// the seed's, loops over C at run time.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "../../../core/operation.hpp"
#include "../../../elements/element_type.hpp"
#include "kernel_args.hpp"

namespace feinterp::backends::cuda {

template <class Real>
using LaunchFunction = void (*)(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                                const KernelArgs<Real>& args);
template <class Real>
using TabulateFunction = void (*)(const double* points, int Q, Real* values, Real* gradients, cudaStream_t stream);

template <class Real>
struct KernelSet {
  const void* packed;    ///< the __global__ function, for cudaFuncSetAttribute and occupancy queries
  const void* baseline;
  LaunchFunction<Real> launch_packed;
  LaunchFunction<Real> launch_baseline;
  TabulateFunction<Real> tabulate;
};

/// The kernels of one element type (instantiated in kernels_<shape>_<precision>.cu). `space_dimension`
/// matters to physical gradients only (2 or 3, at least the element's dimension); the other operations
/// ignore it. Throws std::invalid_argument for a component count outside 1..max_components or a space
/// dimension the element cannot live in.
template <class Element, class Real>
KernelSet<Real> kernel_set(Operation op, int components, int space_dimension);

/// The same, from the run-time element type.
template <class Real>
KernelSet<Real> kernel_set(ElementType type, Operation op, int components, int space_dimension);

}  // namespace feinterp::backends::cuda
