#include "benchmark_case.hpp"

#include <algorithm>
#include <random>

#include <feinterp/cuda/device.hpp>
#include <feinterp/fem/traffic.hpp>

namespace feinterp::tuning {

BenchmarkCase::BenchmarkCase(const CaseSpec& spec, unsigned seed) : spec_(spec) {
  const ElementType type = spec.block.type;
  const int N = nodes_per_element(type), D = dimension(type.shape), S = space_dimension(spec.block);
  const int Q = spec.points.size(), C = spec.components;
  minimal_bytes_ = feinterp::minimal_bytes(spec.op, spec.block.element_count, N, spec.node_count, Q, C, D, S);
  table_ = std::make_unique<cuda::DeviceTabulation>(type, spec.points);

  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> field(std::size_t(spec.node_count) * C);
  for (double& x : field) x = unit(rng);  // never zeros: they can hide unwritten outputs and run faster

  const cuda::DeviceInfo& device = cuda::current_device();
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "querying free device memory");
  const std::size_t per_set = std::size_t(minimal_bytes_) + std::size_t(spec.block.element_count) * Q * 8;
  int rotations = int(std::min<std::size_t>(16, (4 * device.l2_bytes + minimal_bytes_ - 1) / std::max<offset_t>(minimal_bytes_, 1)));
  rotations = std::max(1, std::min<int>(rotations, int(free_bytes / 2 / std::max<std::size_t>(per_set, 1))));
  const std::size_t out_size = output_size(spec.op, spec.block, Q, C);
  const bool physical = spec.op == Operation::physical_gradients;
  for (int r = 0; r < rotations; ++r) {
    Set set{cuda::DeviceBlock::upload(spec.block, spec.node_count), cuda::DeviceBuffer<double>(field),
            physical ? cuda::DeviceBuffer<double>(*spec.coordinates) : cuda::DeviceBuffer<double>(),
            cuda::DeviceBuffer<double>(out_size),
            cuda::DeviceBuffer<double>(physical ? std::size_t(spec.block.element_count) * Q : 0)};
    sets_.push_back(std::move(set));
  }
}

void BenchmarkCase::launch(int index, const cuda::LaunchOptions& options) {
  Set& set = sets_[std::size_t(index) % sets_.size()];
  const FieldView u{set.field.data(), set.field.size(), spec_.components};
  const OutputView out{set.out.data(), set.out.size()};
  switch (spec_.op) {
    case Operation::values: cuda::interpolate_values(set.block, *table_, u, out, options); break;
    case Operation::reference_gradients: cuda::interpolate_reference_gradients(set.block, *table_, u, out, options); break;
    case Operation::physical_gradients:
      cuda::interpolate_physical_gradients(set.block, *table_, set.coordinates.data(), u, out,
                                           {set.detj.data(), set.detj.size()}, options);
      break;
  }
}

Timing BenchmarkCase::time(const cuda::LaunchOptions& options, int warmup, int repeats) {
  return time_launches([&](int i) { launch(i, options); }, warmup, repeats, options.stream);
}

std::vector<double> BenchmarkCase::result(const cuda::LaunchOptions& options) {
  launch(0, options);
  cuda::check(cudaStreamSynchronize(options.stream), "waiting for a benchmark launch");
  return sets_.front().out.to_host();
}

}  // namespace feinterp::tuning
