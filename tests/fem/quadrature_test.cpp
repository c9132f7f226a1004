// SPDX-License-Identifier: BSD-3-Clause
// Quadrature rules checked against exact integrals of every monomial up to each rule's reported degree,
// on every shape and every degree the library offers.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/fem/quadrature.hpp>

namespace feinterp {
namespace {

constexpr Shape all_shapes[] = {Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron};

double factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

// Simplex: integral of x^a y^b (z^c) = a! b! (c!) / (a + b (+ c) + d)!. Tensor: product over axes of
// the integral of t^k over [-1, 1], 2 / (k + 1) for even k and 0 for odd k.
double exact_integral(Shape shape, const int* e) {
  const int dim = dimension(shape);
  if (is_simplex(shape)) {
    double numerator = 1.0;
    int sum = 0;
    for (int d = 0; d < dim; ++d) numerator *= factorial(e[d]), sum += e[d];
    return numerator / factorial(sum + dim);
  }
  double value = 1.0;
  for (int d = 0; d < dim; ++d) value *= (e[d] % 2 == 0) ? 2.0 / (e[d] + 1) : 0.0;
  return value;
}

double measure(Shape shape) {
  switch (shape) {
    case Shape::triangle: return 0.5;
    case Shape::quadrilateral: return 4.0;
    case Shape::tetrahedron: return 1.0 / 6.0;
    case Shape::hexahedron: return 8.0;
  }
  return 0.0;
}

// Every exponent tuple of the rule's class up to `degree`: total degree <= degree on simplices, each
// exponent <= degree on tensor shapes.
std::vector<std::vector<int>> monomials(Shape shape, int degree) {
  const int dim = dimension(shape);
  std::vector<std::vector<int>> out;
  for (int a = 0; a <= degree; ++a)
    for (int b = 0; b <= degree; ++b)
      for (int c = 0; c <= (dim == 3 ? degree : 0); ++c) {
        if (is_simplex(shape) && a + b + c > degree) continue;
        out.push_back(dim == 2 ? std::vector<int>{a, b} : std::vector<int>{a, b, c});
      }
  return out;
}

struct MomentError {
  double error = 0.0;  // |rule - exact|
  double scale = 0.0;  // sum over points of |w m(x)|: the size of the terms the rule adds up
};

// The rule applied to every monomial in `exponents`, against the exact integral.
std::vector<MomentError> moment_errors(const PointSet& rule, const std::vector<std::vector<int>>& exponents,
                                       int max_exponent) {
  const int dim = rule.dimension();
  std::vector<double> sums(exponents.size(), 0.0), scales(exponents.size(), 0.0);
  std::vector<double> powers(std::size_t(dim) * std::size_t(max_exponent + 1));
  for (int q = 0; q < rule.size(); ++q) {
    for (int d = 0; d < dim; ++d) {
      double p = 1.0;
      for (int k = 0; k <= max_exponent; ++k) powers[std::size_t(d * (max_exponent + 1) + k)] = p, p *= rule.point(q)[d];
    }
    const double w = rule.weights[std::size_t(q)];
    for (std::size_t m = 0; m < exponents.size(); ++m) {
      double term = w;
      for (int d = 0; d < dim; ++d) term *= powers[std::size_t(d * (max_exponent + 1) + exponents[m][std::size_t(d)])];
      sums[m] += term;
      scales[m] += std::abs(term);
    }
  }
  std::vector<MomentError> errors(exponents.size());
  for (std::size_t m = 0; m < exponents.size(); ++m)
    errors[m] = {std::abs(sums[m] - exact_integral(rule.shape, exponents[m].data())), scales[m]};
  return errors;
}

std::string describe(const std::vector<int>& e) {
  std::string s = "x^" + std::to_string(e[0]) + " y^" + std::to_string(e[1]);
  if (e.size() == 3) s += " z^" + std::to_string(e[2]);
  return s;
}

class QuadratureShapeTest : public ::testing::TestWithParam<Shape> {};

TEST_P(QuadratureShapeTest, ExactForEveryMonomialUpToTheReportedDegree) {
  const Shape shape = GetParam();
  std::set<std::string> checked;  // degrees 2k and 2k + 1 share a Gauss rule: sweep each rule once
  for (int degree = 0; degree <= max_quadrature_degree(shape); ++degree) {
    const PointSet rule = quadrature_rule(shape, degree);
    ASSERT_GE(rule.degree, degree) << rule.name;
    if (!checked.insert(rule.name).second) continue;
    const auto exponents = monomials(shape, rule.degree);
    const auto errors = moment_errors(rule, exponents, rule.degree);
    int failures = 0;
    for (std::size_t m = 0; m < exponents.size() && failures < 5; ++m) {
      // 1e-13 of the summed magnitudes: a relative error on the simplices, where every term is positive,
      // and an absolute one on odd tensor monomials, whose exact integral is 0.
      const bool ok = errors[m].error <= 1e-13 * errors[m].scale;
      failures += !ok;
      EXPECT_TRUE(ok) << shape_name(shape) << " " << rule.name << " (degree " << rule.degree << ") on "
                      << describe(exponents[m]) << ": error " << errors[m].error << ", scale " << errors[m].scale;
    }
  }
}

// The reported degree is tight: some monomial of the next degree is integrated wrongly.
TEST_P(QuadratureShapeTest, NotExactBeyondTheReportedDegree) {
  const Shape shape = GetParam();
  for (int degree = 0; degree <= max_quadrature_degree(shape); ++degree) {
    const PointSet rule = quadrature_rule(shape, degree);
    const auto all = monomials(shape, rule.degree + 1);
    std::vector<std::vector<int>> next;
    for (const auto& e : all) {
      int sum = 0, top = 0;
      for (int k : e) sum += k, top = std::max(top, k);
      if ((is_simplex(shape) ? sum : top) == rule.degree + 1) next.push_back(e);
    }
    double worst = 0.0;
    for (const MomentError& e : moment_errors(rule, next, rule.degree + 1)) worst = std::max(worst, e.error / e.scale);
    EXPECT_GT(worst, 1e-10) << shape_name(shape) << " " << rule.name << " reports degree " << rule.degree
                            << " but is exact at degree " << rule.degree + 1;
  }
}

TEST_P(QuadratureShapeTest, PositiveWeightsInteriorPointsAndMeasure) {
  const Shape shape = GetParam();
  const int dim = dimension(shape);
  for (int degree = 0; degree <= max_quadrature_degree(shape); ++degree) {
    const PointSet rule = quadrature_rule(shape, degree);
    SCOPED_TRACE(std::string(shape_name(shape)) + " degree " + std::to_string(degree) + ": " + rule.name);
    EXPECT_EQ(rule.shape, shape);
    EXPECT_FALSE(rule.name.empty());
    ASSERT_GT(rule.size(), 0);
    ASSERT_EQ(rule.coordinates.size(), std::size_t(rule.size()) * std::size_t(dim));
    ASSERT_EQ(rule.weights.size(), std::size_t(rule.size()));
    double sum = 0.0;
    for (int q = 0; q < rule.size(); ++q) {
      const double* x = rule.point(q);
      EXPECT_GT(rule.weights[std::size_t(q)], 0.0) << "point " << q;
      sum += rule.weights[std::size_t(q)];
      double coordinate_sum = 0.0;
      for (int d = 0; d < dim; ++d) {
        coordinate_sum += x[d];
        if (is_simplex(shape)) {
          EXPECT_GT(x[d], 0.0) << "point " << q << " axis " << d;
        } else {
          EXPECT_GT(x[d], -1.0) << "point " << q << " axis " << d;
          EXPECT_LT(x[d], 1.0) << "point " << q << " axis " << d;
        }
      }
      if (is_simplex(shape)) EXPECT_LT(coordinate_sum, 1.0) << "point " << q;
    }
    EXPECT_NEAR(sum, measure(shape), 1e-14 * measure(shape));
  }
}

INSTANTIATE_TEST_SUITE_P(Quadrature, QuadratureShapeTest, ::testing::ValuesIn(all_shapes),
                         [](const ::testing::TestParamInfo<Shape>& info) { return std::string(shape_name(info.param)); });

TEST(QuadratureTest, MaximumDegrees) {
  EXPECT_GE(max_quadrature_degree(Shape::quadrilateral), 30);
  EXPECT_GE(max_quadrature_degree(Shape::hexahedron), 30);
  EXPECT_GE(max_quadrature_degree(Shape::triangle), 20);
  EXPECT_GE(max_quadrature_degree(Shape::tetrahedron), 20);
}

TEST(QuadratureTest, GaussLegendreTwoPointValues) {
  const PointSet rule = quadrature_rule(Shape::quadrilateral, 3);
  EXPECT_EQ(rule.name, "Gauss-Legendre 2x2");
  EXPECT_EQ(rule.degree, 3);
  ASSERT_EQ(rule.size(), 4);
  const double t = 1.0 / std::sqrt(3.0);
  for (int q = 0; q < 4; ++q) {
    // 2 ulps: 1 / sqrt(3.0) is itself one ulp above the correctly rounded 0.57735026918962573.
    EXPECT_NEAR(std::abs(rule.point(q)[0]), t, 2.3e-16);
    EXPECT_NEAR(std::abs(rule.point(q)[1]), t, 2.3e-16);
    EXPECT_NEAR(rule.weights[std::size_t(q)], 1.0, 1e-15);
  }
  EXPECT_EQ(quadrature_rule(Shape::hexahedron, 4).name, "Gauss-Legendre 3x3x3");
}

// The symmetric rules up to their highest tabulated degree, then collapsed Gauss-Jacobi with
// n = degree / 2 + 1 points per axis.
TEST(QuadratureTest, SimplexPointCounts) {
  const int triangle[] = {1, 1, 3, 6, 6, 7, 12, 15, 16, 25, 36};
  for (int degree = 0; degree <= 10; ++degree)
    EXPECT_EQ(quadrature_rule(Shape::triangle, degree).size(), triangle[degree]) << "degree " << degree;
  EXPECT_EQ(quadrature_rule(Shape::triangle, 6).name, "symmetric 12-point degree 6");
  EXPECT_EQ(quadrature_rule(Shape::triangle, 9).name, "collapsed Gauss-Jacobi 5x5");

  const int tetrahedron[] = {1, 1, 4, 8, 14, 14, 24, 35, 46, 125};
  for (int degree = 0; degree <= 9; ++degree)
    EXPECT_EQ(quadrature_rule(Shape::tetrahedron, degree).size(), tetrahedron[degree]) << "degree " << degree;
  EXPECT_EQ(quadrature_rule(Shape::tetrahedron, 4).degree, 5);
  EXPECT_EQ(quadrature_rule(Shape::tetrahedron, 31).name, "collapsed Gauss-Jacobi 16x16x16");
}

TEST(QuadratureTest, BadDegreesThrowWithTheExpectedRange) {
  for (Shape shape : all_shapes) {
    for (int degree : {-1, max_quadrature_degree(shape) + 1}) {
      try {
        quadrature_rule(shape, degree);
        ADD_FAILURE() << "no exception for degree " << degree << " on " << shape_name(shape);
      } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("degree " + std::to_string(degree)), std::string::npos) << message;
        EXPECT_NE(message.find(shape_name(shape)), std::string::npos) << message;
        EXPECT_NE(message.find("expected 0 <= degree <= " + std::to_string(max_quadrature_degree(shape))),
                  std::string::npos)
            << message;
      }
    }
  }
}

}  // namespace
}  // namespace feinterp
