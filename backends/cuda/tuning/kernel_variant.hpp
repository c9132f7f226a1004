// SPDX-License-Identifier: BSD-3-Clause
// KernelVariant: which family of forward kernels computes a launch. Defined here, in the lowest CUDA
// layer that names it (a tuning table's variant column); launch/kernel_variant_choice.hpp decides which
// one a launch uses, kernels/ implements them.
//
//   dense           the packed kernel (kernels/packed_kernel.cuh): an N x Q table per block, any element
//                   and any point set
//   sum_factorised  kernels/tensor_kernel.cuh and tensor_transpose_kernel.cuh: quadrilaterals and
//                   hexahedra at tensor-product point sets (fem/tensor_structure.hpp), contracted one axis
//                   at a time
//
// Room is left for more (a tensor-core variant of the dense product, issue 12): a new value here, its
// name below, and its applicability in the launch module. The fused Laplacian has the dense variant only.
#pragma once

#include <stdexcept>
#include <string>

namespace feinterp::tuning {

enum class KernelVariant { dense, sum_factorised };

inline constexpr KernelVariant all_kernel_variants[] = {KernelVariant::dense, KernelVariant::sum_factorised};

inline const char* kernel_variant_name(KernelVariant variant) {
  switch (variant) {
    case KernelVariant::dense: return "dense";
    case KernelVariant::sum_factorised: return "sum_factorised";
  }
  return "unknown";
}

/// "dense" or "sum_factorised" (also "sumfac"); throws std::invalid_argument naming what is accepted.
inline KernelVariant parse_kernel_variant(const std::string& name) {
  if (name == "dense") return KernelVariant::dense;
  if (name == "sum_factorised" || name == "sumfac") return KernelVariant::sum_factorised;
  throw std::invalid_argument("unknown kernel variant '" + name + "': expected dense or sum_factorised");
}

}  // namespace feinterp::tuning
