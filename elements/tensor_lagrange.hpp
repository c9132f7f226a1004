// SPDX-License-Identifier: BSD-3-Clause
// Complete (tensor-product) Lagrange basis of order P on [-1, 1]^D (Gmsh's reference quadrilateral and
// hexahedron), equispaced nodes t_i = -1 + 2 i / P, evaluated from the nodes' lattice indices:
//
//     N(xi) = prod_d  l_(a_d)(xi_d),   l_i(t) = prod_(j != i) (t - t_j) / (t_i - t_j).
//
// lagrange_1d is the one-dimensional factor l_i and its derivative: the dense basis below multiplies
// its values, and the sum-factorised kernels' 1D tables (fem/tensor_structure.hpp) are made of it, so
// that both paths evaluate the same polynomials with the same arithmetic.
#pragma once

#include <feinterp/core/config.hpp>

namespace feinterp {

/// l[i] = l_i(t) and dl[i] = l_i'(t), i <= P, on the equispaced nodes of [-1, 1].
template <int P>
FEINTERP_HD void lagrange_1d(double t, double* l, double* dl) {
#pragma unroll
  for (int i = 0; i <= P; ++i) {
    const double ti = -1.0 + 2.0 * i / P;
    double value = 1.0, derivative = 0.0;
#pragma unroll
    for (int j = 0; j <= P; ++j) {
      if (j == i) continue;
      const double tj = -1.0 + 2.0 * j / P;
      // (f g)' = f' g + f g' with g = (t - tj) / (ti - tj)
      derivative = (derivative * (t - tj) + value) / (ti - tj);
      value *= (t - tj) / (ti - tj);
    }
    l[i] = value;
    dl[i] = derivative;
  }
}

template <int D, int P, class Lattice>
FEINTERP_HD void tensor_lagrange(const double* xi, double* values, double* gradients) {
  constexpr int nodes = Lattice::nodes;
  // One-dimensional polynomials and their derivatives along each axis: D * (P + 1) of each.
  double l[D][P + 1], dl[D][P + 1];
#pragma unroll
  for (int d = 0; d < D; ++d) lagrange_1d<P>(xi[d], l[d], dl[d]);
#pragma unroll
  for (int n = 0; n < nodes; ++n) {
    int a[D];
#pragma unroll
    for (int d = 0; d < D; ++d) a[d] = Lattice::index(n, d);
    double value = 1.0;
#pragma unroll
    for (int d = 0; d < D; ++d) value *= l[d][a[d]];
    values[n] = value;
    if (gradients) {
#pragma unroll
      for (int d = 0; d < D; ++d) {
        double product = dl[d][a[d]];
#pragma unroll
        for (int k = 0; k < D; ++k)
          if (k != d) product *= l[k][a[k]];
        gradients[n * D + d] = product;
      }
    }
  }
}

}  // namespace feinterp
