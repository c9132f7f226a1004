// SPDX-License-Identifier: BSD-3-Clause
// Which CPU kernel computes a forward operation, named as the GPU's variants are
// (tuning/kernel_variant.hpp): `dense`, the per-element product with the whole tabulation, which runs
// either element-batched SIMD loops (`dense_batched`, batched_kernels.hpp) or Eigen products over chunks of
// elements (`dense_product`, kernels.cpp), the faster for the call's sizes unless one is named; or
// `sum_factorised`, sum_factorised_kernels.hpp, for quadrilaterals and hexahedra at a tensor-product
// point set.
//
// The choice per (element type, points, operation, C), made in one place (choose_cpu_kernel_variant):
//   1. PlanOptions::variant, when not automatic: that variant, or std::invalid_argument saying why it does
//      not apply (tests force each one this way and must know that it ran);
//   2. FEINTERP_CPU_KERNEL_VARIANT = dense | dense_batched | dense_product | sum_factorised: that variant
//      where it applies, dense elsewhere; auto or empty: no override; anything else is
//      std::invalid_argument;
//   3. sum_factorised where it applies and measured faster (sum_factorisation_faster: hexahedra p3 in
//      builds without AVX-512, where it took 0.41-0.75 of the dense time), else dense.
#pragma once

#include <string>

#include <feinterp/core/operation.hpp>
#include <feinterp/elements/element_type.hpp>

namespace feinterp::backends::cpu {

enum class KernelVariant {
  automatic,       ///< the plan decides (steps 2 and 3 above)
  dense,           ///< the dense per-element product, batched or Eigen's as the sizes say (dense_product_faster)
  dense_batched,   ///< the dense product, batch_lanes elements side by side in SIMD registers
  dense_product,   ///< the dense product as Eigen products over chunks of elements (not FP32 physical gradients)
  sum_factorised,  ///< quadrilaterals and hexahedra at a tensor-product point set
};

/// The environment variable that forces a variant where it applies.
inline constexpr const char* cpu_kernel_variant_environment_variable = "FEINTERP_CPU_KERNEL_VARIANT";

/// "automatic", "dense", "dense_batched", "dense_product" or "sum_factorised".
const char* kernel_variant_name(KernelVariant variant);

/// A configuration as the choice sees it: points_per_direction is Q1 when the point set is a tensor
/// product of Q1 points per direction on a quadrilateral or hexahedron (fem/tensor_structure.hpp), else 0;
/// sum_factorised_compiled whether sum_factorised_kernels.cpp holds a kernel for it.
struct CpuKernelConfiguration {
  ElementType type;
  int points_per_direction = 0;
  bool sum_factorised_compiled = false;
  Operation op = Operation::values;
  int components = 1;
  bool single_precision = false;  ///< an FP32 plan
};

/// Step 3's rule, from feinterp-cpu-bench (numbers in kernel_variant.cpp).
bool sum_factorisation_faster(const CpuKernelConfiguration& configuration);

/// The decision above: dense or sum_factorised. Throws std::invalid_argument for a requested variant
/// that does not apply, or a bad FEINTERP_CPU_KERNEL_VARIANT.
KernelVariant choose_cpu_kernel_variant(const CpuKernelConfiguration& configuration, KernelVariant requested);

}  // namespace feinterp::backends::cpu
