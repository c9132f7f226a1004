// SPDX-License-Identifier: BSD-3-Clause
// The tensor-core variant of the dense product (cuda/kernels/tensor_cores/tensor_core_kernel.cuh), forced
// through PlanOptions::variant so that it really runs (each test checks the variant its launch reports),
// against the CPU executor: all 15 element types, values and reference gradients, C = 1, d and 9, at the
// element's nodes, the degree-2p rule and a shuffled degree-(2p + 2) rule, FP64 to 1e-12 relative.
// Outputs are poisoned with NaN first; blocks and fields are fresh random ones (FEINTERP_TEST_SEED replays
// a run). Also: every elements_per_block gives bitwise the same results (a row's products are summed in
// the same order whatever tile it lands in), element counts around the block size (partial last groups,
// rows past the group's end), and the FP32 and physical-gradient requests it refuses.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/elements/visit.hpp>
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

constexpr Operation tensor_core_operations[] = {Operation::values, Operation::reference_gradients};

/// The point sets of a type: its nodes, the degree-2p rule, and the degree-(2p + 2) rule shuffled.
std::vector<PointSet> point_sets(ElementType type, std::mt19937_64& rng) {
  return {element_nodes(type), quadrature_rule(type.shape, 2 * type.order),
          test::shuffled(quadrature_rule(type.shape, 2 * type.order + 2), rng)};
}

/// The most elements per block the tensor-core launch of this configuration fits on this device (0: none).
int max_tensor_core_elements_per_block(ElementType type, Operation op, const PointSet& points, int C) {
  return test::max_forced_elements_per_block(KernelVariant::dense_tensor_cores, type, op, points, C, Precision::fp64);
}

/// Skips, visibly, on a GPU without FP64 tensor cores (compute capability below 8.0).
#define FEINTERP_REQUIRE_TENSOR_CORES()                                                                   \
  do {                                                                                                    \
    FEINTERP_REQUIRE_GPU();                                                                               \
    if (cuda::current_device().major < 8)                                                                 \
      GTEST_SKIP() << "tensor-core test skipped: " << cuda::current_device().name << " has compute capability " \
                   << cuda::current_device().compute_capability() << ", FP64 tensor cores need 8.0";      \
  } while (0)

class TensorCoresGpu : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(AllElements, TensorCoresGpu, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(TensorCoresGpu, MatchesCpuInDoublePrecision) {
  FEINTERP_REQUIRE_TENSOR_CORES();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const PointSet& points : point_sets(type, rng)) {
    // 1009 elements, a prime: the last group is partial for every count.
    const test::RandomBlock block = random_block(type, 1009, rng, 0.01);
    for (int C : {1, dimension(type.shape), max_components}) {
      const std::vector<double> u = random_field(block.node_count(), C, rng);
      for (Operation op : tensor_core_operations) {
        SCOPED_TRACE(points.name + ", " + operation_name(op) + ", C = " + std::to_string(C));
        if (max_tensor_core_elements_per_block(type, op, points, C) < 1) {
          // Too large for one block's shared memory (hexahedra p3, C = 9, at the degree-8 rule's 125
          // points): refused with the reason, never launched.
          EXPECT_THROW(gpu<double>(op, block, points, u, C, forced(KernelVariant::dense_tensor_cores)),
                       std::invalid_argument);
          continue;
        }
        const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::dense_tensor_cores));
        ASSERT_EQ(got.config.variant, KernelVariant::dense_tensor_cores);
        EXPECT_LE(relative_error(got.out, cpu(op, block, points, u, C).out), 1e-12);
      }
    }
  }
}

TEST_P(TensorCoresGpu, EveryElementsPerBlockGivesIdenticalResults) {
  FEINTERP_REQUIRE_TENSOR_CORES();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const int C = dimension(type.shape);  // C * rows of 8: tiles that straddle elements for C = 3
  const test::RandomBlock block = random_block(type, 211, rng, 0.01);
  const std::vector<double> u = random_field(block.node_count(), C, rng);
  for (Operation op : tensor_core_operations) {
    const int limit = max_tensor_core_elements_per_block(type, op, points, C);
    ASSERT_GE(limit, 1);
    const GpuRun reference = gpu<double>(op, block, points, u, C, forced(KernelVariant::dense_tensor_cores, 1));
    ASSERT_EQ(reference.config.elements_per_block, 1);
    ASSERT_LE(relative_error(reference.out, cpu(op, block, points, u, C).out), 1e-12) << operation_name(op);
    for (int count = 2; count <= limit; ++count) {
      const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::dense_tensor_cores, count));
      ASSERT_EQ(got.config.variant, KernelVariant::dense_tensor_cores);
      ASSERT_EQ(got.out, reference.out) << operation_name(op) << ", elements_per_block = " << count;
    }
    EXPECT_THROW(gpu<double>(op, block, points, u, C, forced(KernelVariant::dense_tensor_cores, limit + 1)),
                 std::invalid_argument);
  }
}

TEST(TensorCoresGpuCounts, ElementCountsAroundTheBlockSize) {
  FEINTERP_REQUIRE_TENSOR_CORES();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : {ElementType{Shape::triangle, 3}, ElementType{Shape::tetrahedron, 3}}) {
    const PointSet points = element_nodes(type);
    for (int C : {1, 3}) {
      for (long elements : {1L, 7L, 8L, 9L, 15L, 16L, 17L, 1000L}) {
        const test::RandomBlock block = random_block(type, elements, rng, 0.01);
        const std::vector<double> u = random_field(block.node_count(), C, rng);
        const GpuRun got =
            gpu<double>(Operation::reference_gradients, block, points, u, C, forced(KernelVariant::dense_tensor_cores, 8));
        ASSERT_EQ(got.config.elements_per_block, 8);
        EXPECT_LE(relative_error(got.out, cpu(Operation::reference_gradients, block, points, u, C).out), 1e-12)
            << to_string(type) << ", C = " << C << ", " << elements << " elements";
      }
    }
  }
}

TEST(TensorCoresGpuCounts, RefusesWhatItDoesNotCompute) {
  FEINTERP_REQUIRE_TENSOR_CORES();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::tetrahedron, 2};
  const test::RandomBlock block = random_block(type, 10, rng, 0.01);
  const PointSet points = element_nodes(type);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  try {
    gpu<float>(Operation::values, block, points, u, 1, forced(KernelVariant::dense_tensor_cores));
    FAIL() << "an fp32 plan ran the tensor-core variant";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("FP32 runs on the CUDA cores"), std::string::npos) << e.what();
  }
  try {
    gpu<double>(Operation::physical_gradients, block, points, u, 1, forced(KernelVariant::dense_tensor_cores));
    FAIL() << "physical gradients ran the tensor-core variant";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not physical_gradients"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace feinterp
