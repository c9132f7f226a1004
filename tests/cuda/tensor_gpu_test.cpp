// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised kernel variant (cuda/kernels/sum_factorised/sum_factorised_kernel.cuh), forced through
// PlanOptions::variant so that it really runs (each test checks the variant its launch reports),
// against the CPU executor: quadrilaterals (S = 2 and 3) and hexahedra of orders 1-3, C = 1, d and 9,
// every forward operation, at the node lattice and at Gauss rules of 1, p + 1 (degree 2p, also shuffled)
// and p + 2 points per direction; FP64 to 1e-12 relative, FP32 within the derived bound of
// tests/support/float_error_bounds.hpp. Outputs are poisoned with NaN first, blocks and fields are fresh
// random ones (FEINTERP_TEST_SEED replays a run). Also: every elements_per_block gives bitwise the same
// results, partial last blocks, mirrored and degenerate elements, the automatic choice, and the fallback
// to the dense kernel for point sets that are no tensor product. The transposes the same way, on
// conforming meshes (shared nodes), for every TransposeOptions (nodes or element vectors, weighted,
// accumulate) and both summations (atomic; deterministic, bitwise reproducible).
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

#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/plan.hpp>
#include <feinterp/cuda/runtime/device_buffer.hpp>
#include <feinterp/tuning/registry.hpp>
#include <feinterp/core/layout.hpp>
#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/float_error_bounds.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/shuffled_points.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>
#include <feinterp/tests/cuda/plan_run.hpp>

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

using test::cpu;
using test::forced;
using test::gpu;
using test::cpu_transpose;
using test::GpuRun;
using test::gpu_transpose;

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

// The per-element buffer strides (launch/tensor_bank_conflicts.hpp) move data, not arithmetic: the
// counted strides give bitwise the results of the smallest odd ones, in both precisions, at the nodes and
// at a Gauss rule; and where the count found fewer bank conflicts, the launch really runs other strides.
TEST_P(SumFactorisedGpu, CountedStridesGiveTheResultsOfTheOddStrides) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int D = dimension(type.shape);
  const test::RandomBlock block = random_block(type, 1009, rng, 0.01, D);
  int moved = 0;
  for (const PointSet& points : {element_nodes(type), quadrature_rule(type.shape, 2 * type.order + 2)})
    for (int C : {1, D}) {
      const std::vector<double> u = random_field(block.node_count(), C, rng);
      for (Operation op : forward_operations) {
        SCOPED_TRACE(points.name + ", " + operation_name(op) + ", C = " + std::to_string(C));
        cuda::PlanOptions odd = forced(KernelVariant::sum_factorised), counted = odd;
        odd.tensor_strides = cuda::TensorStrides::odd;
        const GpuRun reference = gpu<double>(op, block, points, u, C, odd);
        ASSERT_EQ(reference.config.tensor_buffer_residues, cuda::TensorBufferResidues{});
        ASSERT_LE(relative_error(reference.out, cpu(op, block, points, u, C).out), 1e-12);
        const GpuRun got = gpu<double>(op, block, points, u, C, counted);
        EXPECT_EQ(got.out, reference.out);
        EXPECT_EQ(got.detj, reference.detj);
        moved += !(got.config.tensor_buffer_residues == cuda::TensorBufferResidues{});
        EXPECT_EQ(gpu<float>(op, block, points, u, C, counted).out, gpu<float>(op, block, points, u, C, odd).out);
      }
    }
  EXPECT_GT(moved, 0) << "no launch of " << to_string(type) << " left the odd strides";
}

TEST_P(SumFactorisedGpu, ElementCountsAroundTheBlockSize) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = element_nodes(type);
  const int C = 1;
  // Values and reference gradients gather each block's next group during its store (quadrilaterals
  // swapping their two buffers every group): the largest counts give every resident block several groups,
  // the last of them partial.
  for (Operation op : {Operation::values, Operation::reference_gradients}) {
    const int chosen =
        cuda::packed_launch_config(tensor_shape(type, op, points, C, default_space_dimension(type)), 0,
                                   cuda::current_device())
            .elements_per_block;
    for (offset_t elements : {offset_t(1), offset_t(std::max(chosen - 1, 1)), offset_t(chosen),
                              offset_t(chosen + 1), offset_t(type.order == 3 ? 10007 : 100003)}) {
      const test::RandomBlock block = random_block(type, elements, rng);
      const std::vector<double> u = random_field(block.node_count(), C, rng);
      const GpuRun got = gpu<double>(op, block, points, u, C, forced(KernelVariant::sum_factorised));
      EXPECT_EQ(got.config.elements_per_block, chosen);
      EXPECT_LE(relative_error(got.out, cpu(op, block, points, u, C).out), 1e-12)
          << operation_name(op) << ", " << elements << " elements, elements_per_block = " << chosen;
    }
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

// ---- the transposes ---------------------------------------------------------------------------------------

/// How far the transposes' conforming meshes move their interior nodes, in lattice spacings: curved, but
/// never tangled. The basis' slopes at an element's corners grow with the order, and at p = 3 a tenth of
/// a spacing tangled one hexahedron (det J changing sign between its points) at one seed of the suite.
double curving_for(ElementType type) { return 0.1 / type.order; }

TEST_P(SumFactorisedGpu, TransposesMatchCpu) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int D = dimension(type.shape);
  // A conforming mesh (nodes shared by up to 2^d elements: the atomic sums matter), curved.
  const test::RandomBlock mesh = test::structured_block(type, D == 3 ? 5 : 12, curving_for(type), rng);
  std::vector<TransposeOptions> targets;
  for (TransposeTarget target : {TransposeTarget::nodes, TransposeTarget::element_vectors})
    for (bool weighted : {false, true}) targets.push_back({target, weighted, false});
  targets.push_back({TransposeTarget::nodes, true, true});  // accumulate into a random vector
  for (const PointSet& points : tensor_point_sets(type, rng))
    for (int C : {1, D, max_components}) {
      const std::vector<double> initial = random_field(mesh.node_count(), C, rng);
      for (Operation op : transpose_operations) {
        const int R = result_directions(op, D, mesh.space_dimension);
        const std::vector<double> f = random_field(mesh.elements * points.size() * R, C, rng);
        for (const TransposeOptions& t : targets) {
          if (t.weighted && points.weights.empty()) continue;  // the nodes have no weights
          SCOPED_TRACE(points.name + ", " + operation_name(op) + ", C = " + std::to_string(C) +
                       (t.target == TransposeTarget::nodes ? ", nodes" : ", element vectors") +
                       (t.weighted ? ", weighted" : "") + (t.accumulate ? ", accumulate" : ""));
          const std::vector<double>* start = t.accumulate ? &initial : nullptr;
          const std::vector<double> expected = cpu_transpose(op, mesh, points, f, C, t, start);
          const GpuRun got = gpu_transpose<double>(op, mesh, points, f, C, t, forced(KernelVariant::sum_factorised), start);
          ASSERT_EQ(got.config.variant, KernelVariant::sum_factorised);
          EXPECT_LE(relative_error(got.out, expected), 1e-12);
        }
      }
    }
}

// Single precision, within the bound of each nodal sum: gamma sum |terms|, the terms |T_q,n,r| |f_q,c,r| of
// the dense definition over the elements and points around the node. The roundings per term: the data
// (1), the d table factors (d), each adjoint stage's sum of up to 2 Q1 products (the gradients' merged
// variants: 2 d Q1 in all) and the sum over the up to 2^d elements at a node: 1 + d + 2 d Q1 + 2^d, doubled
// for the second-order terms (hexahedra p = 3 at Q1 = 4: 72 eps).
TEST_P(SumFactorisedGpu, TransposesInSinglePrecision) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int D = dimension(type.shape), N = nodes_per_element(type), P1 = type.order + 1;
  const test::RandomBlock mesh = test::structured_block(type, D == 3 ? 4 : 10, curving_for(type), rng);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const int Q = points.size(), Q1 = P1;
  const Tabulation table = tabulate(type, points);
  for (int C : {1, D}) {
    for (Operation op : {Operation::values_transpose, Operation::reference_gradients_transpose}) {
      const int R = result_directions(op, D, mesh.space_dimension);
      const std::vector<double> f = random_field(mesh.elements * Q * R, C, rng);
      const TransposeOptions t{TransposeTarget::nodes, false, false};
      const std::vector<double> expected = cpu_transpose(op, mesh, points, f, C, t);
      // The bound: gamma sum over the elements and points around each node of |T| |f| (unweighted).
      const double gamma = 2.0 * (1 + D + 2 * D * Q1 + (1 << D)) * 0x1p-24;
      std::vector<double> bound(expected.size(), 0.0);
      for (offset_t e = 0; e < mesh.elements; ++e)
        for (int n = 0; n < N; ++n) {
          const std::size_t node = std::size_t(mesh.connectivity[std::size_t(e * N + n)]);
          for (int q = 0; q < Q; ++q)
            for (int c = 0; c < C; ++c)
              for (int r = 0; r < R; ++r) {
                const double T = op == Operation::values_transpose ? table.values[std::size_t(q) * N + n]
                                                                   : table.gradients[(std::size_t(q) * N + n) * D + r];
                bound[node * C + c] += gamma * std::abs(T * f[((std::size_t(e) * Q + q) * C + c) * R + r]);
              }
        }
      const GpuRun got = gpu_transpose<float>(op, mesh, points, f, C, t, forced(KernelVariant::sum_factorised));
      ASSERT_EQ(got.config.variant, KernelVariant::sum_factorised);
      test::expect_within(std::vector<float>(got.out.begin(), got.out.end()), expected, bound,
                          std::string(operation_name(op)) + ", C = " + std::to_string(C));
    }
  }
}

// Deterministic summation: one launch per colour, no atomics: bitwise the same run after run and for any
// elements_per_block, and the CPU's result to 1e-12.
TEST_P(SumFactorisedGpu, DeterministicTransposesAreReproducible) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int D = dimension(type.shape), C = D;
  const test::RandomBlock mesh = test::structured_block(type, D == 3 ? 5 : 12, curving_for(type), rng);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  const Operation op = Operation::physical_gradients_transpose;
  const std::vector<double> f = random_field(mesh.elements * points.size() * mesh.space_dimension, C, rng);
  const TransposeOptions t{TransposeTarget::nodes, true, false};
  cuda::PlanOptions options = forced(KernelVariant::sum_factorised);
  options.summation = Summation::deterministic;
  const GpuRun first = gpu_transpose<double>(op, mesh, points, f, C, t, options);
  ASSERT_EQ(first.config.variant, KernelVariant::sum_factorised);
  EXPECT_LE(relative_error(first.out, cpu_transpose(op, mesh, points, f, C, t)), 1e-12);
  for (int run = 0; run < 2; ++run) EXPECT_EQ(gpu_transpose<double>(op, mesh, points, f, C, t, options).out, first.out);
  options.elements_per_block = 1;
  EXPECT_EQ(gpu_transpose<double>(op, mesh, points, f, C, t, options).out, first.out) << "elements_per_block = 1";
}

// ---- the choice of the variant (cuda/launch/kernel_variant_choice.hpp) ---------------------------

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
      // The dense kernel, or its 64-register form where that is the default (p = 1, 2 hexahedra, C = 3).
      EXPECT_TRUE(tuning::runs_packed_dense_kernel(got.config.variant))
          << to_string(type) << ": " << tuning::kernel_variant_name(got.config.variant);
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

// A tensor set with more points per direction than the sum-factorised kernels are compiled for (p + 3:
// layout/tensor_launch_shape.hpp) builds its plan, runs the dense kernel and gets the CPU's results; its
// 1D tables (2 Q1 P1 = 56 reals at p = 3, Q1 = 7) exceed what the forward kernel's arguments hold (48),
// which must not stop the plan. Forcing the variant on it is refused with the compiled range. (A p3
// hexahedron at 7^3 points runs its values densely, but its gradients need 547,600 bytes of dense
// tables, more than any GPU's shared memory: that launch is refused with the number, an
// std::invalid_argument, not the plan's construction.)
TEST(SumFactorisedChoice, TensorSetsBeyondTheCompiledPointsPerDirectionRunDense) {
  FEINTERP_REQUIRE_GPU();
  const DefaultChoice choice;
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  {
    const ElementType quadrilateral{Shape::quadrilateral, 3};
    const PointSet points = quadrature_rule(quadrilateral.shape, 12);  // Gauss, 7 points per direction
    const std::optional<TensorStructure> t = tensor_structure(quadrilateral, points);
    ASSERT_TRUE(t);
    ASSERT_EQ(t->points_per_direction, 7);
    const test::RandomBlock block = random_block(quadrilateral, 301, rng);
    const std::vector<double> u = random_field(block.node_count(), 2, rng);
    for (Operation op : forward_operations) {
      const GpuRun got = gpu<double>(op, block, points, u, 2, {});
      EXPECT_EQ(got.config.variant, KernelVariant::dense) << operation_name(op);
      EXPECT_LE(relative_error(got.out, cpu(op, block, points, u, 2).out), 1e-12) << operation_name(op);
      try {
        gpu<double>(op, block, points, u, 2, forced(KernelVariant::sum_factorised));
        ADD_FAILURE() << "sum_factorised was forced on 7 points per direction at p = 3";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("compiled for 1 to 6 at order 3"), std::string::npos) << e.what();
      }
    }
  }
  const ElementType hexahedron{Shape::hexahedron, 3};
  const test::RandomBlock block = random_block(hexahedron, 11, rng);
  const std::vector<double> u = random_field(block.node_count(), 2, rng);
  const PointSet points = quadrature_rule(hexahedron.shape, 12);
  const GpuRun values = gpu<double>(Operation::values, block, points, u, 2, {});  // 175,616 bytes of table: fits
  EXPECT_EQ(values.config.variant, KernelVariant::dense);
  EXPECT_LE(relative_error(values.out, cpu(Operation::values, block, points, u, 2).out), 1e-12);
  try {
    gpu<double>(Operation::reference_gradients, block, points, u, 2, {});
    ADD_FAILURE() << "p3 hexahedron reference gradients at 343 points ran";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bytes of shared memory"), std::string::npos) << e.what();
  }
}

// FEINTERP_KERNEL_VARIANT forces either variant on a tensor set, for whole-program A/B measurements; both
// give the CPU's results. A plan forced to sum_factorised runs the fused diffusion so (Q1 = p + 1), and
// the fused mass with precomputed geometry, which is the only way it has.
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
  // A plan forced to sum_factorised runs its transposes and its fused diffusion so too.
  auto device_block = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(block.view(), block.node_count()));
  cuda::DeviceBuffer<double> dx(block.coordinates);
  const cuda::Plan<double> plan(device_block, points, dx.data(), forced(KernelVariant::sum_factorised));
  EXPECT_EQ(plan.launch_config(Operation::values_transpose, 3).variant, KernelVariant::sum_factorised);
  EXPECT_EQ(plan.launch_config(Operation::physical_gradients_transpose, 3, true, true).variant,
            KernelVariant::sum_factorised);
  EXPECT_THROW(plan.launch_config(Operation::values_transpose, 3, true, true), std::invalid_argument);
  EXPECT_EQ(plan.launch_config(Operation::values_transpose, 3, true, true, true).variant, KernelVariant::sum_factorised);
  EXPECT_EQ(plan.launch_config(Operation::values, 3).variant, KernelVariant::sum_factorised);
  ASSERT_TRUE(plan.tensor_structure());
  EXPECT_EQ(plan.tensor_structure()->points_per_direction, 3);
}

}  // namespace
}  // namespace feinterp
