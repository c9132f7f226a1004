// SPDX-License-Identifier: BSD-3-Clause
// Test support: the element types the tests of curves and surfaces run on, from the library's list.
#pragma once

#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>

namespace feinterp::test {

/// The types that can live in a space of higher dimension than their own: lines, triangles and
/// quadrilaterals of every order.
inline std::vector<ElementType> curve_and_surface_types() {
  std::vector<ElementType> types;
  for (ElementType type : all_element_types)
    if (dimension(type.shape) < 3) types.push_back(type);
  return types;
}

/// "triangle_p2": a test name.
inline std::string type_test_name(ElementType type) { return std::string(shape_name(type.shape)) + "_p" + std::to_string(type.order); }

}  // namespace feinterp::test
