// SPDX-License-Identifier: BSD-3-Clause
// Test support: random polynomials of an element's degree, the fields that elements reproduce exactly.
#pragma once

#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace feinterp::test {

/// A random polynomial in D variables of total degree <= p (simplices) or degree <= p in each
/// variable (tensor shapes, `tensor`), with its gradient.
struct Polynomial {
  int D = 3;
  std::vector<std::array<int, 3>> exponents;
  std::vector<double> coefficients;
  template <class Random>
  Polynomial(int D_, int p, bool tensor, Random& random) : D(D_) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int a = 0; a <= p; ++a)
      for (int b = 0; b <= (D >= 2 ? p : 0); ++b)
        for (int c = 0; c <= (D == 3 ? p : 0); ++c)
          if (tensor || a + b + c <= p) {
            exponents.push_back({a, b, c});
            coefficients.push_back(u(random));
          }
  }
  double operator()(const double* x) const {
    double v = 0;
    for (std::size_t i = 0; i < exponents.size(); ++i) {
      double m = coefficients[i];
      for (int d = 0; d < D; ++d) m *= std::pow(x[d], exponents[i][d]);
      v += m;
    }
    return v;
  }
  double derivative(const double* x, int axis) const {
    double v = 0;
    for (std::size_t i = 0; i < exponents.size(); ++i) {
      if (exponents[i][axis] == 0) continue;
      double m = coefficients[i] * exponents[i][axis];
      for (int d = 0; d < D; ++d) m *= std::pow(x[d], d == axis ? exponents[i][d] - 1 : exponents[i][d]);
      v += m;
    }
    return v;
  }
};

}  // namespace feinterp::test
