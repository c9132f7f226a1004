// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/common/benchmark_case.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <utility>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/core/traffic.hpp>

namespace feinterp::tuning {

struct BenchmarkCase::Runner {
  virtual ~Runner() = default;
  virtual int rotations() const = 0;
  virtual void launch(int index, const CaseLaunch& launch) = 0;
  virtual std::vector<double> result(const CaseLaunch& launch) = 0;
  virtual cuda::LaunchConfig launch_config(const CaseLaunch& launch) = 0;
  virtual void prepare(const CaseLaunch& launch) = 0;
};

template <class Real>
struct BenchmarkCase::RunnerOf : BenchmarkCase::Runner {
  struct Set {
    std::shared_ptr<const cuda::DeviceBlock> block;
    cuda::DeviceBuffer<Real> field, coordinates, out, detj;
    std::map<std::tuple<int, int, int, int, bool, int>, std::unique_ptr<cuda::Plan<Real>>>
        plans;  // per (kernel, elements_per_block, variant, tensor strides, run-time C, operator geometry)
  };
  CaseSpec spec;
  std::vector<Set> sets;

  RunnerOf(const CaseSpec& s, unsigned seed, offset_t minimal_bytes) : spec(s) {
    const int Q = spec.points.size(), C = spec.components;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const bool transpose = is_transpose(spec.op) && !spec.fused;
    const int D = dimension(spec.block.type.shape), S = space_dimension(spec.block);
    // The input: the nodal field, or a transpose's point data.
    std::vector<Real> field(transpose ? point_data_size(spec.op, spec.block.element_count, Q, C, D, S)
                                      : std::size_t(spec.node_count) * C);
    for (Real& x : field) x = Real(unit(rng));  // never zeros: they can hide unwritten outputs and run faster
    const bool geometric = forward_of(spec.op) == Operation::physical_gradients || (transpose && spec.transpose.weighted) ||
                           spec.fused;
    // Only what reads the geometry gets a copy of the coordinates in Real: 6.5 GB of host memory for the
    // 270M nodes of 10M p3 hexahedra.
    const std::vector<Real> coordinates = geometric ? std::vector<Real>(spec.coordinates->begin(), spec.coordinates->end())
                                                    : std::vector<Real>();
    const cuda::DeviceInfo& device = cuda::current_device();
    std::size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "querying free device memory");
    const std::size_t per_set = std::size_t(minimal_bytes) + std::size_t(spec.block.element_count) * Q * sizeof(Real);
    int rotations = int(std::min<std::size_t>(16, (4 * device.l2_bytes + minimal_bytes - 1) / std::max<offset_t>(minimal_bytes, 1)));
    rotations = std::max(1, std::min<int>(rotations, int(free_bytes / 2 / std::max<std::size_t>(per_set, 1))));
    const std::size_t out_size =
        spec.fused ? std::size_t(spec.node_count) * C
        : !transpose ? output_size(spec.op, spec.block, Q, C)
        : spec.transpose.target == TransposeTarget::nodes
            ? std::size_t(spec.node_count) * C
            : std::size_t(spec.block.element_count) * std::size_t(nodes_per_element(spec.block.type)) * C;
    const bool physical = spec.op == Operation::physical_gradients;
    for (int r = 0; r < rotations; ++r) {
      Set set;
      set.block = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(spec.block, spec.node_count));
      set.field = cuda::DeviceBuffer<Real>(field);
      set.coordinates = geometric ? cuda::DeviceBuffer<Real>(coordinates) : cuda::DeviceBuffer<Real>();
      set.out = cuda::DeviceBuffer<Real>(out_size);
      set.detj = cuda::DeviceBuffer<Real>(physical ? std::size_t(spec.block.element_count) * Q : 0);
      sets.push_back(std::move(set));
    }
  }

  cuda::Plan<Real>& plan(Set& set, const CaseLaunch& l) {
    const auto key = std::make_tuple(int(l.kernel), l.elements_per_block, l.variant ? l.variant->index() : -1,
                                     int(l.tensor_strides), l.run_time_components, int(l.geometry));
    if (spec.fused && !set.plans.count(key)) set.plans.clear();  // precomputed factors: one choice's at a time
    std::unique_ptr<cuda::Plan<Real>>& p = set.plans[key];
    if (!p) {
      cuda::PlanOptions options;
      options.kernel = l.kernel;
      options.elements_per_block = l.elements_per_block;
      options.variant = l.variant;
      options.tensor_strides = l.tensor_strides;
      options.summation = spec.summation;
      options.run_time_components = l.run_time_components;
      options.operator_geometry = l.geometry;
      p = std::make_unique<cuda::Plan<Real>>(set.block, spec.points, set.coordinates.size() ? set.coordinates.data() : nullptr,
                                             options);
    }
    return *p;
  }

  int rotations() const override { return int(sets.size()); }

  void launch(int index, const CaseLaunch& l) override {
    Set& set = sets[std::size_t(index) % sets.size()];
    if (spec.fused) {
      plan(set, l).apply_operator(*spec.fused, {set.field.data(), set.field.size(), spec.components},
                                  {set.out.data(), set.out.size()});
      return;
    }
    if (is_transpose(spec.op)) {
      plan(set, l).apply_transpose(spec.op, {set.field.data(), set.field.size(), spec.components},
                                   {set.out.data(), set.out.size()}, spec.transpose);
      return;
    }
    plan(set, l).apply(spec.op, {set.field.data(), set.field.size(), spec.components}, {set.out.data(), set.out.size()},
                       {set.detj.data(), set.detj.size()});
  }

  std::vector<double> result(const CaseLaunch& l) override {
    launch(0, l);
    plan(sets.front(), l).check();
    const std::vector<Real> out = sets.front().out.to_host();
    return std::vector<double>(out.begin(), out.end());
  }

  cuda::LaunchConfig launch_config(const CaseLaunch& l) override {
    return plan(sets.front(), l).launch_config(spec.op, spec.components, spec.transpose.weighted);
  }

  // Every copy's plan for this choice, and its launch decision, made before anything is timed; for a
  // fused operator one call per copy too, which computes the precomputed factors that plan keeps: their
  // allocation waits for the stream, and a held batch would wait for it in turn.
  void prepare(const CaseLaunch& l) override {
    for (std::size_t i = 0; i < sets.size(); ++i) {
      plan(sets[i], l).launch_config(spec.op, spec.components, spec.transpose.weighted);
      if (spec.fused) launch(int(i), l);
    }
  }
};

BenchmarkCase::BenchmarkCase(const CaseSpec& spec, unsigned seed) {
  const ElementType type = spec.block.type;
  const int N = nodes_per_element(type), D = dimension(type.shape), S = space_dimension(spec.block);
  const int Q = spec.points.size(), C = spec.components;
  minimal_bytes_ = spec.fused ? operator_minimal_bytes(*spec.fused, spec.block.element_count, N, spec.node_count, Q, C, D,
                                                       spec.precision, false)
                              : feinterp::minimal_bytes(spec.op, spec.block.element_count, N, spec.node_count, Q, C, D, S,
                                                        spec.precision, spec.transpose);
  if (spec.precision == Precision::fp64)
    runner_ = std::make_unique<RunnerOf<double>>(spec, seed, minimal_bytes_);
  else
    runner_ = std::make_unique<RunnerOf<float>>(spec, seed, minimal_bytes_);
}

BenchmarkCase::~BenchmarkCase() = default;

int BenchmarkCase::rotations() const { return runner_->rotations(); }

Timing BenchmarkCase::time(const CaseLaunch& launch, int warmup, int batches, BatchIssue issue, int per_batch) {
  runner_->prepare(launch);
  return time_launches([&](int i) { runner_->launch(i, launch); }, warmup, batches, per_batch, nullptr, issue);
}

std::vector<double> BenchmarkCase::result(const CaseLaunch& launch) { return runner_->result(launch); }

cuda::LaunchConfig BenchmarkCase::launch_config(const CaseLaunch& launch) { return runner_->launch_config(launch); }

}  // namespace feinterp::tuning
