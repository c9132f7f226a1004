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
// fails the comparison. The bound is computed in tests/support/float_error_bounds.hpp (the sum-factorised
// GPU test holds its kernel to it too).
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

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/float_error_bounds.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

using test::ErrorBounds;
using test::expect_within;
using test::float_error_bounds;

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
