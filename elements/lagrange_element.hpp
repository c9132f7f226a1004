// SPDX-License-Identifier: BSD-3-Clause
// LagrangeElement<Shape, P>: the one compile-time element type. Line<P>, Triangle<P>, Quadrilateral<P>,
// Tetrahedron<P> and Hexahedron<P> (in their own headers, with their node diagrams) are aliases of it;
// what differs between them is the reference domain and the node lattice table, NodeLattice<Shape, P>.
//
// Everything here is constexpr or FEINTERP_HD (host and device) and allocates nothing, so the CPU
// path, the GPU kernels and the tests run exactly this code.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/elements/simplex_lagrange.hpp>
#include <feinterp/elements/tensor_lagrange.hpp>

namespace feinterp {

/// Lattice index of each node, in Gmsh's node order. Specialised in line.hpp, triangle.hpp,
/// quadrilateral.hpp, tetrahedron.hpp and hexahedron.hpp; each specialisation has `nodes` and
/// `index(node, axis)`.
template <Shape S, int P>
struct NodeLattice;

template <Shape S, int P>
struct LagrangeElement {
  static_assert(P >= min_order && P <= max_order, "orders 1, 2 and 3 are supported");
  using Lattice = NodeLattice<S, P>;

  static constexpr Shape shape = S;
  static constexpr int order = P;
  static constexpr int dimension = S == Shape::line ? 1 : (S == Shape::triangle || S == Shape::quadrilateral) ? 2 : 3;
  static constexpr bool simplex = (S == Shape::triangle || S == Shape::tetrahedron);
  static constexpr int nodes_per_element = Lattice::nodes;

  static ElementType type() { return {S, P}; }

  /// Reference coordinates of node n: [0, 1] simplices, [-1, 1]^d lines and tensor shapes (Gmsh's).
  FEINTERP_HD static void reference_node(int n, double* xi) {
    for (int d = 0; d < dimension; ++d) {
      const double t = double(Lattice::index(n, d)) / P;
      xi[d] = simplex ? t : 2.0 * t - 1.0;
    }
  }

  /// values[n] = N_n(xi), n < nodes_per_element.
  FEINTERP_HD static void shape_functions(const double* xi, double* values) {
    evaluate(xi, values, nullptr);
  }

  /// gradients[n * dimension + d] = dN_n / dxi_d at xi. `values` receives N_n(xi) as a by-product
  /// (the two share all intermediate products).
  FEINTERP_HD static void shape_gradients(const double* xi, double* values, double* gradients) {
    evaluate(xi, values, gradients);
  }

  /// True when xi lies in the reference element, within `tolerance`.
  FEINTERP_HD static bool contains(const double* xi, double tolerance = 1e-12) {
    double sum = 0.0;
    for (int d = 0; d < dimension; ++d) {
      if (simplex) {
        if (xi[d] < -tolerance) return false;
        sum += xi[d];
      } else if (xi[d] < -1.0 - tolerance || xi[d] > 1.0 + tolerance) {
        return false;
      }
    }
    return !simplex || sum <= 1.0 + tolerance;
  }

 private:
  FEINTERP_HD static void evaluate(const double* xi, double* values, double* gradients) {
    if constexpr (simplex)
      simplex_lagrange<dimension, P, Lattice>(xi, values, gradients);
    else
      tensor_lagrange<dimension, P, Lattice>(xi, values, gradients);
  }
};

}  // namespace feinterp
