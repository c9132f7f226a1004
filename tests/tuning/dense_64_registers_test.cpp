// SPDX-License-Identifier: BSD-3-Clause
// The dense_64_registers variant's launch decisions (no GPU): where it applies and why not elsewhere, that
// it is the untuned default exactly where the cap measured faster, that its launch shape is the dense
// kernel's, and that a table chooses between it and the free kernel by their times.
// tests/cuda/dense_64_registers_gpu_test.cpp runs its kernels.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include <feinterp/core/limits.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/tuning/table.hpp>
#include <feinterp/tests/support/made_up_device.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using cuda::KernelVariant;
using cuda::LaunchShape;

const cuda::DeviceInfo test_gpu = test::made_up_device("Test GPU 3000", 9, 0, 227 * 1024);

/// Physical gradients of a 3D element at its nodes, FP64 unless asked.
LaunchShape solid(Shape shape, int order, int C, Precision precision = Precision::fp64) {
  const ElementType type{shape, order};
  return LaunchShape{type, Operation::physical_gradients, nodes_per_element(type), C, 3, precision};
}

LaunchShape as(LaunchShape s, KernelVariant variant) {
  s.variant = variant;
  return s;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// The decision without a table, the environment's override set aside.
KernelVariant untuned(const LaunchShape& s) { return cuda::choose_kernel_variant(s, test_gpu, nullptr, std::nullopt); }

class Dense64Registers : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv(cuda::kernel_variant_environment_variable); }
};

TEST_F(Dense64Registers, AppliesToSolidPhysicalGradientsInDoubleAtTheCompiledCounts) {
  std::string why;
  for (Shape shape : {Shape::tetrahedron, Shape::hexahedron})
    for (int order = 1; order <= 3; ++order)
      for (int C = 1; C <= cuda::compiled_components; ++C)
        EXPECT_TRUE(cuda::variant_applies(as(solid(shape, order, C), KernelVariant::dense_64_registers), test_gpu, &why))
            << why;
  const auto refused = [&](LaunchShape s, const std::string& reason) {
    EXPECT_FALSE(cuda::variant_applies(as(s, KernelVariant::dense_64_registers), test_gpu, &why))
        << cuda::describe_launch(s);
    EXPECT_TRUE(contains(why, reason)) << why << "\n  expected: " << reason;
  };
  refused(solid(Shape::tetrahedron, 1, 1, Precision::fp32), "compiled in FP64");
  LaunchShape values = solid(Shape::tetrahedron, 3, 1);
  values.op = Operation::values;
  refused(values, "physical gradients, not values");
  LaunchShape transpose = solid(Shape::hexahedron, 1, 1);
  transpose.op = Operation::physical_gradients_transpose;
  refused(transpose, "not physical_gradients_transpose");
  refused(LaunchShape{{Shape::triangle, 1}, Operation::physical_gradients, 3, 1, 3, Precision::fp64}, "not a triangle");
  LaunchShape run_time = solid(Shape::hexahedron, 1, 3);
  run_time.run_time_components = true;
  refused(run_time, "not the run-time-C kernel");
  if (cuda::compiled_components < max_components)
    refused(solid(Shape::hexahedron, 1, cuda::compiled_components + 1),
            "not C = " + std::to_string(cuda::compiled_components + 1));
  // Requested where it does not apply: refused with the reason.
  try {
    cuda::choose_kernel_variant(values, test_gpu, nullptr, KernelVariant::dense_64_registers);
    FAIL() << "dense_64_registers was accepted for values";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "kernel variant dense_64_registers requested for tetrahedron p3, values")) << e.what();
  }
}

TEST_F(Dense64Registers, IsTheUntunedDefaultWhereTheCapMeasuredFaster) {
  // docs/performance/nvidia-h200/register-caps.md: the C = 3 physical gradients of p = 2 tetrahedra and
  // p = 1, 2 hexahedra.
  EXPECT_EQ(untuned(solid(Shape::tetrahedron, 2, 3)), KernelVariant::dense_64_registers);
  EXPECT_EQ(untuned(solid(Shape::hexahedron, 1, 3)), KernelVariant::dense_64_registers);
  LaunchShape hex2 = solid(Shape::hexahedron, 2, 3);
  EXPECT_EQ(untuned(hex2), KernelVariant::dense_64_registers);
  // ... unless the sum-factorised kernel takes it (a tensor-product point set and a large dense product).
  hex2.points_per_direction = 3;
  EXPECT_EQ(untuned(hex2), KernelVariant::sum_factorised);
  // Elsewhere the kernel ptxas left free.
  for (const LaunchShape& free : {solid(Shape::tetrahedron, 1, 3), solid(Shape::tetrahedron, 2, 1),
                                  solid(Shape::hexahedron, 3, 3), solid(Shape::hexahedron, 1, 3, Precision::fp32)})
    EXPECT_EQ(untuned(free), KernelVariant::dense) << cuda::describe_launch(free);
  // The environment forces either where it applies.
  setenv(cuda::kernel_variant_environment_variable, "dense", 1);
  EXPECT_EQ(untuned(solid(Shape::tetrahedron, 2, 3)), KernelVariant::dense);
  setenv(cuda::kernel_variant_environment_variable, "dense_64_registers", 1);
  EXPECT_EQ(untuned(solid(Shape::tetrahedron, 2, 1)), KernelVariant::dense_64_registers);
  unsetenv(cuda::kernel_variant_environment_variable);
}

TEST(Dense64RegistersLaunch, HasTheDenseKernelsLaunchShape) {
  for (const LaunchShape& dense : {solid(Shape::tetrahedron, 1, 3), solid(Shape::hexahedron, 2, 1),
                                   solid(Shape::hexahedron, 3, 3)}) {
    const LaunchShape capped = as(dense, KernelVariant::dense_64_registers);
    EXPECT_EQ(cuda::elements_per_thread(capped), cuda::elements_per_thread(dense));
    EXPECT_EQ(cuda::threads_per_element(capped), cuda::threads_per_element(dense));
    EXPECT_EQ(cuda::max_elements_per_block(capped, test_gpu), cuda::max_elements_per_block(dense, test_gpu));
    EXPECT_EQ(cuda::heuristic_elements_per_block(capped, test_gpu), cuda::heuristic_elements_per_block(dense, test_gpu));
    for (int count = 1; count <= cuda::max_elements_per_block(dense, test_gpu); ++count)
      EXPECT_EQ(cuda::packed_shared_bytes(capped, count), cuda::packed_shared_bytes(dense, count));
  }
}

TEST_F(Dense64Registers, ATableChoosesBetweenTheCapAndTheFreeKernelByTheirTimes) {
  const std::string text =
      "# feinterp tuning table v3\n"
      "device: Test GPU 3000\n"
      "compute_capability: 9.0\n"
      "points: nodes\n"
      "tetrahedron 1 3 physical_gradients fp64 dense 4 8 160\n"
      "tetrahedron 1 3 physical_gradients fp64 dense_64_registers 4 16 150\n"
      "hexahedron 1 3 physical_gradients fp64 dense 8 16 300\n"
      "hexahedron 1 3 physical_gradients fp64 dense_64_registers 8 8 325\n"
      "tetrahedron 2 3 physical_gradients fp64 dense 10 8 520\n"
      "tetrahedron 1 1 physical_gradients fp64 dense_64_registers 4 32 95\n";
  const tuning::TuningTable table = tuning::parse_tuning_table(text, "caps");
  const auto tuned = [&](const LaunchShape& s) { return cuda::choose_kernel_variant(s, test_gpu, &table, std::nullopt); };
  EXPECT_EQ(tuned(solid(Shape::tetrahedron, 1, 3)), KernelVariant::dense_64_registers);
  EXPECT_EQ(cuda::choose_elements_per_block(as(solid(Shape::tetrahedron, 1, 3), KernelVariant::dense_64_registers),
                                            test_gpu, &table),
            16);
  // The free kernel where it measured faster, although the untuned default there is the cap.
  EXPECT_EQ(tuned(solid(Shape::hexahedron, 1, 3)), KernelVariant::dense);
  EXPECT_EQ(cuda::choose_elements_per_block(as(solid(Shape::hexahedron, 1, 3), KernelVariant::dense), test_gpu, &table),
            16);
  // A table that timed one of the two register allocations decides between the variants it timed, whichever
  // the untuned default is: the free kernel for p = 2 tetrahedra at C = 3 (the default: the cap), the cap
  // alone for p = 1 tetrahedra at C = 1 (the default: the free kernel).
  EXPECT_EQ(tuned(solid(Shape::tetrahedron, 2, 3)), KernelVariant::dense);
  EXPECT_EQ(cuda::choose_elements_per_block(as(solid(Shape::tetrahedron, 2, 3), KernelVariant::dense), test_gpu, &table),
            8);
  EXPECT_EQ(tuned(solid(Shape::tetrahedron, 1, 1)), KernelVariant::dense_64_registers);
  // One that timed neither says nothing: the default runs.
  EXPECT_EQ(tuned(solid(Shape::hexahedron, 2, 3)), KernelVariant::dense_64_registers);
  EXPECT_EQ(tuned(solid(Shape::tetrahedron, 3, 3)), KernelVariant::dense);
}

}  // namespace
}  // namespace feinterp
