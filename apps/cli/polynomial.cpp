// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/polynomial.hpp>

#include <cmath>
#include <random>
#include <stdexcept>

namespace feinterp::app {

namespace {
double power(double x, int k) {
  double r = 1;
  for (int i = 0; i < k; ++i) r *= x;
  return r;
}
}  // namespace

Polynomial::Polynomial(int degree, int dimension, int components, unsigned seed)
    : dimension_(dimension), components_(components) {
  if (degree < 0 || dimension < 1 || dimension > 3 || components < 1)
    throw std::invalid_argument("polynomial: bad degree, dimension or component count");
  for (int a = 0; a <= degree; ++a)
    for (int b = 0; b <= (dimension > 1 ? degree - a : 0); ++b)
      for (int c = 0; c <= (dimension > 2 ? degree - a - b : 0); ++c) {
        const int e[3] = {a, b, c};
        for (int d = 0; d < dimension; ++d) exponents_.push_back(e[d]);
      }
  // mt19937 and the hand-made scaling give the same field on every platform (uniform_real_distribution
  // is implementation-defined).
  std::mt19937 random(seed);
  const int terms = int(exponents_.size()) / dimension;
  coefficients_.resize(std::size_t(components) * std::size_t(terms));
  for (double& c : coefficients_) c = 2.0 * (double(random()) / 4294967295.0) - 1.0;
}

void Polynomial::evaluate(const double* x, double* values, double* gradients) const {
  const int D = dimension_, terms = int(exponents_.size()) / D;
  for (int c = 0; c < components_; ++c) {
    values[c] = 0;
    if (gradients)
      for (int d = 0; d < D; ++d) gradients[c * D + d] = 0;
  }
  for (int t = 0; t < terms; ++t) {
    const int* e = &exponents_[std::size_t(t * D)];
    double monomial = 1, derivative[3] = {1, 1, 1};
    for (int d = 0; d < D; ++d) {
      monomial *= power(x[d], e[d]);
      for (int k = 0; k < D; ++k) derivative[k] *= k == d ? (e[d] ? e[d] * power(x[d], e[d] - 1) : 0.0) : power(x[d], e[d]);
    }
    for (int c = 0; c < components_; ++c) {
      const double a = coefficients_[std::size_t(c * terms + t)];
      values[c] += a * monomial;
      if (gradients)
        for (int d = 0; d < D; ++d) gradients[c * D + d] += a * derivative[d];
    }
  }
}

}  // namespace feinterp::app
