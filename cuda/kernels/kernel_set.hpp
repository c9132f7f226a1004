// SPDX-License-Identifier: BSD-3-Clause
// KernelSet: the compiled kernels for one (element type, operation, component count, space dimension,
// precision), found at run time through a table (MFEM's qinterp does the same): the packed kernel is
// specialised on the element, on C (up to a bound, and one kernel for the larger C read at run time:
// layout/component_kernels.hpp) and, for physical gradients, on the space dimension S, so its
// loops have compile-time trip counts and its accumulators live in registers; the baseline loops over C
// at run time.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include <feinterp/core/operation.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>

namespace feinterp::backends::cuda {

template <class Real>
using LaunchFunction = void (*)(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                                const KernelArgs<Real>& args);
template <class Real>
using TabulateFunction = void (*)(const double* points, int Q, Real* values, Real* gradients, cudaStream_t stream);

template <class Real>
struct KernelSet {
  const void* packed;    ///< the __global__ function, for cudaFuncSetAttribute and occupancy queries
                         ///< (for a transpose: the packed transpose kernel)
  const void* baseline;  ///< forward operations only (null for transposes)
  LaunchFunction<Real> launch_packed;
  LaunchFunction<Real> launch_baseline;
  TabulateFunction<Real> tabulate;
};

/// The forward kernels of one element type (instantiated in the generated dense_<shape>_<precision>.cu: kernels/instantiations.cmake).
/// `space_dimension` matters to physical gradients only (2 or 3, at least the element's dimension); the
/// other operations ignore it. `run_time_components`: the run-time-C kernel even where C is compiled
/// (every kernel set takes it: benchmarks and tests compare the two). Throws std::invalid_argument for a
/// component count outside 1..max_components, a space dimension the element cannot live in, or a
/// transpose.
template <class Element, class Real>
KernelSet<Real> kernel_set(Operation op, int components, int space_dimension, bool run_time_components = false);

/// The transpose kernels of one element type (the generated transpose_<shape>_<precision>.cu): `op` a
/// transpose; `weighted` (w_q |det J| folded in) and physical gradients use the geometry, and only they
/// read `space_dimension`; `fused`: a fused operator (op the values transpose for mass, the physical-gradient
/// transpose for diffusion, of the field's own values or gradients, weighted).
template <class Element, class Real>
KernelSet<Real> transpose_kernel_set(Operation op, int components, int space_dimension, bool weighted, bool fused,
                                     bool run_time_components = false);

/// Either, from the run-time element type (`weighted`, `fused`: transposes only).
template <class Real>
KernelSet<Real> kernel_set(ElementType type, Operation op, int components, int space_dimension, bool weighted = false,
                           bool fused = false, bool run_time_components = false);

}  // namespace feinterp::backends::cuda
