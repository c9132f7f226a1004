// SPDX-License-Identifier: BSD-3-Clause
// The manufactured solution of the Poisson example: u = sin(2x) e^y cos(1.5z), smooth, not a
// polynomial (so no order is exact), an eigenfunction of the Laplacian (-Laplace(u) = (4 - 1 + 2.25) u),
// with the variable coefficient kappa = 1 + x^2, so that f = -div(kappa grad u) is exact in closed form:
// f = kappa 5.25 u - 2x du/dx.
#pragma once

#include <cmath>

namespace poisson {

inline double exact_solution(const double* x) { return std::sin(2 * x[0]) * std::exp(x[1]) * std::cos(1.5 * x[2]); }

inline void exact_gradient(const double* x, double* g) {
  const double s = std::sin(2 * x[0]), c = std::cos(2 * x[0]), e = std::exp(x[1]);
  const double cz = std::cos(1.5 * x[2]), sz = std::sin(1.5 * x[2]);
  g[0] = 2 * c * e * cz;
  g[1] = s * e * cz;
  g[2] = -1.5 * s * e * sz;
}

inline double kappa(const double* x) { return 1 + x[0] * x[0]; }

/// f = -div(kappa grad u) = -kappa Laplace(u) - grad(kappa) . grad(u).
inline double source(const double* x) {
  double g[3];
  exact_gradient(x, g);
  return kappa(x) * 5.25 * exact_solution(x) - 2 * x[0] * g[0];
}

}  // namespace poisson
