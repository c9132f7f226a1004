// SPDX-License-Identifier: BSD-3-Clause
// Tetrahedron<P>: complete Lagrange tetrahedron of order P on Gmsh's reference tetrahedron
// (0,0,0), (1,0,0), (0,1,0), (0,0,1).
//
//                 w
//                 3            Gmsh node order: vertices 0-3, then edge nodes edge by edge in the order
//               ,/|`\          0->1, 1->2, 2->0, 3->0, 3->2, 3->1 (P - 1 nodes each, from the first
//             ,/  |  `\        vertex named), then face nodes (p = 3: one per face, faces 012, 013,
//           ,/    '.   `\      023, 123), then the interior.
//         ,/       |     `\
//       ,/         |       `\    p = 2: edges 4 (0-1), 5 (1-2), 6 (2-0), 7 (3-0), 8 (3-2), 9 (3-1)
//      0-----------'.--------2 v p = 3: edges 4,5 (0-1), 6,7 (1-2), 8,9 (2-0), 10,11 (3-0),
//       `\.         |      ,/           12,13 (3-2), 14,15 (3-1); faces 16 (012), 17 (013),
//          `\.      |    ,/             18 (023), 19 (123)
//             `\.   '. ,/
//                `\. |/
//                   `1
//                      `u
#pragma once

#include <feinterp/elements/lagrange_element.hpp>

namespace feinterp {

template <>
struct NodeLattice<Shape::tetrahedron, 1> {
  static constexpr int nodes = 4;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::tetrahedron, 2> {
  static constexpr int nodes = 10;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][3] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}, {1, 0, 0},
                                         {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::tetrahedron, 3> {
  static constexpr int nodes = 20;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][3] = {
        {0, 0, 0}, {3, 0, 0}, {0, 3, 0}, {0, 0, 3}, {1, 0, 0}, {2, 0, 0}, {2, 1, 0},
        {1, 2, 0}, {0, 2, 0}, {0, 1, 0}, {0, 0, 2}, {0, 0, 1}, {0, 1, 2}, {0, 2, 1},
        {1, 0, 2}, {2, 0, 1}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    return t[n][axis];
  }
};

template <int P>
using Tetrahedron = LagrangeElement<Shape::tetrahedron, P>;

}  // namespace feinterp
