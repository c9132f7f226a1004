// SPDX-License-Identifier: BSD-3-Clause
// TensorStructure: whether a point set on a quadrilateral or hexahedron is a tensor product of one 1D
// point set, and what sum factorisation needs when it is.
//
// A complete Lagrange quadrilateral or hexahedron of order p has the basis N_a(xi) = prod_k l_(a_k)(xi_k)
// (elements/tensor_lagrange.hpp), with a = (a_0, .., a_(d-1)) the node's place in the (p + 1)^d lattice
// of equispaced nodes. At a tensor-product point set {x_(i_0)} x .. x {x_(i_(d-1))} of Q1^d points,
// interpolation u(x_i) = sum_a u_a prod_k l_(a_k)(x_(i_k)) factors into d contractions with the 1D table
// B[i][a] = l_a(x_i) (and G[i][a] = l_a'(x_i) in one direction for a gradient): O(d (p+1)^(d+1)) work per
// component at Q1 = p + 1, against (p + 1)^(2d) for the dense N x Q product (hexahedra p = 3, values:
// 768 multiply-adds per component instead of 4096).
//
// Gmsh numbers neither the nodes nor the points lexicographically: its node order is vertices, edges,
// faces, interior (elements/hexahedron.hpp), and a point set comes in whatever order its maker chose.
// Both are permutations of a lattice, found here from the coordinates themselves:
//
//   node_lattice[n]       Gmsh node n -> a = (a_2 P1 + a_1) P1 + a_0   (derived from the element's own
//                                                                        reference node coordinates)
//   point_of_lattice[l]   lattice point l = (i_2 Q1 + i_1) Q1 + i_0 -> its index q in the point set
//
// so that the kernels apply them in the gather and the store instead of copying data.
//
// Accepted: the same 1D set along every axis (so one B and one G serve all directions), Q = Q1^d, each
// lattice point present exactly once, coordinates equal within tensor_tolerance (absolute on the
// reference element [-1, 1]^d, whose half-width is 1: 1e-14 is ~45 ulps of 1, far above the rounding of
// a rule computed in double and far below any deliberate difference between two points). Gauss-Legendre
// rules of every degree and the element's node lattice are such sets; an anisotropic rule (n_0 != n_1),
// a set with a point missing or repeated, and random points are not.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <feinterp/fem/point_set.hpp>

namespace feinterp {

/// Two coordinates closer than this are the same 1D value (see above).
inline constexpr double tensor_tolerance = 1e-14;

struct TensorStructure {
  ElementType type{Shape::quadrilateral, 1};
  int dimension = 0;             ///< d: 2 (quadrilateral) or 3 (hexahedron)
  int nodes_per_direction = 0;   ///< P1 = p + 1
  int points_per_direction = 0;  ///< Q1: the point set has Q1^d points
  std::vector<double> points_1d;       ///< the 1D point set, ascending, Q1 values
  std::vector<int> point_of_lattice;   ///< [l] -> q, Q1^d entries, l = (i_2 Q1 + i_1) Q1 + i_0: a permutation
  std::vector<int> node_lattice;       ///< [n] -> a, n in Gmsh order, a = (a_2 P1 + a_1) P1 + a_0: a permutation
  std::vector<double> values_1d;       ///< B[i * P1 + a] = l_a(points_1d[i]), Q1 x P1
  std::vector<double> derivatives_1d;  ///< G[i * P1 + a] = l_a'(points_1d[i]), Q1 x P1

  int points() const;  ///< Q1^d
  int nodes() const;   ///< P1^d
};

/// The tensor structure of `points` for the element `type`, or nothing when the set is not a tensor
/// product (or the element is not a quadrilateral or hexahedron); then `why_not`, when given, receives
/// one sentence saying why. Throws std::invalid_argument for an unsupported order or points of another
/// shape than the element's.
std::optional<TensorStructure> tensor_structure(ElementType type, const PointSet& points,
                                                std::string* why_not = nullptr);

}  // namespace feinterp
