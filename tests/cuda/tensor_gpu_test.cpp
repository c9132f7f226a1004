// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised kernel variant (backends/cuda/kernels/tensor_kernel.cuh), forced through
// PlanOptions::variant so that it really runs (each test checks the variant its launch reports),
// against the CPU executor: quadrilaterals (S = 2 and 3) and hexahedra of orders 1-3, C = 1, d and 9,
// every forward operation, at the node lattice and at Gauss rules of 1, p + 1 (degree 2p, also shuffled)
// and p + 2 points per direction; FP64 to 1e-12 relative, FP32 within the derived bound of
// tests/support/float_error_bounds.hpp. Outputs are poisoned with NaN first, blocks and fields are fresh
// random ones (FEINTERP_TEST_SEED replays a run). Also: every elements_per_block gives bitwise the same
// results, partial last blocks, mirrored and degenerate elements, the automatic choice, and the fallback
// to the dense kernel for point sets that are no tensor product.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <feinterp/backends/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/backends/cuda/plan.hpp>
#include <feinterp/backends/cuda/runtime/device_buffer.hpp>
#include <feinterp/backends/cuda/tuning/registry.hpp>
#include <feinterp/core/layout.hpp>
#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/quadrature.hpp>

#include "../support/element_lists.hpp"
#include "../support/float_error_bounds.hpp"
#include "../support/front_door.hpp"
#include "../support/random_block.hpp"
#include "../support/shuffled_points.hpp"
#include "gpu_test_support.hpp"

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using cuda::KernelVariant;
using test::random_block;
using test::random_field;
using test::relative_error;

constexpr ElementType tensor_types[] = {{Shape::quadrilateral, 1}, {Shape::quadrilateral, 2},
                                        {Shape::quadrilateral, 3}, {Shape::hexahedron, 1},
                                        {Shape::hexahedron, 2},    {Shape::hexahedron, 3}};

struct GpuRun {
  std::vector<double> out, detj;  // as double, whatever the plan's precision
  cuda::LaunchConfig config;      // what the launch was: its variant and elements per block
};

/// One call on the device through the backend's plan, in precision Real: field and coordinates rounded
/// to Real, outputs (and det J) poisoned with NaN on the device, then apply and check().
template <class Real>
GpuRun gpu(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
        const cuda::PlanOptions& options, BlockView view) {
  auto device_block = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(view, block.node_count()));
  const std::size_t size = output_size(op, view, points.size(), C);
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  cuda::DeviceBuffer<Real> du(std::vector<Real>(u.begin(), u.end())),
      dx(std::vector<Real>(block.coordinates.begin(), block.coordinates.end())),
      dout(std::vector<Real>(size, nan)), ddetj(std::vector<Real>(std::size_t(block.elements) * points.size(), nan));
  const cuda::Plan<Real> plan(device_block, points, dx.data(), options);
  plan.apply(op, {du.data(), du.size(), C}, {dout.data(), size}, {ddetj.data(), ddetj.size()});
  plan.check();
  GpuRun run;
  run.config = plan.launch_config(op, C);
  const std::vector<Real> out = dout.to_host(), detj = ddetj.to_host();
  run.out.assign(out.begin(), out.end());
  if (op == Operation::physical_gradients) run.detj.assign(detj.begin(), detj.end());
  return run;
}

template <class Real>
GpuRun gpu(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
        const cuda::PlanOptions& options) {
  return gpu<Real>(op, block, points, u, C, options, block.view());
}

test::Computed<double> cpu(Operation op, const test::RandomBlock& block, const PointSet& points,
                           const std::vector<double>& u, int C, const BlockView& view) {
  return test::compute<double>(Executor::cpu, op, view, block.node_count(), points, block.coordinates, u, C);
}

test::Computed<double> cpu(Operation op, const test::RandomBlock& block, const PointSet& points,
                           const std::vector<double>& u, int C) {
  return cpu(op, block, points, u, C, block.view());
}

cuda::PlanOptions forced(KernelVariant variant, int elements_per_block = 0) {
  cuda::PlanOptions options;
  options.variant = variant;
  options.elements_per_block = elements_per_block;
  return options;
}

std::vector<int> space_dimensions(ElementType type) {
  return dimension(type.shape) == 3 ? std::vector<int>{3} : std::vector<int>{2, 3};
}

/// The tensor point sets a type is tested at: its nodes; Gauss rules of degree 1 (1 point per
/// direction), 2p (p + 1; also shuffled) and 2p + 2 (p + 2).
std::vector<PointSet> tensor_point_sets(ElementType type, std::mt19937_64& rng) {
  const PointSet gauss = quadrature_rule(type.shape, 2 * type.order);
  return {element_nodes(type), quadrature_rule(type.shape, 1), gauss, test::shuffled(gauss, rng),
          quadrature_rule(type.shape, 2 * type.order + 2)};
}

/// The launch shape of the sum-factorised variant for this block and point set.
cuda::LaunchShape tensor_shape(ElementType type, Operation op, const PointSet& points, int C, int S) {
  cuda::LaunchShape shape{type, op, points.size(), C, S, Precision::fp64};
  const std::optional<TensorStructure> t = tensor_structure(type, points);
  shape.points_per_direction = t ? t->points_per_direction : 0;
  shape.variant = KernelVariant::sum_factorised;
  return shape;
}

class SumFactorisedGpu : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(QuadrilateralsAndHexahedra, SumFactorisedGpu, ::testing::ValuesIn(tensor_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(SumFactorisedGpu, MatchesCpuInDoublePrecision) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const PointSet& points : tensor_point_sets(type, rng))
    for (int S : space_dimensions(type)) {
      // 1009 elements, a prime: the last block is partial for every count.
      const test::RandomBlock block = random_block(type, 1009, rng, 0.01, S);
      for (int C : {1, dimension(type.shape), max_components}) {
        const std::vector<double> u = random_field(block.node_count(), C, rng);
        for (Operation op : forward_operations) {
          SCOPED_TRACE(points.name + ", " + operation_name(op) + ", C = " + std::to_string(C) + ", S = " +
                       std::to_string(S));
          const test::Computed<double> expected = cpu(op, block, points, u, C);
          const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::sum_factorised));
          ASSERT_EQ(got.config.variant, KernelVariant::sum_factorised);
          EXPECT_LE(relative_error(got.out, expected.out), 1e-12);
          if (op == Operation::physical_gradients) EXPECT_LE(relative_error(got.detj, expected.detj), 1e-12);
        }
      }
    }
}

TEST_P(SumFactorisedGpu, SinglePrecisionWithinTheDerivedBound) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const PointSet& points : {element_nodes(type), quadrature_rule(type.shape, 2 * type.order)})
    for (int S : space_dimensions(type)) {
      const test::RandomBlock block = random_block(type, 257, rng, 0.01, S);
      for (int C : {1, dimension(type.shape), max_components}) {
        const std::vector<double> u = random_field(block.node_count(), C, rng);
        const test::ErrorBounds bounds = test::float_error_bounds(block, points, u, C);
        for (Operation op : forward_operations) {
          const std::string what = points.name + ", " + operation_name(op) + ", S = " + std::to_string(S) + ", C = " +
                                   std::to_string(C);
          const test::Computed<double> fp64 = cpu(op, block, points, u, C);
          const GpuRun fp32 = gpu<float>(op, block, points, u, C, forced(KernelVariant::sum_factorised));
          ASSERT_EQ(fp32.config.variant, KernelVariant::sum_factorised) << what;
          test::expect_within(std::vector<float>(fp32.out.begin(), fp32.out.end()), fp64.out, bounds.of(op), what);
          if (op == Operation::physical_gradients)
            test::expect_within(std::vector<float>(fp32.detj.begin(), fp32.detj.end()), fp64.detj, bounds.detj,
                                what + ", det J");
        }
      }
    }
}

// Each element is computed by its own threads in the same order whatever the block holds: bitwise the same
// results for every elements_per_block that fits.
TEST_P(SumFactorisedGpu, EveryElementsPerBlockGivesIdenticalResults) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const int S = 3, C = dimension(type.shape);  // the most shared memory per element
  const test::RandomBlock block = random_block(type, 211, rng, 0.01, S);
  const std::vector<double> u = random_field(block.node_count(), C, rng);
  for (Operation op : forward_operations) {
    const int limit = cuda::max_elements_per_block(tensor_shape(type, op, points, C, S), cuda::current_device());
    ASSERT_GE(limit, 1);
    const GpuRun reference = gpu<double>(op, block, points, u, C, forced(KernelVariant::sum_factorised, 1));
    ASSERT_EQ(reference.config.elements_per_block, 1);
    ASSERT_LE(relative_error(reference.out, cpu(op, block, points, u, C).out), 1e-12) << operation_name(op);
    for (int count = 2; count <= limit; ++count) {
      const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::sum_factorised, count));
      ASSERT_EQ(got.config.variant, KernelVariant::sum_factorised);
      ASSERT_EQ(got.out, reference.out) << operation_name(op) << ", elements_per_block = " << count;
      ASSERT_EQ(got.detj, reference.detj) << operation_name(op) << ", elements_per_block = " << count;
    }
    // One more than fits is refused, naming the limit.
    EXPECT_THROW(gpu<double>(op, block, points, u, C, forced(KernelVariant::sum_factorised, limit + 1)),
                 std::invalid_argument);
  }
}

TEST_P(SumFactorisedGpu, ElementCountsAroundTheBlockSize) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = element_nodes(type);
  const int C = 1;
  const Operation op = Operation::reference_gradients;
  const int chosen =
      cuda::packed_launch_config(tensor_shape(type, op, points, C, default_space_dimension(type)), 0,
                                 cuda::current_device())
          .elements_per_block;
  for (offset_t elements : {offset_t(1), offset_t(std::max(chosen - 1, 1)), offset_t(chosen), offset_t(chosen + 1),
                            offset_t(type.order == 3 ? 10007 : 100003)}) {
    const test::RandomBlock block = random_block(type, elements, rng);
    const std::vector<double> u = random_field(block.node_count(), C, rng);
    const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::sum_factorised));
    EXPECT_EQ(got.config.elements_per_block, chosen);
    EXPECT_LE(relative_error(got.out, cpu(op, block, points, u, C).out), 1e-12)
        << elements << " elements, elements_per_block = " << chosen;
  }
}

// Mirrored elements (det J < 0 everywhere) are computed, with their sign; a flattened element (det J = 0)
// is reported by index and tag as on the CPU.
TEST_P(SumFactorisedGpu, OrientationPolicyAsTheDenseKernel) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const int N = nodes_per_element(type), D = dimension(type.shape);
  test::RandomBlock block = random_block(type, 500, rng, 0.0);
  for (offset_t e = 0; e < block.elements; e += 3)  // every third element mirrored through x = 0
    for (int n = 0; n < N; ++n) block.coordinates[std::size_t(block.connectivity[std::size_t(e * N + n)]) * 3] *= -1.0;
  const std::vector<double> u = random_field(block.node_count(), 2, rng);
  {
    const test::Computed<double> expected = cpu(Operation::physical_gradients, block, points, u, 2);
    const GpuRun got = gpu<double>(Operation::physical_gradients, block, points, u, 2, forced(KernelVariant::sum_factorised));
    EXPECT_LE(relative_error(got.out, expected.out), 1e-12);
    EXPECT_LE(relative_error(got.detj, expected.detj), 1e-12);
    EXPECT_LT(got.detj[0], 0.0);  // element 0 is mirrored
  }
  // Element 321 flattened onto its first D - 1 coordinates: det J = 0 at every point.
  for (int n = 0; n < N; ++n) block.coordinates[std::size_t(block.connectivity[std::size_t(321 * N + n)]) * 3 + D - 1] = 0.5;
  std::vector<std::size_t> tags(std::size_t(block.elements));
  for (std::size_t e = 0; e < tags.size(); ++e) tags[e] = 10 * e + 1;
  BlockView view = block.view();
  view.element_tags = tags.data();
  std::string cpu_message;
  try {
    cpu(Operation::physical_gradients, block, points, u, 2, view);
    FAIL() << "the CPU accepted a flat element";
  } catch (const DegenerateElementError& e) {
    cpu_message = e.what();
  }
  try {
    gpu<double>(Operation::physical_gradients, block, points, u, 2, forced(KernelVariant::sum_factorised), view);
    FAIL() << "the sum-factorised kernel did not flag the flat element";
  } catch (const DegenerateElementError& e) {
    EXPECT_EQ(e.element(), 321);
    const std::string message = e.what();
    EXPECT_NE(message.find("element tag 3211"), std::string::npos) << message;
    EXPECT_EQ(message.substr(0, message.find(" = ")), cpu_message.substr(0, cpu_message.find(" = ")));
  }
}

// ---- the choice of the variant (backends/cuda/launch/kernel_variant_choice.hpp) ---------------------------

/// A table for this device that has no entry for the configurations below, set for one scope, and no
/// FEINTERP_KERNEL_VARIANT: the choice is the default one, whatever table is checked in.
struct DefaultChoice {
  const char* saved = std::getenv(cuda::kernel_variant_environment_variable);
  std::string saved_value = saved ? saved : "";
  DefaultChoice() {
    unsetenv(cuda::kernel_variant_environment_variable);
    tuning::TuningTable table;
    const cuda::DeviceInfo& device = cuda::current_device();
    table.source = "test";
    table.device = device.name;
    table.major = device.major;
    table.minor = device.minor;
    table.point_set = "mixed";
    tuning::TuningEntry entry;  // triangle p1 values, C = 1: none of the configurations below
    entry.points = 3;
    entry.elements_per_block = 32;
    entry.time_us = 1;
    table.entries.push_back(entry);
    tuning::set_tuning_table(std::make_shared<const tuning::TuningTable>(table));
  }
  ~DefaultChoice() {
    tuning::set_tuning_table(nullptr);
    if (saved) setenv(cuda::kernel_variant_environment_variable, saved_value.c_str(), 1);
  }
};

// Without a table entry, tensor sets run it where the dense product is large (kernel_variant_choice.hpp,
// step 4: N * Q * D >= 512 for gradients), the dense kernel elsewhere; either way the results are right.
TEST(SumFactorisedChoice, LargeTensorProductsRunItByDefault) {
  FEINTERP_REQUIRE_GPU();
  const DefaultChoice choice;
  std::mt19937_64 rng(test::test_seed());
  int sum_factorised = 0, dense = 0;
  for (ElementType type : tensor_types) {
    const test::RandomBlock block = random_block(type, 300, rng);
    for (const PointSet& points : {element_nodes(type), quadrature_rule(type.shape, 2 * type.order)}) {
      const std::vector<double> u = random_field(block.node_count(), 2, rng);
      const GpuRun got = gpu<double>(Operation::physical_gradients, block, points, u, 2, {});
      const long products = long(nodes_per_element(type)) * points.size() * dimension(type.shape);
      const KernelVariant expected =
          products >= cuda::sum_factorisation_threshold ? KernelVariant::sum_factorised : KernelVariant::dense;
      (expected == KernelVariant::sum_factorised ? sum_factorised : dense) += 1;
      EXPECT_EQ(got.config.variant, expected) << to_string(type) << ", " << points.name << ", N*Q*D = " << products;
      EXPECT_LE(relative_error(got.out, cpu(Operation::physical_gradients, block, points, u, 2).out), 1e-12);
    }
  }
  EXPECT_GT(sum_factorised, 0);  // both sides of the threshold were exercised
  EXPECT_GT(dense, 0);
}

// A point set that is no tensor product (random points in the element) runs the dense kernel, correctly;
// forcing the sum-factorised variant on it, or on a triangle, is refused with the reason.
TEST(SumFactorisedChoice, OtherPointSetsFallBackToDense) {
  FEINTERP_REQUIRE_GPU();
  const DefaultChoice choice;
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (ElementType type : tensor_types) {
    const int d = dimension(type.shape);
    std::vector<double> x(std::size_t(d) * 27);
    for (double& v : x) v = unit(rng);
    const PointSet points = reference_points(type.shape, x);
    const test::RandomBlock block = random_block(type, 300, rng);
    const std::vector<double> u = random_field(block.node_count(), 3, rng);
    for (Operation op : forward_operations) {
      const GpuRun got = gpu<double>(op, block, points, u, 3, {});
      EXPECT_EQ(got.config.variant, KernelVariant::dense) << to_string(type);
      EXPECT_LE(relative_error(got.out, cpu(op, block, points, u, 3).out), 1e-12) << to_string(type);
      try {
        gpu<double>(op, block, points, u, 3, forced(KernelVariant::sum_factorised));
        ADD_FAILURE() << "sum_factorised was forced on random points";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("not a tensor product"), std::string::npos) << e.what();
      }
    }
    // FEINTERP_KERNEL_VARIANT=sum_factorised does not apply here either: dense, not an error.
    setenv(cuda::kernel_variant_environment_variable, "sum_factorised", 1);
    EXPECT_EQ(gpu<double>(Operation::values, block, points, u, 3, {}).config.variant, KernelVariant::dense);
    unsetenv(cuda::kernel_variant_environment_variable);
  }
  const ElementType triangle{Shape::triangle, 2};
  const test::RandomBlock block = random_block(triangle, 10, rng);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  try {
    gpu<double>(Operation::values, block, quadrature_rule(triangle.shape, 4), u, 1, forced(KernelVariant::sum_factorised));
    ADD_FAILURE() << "sum_factorised was forced on triangles";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("quadrilateral or hexahedron"), std::string::npos) << e.what();
  }
}

// FEINTERP_KERNEL_VARIANT forces either variant on a tensor set, for whole-program A/B measurements; both
// give the CPU's results. Transposes run the dense kernel whatever a plan asks for.
TEST(SumFactorisedChoice, EnvironmentAndTransposes) {
  FEINTERP_REQUIRE_GPU();
  const DefaultChoice choice;
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::hexahedron, 2};
  const PointSet points = quadrature_rule(type.shape, 4);
  const test::RandomBlock block = random_block(type, 400, rng);
  const std::vector<double> u = random_field(block.node_count(), 3, rng);
  const test::Computed<double> expected = cpu(Operation::reference_gradients, block, points, u, 3);
  for (KernelVariant variant : {KernelVariant::dense, KernelVariant::sum_factorised}) {
    setenv(cuda::kernel_variant_environment_variable, tuning::kernel_variant_name(variant), 1);
    const GpuRun got = gpu<double>(Operation::reference_gradients, block, points, u, 3, {});
    EXPECT_EQ(got.config.variant, variant);
    EXPECT_LE(relative_error(got.out, expected.out), 1e-12) << tuning::kernel_variant_name(variant);
  }
  unsetenv(cuda::kernel_variant_environment_variable);
  // A plan forced to sum_factorised still integrates (the transpose is dense).
  auto device_block = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(block.view(), block.node_count()));
  cuda::DeviceBuffer<double> dx(block.coordinates);
  const cuda::Plan<double> plan(device_block, points, dx.data(), forced(KernelVariant::sum_factorised));
  EXPECT_EQ(plan.launch_config(Operation::values_transpose, 3).variant, KernelVariant::dense);
  EXPECT_EQ(plan.launch_config(Operation::values, 3).variant, KernelVariant::sum_factorised);
  ASSERT_TRUE(plan.tensor_structure());
  EXPECT_EQ(plan.tensor_structure()->points_per_direction, 3);
}

}  // namespace
}  // namespace feinterp
