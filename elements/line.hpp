// SPDX-License-Identifier: BSD-3-Clause
// Line<P>: complete Lagrange line of order P on Gmsh's reference segment [-1, 1] (Gmsh types 1, 8,
// 26: MSH_LIN_2, MSH_LIN_3, MSH_LIN_4).
//
// Gmsh node order: the two vertices, then the interior nodes from vertex 0 towards vertex 1.
//
//   p = 1          p = 2            p = 3
//   0------1       0----2----1      0---2---3---1
//  -1      1      -1    0    1     -1 -1/3 1/3  1
#pragma once

#include <feinterp/elements/lagrange_element.hpp>

namespace feinterp {

template <>
struct NodeLattice<Shape::line, 1> {
  static constexpr int nodes = 2;
  FEINTERP_HD static constexpr int index(int n, int) {
    constexpr signed char t[nodes] = {0, 1};
    return t[n];
  }
};

template <>
struct NodeLattice<Shape::line, 2> {
  static constexpr int nodes = 3;
  FEINTERP_HD static constexpr int index(int n, int) {
    constexpr signed char t[nodes] = {0, 2, 1};
    return t[n];
  }
};

template <>
struct NodeLattice<Shape::line, 3> {
  static constexpr int nodes = 4;
  FEINTERP_HD static constexpr int index(int n, int) {
    constexpr signed char t[nodes] = {0, 3, 1, 2};
    return t[n];
  }
};

template <int P>
using Line = LagrangeElement<Shape::line, P>;

}  // namespace feinterp
