// SPDX-License-Identifier: BSD-3-Clause
// The kernel-variant registry: one entry per variant, with its name (tuning/kernel_variant.hpp), its
// launch traits (where it applies, its launch shape and shared memory: launch/variant_traits.hpp) and its
// kernel sets, the compiled kernels of a launch (kernels/). It lives on this floor because it joins the
// launch decisions and the kernels, which do not see each other. The plan, the launch decisions, table
// validation, the sweep, the benchmarks and the tests iterate it (tuning::all_kernel_variants), so a new
// variant is its kernel files, one line in kernels/instantiations.cmake and one entry here.
#pragma once

#include <string>

#include <feinterp/cuda/kernels/kernel_set.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/cuda/launch/variant_traits.hpp>

namespace feinterp::backends::cuda {

/// The compiled kernels of a launch of one variant, in each precision.
struct VariantKernels {
  KernelSet<double> (*fp64)(const LaunchShape& shape) = nullptr;
  KernelSet<float> (*fp32)(const LaunchShape& shape) = nullptr;
};

/// Registers a variant: its name (a new one, or the one it has), its launch traits and its kernels.
/// Returns its value. Throws std::invalid_argument for a bad name or a missing function. Meant for start-up:
/// a plan decides its launches once, at their first call.
KernelVariant register_kernel_variant(const std::string& name, const VariantTraits& traits, const VariantKernels& kernels);

/// The kernel set of a launch (shape.variant's, shape.precision must match Real). Throws
/// std::invalid_argument for a variant with no kernels registered, or what its lookup throws (a
/// component count or configuration it was not compiled for).
template <class Real>
KernelSet<Real> variant_kernel_set(const LaunchShape& shape);

}  // namespace feinterp::backends::cuda
