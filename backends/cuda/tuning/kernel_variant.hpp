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
//   dense_tensor_cores  kernels/dense_mma_kernel.cuh: the dense product of the packed kernel as one matrix
//                   product per group of elements, on the FP64 tensor cores (DMMA, sm_80 and newer);
//                   values and reference gradients in double, any element and point set
//
// A new variant is a value here, its name below, and its applicability in the launch module
// (launch/kernel_variant_choice.hpp). The fused Laplacian has the dense variant only.
#pragma once

#include <stdexcept>
#include <string>

namespace feinterp::tuning {

enum class KernelVariant { dense, sum_factorised, dense_tensor_cores };

inline constexpr KernelVariant all_kernel_variants[] = {KernelVariant::dense, KernelVariant::sum_factorised,
                                                        KernelVariant::dense_tensor_cores};

inline const char* kernel_variant_name(KernelVariant variant) {
  switch (variant) {
    case KernelVariant::dense: return "dense";
    case KernelVariant::sum_factorised: return "sum_factorised";
    case KernelVariant::dense_tensor_cores: return "dense_tensor_cores";
  }
  return "unknown";
}

/// "dense", "sum_factorised" (also "sumfac") or "dense_tensor_cores" (also "tensor_cores"); throws
/// std::invalid_argument naming what is accepted.
inline KernelVariant parse_kernel_variant(const std::string& name) {
  if (name == "dense") return KernelVariant::dense;
  if (name == "sum_factorised" || name == "sumfac") return KernelVariant::sum_factorised;
  if (name == "dense_tensor_cores" || name == "tensor_cores") return KernelVariant::dense_tensor_cores;
  throw std::invalid_argument("unknown kernel variant '" + name +
                              "': expected dense, sum_factorised or dense_tensor_cores");
}

}  // namespace feinterp::tuning
