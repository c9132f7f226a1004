// SPDX-License-Identifier: BSD-3-Clause
// Complete Lagrange basis of order P on the unit simplex (Gmsh's reference triangle and tetrahedron),
// equispaced nodes, evaluated from the nodes' lattice indices.
//
// Why a product formula: with barycentric coordinates lambda_0 = 1 - sum(xi), lambda_k = xi_(k-1), the
// node with lattice index (a_1, ..., a_D) and a_0 = P - sum(a) has the basis function
//
//     N(xi) = prod_m  l_(a_m)(lambda_m),   l_a(t) = prod_(s<a) (P t - s) / (s + 1)
//
// (Silvester's formula). It is 1 at its node and 0 at every other lattice point, for every order and
// dimension, so one function serves 6 element types and the node order is just a table.
#pragma once

#include <feinterp/core/config.hpp>

namespace feinterp {

/// Evaluates the basis (and, if `gradients` is not null, its reference gradients, gradients[n*D + d])
/// at the reference point `xi` (D coordinates). `Lattice::index(n, d)` is node n's lattice index.
template <int D, int P, class Lattice>
FEINTERP_HD void simplex_lagrange(const double* xi, double* values, double* gradients) {
  constexpr int nodes = Lattice::nodes;
  double lambda[D + 1];
  lambda[0] = 1.0;
  for (int d = 0; d < D; ++d) {
    lambda[d + 1] = xi[d];
    lambda[0] -= xi[d];
  }
  // l[m][a] = l_a(lambda_m) and its derivative with respect to lambda_m, by the recurrence
  // l_a = l_(a-1) (P t - (a-1)) / a.
  double l[D + 1][P + 1], dl[D + 1][P + 1];
#pragma unroll
  for (int m = 0; m <= D; ++m) {
    const double t = P * lambda[m];
    l[m][0] = 1.0;
    dl[m][0] = 0.0;
#pragma unroll
    for (int a = 1; a <= P; ++a) {
      l[m][a] = l[m][a - 1] * (t - (a - 1)) / a;
      dl[m][a] = (dl[m][a - 1] * (t - (a - 1)) + l[m][a - 1] * P) / a;
    }
  }
#pragma unroll
  for (int n = 0; n < nodes; ++n) {
    int a[D + 1];
    a[0] = P;
#pragma unroll
    for (int d = 0; d < D; ++d) {
      a[d + 1] = Lattice::index(n, d);
      a[0] -= a[d + 1];
    }
    double value = 1.0;
#pragma unroll
    for (int m = 0; m <= D; ++m) value *= l[m][a[m]];
    values[n] = value;
    if (gradients) {
      // dN/dlambda_m by the product rule; dN/dxi_d = dN/dlambda_(d+1) - dN/dlambda_0.
      double by_lambda[D + 1];
#pragma unroll
      for (int m = 0; m <= D; ++m) {
        double product = dl[m][a[m]];
#pragma unroll
        for (int k = 0; k <= D; ++k)
          if (k != m) product *= l[k][a[k]];
        by_lambda[m] = product;
      }
#pragma unroll
      for (int d = 0; d < D; ++d) gradients[n * D + d] = by_lambda[d + 1] - by_lambda[0];
    }
  }
}

}  // namespace feinterp
