// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's element-batched dense kernels (cpu/batched_kernels.hpp) against its Eigen product,
// both forced through PlanOptions::variant (dense_batched, dense_product): every element type of orders
// 1-3 at its degree-2p rule, in the plane and in 3D (curves and surfaces), C = 1, d and 5 (a run-time C),
// values, reference gradients and physical gradients with det J, on fresh random curved blocks whose
// element count leaves the last batch short, every output poisoned with NaN first. FP64: within 1e-12 of
// the product, relative to its largest magnitude. FP32: each entry within the precision tests' bound of
// the FP64 product. The batched results bitwise the same for 1, 2, 3 and 8 threads. A degenerate element
// in the middle of a batch is the one named. And the product refused for FP32 physical gradients.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/cpu/forced_variant.hpp>

namespace feinterp::backends::cpu {
namespace {

// The space dimensions a type lives in: its own, and 3 for lines and 2D elements.
std::vector<int> space_dimensions(ElementType type) {
  const int D = dimension(type.shape);
  if (D == 3) return {3};
  return {default_space_dimension(type), 3};
}

// 37 elements: four full batches of 8 and a last one of 5 on AVX-512, as many uneven ends on narrower
// registers.
constexpr offset_t uneven_elements = 37;

TEST(CpuBatchedKernels, EqualsTheProductInDouble) {
  for (ElementType type : all_element_types)
    for (int S : space_dimensions(type)) {
      const unsigned seed = test::test_seed();
      std::mt19937_64 rng(seed);
      const test::RandomBlock block = test::random_block(type, uneven_elements, rng, 0.01, S);
      const PointSet points = quadrature_rule(type.shape, 2 * type.order);
      const int D = dimension(type.shape);
      for (int C : {1, D, 5}) {
        const std::vector<double> u = test::random_field(block.node_count(), C, rng);
        for (Operation op : forward_operations) {
          SCOPED_TRACE(describe(type, op, C, seed) + ", space dimension " + std::to_string(S));
          const auto product = compute<double>(op, block, points, block.coordinates, u, C, KernelVariant::dense_product, 1);
          const auto batched = compute<double>(op, block, points, block.coordinates, u, C, KernelVariant::dense_batched, 1);
          EXPECT_LE(test::relative_error(batched.out, product.out), 1e-12);
          if (op == Operation::physical_gradients) EXPECT_LE(test::relative_error(batched.detj, product.detj), 1e-12);
        }
      }
    }
}

TEST(CpuBatchedKernels, WithinTheFloatBoundOfTheProductInDouble) {
  for (ElementType type : all_element_types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const test::RandomBlock block = test::random_block(type, uneven_elements, rng);
    const PointSet points = quadrature_rule(type.shape, 2 * type.order);
    const int D = dimension(type.shape);
    const std::vector<float> x = in_precision<float>(block.coordinates);
    for (int C : {1, D, 5}) {
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      const test::ErrorBounds bounds = test::float_error_bounds(block, points, u, C);
      for (Operation op : forward_operations) {
        SCOPED_TRACE(describe(type, op, C, seed));
        const auto exact = compute<double>(op, block, points, block.coordinates, u, C, KernelVariant::dense_product, 1);
        const auto batched = compute<float>(op, block, points, x, in_precision<float>(u), C, KernelVariant::dense_batched, 1);
        expect_within_float_bounds(batched, exact, bounds, op);
      }
    }
  }
}

const ElementType thread_types[] = {{Shape::line, 3}, {Shape::triangle, 2}, {Shape::quadrilateral, 1},
                                    {Shape::tetrahedron, 2}, {Shape::hexahedron, 1}};

TEST(CpuBatchedKernels, BitwiseTheSameForAnyThreadCountInDouble) {
  expect_bitwise_for_any_thread_count<double>(thread_types, KernelVariant::dense_batched);
}
TEST(CpuBatchedKernels, BitwiseTheSameForAnyThreadCountInFloat) {
  expect_bitwise_for_any_thread_count<float>(thread_types, KernelVariant::dense_batched);
}

// Two elements of one batch collapsed (every node of element 10 and 13 moved onto its first node): the
// error names the smaller, 10 (in the same batch of 8 as 13), at point 0, whatever lanes follow it.
TEST(CpuBatchedKernels, NamesTheFirstDegenerateElementOfABatch) {
  for (ElementType type : {ElementType{Shape::triangle, 1}, ElementType{Shape::tetrahedron, 2}}) {
    SCOPED_TRACE(to_string(type));
    std::mt19937_64 rng(test::test_seed());
    test::RandomBlock block = test::random_block(type, uneven_elements, rng);
    const int N = nodes_per_element(type);
    for (offset_t bad : {offset_t(13), offset_t(10)})
      for (int n = 1; n < N; ++n)
        for (int k = 0; k < 3; ++k)
          block.coordinates[std::size_t(block.connectivity[std::size_t(bad * N + n)]) * 3 + k] =
              block.coordinates[std::size_t(block.connectivity[std::size_t(bad * N)]) * 3 + k];
    const std::vector<double> u = test::random_field(block.node_count(), 1, rng);
    try {
      compute<double>(Operation::physical_gradients, block, quadrature_rule(type.shape, 2), block.coordinates, u, 1,
                      KernelVariant::dense_batched, 1);
      ADD_FAILURE() << "no DegenerateElementError";
    } catch (const DegenerateElementError& error) {
      EXPECT_EQ(error.element(), 10) << error.what();
      EXPECT_EQ(error.point(), 0) << error.what();
    }
  }
}

TEST(CpuBatchedKernels, TheProductIsRefusedForFloatPhysicalGradients) {
  std::mt19937_64 rng(test::test_seed());
  const test::RandomBlock block = test::random_block({Shape::tetrahedron, 1}, 4, rng);
  const std::vector<float> x = in_precision<float>(block.coordinates);
  PlanOptions options;
  options.variant = KernelVariant::dense_product;
  const Plan<float> plan(block.view(), block.node_count(), quadrature_rule(Shape::tetrahedron, 2), x.data(), options);
  EXPECT_EQ(plan.variant(Operation::reference_gradients, 1), KernelVariant::dense_product);
  try {
    plan.variant(Operation::physical_gradients, 1);
    FAIL() << "dense_product was accepted for FP32 physical gradients";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("whose Jacobian is in double"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace feinterp::backends::cpu
