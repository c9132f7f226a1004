// One benchmark configuration on the GPU: a mesh block, a point set, a component count and an
// operation, with its device data in R rotating copies so that consecutive timed launches never find
// their inputs or outputs in L2 (R copies together span at least 4x the L2 size; H100: 50 MB).
#pragma once

#include <memory>
#include <vector>

#include <feinterp/cuda/interpolate.hpp>
#include <feinterp/fem/point_set.hpp>

#include "gpu_timing.hpp"

namespace feinterp::tuning {

struct CaseSpec {
  BlockView block;                         ///< host connectivity
  const std::vector<double>* coordinates;  ///< host x[node*3 + k]
  offset_t node_count;
  PointSet points;
  int components;
  Operation op;
};

class BenchmarkCase {
 public:
  BenchmarkCase(const CaseSpec& spec, unsigned seed);
  /// Minimal bytes of one launch (fem/traffic.hpp).
  offset_t minimal_bytes() const { return minimal_bytes_; }
  int rotations() const { return int(sets_.size()); }
  Timing time(const cuda::LaunchOptions& options, int warmup, int repeats);
  /// One launch on the first copy, downloaded (to cross-check kernels against each other).
  std::vector<double> result(const cuda::LaunchOptions& options);

 private:
  void launch(int set, const cuda::LaunchOptions& options);
  struct Set {
    cuda::DeviceBlock block;
    cuda::DeviceBuffer<double> field, coordinates, out, detj;
  };
  CaseSpec spec_;
  offset_t minimal_bytes_ = 0;
  std::unique_ptr<cuda::DeviceTabulation> table_;
  std::vector<Set> sets_;
};

}  // namespace feinterp::tuning
