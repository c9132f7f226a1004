// SPDX-License-Identifier: BSD-3-Clause
// Hexahedron<P>: complete (tensor-product) Lagrange hexahedron of order P on Gmsh's reference cube
// [-1, 1]^3: 8, 27 or 64 nodes (p = 2 is the 27-node element, not the 20-node serendipity one).
//
//        v
//   3----------2        Gmsh node order: vertices 0-7, then edge nodes edge by edge in the order
//   |\     ^   |\       0-1, 0-3, 0-4, 1-2, 1-5, 2-3, 2-6, 3-7, 4-5, 4-7, 5-6, 6-7 (P - 1 nodes each,
//   | \    |   | \      from the first vertex named), then face nodes face by face (0321, 0154, 0473,
//   |  \   |   |  \     1265, 2376, 4567; each face's (P - 1)^2 nodes ordered like a quadrilateral),
//   |   7------+---6    then the interior nodes, ordered like a hexahedron of order P - 2.
//   |   |  +-- |-- | -> u
//   0---+---\--1   |    p = 2: edges 8-19, faces 20-25, centre 26.
//    \  |    \  \  |    p = 3: edges 8-31, faces 32-55, interior 56-63.
//     \ |     \  \ |
//      \|      w  \|
//       4----------5
#pragma once

#include <feinterp/elements/lagrange_element.hpp>

namespace feinterp {

template <>
struct NodeLattice<Shape::hexahedron, 1> {
  static constexpr int nodes = 8;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                         {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::hexahedron, 2> {
  static constexpr int nodes = 27;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][3] = {
        {0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}, {1, 0, 0},
        {0, 1, 0}, {0, 0, 1}, {2, 1, 0}, {2, 0, 1}, {1, 2, 0}, {2, 2, 1}, {0, 2, 1}, {1, 0, 2}, {0, 1, 2},
        {2, 1, 2}, {1, 2, 2}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {1, 1, 1}};
    return t[n][axis];
  }
};

template <>
struct NodeLattice<Shape::hexahedron, 3> {
  static constexpr int nodes = 64;
  FEINTERP_HD static constexpr int index(int n, int axis) {
    constexpr signed char t[nodes][3] = {
        {0, 0, 0}, {3, 0, 0}, {3, 3, 0}, {0, 3, 0}, {0, 0, 3}, {3, 0, 3}, {3, 3, 3}, {0, 3, 3},
        {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 0, 1}, {0, 0, 2}, {3, 1, 0}, {3, 2, 0},
        {3, 0, 1}, {3, 0, 2}, {2, 3, 0}, {1, 3, 0}, {3, 3, 1}, {3, 3, 2}, {0, 3, 1}, {0, 3, 2},
        {1, 0, 3}, {2, 0, 3}, {0, 1, 3}, {0, 2, 3}, {3, 1, 3}, {3, 2, 3}, {2, 3, 3}, {1, 3, 3},
        {1, 1, 0}, {1, 2, 0}, {2, 2, 0}, {2, 1, 0}, {1, 0, 1}, {2, 0, 1}, {2, 0, 2}, {1, 0, 2},
        {0, 1, 1}, {0, 1, 2}, {0, 2, 2}, {0, 2, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}, {3, 1, 2},
        {2, 3, 1}, {1, 3, 1}, {1, 3, 2}, {2, 3, 2}, {1, 1, 3}, {2, 1, 3}, {2, 2, 3}, {1, 2, 3},
        {1, 1, 1}, {2, 1, 1}, {2, 2, 1}, {1, 2, 1}, {1, 1, 2}, {2, 1, 2}, {2, 2, 2}, {1, 2, 2}};
    return t[n][axis];
  }
};

template <int P>
using Hexahedron = LagrangeElement<Shape::hexahedron, P>;

}  // namespace feinterp
