// SPDX-License-Identifier: BSD-3-Clause
// Quadrilateral<P>: complete (tensor-product) Lagrange quadrilateral of order P on Gmsh's reference
// square [-1, 1]^2. p = 2 is the 9-node element (not the 8-node serendipity one).
//
// Gmsh node order: vertices counter-clockwise, edge nodes edge by edge (0->1, 1->2, 2->3, 3->0), then
// the interior nodes, themselves ordered like a quadrilateral of order P - 2.
//
//   p = 1          p = 2            p = 3
//   3------2       3----6----2      3---9---8---2
//   |      |       |         |      |           |
//   |      |       7    8    5      10  15  14  7
//   |      |       |         |      |           |
//   0------1       0----4----1      11  12  13  6
//                                   |           |
//                                   0---4---5---1
#pragma once

#include <feinterp/elements/lagrange_element.hpp>

namespace feinterp {

template <>
struct NodeLattice<Shape::quadrilateral, 1> {
  static constexpr int nodes = 4;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::quadrilateral, 2> {
  static constexpr int nodes = 9;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][2] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}, {1, 0},
                                         {2, 1}, {1, 2}, {0, 1}, {1, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::quadrilateral, 3> {
  static constexpr int nodes = 16;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][2] = {{0, 0}, {3, 0}, {3, 3}, {0, 3}, {1, 0}, {2, 0},
                                         {3, 1}, {3, 2}, {2, 3}, {1, 3}, {0, 2}, {0, 1},
                                         {1, 1}, {2, 1}, {2, 2}, {1, 2}};
    return t[n][axis];
  }
};

template <int P>
using Quadrilateral = LagrangeElement<Shape::quadrilateral, P>;

}  // namespace feinterp
