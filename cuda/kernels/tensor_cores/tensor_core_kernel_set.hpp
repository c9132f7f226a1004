// SPDX-License-Identifier: BSD-3-Clause
// The tensor-core kernels (tensor_core_kernel.cuh) of one element type, found at run time as the dense
// ones are (kernel_set.hpp): specialised on the element, values or reference gradients, and C
// (layout/component_kernels.hpp).
// Double only. The returned KernelSet's `packed` and `launch_packed` are the tensor-core kernel and its
// launcher; it has no baseline or tabulation (a plan keeps the dense set for those).
#pragma once

#include <feinterp/core/operation.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>

namespace feinterp::backends::cuda {

/// Instantiated per shape in the generated tensor_cores_<shape>_double.cu (`run_time_components` as in
/// kernel_set.hpp). Throws std::invalid_argument for a component count outside 1..max_components or an
/// operation other than values and reference gradients.
template <class Element>
KernelSet<double> tensor_core_kernel_set(Operation op, int components, bool run_time_components = false);

/// The same from the run-time element type and the plan's precision: std::invalid_argument for float
/// (the tensor cores' FP64 product has no FP32 counterpart that keeps FP32 accuracy: TF32 rounds the
/// inputs to 10 bits).
template <class Real>
KernelSet<Real> tensor_core_kernel_set(ElementType type, Operation op, int components, bool run_time_components = false);

}  // namespace feinterp::backends::cuda
