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

#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/cpu/forced_variant.hpp>
#include <feinterp/tests/support/float_error_bounds.hpp>

namespace feinterp::backends::cpu {
namespace {

const ElementType tensor_types[] = {{Shape::quadrilateral, 1}, {Shape::quadrilateral, 2}, {Shape::quadrilateral, 3},
                                    {Shape::hexahedron, 1},    {Shape::hexahedron, 2},    {Shape::hexahedron, 3}};

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
        expect_within_float_bounds(sum, exact, bounds, op);
      }
    }
  }
}

TEST(CpuSumFactorised, BitwiseTheSameForAnyThreadCountInDouble) {
  expect_bitwise_for_any_thread_count<double>(tensor_types, KernelVariant::sum_factorised);
}
TEST(CpuSumFactorised, BitwiseTheSameForAnyThreadCountInFloat) {
  expect_bitwise_for_any_thread_count<float>(tensor_types, KernelVariant::sum_factorised);
}

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
