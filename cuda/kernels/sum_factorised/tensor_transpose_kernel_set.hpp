// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised transpose kernels (tensor_transpose_kernel.cuh) of one quadrilateral or hexahedron
// type, found at run time as the dense ones are (kernel_set.hpp): specialised on the element, the points
// per direction Q1, C = 1..9, the forward operation, the geometry (physical gradients, or weighted) and
// then S. The returned KernelSet's `packed` and `launch_packed` are the kernel and its launcher.
#pragma once

#include <feinterp/core/operation.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>

namespace feinterp::backends::cuda {

/// Instantiated per order and precision in files generated from tensor_instantiation.cu.in. `op` a transpose; `weighted` and
/// physical gradients use the geometry, and only they read `space_dimension`. Throws
/// std::invalid_argument for a component count outside 1..max_components, a space dimension the element
/// cannot live in, a forward operation, or a Q1 outside the compiled range.
template <class Element, class Real>
KernelSet<Real> tensor_transpose_kernel_set(Operation op, int components, int space_dimension, bool weighted,
                                            int points_per_direction);

/// The same from the run-time element type: quadrilaterals and hexahedra only (std::invalid_argument
/// otherwise).
template <class Real>
KernelSet<Real> tensor_transpose_kernel_set(ElementType type, Operation op, int components, int space_dimension,
                                            bool weighted, int points_per_direction);

}  // namespace feinterp::backends::cuda
