// SPDX-License-Identifier: BSD-3-Clause
// The kernels of the dense_64_registers variant (tuning/kernel_variant.hpp): the packed kernel of
// kernel_set.hpp held to 64 registers (packed_kernel_64_registers), for the physical gradients of 3D
// elements in double at the compiled C (layout/component_kernels.hpp), so that the sweep times the cap
// against the free kernel. The returned KernelSet has the packed kernel and its launcher only; a plan keeps
// the dense set for the baseline and the tabulation.
#pragma once

#include <feinterp/core/operation.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>

namespace feinterp::backends::cuda {

/// Instantiated for tetrahedra and hexahedra of each order in the generated dense_64_registers_<shape>_double.cu
/// (kernels/instantiations.cmake). Throws std::invalid_argument for an operation other than physical
/// gradients, or C outside 1..compiled_components.
template <class Element>
KernelSet<double> dense_64_registers_kernel_set(Operation op, int components);

/// The same from the run-time element type: std::invalid_argument for a type of dimension other than 3.
KernelSet<double> dense_64_registers_kernel_set(ElementType type, Operation op, int components);

}  // namespace feinterp::backends::cuda
