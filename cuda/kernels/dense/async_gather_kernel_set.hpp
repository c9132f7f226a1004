// SPDX-License-Identifier: BSD-3-Clause
// The kernels of the dense_async_gather variant (tuning/kernel_variant.hpp): the packed kernel of
// kernel_set.hpp with its gather of nodal values issued as asynchronous copies, found at run time as the
// dense ones are. Values and reference gradients at C = 1 only, where a thread computes two elements
// (layout/elements_per_thread.hpp): the configurations where copying the gather was measured to win
// somewhere and lose elsewhere (docs/performance/nvidia-h100-80gb-hbm3/gather-copies-two-elements.md), so
// that the sweep times both. The returned KernelSet has the packed kernel and its launcher only; a plan
// keeps the dense set for the baseline and the tabulation.
#pragma once

#include <feinterp/core/operation.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>

namespace feinterp::backends::cuda {

/// Instantiated per precision in kernels_async_gather_<precision>.cu. Throws std::invalid_argument for an
/// operation other than values and reference gradients, or C other than 1.
template <class Real>
KernelSet<Real> async_gather_kernel_set(ElementType type, Operation op, int components);

}  // namespace feinterp::backends::cuda
