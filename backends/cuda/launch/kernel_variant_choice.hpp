// SPDX-License-Identifier: BSD-3-Clause
// Which kernel variant (tuning/kernel_variant.hpp) computes a launch: the one place that decides it.
// elements_per_block is decided after it, for that variant (launch_config.hpp).
//
// Where each variant applies (variant_applies):
//   dense           always
//   sum_factorised  an operation or transpose of a quadrilateral or hexahedron whose point set is a
//                   tensor product (LaunchShape::points_per_direction > 0, found by fem/tensor_structure.hpp
//                   when the plan was built), with Q1 among the compiled ones
//                   (launch/tensor_launch_shape.hpp), and at least one element per block fits the device's
//                   shared memory; not the fused Laplacian
//
// The decision (choose_kernel_variant), in order:
//   1. the plan's request (PlanOptions::variant): that variant, or std::invalid_argument saying why it does
//      not apply (tests and benchmarks force a variant this way, and must know that it really ran);
//   2. FEINTERP_KERNEL_VARIANT = dense | sum_factorised (A/B measurements of whole programs): that variant
//      where it applies, else dense with a one-time warning; "auto" or empty: no override; anything else
//      is std::invalid_argument naming the variable and its value;
//   3. the tuning table, when it holds an entry of exactly this configuration for every variant that
//      applies: the fastest of them (the sweep times each variant at its best elements_per_block);
//   4. sum_factorised where it applies, else dense: O(d (p+1)^(d+1)) against O((p+1)^(2d)) work per element
//      (issue 12's measurements put the dense kernel at 16-24% of copy bandwidth on p = 3 hexahedra), and a
//      table measured before the variant existed (v2, dense entries only) says nothing against it.
// The fused Laplacian has the dense variant only: 1 and 2 do not apply to it.
#pragma once

#include <optional>
#include <string>

#include "../runtime/device.hpp"
#include "../tuning/kernel_variant.hpp"
#include "../tuning/table.hpp"
#include "launch_config.hpp"

namespace feinterp::backends::cuda {

/// The environment variable that forces a variant where it applies.
inline constexpr const char* kernel_variant_environment_variable = "FEINTERP_KERNEL_VARIANT";

/// True when shape.variant can compute the launch on `device` (above); otherwise false and, when given,
/// `why_not` says why in one sentence.
bool variant_applies(const LaunchShape& shape, const DeviceInfo& device, std::string* why_not = nullptr);

/// The decision above; shape.variant is ignored. `table` as in choose_elements_per_block (nullptr: no
/// table). Throws std::invalid_argument for a requested variant that does not apply, or a bad
/// FEINTERP_KERNEL_VARIANT.
KernelVariant choose_kernel_variant(const LaunchShape& shape, const DeviceInfo& device,
                                    const tuning::TuningTable* table, std::optional<KernelVariant> requested);

/// The same with the table this process uses on `device` (tuning_table_for).
KernelVariant choose_kernel_variant(const LaunchShape& shape, const DeviceInfo& device,
                                    std::optional<KernelVariant> requested);

}  // namespace feinterp::backends::cuda
