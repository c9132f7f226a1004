// SPDX-License-Identifier: BSD-3-Clause
// GPU against CPU for every element type, component count, operation and space dimension (curves and
// surfaces in 3D included); every elements_per_block gives identical results; partial last blocks; a
// 1M-element block; rotation invariance; the orientation policy (mirrored elements computed, tangled,
// degenerate and off-plane ones reported by index and tag); bad input is refused.
// The CUDA backend (cuda) against the CPU executor for every element type, component count,
// operation and space dimension (curves and surfaces in 3D included), both kernels; every
// elements_per_block gives identical results; partial last blocks; a 1M-element block; rotation
// invariance; the orientation policy (mirrored elements computed, tangled, degenerate and off-plane ones
// reported by index and tag); bad input is refused. The front door's own suite (tests/interpolator)
// also runs here, on the cuda executor; this file is about what only the GPU backend has: kernels,
// launches, streams, and its plan's error flag.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <feinterp/cuda/runtime/device_buffer.hpp>
#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/plan.hpp>
#include <feinterp/core/layout.hpp>
#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tabulation.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>
#include <feinterp/tests/cuda/plan_run.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using test::cpu;  // plan_run.hpp
using test::random_block;
using test::random_field;
using test::relative_error;

using Results = test::Computed<double>;

// The backend's plan on device arrays, outputs poisoned with NaN on the device before the launch, then
// check() (plan_run.hpp), on the plan's stream. `view`: the block's view with element tags, where a test
// needs them.
Results gpu(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
            const cuda::PlanOptions& options, const BlockView& view) {
  test::GpuRun run = test::gpu<double>(op, block, points, u, C, options, view);
  return {std::move(run.out), std::move(run.detj)};
}

Results gpu(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
            const cuda::PlanOptions& options = {}) {
  return gpu(op, block, points, u, C, options, block.view());
}

cuda::LaunchShape launch_shape(ElementType type, Operation op, int points, int C, int S) {
  return {type, op, points, C, S, Precision::fp64};
}

// The space dimensions an element type lives in: 2 and 3 for lines and 2D elements, 3 for 3D ones.
std::vector<int> space_dimensions(ElementType type) {
  return dimension(type.shape) == 3 ? std::vector<int>{3} : std::vector<int>{2, 3};
}

PointSet points_for(ElementType type) { return quadrature_rule(type.shape, 2 * type.order); }

class GpuInterpolation : public ::testing::TestWithParam<ElementType> {};

TEST_P(GpuInterpolation, MatchesCpuForEveryOperationAndComponentCount) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = points_for(type);
  for (int S : space_dimensions(type)) {
    // 1009 elements, a prime: the last block is partial.
    const test::RandomBlock block = random_block(type, 1009, rng, 0.01, S);
    for (int C : {1, dimension(type.shape), max_components}) {
      const std::vector<double> u = random_field(block.node_count(), C, rng);
      for (Operation op : forward_operations) {
        SCOPED_TRACE(std::string(operation_name(op)) + ", C = " + std::to_string(C) + ", S = " + std::to_string(S));
        const Results expected = cpu(op, block, points, u, C);
        // The packed kernel as the plan chooses its variant (sum-factorised for quadrilaterals and
        // hexahedra at these Gauss rules), the dense packed kernel forced, and the baseline.
        for (int run = 0; run < 3; ++run) {
          cuda::PlanOptions options;
          if (run == 1) options.variant = cuda::KernelVariant::dense;
          if (run == 2) options.kernel = cuda::Kernel::baseline;
          const Results got = gpu(op, block, points, u, C, options);
          const char* what = run == 0 ? "packed, the plan's variant" : run == 1 ? "packed, dense" : "baseline";
          EXPECT_LE(relative_error(got.out, expected.out), 1e-12) << what;
          if (op == Operation::physical_gradients) EXPECT_LE(relative_error(got.detj, expected.detj), 1e-12) << what;
        }
      }
    }
  }
}

TEST_P(GpuInterpolation, EveryElementsPerBlockGivesIdenticalResults) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = points_for(type);
  const int S = 3;  // surfaces and curves in 3D: the most shared memory per element
  const test::RandomBlock block = random_block(type, 211, rng, 0.01, S);
  // C = 1: two elements per thread, so odd counts leave the last slot half empty
  // (layout/elements_per_thread.hpp); C = dim: one.
  for (int C : {1, dimension(type.shape)}) {
    const std::vector<double> u = random_field(block.node_count(), C, rng);
    for (Operation op : forward_operations) {
      const int limit = cuda::max_elements_per_block(launch_shape(type, op, points.size(), C, S), cuda::current_device());
      ASSERT_GE(limit, 1);
      cuda::PlanOptions options;
      options.variant = cuda::KernelVariant::dense;  // the sum-factorised variant: tests/cuda/tensor_gpu_test.cpp
      options.elements_per_block = 1;
      const Results reference = gpu(op, block, points, u, C, options);
      ASSERT_EQ(relative_error(reference.out, cpu(op, block, points, u, C).out) <= 1e-12, true);
      for (int count = 2; count <= limit; ++count) {
        options.elements_per_block = count;
        const Results got = gpu(op, block, points, u, C, options);
        ASSERT_EQ(got.out, reference.out) << operation_name(op) << ", C = " << C << ", elements_per_block = " << count;
      }
    }
  }
}

// The deterministic nodal sum of a transpose (one launch per colour, no atomics) gives the same bits with
// one element per block as with the plan's choice (tests/interpolator/transpose_test.cpp checks it run
// after run through the front door, which has no elements_per_block).
TEST_P(GpuInterpolation, DeterministicTransposeIsTheSameForEveryElementsPerBlock) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int D = dimension(type.shape), C = 3;
  const test::RandomBlock mesh = test::structured_block(type, D == 3 ? 4 : D == 2 ? 6 : 10, 0.05, rng);
  const PointSet points = points_for(type);
  const Operation op = Operation::physical_gradients_transpose;
  const std::vector<double> f = random_field(mesh.elements * points.size() * mesh.space_dimension, C, rng);
  const TransposeOptions weighted{TransposeTarget::nodes, true, false};
  cuda::PlanOptions options;
  options.summation = Summation::deterministic;
  const test::GpuRun chosen = test::gpu_transpose<double>(op, mesh, points, f, C, weighted, options);
  EXPECT_LE(relative_error(chosen.out, test::cpu_transpose(op, mesh, points, f, C, weighted)), 1e-12);
  options.elements_per_block = 1;
  const test::GpuRun one = test::gpu_transpose<double>(op, mesh, points, f, C, weighted, options);
  ASSERT_EQ(one.config.elements_per_block, 1);
  EXPECT_EQ(one.out, chosen.out) << "elements_per_block = 1, against " << chosen.config.elements_per_block;
}

TEST_P(GpuInterpolation, ElementCountsAroundTheBlockSize) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = points_for(type);
  const int C = 1;
  const Operation op = Operation::reference_gradients;
  const int chosen =
      cuda::packed_launch_config(launch_shape(type, op, points.size(), C, default_space_dimension(type)), 0,
                                 cuda::current_device())
          .elements_per_block;
  for (offset_t elements : {offset_t(1), offset_t(std::max(chosen - 1, 1)), offset_t(chosen), offset_t(chosen + 1),
                            offset_t(type.order == 3 ? 10007 : 100003)}) {
    const test::RandomBlock block = random_block(type, elements, rng);
    const std::vector<double> u = random_field(block.node_count(), C, rng);
    EXPECT_LE(relative_error(gpu(op, block, points, u, C).out, cpu(op, block, points, u, C).out), 1e-12)
        << elements << " elements, elements_per_block = " << chosen;
  }
}

// The dense packed kernel reads and writes in vectors of up to 16 bytes where the operands allow
// (kernels/dense/packed_block.cuh): it gathers a node's C components a vector at a time when they tile into
// vectors (C = 2 and 4 here) and the field starts on such a boundary, and writes a point's few results
// from registers when the output does. A field or an output one real off the boundary (a view into a
// larger array) takes the scalar paths instead. Every placement gives the same numbers, and nothing is
// written around the output.
TEST_P(GpuInterpolation, OperandsOffAVectorBoundaryGiveTheSameResults) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const PointSet points = element_nodes(type);  // Q = nodes, as the benchmark
  const test::RandomBlock block = random_block(type, 1009, rng);
  const cuda::PlanOptions dense = test::forced(cuda::KernelVariant::dense);
  for (int C : {1, 2, 4}) {
    const std::vector<double> u = random_field(block.node_count(), C, rng);
    for (Operation op : forward_operations) {
      SCOPED_TRACE(std::string(operation_name(op)) + ", C = " + std::to_string(C));
      auto expect_placements_agree = [&](auto real) {
        using Real = decltype(real);
        const test::GpuRun aligned = test::gpu<Real>(op, block, points, u, C, dense, block.view());
        EXPECT_EQ(aligned.written_outside, 0u);
        for (test::Placement placement : {test::Placement{0, 1}, test::Placement{1, 0}, test::Placement{1, 1}}) {
          const test::GpuRun off = test::gpu<Real>(op, block, points, u, C, dense, block.view(), placement);
          EXPECT_EQ(off.written_outside, 0u) << "field at " << placement.field << ", output at " << placement.out;
          EXPECT_EQ(off.out, aligned.out) << "field at " << placement.field << ", output at " << placement.out;
        }
        return aligned;
      };
      const test::GpuRun fp64 = expect_placements_agree(double{});
      expect_placements_agree(float{});
      EXPECT_LE(relative_error(fp64.out, cpu(op, block, points, u, C).out), 1e-12);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllElements, GpuInterpolation, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST(GpuInterpolation, MillionElementBlock) {
  FEINTERP_REQUIRE_GPU();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const ElementType type{Shape::tetrahedron, 1};
  const test::RandomBlock block = random_block(type, 1000003, rng);
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 3, rng);
  for (Operation op : forward_operations) {
    const Results expected = cpu(op, block, points, u, 3);
    const Results got = gpu(op, block, points, u, 3);
    EXPECT_LE(relative_error(got.out, expected.out), 1e-12) << operation_name(op);
  }
}

TEST(GpuInterpolation, StreamsAreHonoured) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::triangle, 2};
  const test::RandomBlock block = random_block(type, 5000, rng);
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  cudaStream_t stream = nullptr;
  cuda::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating a stream");
  cuda::PlanOptions options;
  options.stream = stream;
  const Results got = gpu(Operation::values, block, points, u, 1, options);
  cudaStreamDestroy(stream);
  EXPECT_LE(relative_error(got.out, cpu(Operation::values, block, points, u, 1).out), 1e-12);
}

TEST(GpuInterpolation, DeviceTabulationEqualsHostTabulation) {
  FEINTERP_REQUIRE_GPU();
  for (ElementType type : all_element_types) {
    const PointSet points = points_for(type);
    const Tabulation host = tabulate(type, points);
    const cuda::DeviceTabulation<double> device(type, points);
    const int N = host.nodes, D = host.dimension, Q = host.points;
    std::vector<double> values(std::size_t(N) * Q), gradients(std::size_t(N) * D * Q);
    cuda::check(cudaMemcpy(values.data(), device.values(), values.size() * sizeof(double), cudaMemcpyDeviceToHost), "test");
    cuda::check(cudaMemcpy(gradients.data(), device.gradients(), gradients.size() * sizeof(double), cudaMemcpyDeviceToHost),
                "test");
    for (int q = 0; q < Q; ++q)
      for (int n = 0; n < N; ++n) {
        EXPECT_NEAR(values[std::size_t(n) * Q + q], host.values[std::size_t(q) * N + n], 1e-14) << to_string(type);
        for (int d = 0; d < D; ++d)
          EXPECT_NEAR(gradients[(std::size_t(n) * D + d) * Q + q], host.gradients[(std::size_t(q) * N + n) * D + d], 1e-13)
              << to_string(type);
      }
  }
}

// ---- bad input ------------------------------------------------------------------------------------

TEST(GpuInterpolationErrors, OutOfRangeConnectivityIsRejectedOnUploadAndOnWrap) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  test::RandomBlock block = random_block({Shape::triangle, 1}, 100, rng);
  block.connectivity[3 * 42 + 1] = node_index(block.node_count());  // one past the end, element 42
  EXPECT_THROW(cuda::DeviceBlock::upload(block.view(), block.node_count()), std::invalid_argument);
  cuda::DeviceBuffer<node_index> device(block.connectivity);
  try {
    cuda::DeviceBlock::wrap({block.type, device.data(), block.elements}, block.node_count());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("42"), std::string::npos) << e.what();
  }
  block.connectivity[3 * 42 + 1] = -1;
  cuda::DeviceBuffer<node_index> negative(block.connectivity);
  EXPECT_THROW(cuda::DeviceBlock::wrap({block.type, negative.data(), block.elements}, block.node_count()),
               std::invalid_argument);
}

TEST(GpuInterpolationErrors, ElementsPerBlockThatDoesNotFitIsRejected) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::hexahedron, 3};
  const test::RandomBlock block = random_block(type, 10, rng);
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 3, rng);
  const int limit =
      cuda::max_elements_per_block(launch_shape(type, Operation::physical_gradients, points.size(), 3, 3),
                                   cuda::current_device());
  for (int bad : {limit + 1, -1, 100000}) {
    cuda::PlanOptions options;
    options.variant = cuda::KernelVariant::dense;  // the variant `limit` is of
    options.elements_per_block = bad;
    EXPECT_THROW(gpu(Operation::physical_gradients, block, points, u, 3, options), std::invalid_argument) << bad;
  }
}

// ---- rotation invariance and the orientation policy (fem/orientation.hpp) ----------------------------

// As on the CPU (tests/interpolator/interpolate_test.cpp): a planar block of curves or surfaces moved into 3D by
// a rigid motion keeps its measure |det J| and its physical gradients rotate, to 1e-12 relative.
class GpuRotationInvariance : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(CurvesAndSurfaces, GpuRotationInvariance,
                         ::testing::ValuesIn(test::curve_and_surface_types()),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(GpuRotationInvariance, MeasureAndRotatedGradients) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int C = 2;
  const test::RandomBlock planar = random_block(type, 3001, rng);
  const std::array<double, 9> R = test::random_rotation(rng);
  const double t[3] = {0.5, -2.0, 3.0};
  const test::RandomBlock space = test::rotated(planar, R, t);
  const std::vector<double> u = random_field(planar.node_count(), C, rng);
  const PointSet points = points_for(type);
  for (cuda::Kernel kernel : {cuda::Kernel::packed, cuda::Kernel::baseline}) {
    cuda::PlanOptions options;
    options.kernel = kernel;
    Results flat = gpu(Operation::physical_gradients, planar, points, u, C, options);
    const Results rotated = gpu(Operation::physical_gradients, space, points, u, C, options);
    for (double& d : flat.detj) d = std::abs(d);
    EXPECT_LE(relative_error(rotated.detj, flat.detj), 1e-12);
    EXPECT_LE(relative_error(rotated.out, test::rotate_gradients(flat.out, R)), 1e-12);
  }
}

// Mirrored elements (det J < 0 at every point) are valid: computed, with det J < 0, as on the CPU.
TEST(GpuOrientation, MirroredElementsMatchTheCpu) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  for (ElementType type : {ElementType{Shape::triangle, 3}, ElementType{Shape::tetrahedron, 2}}) {
    SCOPED_TRACE(to_string(type));
    test::RandomBlock block = random_block(type, 500, rng, 0.0);
    const int N = nodes_per_element(type);
    for (offset_t e = 0; e < block.elements; e += 3)  // every third element mirrored through x = 0
      for (int n = 0; n < N; ++n) block.coordinates[std::size_t(block.connectivity[std::size_t(e * N + n)]) * 3] *= -1.0;
    const PointSet points = points_for(type);
    const std::vector<double> u = random_field(block.node_count(), 2, rng);
    const Results expected = cpu(Operation::physical_gradients, block, points, u, 2);
    for (cuda::Kernel kernel : {cuda::Kernel::packed, cuda::Kernel::baseline}) {
      cuda::PlanOptions options;
      options.kernel = kernel;
      const Results got = gpu(Operation::physical_gradients, block, points, u, 2, options);
      EXPECT_LE(relative_error(got.out, expected.out), 1e-12);
      EXPECT_LE(relative_error(got.detj, expected.detj), 1e-12);
      EXPECT_LT(got.detj[0], 0.0);  // element 0 is mirrored
    }
  }
}

// What the GPU must report: the smallest bad element, by index and by tag, with the same message as the
// CPU gives; from both kernels.
template <class Error>
void expect_gpu_error(const test::RandomBlock& block, const BlockView& view, offset_t element, const std::string& words) {
  const PointSet points = points_for(block.type);
  const std::vector<double> u(std::size_t(block.node_count()), 1.0);
  std::string cpu_message;
  try {
    cpu(Operation::physical_gradients, block, points, u, 1, view);
    FAIL() << "the CPU accepted the block";
  } catch (const Error& e) {
    cpu_message = e.what();
  }
  for (cuda::Kernel kernel : {cuda::Kernel::packed, cuda::Kernel::baseline}) {
    cuda::PlanOptions options;
    options.kernel = kernel;
    try {
      gpu(Operation::physical_gradients, block, points, u, 1, options, view);
      ADD_FAILURE() << "no error from the GPU";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("element tag " + std::to_string(10 * element + 1)), std::string::npos) << message;
      EXPECT_NE(message.find(words), std::string::npos) << message;
      if constexpr (std::is_same_v<Error, DegenerateElementError>) EXPECT_EQ(e.element(), element);
      // The same element, kind and quantity as the CPU (its value may differ in the last bits).
      EXPECT_EQ(message.substr(0, message.find(" = ")), cpu_message.substr(0, cpu_message.find(" = ")));
    }
  }
}

TEST(GpuOrientation, TangledDegenerateAndOffPlaneElementsAreReportedByTag) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  std::vector<std::size_t> tags(100000);
  for (std::size_t e = 0; e < tags.size(); ++e) tags[e] = 10 * e + 1;
  {
    // Tangled: triangle p2 with the midpoint of edge 0-1 moved by 0.6 (x2 - x0): det J = (1 - 2.4 xi) det A,
    // both signs among the points. Two such elements; the smaller is reported.
    const ElementType type{Shape::triangle, 2};
    test::RandomBlock block = random_block(type, 5000, rng, 0.0);
    for (offset_t bad : {offset_t(4321), offset_t(1234)}) {
      auto node = [&](int n) { return &block.coordinates[std::size_t(block.connectivity[std::size_t(bad * 6 + n)]) * 3]; };
      for (int k = 0; k < 2; ++k) node(3)[k] += 0.6 * (node(2)[k] - node(0)[k]);
    }
    BlockView view = block.view();
    view.element_tags = tags.data();
    expect_gpu_error<DegenerateElementError>(block, view, 1234, "tangled");
  }
  {
    // Degenerate surface element in 3D: element 777's three vertices on one line (the measure is 0 up to
    // rounding, which differs between the CPU and the GPU's FMAs: both must refuse it).
    const ElementType type{Shape::triangle, 1};
    test::RandomBlock block = random_block(type, 2000, rng, 0.0, 3);
    auto node = [&](int n) { return &block.coordinates[std::size_t(block.connectivity[std::size_t(777 * 3 + n)]) * 3]; };
    for (int k = 0; k < 3; ++k) node(2)[k] = 2.0 * node(1)[k] - node(0)[k];
    BlockView view = block.view();
    view.element_tags = tags.data();
    expect_gpu_error<DegenerateElementError>(block, view, 777, "degenerate");
  }
  {
    // A node off the plane z = 0 in a planar block of lines: element 99's local node 1.
    const ElementType type{Shape::line, 3};
    test::RandomBlock block = random_block(type, 300, rng);
    block.coordinates[std::size_t(block.connectivity[std::size_t(99 * 4 + 1)]) * 3 + 2] = 1e-3;
    BlockView view = block.view();
    view.element_tags = tags.data();
    expect_gpu_error<std::invalid_argument>(block, view, 99, "space dimension is 2");
  }
}

TEST(GpuInterpolationErrors, WrongSizesAreRejected) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::quadrilateral, 1};
  const test::RandomBlock block = random_block(type, 10, rng);
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count() - 1, 1, rng);  // one node short
  EXPECT_THROW(gpu(Operation::values, block, points, u, 1), std::invalid_argument);
  const std::vector<double> too_many = random_field(block.node_count(), 10, rng);
  EXPECT_THROW(gpu(Operation::values, block, points, too_many, 10), std::invalid_argument);
  EXPECT_THROW(cuda::DeviceTabulation<double>(type, quadrature_rule(Shape::triangle, 2)), std::invalid_argument);
}


// ---- no hidden synchronisation, and one error flag per plan (cuda/plan.hpp) ---------------------

// A host function enqueued on a stream that holds the stream until the test releases it, or for 30 s at
// most, so that a call which synchronises makes the test fail instead of hang.
struct StreamGate {
  std::atomic<bool> entered{false}, released{false}, timed_out{false};
  static void CUDART_CB hold(void* self) {
    auto* gate = static_cast<StreamGate*>(self);
    gate->entered = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!gate->released) {
      if (std::chrono::steady_clock::now() > deadline) {
        gate->timed_out = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
};

// With a warm plan (every launch decided by a first call), ten rounds of all three operations return
// while the plan's stream is held by a host function: no call waits for the stream, the device, or the
// legacy default stream (the stream is a blocking one, which the legacy default stream would wait for).
// An event recorded after them is still pending until the gate opens. check() is the synchronising call.
template <class Real>
void expect_warm_calls_do_not_synchronise() {
  SCOPED_TRACE(precision_name(precision_of<Real>()));
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::tetrahedron, 2};
  const test::RandomBlock block = random_block(type, 20000, rng);
  const PointSet points = points_for(type);
  const int C = 3;
  const std::vector<double> u = random_field(block.node_count(), C, rng);
  cudaStream_t stream = nullptr;
  cuda::check(cudaStreamCreate(&stream), "creating a stream");
  cudaEvent_t after = nullptr;
  cuda::check(cudaEventCreateWithFlags(&after, cudaEventDisableTiming), "creating an event");
  {
    InterpolatorOptions options;
    options.executor = Executor::cuda(Executor::current_device, stream);
    const ExecutorArray<node_index> connectivity(Executor::cuda(), block.connectivity);
    const ExecutorArray<Real> x(Executor::cuda(), std::vector<Real>(block.coordinates.begin(), block.coordinates.end())),
        field(Executor::cuda(), std::vector<Real>(u.begin(), u.end()));
    BlockView view = block.view();
    view.connectivity = connectivity.data();
    const Interpolator<Real> plan(view, block.node_count(), points, x.data(), options);
    std::vector<ExecutorArray<Real>> outputs;
    for (Operation op : forward_operations) outputs.emplace_back(Executor::cuda(), plan.output_size(op, C));
    ExecutorArray<Real> detj(Executor::cuda(), plan.detj_size());
    auto call_every_operation = [&] {
      for (Operation op : forward_operations) {
        ExecutorArray<Real>& out = outputs[std::size_t(op)];
        plan.apply(op, {field.data(), field.size(), C}, {out.data(), out.size()},
                   op == Operation::physical_gradients ? BasicOutputView<Real>{detj.data(), detj.size()}
                                                       : BasicOutputView<Real>{});
      }
    };
    call_every_operation();
    plan.check();  // warm, and no degenerate element

    StreamGate gate;
    cuda::check(cudaLaunchHostFunc(stream, StreamGate::hold, &gate), "enqueueing the gate");
    while (!gate.entered) std::this_thread::yield();
    for (int round = 0; round < 10; ++round) call_every_operation();
    const bool returned_while_held = !gate.released && !gate.timed_out;
    cuda::check(cudaEventRecord(after, stream), "recording an event");
    const cudaError_t pending = cudaEventQuery(after);
    gate.released = true;
    plan.check();
    EXPECT_TRUE(returned_while_held) << "a warm call waited for its stream";
    EXPECT_FALSE(gate.timed_out);
    EXPECT_EQ(pending, cudaErrorNotReady) << "the calls' work completed while the stream was held";
    EXPECT_EQ(cudaEventQuery(after), cudaSuccess);
    // And the work queued behind the gate is right.
    const std::vector<Real> got = outputs[std::size_t(Operation::physical_gradients)].to_vector();
    const Results expected = cpu(Operation::physical_gradients, block, points, u, C);
    const double tolerance = std::is_same_v<Real, double> ? 1e-12 : 1e-3;
    EXPECT_LE(relative_error(std::vector<double>(got.begin(), got.end()), expected.out), tolerance);
  }
  cudaEventDestroy(after);
  cudaStreamDestroy(stream);
}

TEST(GpuFrontDoor, WarmCallsDoNotSynchronise) {
  FEINTERP_REQUIRE_GPU();
  expect_warm_calls_do_not_synchronise<double>();
  expect_warm_calls_do_not_synchronise<float>();
}

// Two plans over one DeviceBlock, each on its own stream: plan `tangled` sees element 321 tangled (its
// coordinates), plan `clean` sees no bad element. In either order of launches and checks, the clean plan
// never reports the other's element, and the tangled plan's error survives the clean plan's launches and
// checks. An error is reported once, then forgotten.
TEST(GpuPlanErrors, TwoStreamsSharingABlockCannotMaskEachOthersError) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::triangle, 2};
  const offset_t bad = 321;
  const test::RandomBlock block = random_block(type, 4000, rng, 0.0);
  std::vector<double> tangled_coordinates = block.coordinates;
  auto node = [&](int n) {
    return &tangled_coordinates[std::size_t(block.connectivity[std::size_t(bad * 6 + n)]) * 3];
  };
  for (int k = 0; k < 2; ++k) node(3)[k] += 0.6 * (node(2)[k] - node(0)[k]);
  std::vector<std::size_t> tags(std::size_t(block.elements));
  for (std::size_t e = 0; e < tags.size(); ++e) tags[e] = 10 * e + 1;
  BlockView view = block.view();
  view.element_tags = tags.data();

  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  auto shared = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(view, block.node_count()));
  cudaStream_t streams[2] = {nullptr, nullptr};
  for (cudaStream_t& s : streams) cuda::check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream");
  {
    cuda::DeviceBuffer<double> x_tangled(tangled_coordinates), x_clean(block.coordinates), du(u);
    const std::size_t size = output_size(Operation::physical_gradients, view, points.size(), 1);
    cuda::DeviceBuffer<double> out_tangled(size), out_clean(size);
    cuda::PlanOptions on_first, on_second;
    on_first.stream = streams[0];
    on_second.stream = streams[1];
    const cuda::Plan<double> tangled(shared, points, x_tangled.data(), on_first);
    const cuda::Plan<double> clean(shared, points, x_clean.data(), on_second);
    const FieldView field{du.data(), du.size(), 1};
    auto run = [&](const cuda::Plan<double>& plan, cuda::DeviceBuffer<double>& out) {
      plan.apply(Operation::physical_gradients, field, {out.data(), out.size()});
    };
    auto expect_reported = [&](const cuda::Plan<double>& plan) {
      try {
        plan.check();
        ADD_FAILURE() << "the tangled element was not reported";
      } catch (const DegenerateElementError& e) {
        EXPECT_EQ(e.element(), bad);
        EXPECT_NE(std::string(e.what()).find("element tag 3211"), std::string::npos) << e.what();
      }
    };
    // The tangled plan first, then the clean one several times; the clean plan is checked first.
    run(tangled, out_tangled);
    for (int i = 0; i < 3; ++i) run(clean, out_clean);
    EXPECT_NO_THROW(clean.check());
    expect_reported(tangled);
    EXPECT_NO_THROW(tangled.check());  // reported once, then forgotten
    // The other order: the clean plan launches first and last, the tangled plan is checked first.
    run(clean, out_clean);
    run(tangled, out_tangled);
    run(clean, out_clean);
    expect_reported(tangled);
    EXPECT_NO_THROW(clean.check());
    // And the clean plan's results are those of the CPU.
    const std::vector<double> got = out_clean.to_host(streams[1]);
    EXPECT_LE(relative_error(got, cpu(Operation::physical_gradients, block, points, u, 1).out), 1e-12);
  }
  for (cudaStream_t s : streams) cudaStreamDestroy(s);
}

}  // namespace
}  // namespace feinterp
