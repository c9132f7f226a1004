// SPDX-License-Identifier: BSD-3-Clause
// VariantTraits: what the launch decisions know of a kernel variant, one entry per variant: where it
// applies, and the shape of its launch (threads per element, elements per thread, shared memory). The
// built-in variants' traits are here; a new variant's come with its registration
// (cuda/kernel_variants.hpp, which also holds its kernel sets: this floor does not see kernels/).
// variant_applies, threads_per_element, elements_per_thread and packed_shared_bytes
// (launch/kernel_variant_choice.hpp, launch/launch_config.hpp) read the launch's variant's entry.
#pragma once

#include <cstddef>
#include <string>

#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/kernel_variant.hpp>

namespace feinterp::backends::cuda {

struct VariantTraits {
  /// True when the variant can compute the launch on `device`; otherwise false, and `why_not` (when not
  /// null) says why in one sentence.
  bool (*applies)(const LaunchShape& shape, const DeviceInfo& device, std::string* why_not) = nullptr;
  /// Threads along threadIdx.x per element slot.
  int (*threads_per_element)(const LaunchShape& shape) = nullptr;
  /// Elements one thread computes (a slot's elements).
  int (*elements_per_thread)(const LaunchShape& shape) = nullptr;
  /// Dynamic shared memory of a block of `elements_per_block` elements.
  std::size_t (*shared_bytes)(const LaunchShape& shape, int elements_per_block) = nullptr;
};

/// The entry of `variant`. Throws std::invalid_argument for a variant with no traits registered.
const VariantTraits& variant_traits(KernelVariant variant);

/// Records `traits` (every function given) for `variant`, replacing what it had. Throws
/// std::invalid_argument for a missing function. Thread-safe.
void register_variant_traits(KernelVariant variant, const VariantTraits& traits);

}  // namespace feinterp::backends::cuda
