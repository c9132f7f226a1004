// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the element-library tests: random reference points, the monomials an element of
// order p reproduces, and a seed printed on failure.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>

namespace feinterp::testing {

/// The 15 element types, for typed test suites: TYPED_TEST_SUITE(Suite, AllElements, ElementName).
using AllElements = ::testing::Types<Line<1>, Line<2>, Line<3>, Triangle<1>, Triangle<2>, Triangle<3>, Quadrilateral<1>, Quadrilateral<2>,
                                     Quadrilateral<3>, Tetrahedron<1>, Tetrahedron<2>, Tetrahedron<3>,
                                     Hexahedron<1>, Hexahedron<2>, Hexahedron<3>>;

/// Test names "triangle_p1" ... rather than gtest's type indices.
struct ElementName {
  template <class Element>
  static std::string GetName(int) {
    std::string name = to_string(Element::type());
    std::replace(name.begin(), name.end(), ' ', '_');
    return name;
  }
};

/// A fresh seed per test (std::random_device); wrap uses in SCOPED_TRACE(seed_message(seed)).
inline unsigned fresh_seed() { return std::random_device{}(); }
inline std::string seed_message(unsigned seed) { return "random seed " + std::to_string(seed); }

/// A uniformly random point of the reference element (strictly inside by `margin`).
template <class Element>
std::array<double, 3> random_reference_point(std::mt19937& random, double margin = 0.0) {
  std::array<double, 3> xi{0, 0, 0};
  if constexpr (Element::simplex) {
    std::uniform_real_distribution<double> u(margin, 1.0);
    for (;;) {
      double sum = 0;
      for (int d = 0; d < Element::dimension; ++d) sum += xi[d] = u(random);
      if (sum <= 1.0 - margin) return xi;
    }
  } else {
    std::uniform_real_distribution<double> u(-1.0 + margin, 1.0 - margin);
    for (int d = 0; d < Element::dimension; ++d) xi[d] = u(random);
    return xi;
  }
}

/// Exponents (a, b, c) of the monomials xi^a eta^b zeta^c an element of order p reproduces exactly:
/// total degree <= p on simplices, degree <= p in each variable on tensor shapes.
template <class Element>
std::vector<std::array<int, 3>> reproduced_monomials() {
  constexpr int P = Element::order, D = Element::dimension;
  std::vector<std::array<int, 3>> result;
  for (int a = 0; a <= P; ++a)
    for (int b = 0; b <= (D >= 2 ? P : 0); ++b)
      for (int c = 0; c <= (D == 3 ? P : 0); ++c)
        if (!Element::simplex || a + b + c <= P) result.push_back({a, b, c});
  return result;
}

inline double monomial(const std::array<int, 3>& a, const double* x, int D) {
  double v = 1;
  for (int d = 0; d < D; ++d) v *= std::pow(x[d], a[d]);
  return v;
}

inline double monomial_derivative(const std::array<int, 3>& a, const double* x, int D, int axis) {
  if (a[axis] == 0) return 0;
  double v = a[axis];
  for (int d = 0; d < D; ++d) v *= std::pow(x[d], d == axis ? a[d] - 1 : a[d]);
  return v;
}

}  // namespace feinterp::testing
