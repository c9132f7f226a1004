// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's sum-factorised forward kernels (cpu/sum_factorised_kernels.hpp) against its dense
// product, both forced through PlanOptions::variant: for quadrilaterals and hexahedra of orders 1-3 at
// their degree-2p Gauss rules, C = 1, d and 9, values, reference gradients and physical gradients (with
// det J), on fresh random curved blocks and fields, every output poisoned with NaN first. FP64: within
// 1e-12 of the dense results, relative to their largest magnitude. FP32: each entry within the bound the
// precision tests hold FP32 plans to (tests/support/float_error_bounds.hpp) of the FP64 dense result.
// And the sum-factorised results bitwise the same for 1, 2, 3 and 8 threads, on a block large enough
// that each count really splits it (threads.hpp: 1024 elements per thread at least).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <feinterp/cpu/plan.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/support/float_error_bounds.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp::backends::cpu {
namespace {

const ElementType tensor_types[] = {{Shape::quadrilateral, 1}, {Shape::quadrilateral, 2}, {Shape::quadrilateral, 3},
                                    {Shape::hexahedron, 1},    {Shape::hexahedron, 2},    {Shape::hexahedron, 3}};

template <class Real>
std::vector<Real> in_precision(const std::vector<double>& x) {
  return std::vector<Real>(x.begin(), x.end());
}

template <class Real>
struct Results {
  std::vector<Real> out, detj;
};

// One forward call of a plan forced to `variant` with `threads` threads, into outputs poisoned with NaN.
template <class Real>
Results<Real> compute(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<Real>& x,
                      const std::vector<Real>& u, int C, KernelVariant variant, int threads) {
  PlanOptions options;
  options.threads = threads;
  options.variant = variant;
  const Plan<Real> plan(block.view(), block.node_count(), points, x.data(), options);
  EXPECT_EQ(plan.variant(op, C), variant) << "the forced variant is the one that runs";
  const int D = dimension(block.type.shape);
  const int R = op == Operation::values ? 1 : op == Operation::reference_gradients ? D : block.space_dimension;
  const std::size_t EQ = std::size_t(block.elements) * std::size_t(points.size());
  Results<Real> r{std::vector<Real>(EQ * C * R, std::nan("")), std::vector<Real>(EQ, std::nan(""))};
  plan.apply(op, {u.data(), u.size(), C}, {r.out.data(), r.out.size()}, {r.detj.data(), r.detj.size()});
  return r;
}

std::string describe(ElementType type, Operation op, int C, unsigned seed) {
  return to_string(type) + ", " + operation_name(op) + ", C = " + std::to_string(C) +
         " (FEINTERP_TEST_SEED=" + std::to_string(seed) + ")";
}

TEST(CpuSumFactorised, EqualsDenseInDouble) {
  for (ElementType type : tensor_types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const test::RandomBlock block = test::random_block(type, 97, rng);
    const PointSet points = quadrature_rule(type.shape, 2 * type.order);
    const int D = dimension(type.shape);
    for (int C : {1, D, 9}) {
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      for (Operation op : forward_operations) {
        SCOPED_TRACE(describe(type, op, C, seed));
        const auto dense = compute<double>(op, block, points, block.coordinates, u, C, KernelVariant::dense, 1);
        const auto sum = compute<double>(op, block, points, block.coordinates, u, C, KernelVariant::sum_factorised, 1);
        EXPECT_LE(test::relative_error(sum.out, dense.out), 1e-12);
        if (op == Operation::physical_gradients) EXPECT_LE(test::relative_error(sum.detj, dense.detj), 1e-12);
      }
    }
  }
}

TEST(CpuSumFactorised, WithinTheFloatBoundOfTheDenseResult) {
  for (ElementType type : tensor_types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const test::RandomBlock block = test::random_block(type, 61, rng);
    const PointSet points = quadrature_rule(type.shape, 2 * type.order);
    const int D = dimension(type.shape);
    const std::vector<float> x = in_precision<float>(block.coordinates);
    for (int C : {1, D, 9}) {
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      const test::ErrorBounds bounds = test::float_error_bounds(block, points, u, C);
      for (Operation op : forward_operations) {
        SCOPED_TRACE(describe(type, op, C, seed));
        const auto exact = compute<double>(op, block, points, block.coordinates, u, C, KernelVariant::dense, 1);
        const auto sum = compute<float>(op, block, points, x, in_precision<float>(u), C, KernelVariant::sum_factorised, 1);
        const std::vector<double>& bound = bounds.of(op);
        ASSERT_EQ(sum.out.size(), exact.out.size());
        int failures = 0;
        for (std::size_t i = 0; i < sum.out.size() && failures < 5; ++i)
          if (!(std::abs(double(sum.out[i]) - exact.out[i]) <= bound[i]))  // NaN fails
            ADD_FAILURE() << "entry " << i << ": " << sum.out[i] << " against " << exact.out[i] << ", bound "
                          << bound[i] << (++failures == 5 ? " (and maybe more)" : "");
        if (op == Operation::physical_gradients)
          for (std::size_t i = 0; i < sum.detj.size() && failures < 5; ++i)
            if (!(std::abs(double(sum.detj[i]) - exact.detj[i]) <= bounds.detj[i]))
              ADD_FAILURE() << "det J " << i << ": " << sum.detj[i] << " against " << exact.detj[i]
                            << (++failures == 5 ? " (and maybe more)" : "");
      }
    }
  }
}

template <class Real>
void expect_bitwise_for_any_thread_count() {
  for (ElementType type : tensor_types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    // 8 * 1024 + 5: every count up to 8 splits the block (threads.hpp), and the ranges' ends are uneven.
    const test::RandomBlock block = test::random_block(type, 8 * 1024 + 5, rng);
    const PointSet points = quadrature_rule(type.shape, 2 * type.order);
    const int D = dimension(type.shape);
    const std::vector<Real> x = in_precision<Real>(block.coordinates);
    for (int C : {1, D, 9}) {
      const std::vector<Real> u = in_precision<Real>(test::random_field(block.node_count(), C, rng));
      for (Operation op : forward_operations) {
        SCOPED_TRACE(describe(type, op, C, seed));
        const auto one = compute<Real>(op, block, points, x, u, C, KernelVariant::sum_factorised, 1);
        for (const Real v : one.out) ASSERT_TRUE(std::isfinite(v)) << "an output left unwritten";
        for (int threads : {2, 3, 8}) {
          const auto many = compute<Real>(op, block, points, x, u, C, KernelVariant::sum_factorised, threads);
          EXPECT_EQ(std::memcmp(one.out.data(), many.out.data(), one.out.size() * sizeof(Real)), 0)
              << threads << " threads";
          if (op == Operation::physical_gradients)
            EXPECT_EQ(std::memcmp(one.detj.data(), many.detj.data(), one.detj.size() * sizeof(Real)), 0)
                << "det J, " << threads << " threads";
        }
      }
    }
  }
}

TEST(CpuSumFactorised, BitwiseTheSameForAnyThreadCountInDouble) { expect_bitwise_for_any_thread_count<double>(); }
TEST(CpuSumFactorised, BitwiseTheSameForAnyThreadCountInFloat) { expect_bitwise_for_any_thread_count<float>(); }

TEST(CpuSumFactorised, RefusedWhereItDoesNotApply) {
  std::mt19937_64 rng(test::test_seed());
  const test::RandomBlock block = test::random_block({Shape::tetrahedron, 2}, 4, rng);
  PlanOptions options;
  options.variant = KernelVariant::sum_factorised;
  const Plan<double> plan(block.view(), block.node_count(), quadrature_rule(Shape::tetrahedron, 4),
                          block.coordinates.data(), options);
  try {
    plan.variant(Operation::values, 1);
    FAIL() << "sum factorisation was accepted for tetrahedra";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("only quadrilaterals and hexahedra"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace feinterp::backends::cpu
