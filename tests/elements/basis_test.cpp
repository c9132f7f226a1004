// SPDX-License-Identifier: BSD-3-Clause
// Properties every Lagrange basis must have, checked on all 15 element types: Kronecker property at
// the nodes, partition of unity, exact reproduction of the polynomial space (values and gradients),
// and gradients consistent with finite differences of the values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <feinterp/tests/elements/test_support.hpp>

namespace feinterp {
namespace {

using namespace feinterp::testing;

template <class Element>
class Basis : public ::testing::Test {};

TYPED_TEST_SUITE(Basis, AllElements, ElementName);

constexpr int random_points = 50;

TYPED_TEST(Basis, KroneckerAtNodes) {
  using E = TypeParam;
  constexpr int N = E::nodes_per_element;
  for (int n = 0; n < N; ++n) {
    double xi[3] = {0, 0, 0}, values[N];
    E::reference_node(n, xi);
    EXPECT_TRUE(E::contains(xi)) << "node " << n;
    E::shape_functions(xi, values);
    for (int m = 0; m < N; ++m) EXPECT_NEAR(values[m], m == n ? 1.0 : 0.0, 1e-13) << "N_" << m << " at node " << n;
  }
}

TYPED_TEST(Basis, PartitionOfUnityAndGradientsSumToZero) {
  using E = TypeParam;
  constexpr int N = E::nodes_per_element, D = E::dimension;
  const unsigned seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937 random(seed);
  for (int i = 0; i < random_points; ++i) {
    const auto xi = random_reference_point<E>(random);
    double values[N], gradients[N * D];
    E::shape_gradients(xi.data(), values, gradients);
    double sum = 0, gradient_sum[D] = {};
    for (int n = 0; n < N; ++n) {
      sum += values[n];
      for (int d = 0; d < D; ++d) gradient_sum[d] += gradients[n * D + d];
    }
    EXPECT_NEAR(sum, 1.0, 1e-13);
    for (int d = 0; d < D; ++d) EXPECT_NEAR(gradient_sum[d], 0.0, 1e-12) << "direction " << d;
    // shape_functions and shape_gradients agree on the values.
    double only_values[N];
    E::shape_functions(xi.data(), only_values);
    for (int n = 0; n < N; ++n) EXPECT_EQ(only_values[n], values[n]);
  }
}

// Every monomial of the element's space, interpolated from its nodal values, is reproduced exactly
// (to rounding: 1e-12 on values of magnitude <= 1) with its gradient, at fresh random points.
TYPED_TEST(Basis, ReproducesEveryMonomialOfItsSpace) {
  using E = TypeParam;
  constexpr int N = E::nodes_per_element, D = E::dimension;
  const unsigned seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937 random(seed);
  const auto monomials = reproduced_monomials<E>();
  EXPECT_EQ(int(monomials.size()), N) << "the space has as many monomials as the element has nodes";
  for (const auto& a : monomials) {
    SCOPED_TRACE("monomial exponents " + std::to_string(a[0]) + " " + std::to_string(a[1]) + " " + std::to_string(a[2]));
    double nodal[N];
    for (int n = 0; n < N; ++n) {
      double x[3] = {0, 0, 0};
      E::reference_node(n, x);
      nodal[n] = monomial(a, x, D);
    }
    for (int i = 0; i < random_points; ++i) {
      const auto xi = random_reference_point<E>(random);
      double values[N], gradients[N * D];
      E::shape_gradients(xi.data(), values, gradients);
      double u = 0, du[D] = {};
      for (int n = 0; n < N; ++n) {
        u += nodal[n] * values[n];
        for (int d = 0; d < D; ++d) du[d] += nodal[n] * gradients[n * D + d];
      }
      EXPECT_NEAR(u, monomial(a, xi.data(), D), 1e-12);
      for (int d = 0; d < D; ++d) EXPECT_NEAR(du[d], monomial_derivative(a, xi.data(), D, d), 1e-12) << "d/dxi_" << d;
    }
  }
}

// Central differences with h = 1e-5: truncation error h^2/6 |N'''| <= ~1e-9 for these cubic-at-most
// polynomials (|N'''| <= ~1e3 on p = 3 hexahedra), rounding error eps/h ~ 1e-11: tolerance 1e-7.
TYPED_TEST(Basis, GradientsMatchFiniteDifferences) {
  using E = TypeParam;
  constexpr int N = E::nodes_per_element, D = E::dimension;
  const unsigned seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937 random(seed);
  const double h = 1e-5;
  for (int i = 0; i < random_points; ++i) {
    auto xi = random_reference_point<E>(random, 2 * h);
    double values[N], gradients[N * D];
    E::shape_gradients(xi.data(), values, gradients);
    for (int d = 0; d < D; ++d) {
      auto plus = xi, minus = xi;
      plus[d] += h;
      minus[d] -= h;
      double vp[N], vm[N];
      E::shape_functions(plus.data(), vp);
      E::shape_functions(minus.data(), vm);
      for (int n = 0; n < N; ++n)
        EXPECT_NEAR(gradients[n * D + d], (vp[n] - vm[n]) / (2 * h), 1e-7) << "dN_" << n << "/dxi_" << d;
    }
  }
}

}  // namespace
}  // namespace feinterp
