// SPDX-License-Identifier: BSD-3-Clause
// The floating-point precision of a plan: its field, coordinates and outputs share one. Shape
// functions and geometry are computed in double and stored (or combined) in the plan's precision.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

namespace feinterp {

enum class Precision { fp64, fp32 };

template <class T>
constexpr Precision precision_of() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>, "feinterp computes in double or float");
  return std::is_same_v<T, double> ? Precision::fp64 : Precision::fp32;
}

inline const char* precision_name(Precision precision) { return precision == Precision::fp64 ? "fp64" : "fp32"; }

/// "fp64" or "fp32" (also "double", "float"); throws std::invalid_argument naming what is accepted.
inline Precision parse_precision(const std::string& name) {
  if (name == "fp64" || name == "double") return Precision::fp64;
  if (name == "fp32" || name == "float") return Precision::fp32;
  throw std::invalid_argument("unknown precision '" + name + "': expected fp64 or fp32");
}

inline constexpr Precision all_precisions[] = {Precision::fp64, Precision::fp32};

}  // namespace feinterp
