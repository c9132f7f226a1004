// SPDX-License-Identifier: BSD-3-Clause
// The dense_async_gather variant (tuning/kernel_variant.hpp): the packed dense kernel with its gather
// issued as asynchronous copies, forced through PlanOptions::variant so that it really runs (each test
// checks the variant its launch reports). Only the way the nodal values reach shared memory differs from
// the dense variant, not one operation of the arithmetic, so its results must be the dense kernel's bit
// for bit, in both precisions, and within 1e-12 of the CPU executor in FP64: all 15 element types, values
// and reference gradients at C = 1 (where it applies), at the element's nodes, the degree-2p rule and a
// shuffled degree-(2p + 2) rule. Also: every elements_per_block, odd ones (half a slot) included; element
// counts around the block size; operands off a vector boundary (the copies of a field that is not
// 16-byte aligned); and the configurations it refuses. Outputs are poisoned with NaN first (plan_run.hpp)
// and nothing around them may be written; blocks and fields are fresh random ones (FEINTERP_TEST_SEED
// replays a run).
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/shuffled_points.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>
#include <feinterp/tests/cuda/plan_run.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using cuda::KernelVariant;
using test::cpu;
using test::forced;
using test::gpu;
using test::GpuRun;
using test::random_block;
using test::random_field;
using test::relative_error;

constexpr Operation async_gather_operations[] = {Operation::values, Operation::reference_gradients};

/// The variant's run, checked to be that variant's, against the dense kernel's at the same count:
/// bitwise equal, and nothing written around the output.
template <class Real>
GpuRun expect_same_as_dense(Operation op, const test::RandomBlock& block, const PointSet& points,
                            const std::vector<double>& u, int elements_per_block = 0, test::Placement placement = {}) {
  const GpuRun got = gpu<Real>(op, block, points, u, 1, forced(KernelVariant::dense_async_gather, elements_per_block),
                               block.view(), placement);
  EXPECT_EQ(got.config.variant, KernelVariant::dense_async_gather);
  EXPECT_EQ(got.written_outside, 0u);
  const GpuRun dense =
      gpu<Real>(op, block, points, u, 1, forced(KernelVariant::dense, got.config.elements_per_block), block.view(), placement);
  EXPECT_EQ(got.out, dense.out) << "elements_per_block = " << got.config.elements_per_block;
  return got;
}

class AsyncGatherGpu : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(AllElements, AsyncGatherGpu, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(AsyncGatherGpu, IsTheDenseKernelBitForBitAndMatchesTheCpu) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const PointSet& points : {element_nodes(type), quadrature_rule(type.shape, 2 * type.order),
                                 test::shuffled(quadrature_rule(type.shape, 2 * type.order + 2), rng)}) {
    // 1009 elements, a prime: the last group is partial for every count.
    const test::RandomBlock block = random_block(type, 1009, rng, 0.01);
    const std::vector<double> u = random_field(block.node_count(), 1, rng);
    for (Operation op : async_gather_operations) {
      SCOPED_TRACE(points.name + ", " + operation_name(op));
      const GpuRun fp64 = expect_same_as_dense<double>(op, block, points, u);
      EXPECT_LE(relative_error(fp64.out, cpu(op, block, points, u, 1).out), 1e-12);
      expect_same_as_dense<float>(op, block, points, u);
    }
  }
}

TEST_P(AsyncGatherGpu, EveryElementsPerBlockGivesTheDenseResults) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = element_nodes(type);
  const test::RandomBlock block = random_block(type, 211, rng, 0.01);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  for (Operation op : async_gather_operations) {
    const int limit =
        test::max_forced_elements_per_block(KernelVariant::dense_async_gather, type, op, points, 1, Precision::fp64);
    ASSERT_GE(limit, 2);
    // Odd counts leave the last slot half empty: its second element recomputes the group's last one and
    // stores nothing.
    for (int count = 1; count <= limit; ++count) {
      const GpuRun got = expect_same_as_dense<double>(op, block, points, u, count);
      ASSERT_EQ(got.config.elements_per_block, count) << operation_name(op);
    }
    EXPECT_THROW(gpu<double>(op, block, points, u, 1, forced(KernelVariant::dense_async_gather, limit + 1)),
                 std::invalid_argument);
  }
}

TEST_P(AsyncGatherGpu, OperandsOffAVectorBoundaryGiveTheSameResults) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = element_nodes(type);
  const test::RandomBlock block = random_block(type, 1009, rng);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  for (Operation op : async_gather_operations)
    for (test::Placement placement : {test::Placement{0, 1}, test::Placement{1, 0}, test::Placement{1, 1}}) {
      SCOPED_TRACE(std::string(operation_name(op)) + ", field at " + std::to_string(placement.field) +
                   ", output at " + std::to_string(placement.out));
      expect_same_as_dense<double>(op, block, points, u, 0, placement);
      expect_same_as_dense<float>(op, block, points, u, 0, placement);
    }
}

TEST(AsyncGatherGpuCounts, ElementCountsAroundTheBlockSize) {
  FEINTERP_REQUIRE_GPU();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::tetrahedron, 2}}) {
    const PointSet points = element_nodes(type);
    for (long elements : {1L, 7L, 15L, 16L, 17L, 31L, 32L, 33L, 1000L}) {
      const test::RandomBlock block = random_block(type, elements, rng, 0.01);
      const std::vector<double> u = random_field(block.node_count(), 1, rng);
      for (Operation op : async_gather_operations) {
        SCOPED_TRACE(to_string(type) + ", " + operation_name(op) + ", " + std::to_string(elements) + " elements");
        const GpuRun got = expect_same_as_dense<double>(op, block, points, u, 16);
        ASSERT_EQ(got.config.elements_per_block, 16);
        EXPECT_LE(relative_error(got.out, cpu(op, block, points, u, 1).out), 1e-12);
      }
    }
  }
}

TEST(AsyncGatherGpuCounts, RefusesWhatItDoesNotCompute) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::tetrahedron, 2};
  const test::RandomBlock block = random_block(type, 10, rng, 0.01);
  const PointSet points = element_nodes(type);
  try {
    gpu<double>(Operation::values, block, points, random_field(block.node_count(), 3, rng), 3,
                forced(KernelVariant::dense_async_gather));
    FAIL() << "the asynchronous-gather variant ran C = 3";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("compiled for C = 1"), std::string::npos) << e.what();
  }
  try {
    gpu<float>(Operation::physical_gradients, block, points, random_field(block.node_count(), 1, rng), 1,
               forced(KernelVariant::dense_async_gather));
    FAIL() << "the asynchronous-gather variant ran physical gradients";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not physical_gradients"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace feinterp
