// GPU against CPU for every element type, component count and operation; every elements_per_block
// gives identical results; partial last blocks; a 1M-element block; bad input is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <feinterp/cuda/device_buffer.hpp>
#include <feinterp/cuda/interpolate.hpp>
#include <feinterp/cuda/launch_config.hpp>
#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/interpolate.hpp>
#include <feinterp/fem/layout.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tabulation.hpp>

#include "../support/random_block.hpp"
#include "gpu_test_support.hpp"

namespace feinterp {
namespace {

using test::poisoned;
using test::random_block;
using test::random_field;
using test::relative_error;

const Operation all_operations[] = {Operation::values, Operation::reference_gradients, Operation::physical_gradients};

struct Results {
  std::vector<double> out, detj;
};

Results cpu(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C) {
  const Tabulation table = tabulate(block.type, points);
  const int D = dimension(block.type.shape);
  Results r{poisoned(output_size(op, block.elements, points.size(), C, D)), poisoned(std::size_t(block.elements) * points.size())};
  const FieldView field{u.data(), u.size(), C};
  switch (op) {
    case Operation::values: interpolate_values(block.view(), table, block.node_count(), field, {r.out.data(), r.out.size()}); break;
    case Operation::reference_gradients:
      interpolate_reference_gradients(block.view(), table, block.node_count(), field, {r.out.data(), r.out.size()});
      break;
    case Operation::physical_gradients:
      interpolate_physical_gradients(block.view(), table, block.coordinates.data(), block.node_count(), field,
                                     {r.out.data(), r.out.size()}, {r.detj.data(), r.detj.size()});
      break;
  }
  return r;
}

// Device-pointer API, outputs poisoned with NaN on the device before the launch.
Results gpu(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
            const cuda::LaunchOptions& options = {}) {
  const cuda::DeviceBlock device_block = cuda::DeviceBlock::upload(block.view(), block.node_count());
  const cuda::DeviceTabulation table(block.type, points);
  const int D = dimension(block.type.shape);
  const std::size_t size = output_size(op, block.elements, points.size(), C, D);
  cuda::DeviceBuffer<double> du(u), dx(block.coordinates), dout(poisoned(size)),
      ddetj(poisoned(std::size_t(block.elements) * points.size()));
  const FieldView field{du.data(), u.size(), C};
  switch (op) {
    case Operation::values: cuda::interpolate_values(device_block, table, field, {dout.data(), size}, options); break;
    case Operation::reference_gradients:
      cuda::interpolate_reference_gradients(device_block, table, field, {dout.data(), size}, options);
      break;
    case Operation::physical_gradients:
      cuda::interpolate_physical_gradients(device_block, table, dx.data(), field, {dout.data(), size},
                                           {ddetj.data(), ddetj.size()}, options);
      break;
  }
  cuda::check(cudaStreamSynchronize(options.stream), "test");
  Results r{dout.to_host(), ddetj.to_host()};
  return r;
}

PointSet points_for(ElementType type) { return quadrature_rule(type.shape, 2 * type.order); }

class GpuInterpolation : public ::testing::TestWithParam<ElementType> {};

TEST_P(GpuInterpolation, MatchesCpuForEveryOperationAndComponentCount) {
  FEINTERP_REQUIRE_GPU();
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const test::RandomBlock block = random_block(type, 1009, rng);  // prime: the last block is partial
  const PointSet points = points_for(type);
  for (int C : {1, dimension(type.shape), max_components}) {
    const std::vector<double> u = random_field(block.node_count(), C, rng);
    for (Operation op : all_operations) {
      SCOPED_TRACE(std::string(operation_name(op)) + ", C = " + std::to_string(C));
      const Results expected = cpu(op, block, points, u, C);
      for (cuda::Kernel kernel : {cuda::Kernel::packed, cuda::Kernel::baseline}) {
        cuda::LaunchOptions options;
        options.kernel = kernel;
        const Results got = gpu(op, block, points, u, C, options);
        EXPECT_LE(relative_error(got.out, expected.out), 1e-12) << (kernel == cuda::Kernel::packed ? "packed" : "baseline");
        if (op == Operation::physical_gradients) EXPECT_LE(relative_error(got.detj, expected.detj), 1e-12);
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
  const test::RandomBlock block = random_block(type, 211, rng);
  const int C = dimension(type.shape);
  const std::vector<double> u = random_field(block.node_count(), C, rng);
  for (Operation op : all_operations) {
    const int limit = cuda::max_elements_per_block(type, op, points.size(), C, cuda::current_device());
    ASSERT_GE(limit, 1);
    cuda::LaunchOptions options;
    options.elements_per_block = 1;
    const Results reference = gpu(op, block, points, u, C, options);
    ASSERT_EQ(relative_error(reference.out, cpu(op, block, points, u, C).out) <= 1e-12, true);
    for (int count = 2; count <= limit; ++count) {
      options.elements_per_block = count;
      const Results got = gpu(op, block, points, u, C, options);
      ASSERT_EQ(got.out, reference.out) << operation_name(op) << ", elements_per_block = " << count;
    }
  }
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
  const int chosen = cuda::packed_launch_config(type, op, points.size(), C, 0, cuda::current_device()).elements_per_block;
  for (offset_t elements : {offset_t(1), offset_t(std::max(chosen - 1, 1)), offset_t(chosen), offset_t(chosen + 1),
                            offset_t(type.order == 3 ? 10007 : 100003)}) {
    const test::RandomBlock block = random_block(type, elements, rng);
    const std::vector<double> u = random_field(block.node_count(), C, rng);
    EXPECT_LE(relative_error(gpu(op, block, points, u, C).out, cpu(op, block, points, u, C).out), 1e-12)
        << elements << " elements, elements_per_block = " << chosen;
  }
}

INSTANTIATE_TEST_SUITE_P(AllElements, GpuInterpolation, ::testing::ValuesIn(all_element_types),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           return std::string(shape_name(info.param.shape)) + "_p" + std::to_string(info.param.order);
                         });

TEST(GpuInterpolation, MillionElementBlock) {
  FEINTERP_REQUIRE_GPU();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const ElementType type{Shape::tetrahedron, 1};
  const test::RandomBlock block = random_block(type, 1000003, rng);
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 3, rng);
  for (Operation op : all_operations) {
    const Results expected = cpu(op, block, points, u, 3);
    const Results got = gpu(op, block, points, u, 3);
    EXPECT_LE(relative_error(got.out, expected.out), 1e-12) << operation_name(op);
  }
}

TEST(GpuInterpolation, HostArrayOverloadMatchesCpu) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::hexahedron, 2};
  const test::RandomBlock block = random_block(type, 777, rng);
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 2, rng);
  const Results expected = cpu(Operation::physical_gradients, block, points, u, 2);
  std::vector<double> out = poisoned(expected.out.size()), detj = poisoned(expected.detj.size());
  cuda::interpolate_host_arrays(Operation::physical_gradients, block.view(), points, block.coordinates.data(),
                                block.node_count(), {u.data(), u.size(), 2}, {out.data(), out.size()},
                                {detj.data(), detj.size()});
  EXPECT_LE(relative_error(out, expected.out), 1e-12);
  EXPECT_LE(relative_error(detj, expected.detj), 1e-12);
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
  cuda::LaunchOptions options;
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
    const cuda::DeviceTabulation device(type, points);
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
  const int limit = cuda::max_elements_per_block(type, Operation::physical_gradients, points.size(), 3, cuda::current_device());
  for (int bad : {limit + 1, -1, 100000}) {
    cuda::LaunchOptions options;
    options.elements_per_block = bad;
    EXPECT_THROW(gpu(Operation::physical_gradients, block, points, u, 3, options), std::invalid_argument) << bad;
  }
}

TEST(GpuInterpolationErrors, InvertedElementIsReportedByIndex) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  const ElementType type{Shape::tetrahedron, 2};
  test::RandomBlock block = random_block(type, 500, rng, 0.0);
  // Mirror element 321 through x = 0: det J < 0 at every point.
  for (int n = 0; n < 10; ++n) block.coordinates[std::size_t(block.connectivity[321 * 10 + n]) * 3] *= -1.0;
  const PointSet points = points_for(type);
  const std::vector<double> u = random_field(block.node_count(), 1, rng);
  try {
    gpu(Operation::physical_gradients, block, points, u, 1);
    FAIL() << "expected InvertedElementError";
  } catch (const InvertedElementError& e) {
    EXPECT_EQ(e.element(), 321);
    EXPECT_LT(e.detj(), 0.0);
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
  const cuda::DeviceBlock device_block = cuda::DeviceBlock::upload(block.view(), block.node_count());
  EXPECT_THROW(cuda::DeviceTabulation(type, quadrature_rule(Shape::triangle, 2)), std::invalid_argument);
}

}  // namespace
}  // namespace feinterp
