// SPDX-License-Identifier: BSD-3-Clause
// FP32 against FP64 through the front door, on the executor of this test executable (the CPU here, the
// GPU in the `gpu` build of the same file), for every element type, space dimension, operation and
// component count, on fresh random curved blocks and fields.
//
// The tolerance of every output entry is an error bound derived from the element, its order and the
// values, not one number for all:
//   - unit roundoff of float: eps = 2^-24. An FP32 plan rounds the field and the coordinates (one eps
//     each), stores the shape functions rounded (one eps), sums N products in float (at most N - 1 eps
//     per term, in any order, FMA or not) and rounds the result (one eps): gamma = (N + 3) eps, with N
//     the element's node count (3 to 64: the order's part);
//   - values: |delta out(e,q,c)| <= gamma * sum_n |phi_n(xi_q)| |u_c(node n)|, and the same with
//     |dphi_n/dxi_d| for reference gradients (Higham's dot-product bound; the element's shape functions
//     at the point are the weights, the values are the field's);
//   - the geometry J (S x D) is such a sum too: |delta J| <= gamma A_J elementwise, A_J = sum_n
//     |dphi_n/dxi_d| |x_k(node n)|. Physical gradients g_c = J^+T r_c (r_c the reference gradient) move,
//     to first order, by ||J^+|| (||delta r_c|| + ||delta J|| ||g_c||) <= gamma (||A_r,c|| / s_min +
//     ||A_J||_F ||r_c|| / s_min^2), s_min the smallest singular value of J; a surface or curve (D < S)
//     goes through the Gram matrix J^T J, which squares the condition number: one more factor
//     kappa = s_max / s_min there. det J (or the measure) moves by |det J| sqrt(D) ||J^+|| ||delta J||_F
//     (times kappa for D < S);
//   - the geometric bounds carry a factor 4 for the second-order terms and for the rounding of the small
//     inverse itself (D <= 3 cofactor products, a few eps * kappa relative): both below one first-order
//     term for these well-shaped elements (kappa < 10).
// FP64's own error (2^-53 relative) is below 1e-8 of every bound. An output left NaN by the poisoning
// fails the comparison.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tabulation.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include "../support/element_lists.hpp"
#include "../support/front_door.hpp"
#include "../support/random_block.hpp"

namespace feinterp {
namespace {

constexpr double float_roundoff = 0x1p-24;

/// The bound of each output entry of an FP32 plan against the exact result (comment above).
struct ErrorBounds {
  std::vector<double> values, reference_gradients, physical_gradients, detj;
  const std::vector<double>& of(Operation op) const {
    return op == Operation::values ? values : op == Operation::reference_gradients ? reference_gradients
                                                                                    : physical_gradients;
  }
};

ErrorBounds float_error_bounds(const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u,
                               int C) {
  const Tabulation table = tabulate(block.type, points);
  const int N = table.nodes, D = table.dimension, Q = table.points, S = block.space_dimension;
  const double gamma = (N + 3) * float_roundoff;
  ErrorBounds b;
  const std::size_t EQ = std::size_t(block.elements) * std::size_t(Q);
  b.values.resize(EQ * C);
  b.reference_gradients.resize(EQ * C * D);
  b.physical_gradients.resize(EQ * C * S);
  b.detj.resize(EQ);
  for (offset_t e = 0; e < block.elements; ++e)
    for (int q = 0; q < Q; ++q) {
      const std::size_t eq = std::size_t(e) * Q + q;
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(S, D), A_J = Eigen::MatrixXd::Zero(S, D);
      Eigen::MatrixXd r = Eigen::MatrixXd::Zero(C, D), A_r = Eigen::MatrixXd::Zero(C, D);
      Eigen::VectorXd A_values = Eigen::VectorXd::Zero(C);
      for (int n = 0; n < N; ++n) {
        const std::size_t node = std::size_t(block.connectivity[std::size_t(e) * N + n]);
        const double phi = table.values[std::size_t(q) * N + n];
        for (int c = 0; c < C; ++c) A_values[c] += std::abs(phi * u[node * C + c]);
        for (int d = 0; d < D; ++d) {
          const double dphi = table.gradients[(std::size_t(q) * N + n) * D + d];
          for (int k = 0; k < S; ++k) {
            J(k, d) += dphi * block.coordinates[node * 3 + k];
            A_J(k, d) += std::abs(dphi * block.coordinates[node * 3 + k]);
          }
          for (int c = 0; c < C; ++c) {
            r(c, d) += dphi * u[node * C + c];
            A_r(c, d) += std::abs(dphi * u[node * C + c]);
          }
        }
      }
      const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(J).singularValues();
      const double s_min = sigma[D - 1], kappa = S > D ? sigma[0] / s_min : 1.0;
      const double measure = sigma.prod();  // |det J| for D = S, sqrt(det(J^T J)) for D < S
      b.detj[eq] = 4 * gamma * measure * std::sqrt(double(D)) * A_J.norm() / s_min * kappa;
      for (int c = 0; c < C; ++c) {
        b.values[eq * C + c] = gamma * A_values[c];
        for (int d = 0; d < D; ++d) b.reference_gradients[(eq * C + c) * D + d] = gamma * A_r(c, d);
        const double g = 4 * gamma * (A_r.row(c).norm() / s_min + A_J.norm() * r.row(c).norm() / (s_min * s_min) * kappa);
        for (int k = 0; k < S; ++k) b.physical_gradients[(eq * C + c) * S + k] = g;
      }
    }
  return b;
}

/// Fails for each entry (the first 5 reported) where |got - expected| exceeds its bound or is NaN.
void expect_within(const std::vector<float>& got, const std::vector<double>& expected, const std::vector<double>& bound,
                   const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  ASSERT_EQ(bound.size(), expected.size()) << what;
  std::size_t failures = 0;
  double worst = 0;  // the largest error / bound
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = std::abs(double(got[i]) - expected[i]);
    if (!(error <= bound[i]) && ++failures <= 5)
      ADD_FAILURE() << what << "[" << i << "]: fp32 " << got[i] << ", fp64 " << expected[i] << ", error " << error
                    << " > bound " << bound[i];
    if (bound[i] > 0) worst = std::max(worst, error / bound[i]);
  }
  EXPECT_EQ(failures, 0u) << what << ": the largest error is " << worst << " of its bound";
}

std::vector<float> to_float(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

class SinglePrecision : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(AllTypes, SinglePrecision, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(SinglePrecision, MatchesDoubleWithinTheDerivedBound) {
  FEINTERP_REQUIRE_EXECUTOR();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const std::vector<int> space_dimensions =
      dimension(type.shape) == 3 ? std::vector<int>{3} : std::vector<int>{2, 3};
  for (int S : space_dimensions) {
    const test::RandomBlock block = test::random_block(type, 257, rng, 0.01, S);
    const std::vector<float> x = to_float(block.coordinates);
    for (int C : {1, 3}) {
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      const ErrorBounds bounds = float_error_bounds(block, points, u, C);
      for (Operation op : forward_operations) {
        const std::string what = std::string(operation_name(op)) + ", S = " + std::to_string(S) + ", C = " +
                                 std::to_string(C);
        const test::Computed<double> fp64 =
            test::compute<double>(op, block.view(), block.node_count(), points, block.coordinates, u, C);
        const test::Computed<float> fp32 =
            test::compute<float>(op, block.view(), block.node_count(), points, x, to_float(u), C);
        expect_within(fp32.out, fp64.out, bounds.of(op), what);
        if (op == Operation::physical_gradients) expect_within(fp32.detj, fp64.detj, bounds.detj, what + ", det J");
      }
    }
  }
}

}  // namespace
}  // namespace feinterp
