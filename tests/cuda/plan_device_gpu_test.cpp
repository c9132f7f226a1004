// SPDX-License-Identifier: BSD-3-Clause
// A plan keeps the device it was built for: through the front door (Executor::cuda(d, stream)) and the
// backend (a DeviceBlock's device, PlanOptions::device), its arrays live on d, and apply, the transposes,
// the fused Laplacian, check() and launch_config() compute there while another device is current, and
// give the caller's current device back. On the default stream a kernel on the wrong device would read
// another device's memory; on a stream of d it would not launch at all. The tests that need two devices
// skip, visibly, on a machine with one; the last device is the plan's (device 0 is current by default).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/cuda/plan.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/device_buffer.hpp>
#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/runtime/scoped_device.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>
#include <feinterp/tests/cuda/plan_run.hpp>

#define FEINTERP_REQUIRE_TWO_GPUS()                                                                   \
  do {                                                                                                \
    FEINTERP_REQUIRE_GPU();                                                                           \
    const int devices = ::feinterp::backends::cuda::device_count();                                   \
    if (devices < 2) GTEST_SKIP() << "two-GPU test skipped: this machine has " << devices << " CUDA device"; \
  } while (0)

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using test::expect_invalid;
using test::relative_error;

int current_device() {
  int device = -1;
  cuda::check(cudaGetDevice(&device), "querying the current device");
  return device;
}

void make_current(int device) { cuda::check(cudaSetDevice(device), "making a device current"); }

int device_of(const void* pointer) {
  cudaPointerAttributes attributes{};
  cuda::check(cudaPointerGetAttributes(&attributes, pointer), "querying the device of a pointer");
  return attributes.device;
}

// A stream of `device`, destroyed with it current.
class DeviceStream {
 public:
  explicit DeviceStream(int device) : device_(device) {
    const cuda::ScopedDevice on_device(device_);
    cuda::check(cudaStreamCreate(&stream_), "creating a stream");
  }
  ~DeviceStream() {
    const cuda::ScopedDevice on_device(device_);
    cudaStreamDestroy(stream_);
  }
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  int device_;
  cudaStream_t stream_ = nullptr;
};

struct Problem {
  ElementType type{Shape::tetrahedron, 2};
  test::RandomBlock block;
  PointSet points;
  int C = 3;
  std::vector<double> u;
};

Problem problem(std::mt19937_64& rng) {
  Problem p;
  p.block = test::random_block(p.type, 3000, rng);
  p.points = quadrature_rule(p.type.shape, 4);
  p.u = test::random_field(p.block.node_count(), p.C, rng);
  return p;
}

TEST(PlanDevice, FrontDoorPlanComputesOnItsDeviceWhateverDeviceIsCurrent) {
  FEINTERP_REQUIRE_TWO_GPUS();
  const int home = cuda::device_count() - 1, other = 0;
  std::mt19937_64 rng(test::test_seed());
  const Problem p = problem(rng);
  const test::Computed<double> expected = test::cpu(Operation::physical_gradients, p.block, p.points, p.u, p.C);
  const DeviceStream home_stream(home);
  for (void* stream : {static_cast<void*>(nullptr), static_cast<void*>(home_stream.get())}) {
    SCOPED_TRACE(stream ? "the plan's own stream" : "the default stream");
    make_current(other);
    const Executor executor = Executor::cuda(home, stream);
    const ExecutorArray<node_index> connectivity(executor, p.block.connectivity);
    const ExecutorArray<double> x(executor, p.block.coordinates), field(executor, p.u);
    EXPECT_EQ(device_of(connectivity.data()), home);
    EXPECT_EQ(device_of(field.data()), home);
    BlockView view = p.block.view();
    view.connectivity = connectivity.data();
    InterpolatorOptions options;
    options.executor = executor;
    const Interpolator<double> plan(view, p.block.node_count(), p.points, x.data(), options);
    EXPECT_EQ(plan.executor(), executor);
    EXPECT_EQ(current_device(), other) << "building the plan";

    const Operation op = Operation::physical_gradients;
    ExecutorArray<double> out(executor, plan.output_size(op, p.C)), detj(executor, plan.detj_size());
    plan.apply(op, {field.data(), field.size(), p.C}, {out.data(), out.size()}, {detj.data(), detj.size()});
    EXPECT_EQ(current_device(), other) << "apply";
    plan.check();
    EXPECT_EQ(current_device(), other) << "check";
    EXPECT_LE(relative_error(out.to_vector(), expected.out), 1e-12);
    EXPECT_LE(relative_error(detj.to_vector(), expected.detj), 1e-12);

    // The transpose and the fused Laplacian, against the CPU executor.
    const Interpolator<double> host(p.block.view(), p.block.node_count(), p.points, p.block.coordinates.data(),
                                    {Executor::cpu()});
    const std::vector<double> g = out.to_vector();
    std::vector<double> r_cpu(std::size_t(p.block.node_count()) * p.C), l_cpu(r_cpu.size());
    host.apply_transpose(op, {g.data(), g.size(), p.C}, {r_cpu.data(), r_cpu.size()}, {TransposeTarget::nodes, true});
    host.apply_laplacian({p.u.data(), p.u.size(), p.C}, {l_cpu.data(), l_cpu.size()});
    ExecutorArray<double> r(executor, r_cpu.size()), l(executor, l_cpu.size());
    plan.apply_transpose(op, {out.data(), out.size(), p.C}, {r.data(), r.size()}, {TransposeTarget::nodes, true});
    EXPECT_EQ(current_device(), other) << "apply_transpose";
    plan.apply_laplacian({field.data(), field.size(), p.C}, {l.data(), l.size()});
    EXPECT_EQ(current_device(), other) << "apply_laplacian";
    plan.check();
    EXPECT_LE(relative_error(r.to_vector(), r_cpu), 1e-12);
    EXPECT_LE(relative_error(l.to_vector(), l_cpu), 1e-12);
    EXPECT_EQ(current_device(), other) << "the arrays' copies";
  }
  make_current(0);
}

TEST(PlanDevice, BackendPlanComputesOnItsBlocksDevice) {
  FEINTERP_REQUIRE_TWO_GPUS();
  const int home = cuda::device_count() - 1, other = 0;
  std::mt19937_64 rng(test::test_seed());
  const Problem p = problem(rng);
  const test::Computed<double> expected = test::cpu(Operation::reference_gradients, p.block, p.points, p.u, p.C);

  make_current(home);
  auto block =
      std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(p.block.view(), p.block.node_count()));
  const cuda::DeviceBuffer<double> field(p.u), x(p.block.coordinates);
  cuda::DeviceBuffer<double> out(output_size(Operation::reference_gradients, p.block.view(), p.points.size(), p.C));
  EXPECT_EQ(block->device(), home);
  EXPECT_EQ(out.device(), home);

  make_current(other);
  const cuda::Plan<double> plan(block, p.points, x.data());  // the block's device, not the current one
  EXPECT_EQ(plan.device(), home);
  EXPECT_EQ(plan.options().device, home);
  EXPECT_EQ(current_device(), other) << "building the plan";
  cuda::PlanOptions elsewhere;
  elsewhere.device = other;
  expect_invalid([&] { cuda::Plan<double>(block, p.points, x.data(), elsewhere); },
                 "a plan on CUDA device " + std::to_string(other) + " over a block on device " + std::to_string(home));
  elsewhere.device = cuda::device_count();
  expect_invalid([&] { cuda::Plan<double>(block, p.points, x.data(), elsewhere); },
                 "CUDA device " + std::to_string(cuda::device_count()) + " does not exist");

  plan.launch_config(Operation::reference_gradients, p.C);
  EXPECT_EQ(current_device(), other) << "launch_config";
  plan.apply(Operation::reference_gradients, {field.data(), field.size(), p.C}, {out.data(), out.size()});
  EXPECT_EQ(current_device(), other) << "apply";
  plan.check();
  EXPECT_EQ(current_device(), other) << "check";
  EXPECT_LE(relative_error(out.to_host(), expected.out), 1e-12);
  EXPECT_EQ(current_device(), other) << "the buffer's copy";
  make_current(0);
}

// On any machine with a GPU: a plan made for the current device records it, and a device the machine
// does not have is refused by the front door's arrays and plans, naming it and the device count.
/// ExecutorArray::copy_from_device: the copy is the array's own, done when the call returns (what the Python
/// plan relies on to own device connectivity and coordinates), and bounded by the array's size.
TEST(PlanDevice, ArraysCopyDeviceMemoryIntoTheirOwn) {
  FEINTERP_REQUIRE_GPU();
  std::mt19937_64 rng(test::test_seed());
  std::vector<double> values(1000), other(1000);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (double& v : values) v = unit(rng);
  for (double& v : other) v = unit(rng);
  ExecutorArray<double> source(Executor::cuda(), values);
  ExecutorArray<double> copy(Executor::cuda(), values.size());
  copy.copy_from(other.data(), other.size());  // known contents, overwritten below
  copy.copy_from_device(source.data(), values.size());
  source.copy_from(other.data(), other.size());  // the source changes afterwards
  EXPECT_EQ(copy.to_vector(), values);
  expect_invalid([&] { copy.copy_from_device(source.data(), values.size() + 1); }, "copying 1001 values into 1000");
}

TEST(PlanDevice, ExecutorsNameADeviceOfThisMachine) {
  FEINTERP_REQUIRE_GPU();
  const int count = cuda::device_count();
  const int current = current_device();
  std::mt19937_64 rng(test::test_seed());
  const Problem p = problem(rng);
  const ExecutorArray<node_index> connectivity(Executor::cuda(), p.block.connectivity);
  EXPECT_EQ(connectivity.executor(), Executor::cuda(current));
  BlockView view = p.block.view();
  view.connectivity = connectivity.data();
  const Interpolator<double> plan(view, p.block.node_count(), p.points, nullptr, {Executor::cuda()});
  EXPECT_EQ(plan.executor(), Executor::cuda(current));

  const std::string missing = "CUDA device " + std::to_string(count) + " does not exist: this machine has " +
                              std::to_string(count) + (count == 1 ? " CUDA device" : " CUDA devices");
  expect_invalid([&] { ExecutorArray<double>(Executor::cuda(count), 4); }, missing);
  expect_invalid([&] { Interpolator<double>(view, p.block.node_count(), p.points, nullptr, {Executor::cuda(count)}); },
                 missing);
  EXPECT_EQ(current_device(), current);
}

}  // namespace
}  // namespace feinterp
