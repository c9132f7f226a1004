// SPDX-License-Identifier: BSD-3-Clause
// Triangle<P>: complete Lagrange triangle of order P on Gmsh's reference triangle (0,0), (1,0), (0,1).
//
// Gmsh node order: vertices, then edge nodes edge by edge (0->1, 1->2, 2->0), then the interior.
//
//   p = 1          p = 2            p = 3
//   2              2                2
//   |`\            |`\              |`\
//   |  `\          5  `4            7  `6
//   |    `\        |    `\          |    `\
//   0------1       0--3---1         8  9   `5
//                                   |        `\
//                                   0---3---4---1
#pragma once

#include <feinterp/elements/lagrange_element.hpp>

namespace feinterp {

template <>
struct NodeLattice<Shape::triangle, 1> {
  static constexpr int nodes = 3;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][2] = {{0, 0}, {1, 0}, {0, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::triangle, 2> {
  static constexpr int nodes = 6;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][2] = {{0, 0}, {2, 0}, {0, 2}, {1, 0}, {1, 1}, {0, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::triangle, 3> {
  static constexpr int nodes = 10;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][2] = {{0, 0}, {3, 0}, {0, 3}, {1, 0}, {2, 0},
                                         {2, 1}, {1, 2}, {0, 2}, {0, 1}, {1, 1}};
    return t[n][axis];
  }
};

template <int P>
using Triangle = LagrangeElement<Shape::triangle, P>;

}  // namespace feinterp
