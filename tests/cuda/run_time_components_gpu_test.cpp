// SPDX-License-Identifier: BSD-3-Clause
// The run-time-C kernels (cuda/layout/component_kernels.hpp), forced through
// PlanOptions::run_time_components so that they run at every C, not only past the compiled counts: each
// family's (dense, sum-factorised, tensor cores; forward, transposes and the fused Laplacian) against the
// CPU executor at C = 1..9 in FP64 to 1e-12 relative, and against the compiled kernel of the same variant
// and C where there is one, in both precisions. Their passes of run_time_component_chunk components sum
// the same terms in the same order as the compiled kernels, so the two agree to a few roundings (the
// bound below). Outputs are poisoned with NaN first; blocks and fields are fresh random ones
// (FEINTERP_TEST_SEED replays a run).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/plan.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>
#include <feinterp/tests/cuda/plan_run.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using cuda::KernelVariant;
using test::relative_error;

/// Options forcing `variant`, with the run-time-C kernel or the compiled one.
cuda::PlanOptions options_for(KernelVariant variant, bool run_time) {
  cuda::PlanOptions options = test::forced(variant);
  options.run_time_components = run_time;
  return options;
}

bool tensor_product(ElementType type) { return type.shape == Shape::quadrilateral || type.shape == Shape::hexahedron; }

/// The variants that compute a type's forward operations in `precision`.
std::vector<KernelVariant> forward_variants(ElementType type, Precision precision) {
  std::vector<KernelVariant> variants{KernelVariant::dense};
  if (tensor_product(type)) variants.push_back(KernelVariant::sum_factorised);
  if (precision == Precision::fp64) variants.push_back(KernelVariant::dense_tensor_cores);
  return variants;
}

/// Results of one kernel against another's: a few roundings apart at most (the same sums; 1e-6 in float).
template <class Real>
double agreement_bound() {
  return sizeof(Real) == 8 ? 1e-14 : 1e-6;
}

class RunTimeComponentsGpu : public ::testing::TestWithParam<ElementType> {};

// The counts that run the transposes' forced run-time-C kernels through every width of pass, 1 to
// nodes_pass_max_width = 4, alone (1..4), two passes of unequal widths (5: 3 + 2) and three (9: 3 + 3 + 3).
constexpr int run_time_widths[] = {1, 2, 3, 4, 5, max_components};
INSTANTIATE_TEST_SUITE_P(AllTypes, RunTimeComponentsGpu, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

/// Forward operations at a Gauss rule (a tensor product for quadrilaterals and hexahedra), every C.
TEST_P(RunTimeComponentsGpu, ForwardMatchesTheCpuAndTheCompiledKernels) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const int S = dimension(type.shape) == 3 ? 3 : 2;
  const test::RandomBlock block = test::random_block(type, 211, rng, 0.01, S);  // a prime: partial last blocks
  for (KernelVariant variant : forward_variants(type, Precision::fp64))
    for (int C = 1; C <= max_components; ++C) {
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      for (Operation op : forward_operations) {
        if (variant == KernelVariant::dense_tensor_cores && op == Operation::physical_gradients) continue;
        SCOPED_TRACE(std::string(tuning::kernel_variant_name(variant)) + ", " + operation_name(op) +
                     ", C = " + std::to_string(C));
        const test::Computed<double> expected = test::cpu(op, block, points, u, C);
        const test::GpuRun run_time = test::gpu<double>(op, block, points, u, C, options_for(variant, true));
        ASSERT_EQ(run_time.config.variant, variant);
        EXPECT_LE(relative_error(run_time.out, expected.out), 1e-12);
        if (op == Operation::physical_gradients) EXPECT_LE(relative_error(run_time.detj, expected.detj), 1e-12);
        EXPECT_EQ(run_time.written_outside, 0u);
        if (C > cuda::compiled_components_for(op, variant == KernelVariant::sum_factorised)) continue;
        const test::GpuRun compiled = test::gpu<double>(op, block, points, u, C, options_for(variant, false));
        EXPECT_LE(relative_error(run_time.out, compiled.out), agreement_bound<double>());
      }
    }
}

/// In float the run-time-C kernels against the compiled ones (the CPU's FP64 answer is the FP64 tests').
TEST_P(RunTimeComponentsGpu, SinglePrecisionAgreesWithTheCompiledKernels) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  std::mt19937_64 rng(test::test_seed());
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const test::RandomBlock block = test::random_block(type, 97, rng);
  for (KernelVariant variant : forward_variants(type, Precision::fp32))
    for (int C = 1; C <= cuda::compiled_components; ++C) {
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      for (Operation op : forward_operations) {
        SCOPED_TRACE(std::string(tuning::kernel_variant_name(variant)) + ", " + operation_name(op) +
                     ", C = " + std::to_string(C));
        const test::GpuRun run_time = test::gpu<float>(op, block, points, u, C, options_for(variant, true));
        const test::GpuRun compiled = test::gpu<float>(op, block, points, u, C, options_for(variant, false));
        EXPECT_LE(relative_error(run_time.out, compiled.out), agreement_bound<float>());
      }
    }
}

/// The transposes on a conforming mesh (shared nodes: the atomic sums matter), into nodes and element
/// vectors, plain and weighted.
TEST_P(RunTimeComponentsGpu, TransposesMatchTheCpu) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int D = dimension(type.shape);
  const test::RandomBlock mesh = test::structured_block(type, D == 3 ? 4 : D == 2 ? 9 : 40, 0.1, rng);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  std::vector<KernelVariant> variants{KernelVariant::dense};
  if (tensor_product(type)) variants.push_back(KernelVariant::sum_factorised);
  const TransposeOptions targets[] = {{TransposeTarget::nodes, false, false}, {TransposeTarget::element_vectors, true, false}};
  for (KernelVariant variant : variants)
    for (int C : run_time_widths)
      for (Operation op : transpose_operations) {
        const int R = result_directions(op, D, mesh.space_dimension);
        const std::vector<double> f = test::random_field(mesh.elements * points.size() * R, C, rng);
        for (const TransposeOptions& t : targets) {
          SCOPED_TRACE(std::string(tuning::kernel_variant_name(variant)) + ", " + operation_name(op) + ", C = " +
                       std::to_string(C) + (t.weighted ? ", weighted element vectors" : ", nodes"));
          const std::vector<double> expected = test::cpu_transpose(op, mesh, points, f, C, t);
          const test::GpuRun got = test::gpu_transpose<double>(op, mesh, points, f, C, t, options_for(variant, true));
          ASSERT_EQ(got.config.variant, variant);
          EXPECT_LE(relative_error(got.out, expected), 1e-12);
        }
      }
}

/// The fused Laplacian (the dense transpose kernel computing its own gradients): r = K u at every C.
TEST_P(RunTimeComponentsGpu, FusedLaplacianMatchesTheCpu) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  std::mt19937_64 rng(test::test_seed());
  const int D = dimension(type.shape);
  const test::RandomBlock mesh = test::structured_block(type, D == 3 ? 4 : D == 2 ? 9 : 40, 0.1, rng);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  for (int C : run_time_widths) {
    SCOPED_TRACE("C = " + std::to_string(C));
    const std::vector<double> u = test::random_field(mesh.node_count(), C, rng);
    InterpolatorOptions cpu_options;
    cpu_options.executor = Executor::cpu();
    const Interpolator<double> cpu(mesh.view(), mesh.node_count(), points, mesh.coordinates.data(), cpu_options);
    std::vector<double> expected(u.size(), std::numeric_limits<double>::quiet_NaN());
    cpu.apply_laplacian({u.data(), u.size(), C}, {expected.data(), expected.size()});

    auto device_block =
        std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(mesh.view(), mesh.node_count()));
    cuda::DeviceBuffer<double> du(u), dx(mesh.coordinates),
        dr(std::vector<double>(u.size(), std::numeric_limits<double>::quiet_NaN()));
    const cuda::Plan<double> plan(device_block, points, dx.data(), options_for(KernelVariant::dense, true));
    plan.apply_operator(FusedOperator::diffusion, {du.data(), du.size(), C}, {dr.data(), dr.size()});
    plan.check();
    EXPECT_LE(relative_error(dr.to_host(), expected), 1e-12);
  }
}

/// The asynchronous-gather variant has no run-time-C form: asking for one is refused with the reason.
TEST(RunTimeComponentsGpuErrors, AsyncGatherRefusesTheRunTimeKernel) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::triangle, 2};
  const PointSet points = quadrature_rule(type.shape, 4);
  const test::RandomBlock block = test::random_block(type, 50, rng);
  const std::vector<double> u = test::random_field(block.node_count(), 1, rng);
  try {
    test::gpu<double>(Operation::values, block, points, u, 1, options_for(KernelVariant::dense_async_gather, true));
    FAIL() << "the asynchronous-gather variant ran a run-time-C kernel";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no run-time-C form"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace feinterp
