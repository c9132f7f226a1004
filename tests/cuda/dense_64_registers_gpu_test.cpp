// SPDX-License-Identifier: BSD-3-Clause
// The dense_64_registers variant (tuning/kernel_variant.hpp): the packed dense kernel held to 64 registers,
// forced through PlanOptions::variant so that it really runs (each test checks the variant its launch
// reports). Only the register allocation differs from the dense variant: its results must be the dense
// kernel's to rounding, and within 1e-12 of the CPU executor, for every tetrahedron and hexahedron, C = 1..3,
// at the element's nodes and the degree-2p rule, at every elements_per_block. Its compiled kernels must hold
// to the cap (the runtime's attributes), and it must refuse what it was not compiled for. Outputs are
// poisoned with NaN first (plan_run.hpp) and nothing around them may be written; blocks and fields are
// fresh random ones (FEINTERP_TEST_SEED replays a run).
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/cuda/kernel_variants.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/kernel_attributes.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/random_block.hpp>
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

constexpr ElementType solid_types[] = {{Shape::tetrahedron, 1}, {Shape::tetrahedron, 2}, {Shape::tetrahedron, 3},
                                       {Shape::hexahedron, 1},  {Shape::hexahedron, 2},  {Shape::hexahedron, 3}};

/// The variant's run against the dense kernel's at the same elements_per_block: the same sums to rounding
/// (ptxas may contract a product and a sum into one FMA in one and not the other), and nothing written
/// around the output.
GpuRun expect_same_as_dense(const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
                            int elements_per_block = 0) {
  const Operation op = Operation::physical_gradients;
  const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::dense_64_registers, elements_per_block));
  EXPECT_EQ(got.config.variant, KernelVariant::dense_64_registers);
  EXPECT_EQ(got.written_outside, 0u);
  const GpuRun dense = gpu<double>(op, block, points, u, C, forced(KernelVariant::dense, got.config.elements_per_block));
  EXPECT_EQ(dense.config.variant, KernelVariant::dense);
  EXPECT_LE(relative_error(got.out, dense.out), 1e-13) << "elements_per_block = " << got.config.elements_per_block;
  return got;
}

class Dense64RegistersGpu : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(SolidElements, Dense64RegistersGpu, ::testing::ValuesIn(solid_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(Dense64RegistersGpu, MatchesTheDenseKernelAndTheCpu) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const PointSet& points : {element_nodes(type), quadrature_rule(type.shape, 2 * type.order)}) {
    // 1009 elements, a prime: the last group is partial for every count.
    const test::RandomBlock block = random_block(type, 1009, rng, 0.01);
    for (int C = 1; C <= cuda::compiled_components; ++C) {
      SCOPED_TRACE(points.name + ", C = " + std::to_string(C));
      const std::vector<double> u = random_field(block.node_count(), C, rng);
      const GpuRun got = expect_same_as_dense(block, points, u, C);
      EXPECT_LE(relative_error(got.out, cpu(Operation::physical_gradients, block, points, u, C).out), 1e-12);
    }
  }
}

TEST_P(Dense64RegistersGpu, EveryElementsPerBlockGivesTheDenseResults) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = element_nodes(type);
  const test::RandomBlock block = random_block(type, 211, rng, 0.01);
  const int C = 3;
  const std::vector<double> u = random_field(block.node_count(), C, rng);
  const int limit = test::max_forced_elements_per_block(KernelVariant::dense_64_registers, type,
                                                        Operation::physical_gradients, points, C, Precision::fp64);
  ASSERT_GE(limit, 1);
  for (int count = 1; count <= limit; ++count) {
    const GpuRun got = expect_same_as_dense(block, points, u, C, count);
    ASSERT_EQ(got.config.elements_per_block, count);
  }
  EXPECT_THROW(gpu<double>(Operation::physical_gradients, block, points, u, C,
                           forced(KernelVariant::dense_64_registers, limit + 1)),
               std::invalid_argument);
}

TEST(Dense64RegistersGpuKernels, HoldToTheCap) {
  FEINTERP_REQUIRE_GPU();
  for (ElementType type : solid_types)
    for (int C = 1; C <= cuda::compiled_components; ++C) {
      cuda::LaunchShape shape{type, Operation::physical_gradients, nodes_per_element(type), C, 3, Precision::fp64};
      shape.variant = KernelVariant::dense_64_registers;
      const cuda::KernelAttributes attributes =
          cuda::kernel_attributes(cuda::variant_kernel_set<double>(shape).packed, cuda::current_device_ordinal);
      EXPECT_LE(attributes.registers, 64) << to_string(type) << ", C = " << C;
      EXPECT_GT(attributes.registers, 0) << to_string(type) << ", C = " << C;
      EXPECT_GE(attributes.max_threads_per_block, 512) << to_string(type) << ", C = " << C;
    }
}

TEST(Dense64RegistersGpuKernels, RefusesWhatItDoesNotCompute) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const auto expect_refused = [&](ElementType type, Operation op, int C, const char* why, auto real) {
    using Real = decltype(real);
    const test::RandomBlock block = random_block(type, 10, rng, 0.01);
    try {
      gpu<Real>(op, block, element_nodes(type), random_field(block.node_count(), C, rng), C,
                forced(KernelVariant::dense_64_registers));
      FAIL() << "the 64-register variant ran " << to_string(type) << ", " << operation_name(op) << ", C = " << C;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  const ElementType tet{Shape::tetrahedron, 1};
  expect_refused(tet, Operation::values, 1, "not values", double{});
  expect_refused(tet, Operation::physical_gradients, 1, "compiled in FP64", float{});
  expect_refused({Shape::triangle, 1}, Operation::physical_gradients, 1, "not a triangle", double{});
  if (cuda::compiled_components < max_components)
    expect_refused(tet, Operation::physical_gradients, cuda::compiled_components + 1, "compiled for C = 1..", double{});
}

}  // namespace
}  // namespace feinterp
