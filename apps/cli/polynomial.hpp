// SPDX-License-Identifier: BSD-3-Clause
// The demo's field: C components, each a full polynomial of total degree p in the D coordinates with
// random coefficients in [-1, 1], and its exact gradient.
//
// Why total degree p is an honest test on every mesh generate_mesh makes (Domain::box): simplices and
// the lines of the unit segment are affine, so u o x is again of total degree p and lies in P_p; quadrilaterals and hexahedra are
// bilinear/trilinear (a triangle split into 3 quadrilaterals is not a parallelogram), so x(xi) is in
// Q_1 and each monomial of degree k <= p becomes a product of k Q_1 functions, in Q_k, inside Q_p.
// Either way the nodal interpolant equals u o x exactly, hence so do its values and, through the chain
// rule with the element's own J, its physical gradients: every error left is round-off. (A Q_p field
// such as x^p y^p would not be reproduced on a non-affine quadrilateral, so it is not used.)
#pragma once

#include <vector>

namespace feinterp::app {

class Polynomial {
 public:
  Polynomial(int degree, int dimension, int components, unsigned seed);

  int components() const { return components_; }
  int dimension() const { return dimension_; }

  /// values[c] = u_c(x); gradients[c * D + d] = du_c/dx_d (if not null). x has D coordinates.
  void evaluate(const double* x, double* values, double* gradients) const;

 private:
  int dimension_, components_;
  std::vector<int> exponents_;         // term t, variable d at [t * D + d]
  std::vector<double> coefficients_;   // component c, term t at [c * terms + t]
};

}  // namespace feinterp::app
