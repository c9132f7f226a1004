// SPDX-License-Identifier: BSD-3-Clause
// The space dimension as a compile-time constant, for the CPU kernels' instantiations.
#pragma once

#include <type_traits>

namespace feinterp::backends::cpu {

/// Calls f(std::integral_constant<int, S>) for the space dimension S of an element of dimension D: 2 or 3
/// for D <= 2, 3 for D = 3 (any other S of a 3D element is taken as 3).
template <int D, class F>
void with_space_dimension(int S, F&& f) {
  if constexpr (D <= 2)
    if (S == 2) return f(std::integral_constant<int, 2>{});
  f(std::integral_constant<int, 3>{});
}

}  // namespace feinterp::backends::cpu
