// SPDX-License-Identifier: BSD-3-Clause
// Which component counts C have kernels compiled for them, and which run a run-time-C kernel.
//
// Every kernel family is specialised on C, so that its per-component loops have compile-time trip
// counts and its accumulators live in registers. Compiling every C = 1..9 made the kernels 30 of the
// 37 minutes a 2-core machine needs to build feinterp (docs/performance/build.md), for counts the tuning
// tables never time (they hold C = 1 and the element's dimension). Each family therefore also has a
// run-time-C kernel (C = run_time_components as the template argument, as Eigen's Dynamic and MFEM's
// fallback kernels), and is compiled for C = 1..its bound, the run-time kernel serving the rest:
//
//   transposes (dense, sum-factorised)   1..compiled_components (3): the scalars, vectors and 2D/3D
//   and the sum-factorised forward kernel gradients people use. The dense transposes' run-time kernel
//                                        takes 0.66-1.13 times the compiled one's time at C = 4..8,
//                                        median 1.00 (H200, 144 rows), the sum-factorised transposes'
//                                        0.97-1.11; the sum-factorised forward one 1.00-1.23, median
//                                        1.08 (H200, 34 rows, C = 4 and 9; 1.25 at most on an H100).
//   dense forward kernels (dense, tensor cores)
//                                        1..compiled_dense_components (9): the dense one reads the
//                                        shape table once per pass of run_time_component_chunk
//                                        components and took 1.2-1.8 times the compiled time, the
//                                        tensor-core one 1.1-1.6.
//
// docs/performance/nvidia-h200/run-time-components.md has the measurements.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>

/// The bounds (CMake: FEINTERP_COMPILED_COMPONENTS and FEINTERP_COMPILED_DENSE_COMPONENTS, 1 to 9).
#ifndef FEINTERP_COMPILED_COMPONENTS
#define FEINTERP_COMPILED_COMPONENTS 3
#endif
#ifndef FEINTERP_COMPILED_DENSE_COMPONENTS
#define FEINTERP_COMPILED_DENSE_COMPONENTS 9
#endif

namespace feinterp::backends::cuda {

/// The transposes' and the sum-factorised forward kernel's compiled counts: C = 1..compiled_components.
inline constexpr int compiled_components = FEINTERP_COMPILED_COMPONENTS;
static_assert(compiled_components >= 1 && compiled_components <= max_components,
              "FEINTERP_COMPILED_COMPONENTS: 1 to max_components");

/// The dense forward kernels' (dense, tensor cores) compiled counts: C = 1..compiled_dense_components.
inline constexpr int compiled_dense_components = FEINTERP_COMPILED_DENSE_COMPONENTS;
static_assert(compiled_dense_components >= 1 && compiled_dense_components <= max_components,
              "FEINTERP_COMPILED_DENSE_COMPONENTS: 1 to max_components");

/// The template argument C of the kernel that reads C from its arguments (KernelArgs::components).
inline constexpr int run_time_components = 0;

/// Components per pass of the run-time-C dense kernels: the accumulators of a compiled C = 3 kernel.
inline constexpr int run_time_component_chunk = 3;

/// Whether a launch of C components runs the run-time-C kernel of a family compiled for C = 1..compiled:
/// beyond those, or where it is asked for (`forced`: benchmarks and tests compare it with the compiled
/// kernel of the same C).
FEINTERP_HD constexpr bool uses_run_time_components(int components, bool forced, int compiled = compiled_components) {
  return forced || components > compiled;
}

/// The compiled bound of the kernels that compute `op`: the dense forward kernels' unless `op` is a
/// transpose or they are the sum-factorised variant's.
FEINTERP_HD int compiled_components_for(Operation op, bool sum_factorised) {
  return is_transpose(op) || sum_factorised ? compiled_components : compiled_dense_components;
}

/// Whether a launch of `op` on C components runs its family's run-time-C kernel.
FEINTERP_HD bool uses_run_time_components(Operation op, bool sum_factorised, int components, bool forced) {
  return uses_run_time_components(components, forced, compiled_components_for(op, sum_factorised));
}

}  // namespace feinterp::backends::cuda
