// SPDX-License-Identifier: BSD-3-Clause
// The one place where a run-time component count becomes a kernel's template argument: every kernel
// set (dense, transpose, tensor cores, sum-factorised) looks its kernels up through for_components.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <feinterp/core/limits.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>

namespace feinterp::backends::cuda {

namespace detail {

template <class Make, int... Cs>
auto make_for_compiled_components(int components, Make& make, std::integer_sequence<int, Cs...>) {
  decltype(make(std::integral_constant<int, 1>{})) made{};
  ((components == Cs + 1 && (made = make(std::integral_constant<int, Cs + 1>{}), true)) || ...);
  return made;
}

}  // namespace detail

/// make(std::integral_constant<int, C>{}) for the kernels of `components` of a family compiled for
/// C = 1..Compiled: C itself where it is compiled, else C = run_time_components, the kernel that reads it
/// from its arguments; `run_time` asks for that kernel at any C. Throws std::invalid_argument for a count
/// outside 1..max_components.
template <int Compiled = compiled_components, class Make>
auto for_components(int components, bool run_time, Make&& make) {
  static_assert(Compiled >= 1 && Compiled <= max_components, "compiled for 1..Compiled, within max_components");
  if (components < 1 || components > max_components)
    throw std::invalid_argument("unsupported component count " + std::to_string(components) + ": expected 1 to " +
                                std::to_string(max_components));
  if (uses_run_time_components(components, run_time, Compiled))
    return make(std::integral_constant<int, run_time_components>{});
  return detail::make_for_compiled_components(components, make, std::make_integer_sequence<int, Compiled>{});
}

}  // namespace feinterp::backends::cuda
