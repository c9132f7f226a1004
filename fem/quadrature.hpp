// SPDX-License-Identifier: BSD-3-Clause
// Quadrature rules on the five reference shapes.
//
//   line, quadrilateral, hexahedron: Gauss-Legendre (tensor) rules, any degree.
//   triangle, tetrahedron:     symmetric rules with positive weights and interior points where such a
//                              rule is known and compact, else collapsed (Duffy) Gauss-Jacobi rules;
//                              Gmsh 4.8's own degree-3 triangle and degree-3/4 tetrahedron rules have
//                              negative weights, which is why feinterp carries its own.
//
// Weights sum to the reference measure: 2 (line), 1/2 (triangle), 4 (quadrilateral), 1/6 (tetrahedron),
// 8 (hexahedron).
#pragma once

#include <feinterp/fem/point_set.hpp>

namespace feinterp {

/// The highest degree for which quadrature_rule(shape, degree) exists.
int max_quadrature_degree(Shape shape);

/// A rule exact for every polynomial of total degree <= `degree` (simplices) or of degree <= `degree`
/// in each variable (tensor shapes), with the fewest points feinterp knows; on simplices a symmetric
/// rule is preferred wherever one is tabulated, even where a collapsed one would have fewer points
/// (docs/design/QUADRATURE.md lists every rule). The returned PointSet has
/// weights, and `degree` set to the rule's own degree of exactness (>= the one asked for). Throws
/// std::invalid_argument for a negative degree or one above max_quadrature_degree(shape).
PointSet quadrature_rule(Shape shape, int degree);

}  // namespace feinterp
