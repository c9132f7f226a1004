// SPDX-License-Identifier: BSD-3-Clause
// Every array a plan is given must live where the plan computes (interpolator/detail/array_location.hpp):
// host arrays handed to a GPU plan, and device arrays to a CPU plan, are refused by name before anything
// runs (the outputs keep their NaN poison), while managed and pinned host memory, which both sides can
// reach, compute the same numbers as device arrays.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/cuda/gpu_test_support.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;
using test::expect_invalid;

// cudaMallocManaged or cudaMallocHost memory holding `values`.
class CudaHostReachable {
 public:
  enum Kind { managed, pinned };
  CudaHostReachable(Kind kind, const std::vector<double>& values) : kind_(kind), size_(values.size()) {
    void* p = nullptr;
    const std::size_t bytes = values.size() * sizeof(double);
    cuda::check(kind == managed ? cudaMallocManaged(&p, bytes) : cudaMallocHost(&p, bytes), "allocating");
    data_ = static_cast<double*>(p);
    for (std::size_t i = 0; i < size_; ++i) data_[i] = values[i];
  }
  ~CudaHostReachable() { kind_ == managed ? cudaFree(data_) : cudaFreeHost(data_); }
  CudaHostReachable(const CudaHostReachable&) = delete;
  CudaHostReachable& operator=(const CudaHostReachable&) = delete;
  double* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::vector<double> values() const { return {data_, data_ + size_}; }

 private:
  Kind kind_;
  std::size_t size_;
  double* data_ = nullptr;
};

struct Problem {
  ElementType type{Shape::hexahedron, 2};
  test::RandomBlock block;
  PointSet points;
  int C = 2;
  std::vector<double> u;
};

Problem problem() {
  std::mt19937_64 rng(test::test_seed());
  Problem s;
  s.block = test::random_block(s.type, 500, rng);
  s.points = quadrature_rule(s.type.shape, 4);
  s.u = test::random_field(s.block.node_count(), s.C, rng);
  return s;
}

// The problem's connectivity, coordinates and field on the GPU, and the block viewed there.
struct OnDevice {
  OnDevice(const Problem& s, const Executor& gpu)
      : connectivity(gpu, s.block.connectivity), x(gpu, s.block.coordinates), u(gpu, s.u), view(s.block.view()) {
    view.connectivity = connectivity.data();
  }
  ExecutorArray<node_index> connectivity;
  ExecutorArray<double> x, u;
  BlockView view;
};

bool all_nan(const std::vector<double>& values) {
  for (double v : values)
    if (!std::isnan(v)) return false;
  return true;
}

TEST(ArrayLocation, AGpuPlanRefusesHostArraysByName) {
  FEINTERP_REQUIRE_GPU();
  const Problem s = problem();
  const Executor gpu = Executor::cuda();
  const OnDevice d(s, gpu);
  const ExecutorArray<double>& x = d.x;
  const ExecutorArray<double>& u = d.u;
  const BlockView& view = d.view;
  InterpolatorOptions options;
  options.executor = gpu;
  const offset_t n = s.block.node_count();

  // The plan's own arrays, at construction.
  expect_invalid([&] { Interpolator<double>(s.block.view(), n, s.points, x.data(), options); },
                 "Interpolator: the connectivity: pageable host memory, but the plan computes on cuda:");
  expect_invalid([&] { Interpolator<double>(view, n, s.points, s.block.coordinates.data(), options); },
                 "Interpolator: the coordinates: pageable host memory");

  const Interpolator<double> plan(view, n, s.points, x.data(), options);
  const Operation op = Operation::physical_gradients;
  ExecutorArray<double> out(gpu, plan.output_size(op, s.C)), detj(gpu, plan.detj_size());
  std::vector<double> host_out = test::poisoned(out.size()), host_detj = test::poisoned(detj.size());
  expect_invalid([&] { plan.apply(op, {s.u.data(), s.u.size(), s.C}, {out.data(), out.size()}, {}); },
                 "apply: the field u: pageable host memory");
  expect_invalid([&] { plan.apply(op, {u.data(), u.size(), s.C}, {host_out.data(), host_out.size()}, {}); },
                 "apply: the output: pageable host memory");
  expect_invalid([&] {
    plan.apply(op, {u.data(), u.size(), s.C}, {out.data(), out.size()}, {host_detj.data(), host_detj.size()});
  }, "apply: the det J output: pageable host memory");
  std::vector<double> host_r = test::poisoned(std::size_t(n) * s.C);
  expect_invalid([&] {
    plan.apply_transpose(op, {out.data(), out.size(), s.C}, {host_r.data(), host_r.size()}, {TransposeTarget::nodes});
  }, "apply_transpose: the output: pageable host memory");
  expect_invalid([&] { plan.apply_laplacian({u.data(), u.size(), s.C}, {host_r.data(), host_r.size()}); },
                 "apply_operator: the output r: pageable host memory");
  const std::vector<double> kappa(plan.detj_size(), 2.0);
  ExecutorArray<double> r(gpu, host_r.size());
  expect_invalid([&] {
    plan.apply_operator(FusedOperator::mass, {u.data(), u.size(), s.C}, {r.data(), r.size()},
                        {kappa.data(), kappa.size()});
  }, "apply_operator: the coefficient: pageable host memory");
  expect_invalid([&] { plan.operator_diagonal(FusedOperator::mass, s.C, {host_r.data(), host_r.size()}); },
                 "operator_diagonal: the output d: pageable host memory");
  plan.check();
  EXPECT_TRUE(all_nan(host_out));
  EXPECT_TRUE(all_nan(host_detj));
  EXPECT_TRUE(all_nan(host_r));
}

TEST(ArrayLocation, ACpuPlanRefusesDeviceArraysByName) {
  FEINTERP_REQUIRE_GPU();
  const Problem s = problem();
  const Executor gpu = Executor::cuda();
  const OnDevice d(s, gpu);
  const ExecutorArray<double>& x = d.x;
  const ExecutorArray<double>& u = d.u;
  const BlockView& device_view = d.view;
  const offset_t n = s.block.node_count();
  const InterpolatorOptions on_cpu{Executor::cpu()};
  expect_invalid([&] { Interpolator<double>(device_view, n, s.points, s.block.coordinates.data(), on_cpu); },
                 "Interpolator: the connectivity: device memory of cuda:");
  expect_invalid([&] { Interpolator<double>(s.block.view(), n, s.points, x.data(), on_cpu); },
                 "Interpolator: the coordinates: device memory of cuda:");

  const Interpolator<double> plan(s.block.view(), n, s.points, s.block.coordinates.data(), on_cpu);
  const Operation op = Operation::values;
  ExecutorArray<double> out(gpu, test::poisoned(plan.output_size(op, s.C)));
  std::vector<double> host_out(out.size());
  expect_invalid([&] { plan.apply(op, {u.data(), u.size(), s.C}, {host_out.data(), host_out.size()}, {}); },
                 "apply: the field u: device memory of cuda:");
  expect_invalid([&] { plan.apply(op, {s.u.data(), s.u.size(), s.C}, {out.data(), out.size()}, {}); },
                 "but the plan computes on the cpu");
  EXPECT_TRUE(all_nan(out.to_vector()));
}

// Managed and pinned host memory are reachable from both sides: the same numbers as device arrays on the
// GPU and host arrays on the CPU.
TEST(ArrayLocation, ManagedAndPinnedHostMemoryComputeOnBothExecutors) {
  FEINTERP_REQUIRE_GPU();
  const Problem s = problem();
  const Executor gpu = Executor::cuda();
  const OnDevice d(s, gpu);
  const offset_t n = s.block.node_count();
  const Interpolator<double> gpu_plan(d.view, n, s.points, d.x.data(), {gpu});
  const Interpolator<double> cpu_plan(s.block.view(), n, s.points, s.block.coordinates.data(), {Executor::cpu()});
  const Operation op = Operation::physical_gradients;
  ExecutorArray<double> expected(gpu, gpu_plan.output_size(op, s.C));
  gpu_plan.apply(op, {d.u.data(), d.u.size(), s.C}, {expected.data(), expected.size()}, {});
  gpu_plan.check();
  const std::vector<double> reference = expected.to_vector();

  for (const CudaHostReachable::Kind kind : {CudaHostReachable::managed, CudaHostReachable::pinned}) {
    SCOPED_TRACE(kind == CudaHostReachable::managed ? "managed" : "pinned host");
    const CudaHostReachable field(kind, s.u);
    for (const Interpolator<double>* plan : {&gpu_plan, &cpu_plan}) {
      SCOPED_TRACE(plan == &gpu_plan ? "gpu plan" : "cpu plan");
      const CudaHostReachable out(kind, test::poisoned(reference.size()));
      plan->apply(op, {field.data(), field.size(), s.C}, {out.data(), out.size()}, {});
      plan->check();
      cuda::check(cudaDeviceSynchronize(), "waiting for the device");
      EXPECT_LE(test::relative_error(out.values(), reference), 1e-12);
    }
  }
}

}  // namespace
}  // namespace feinterp
