// SPDX-License-Identifier: BSD-3-Clause
// One benchmark configuration on the GPU: a mesh block, a point set, a component count, an operation
// (forward, transpose or fused operator) and a precision, with its device data in R rotating copies (each with its own plan) so that
// consecutive timed launches never find their inputs or outputs in L2 (R copies together span at least
// 4x the L2 size; H100: 50 MB).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <feinterp/cuda/plan.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/fem/point_set.hpp>

#include <feinterp/apps/common/gpu_timing.hpp>

namespace feinterp::tuning {

struct CaseSpec {
  BlockView block;                         ///< host connectivity
  const std::vector<double>* coordinates;  ///< host x[node*3 + k]
  offset_t node_count;
  PointSet points;
  int components;
  Operation op;                            ///< a forward operation or a transpose; for a fused operator its
                                           ///< transpose (values_transpose: mass, physical_gradients_transpose: diffusion)
  Precision precision = Precision::fp64;
  TransposeOptions transpose{};            ///< transposes: target and weighting
  Summation summation = Summation::atomic;  ///< transposes into the nodes
  /// A fused operator r = A u (cuda::Plan::apply_operator, into the nodes, with no coefficient) instead of
  /// `op`; the point set needs weights.
  std::optional<FusedOperator> fused;
};

/// How a case is launched: the kernel, elements_per_block (0: the plan's tuned choice) and the kernel
/// variant of a packed forward launch (none: the plan's choice; a variant: forced, an error where it does
/// not apply).
struct CaseLaunch {
  cuda::Kernel kernel = cuda::Kernel::packed;
  int elements_per_block = 0;
  std::optional<cuda::KernelVariant> variant;
  cuda::TensorStrides tensor_strides = cuda::TensorStrides::counted;
  bool run_time_components = false;  ///< the variant's run-time-C kernel (cuda::PlanOptions::run_time_components)
  /// Fused operators: where J comes from (cuda::PlanOptions::operator_geometry). A plan keeps precomputed
  /// factors (up to 6Q reals per element), so a fused case keeps the plans of one launch choice at a time.
  OperatorGeometry geometry = OperatorGeometry::on_the_fly;
};

class BenchmarkCase {
 public:
  BenchmarkCase(const CaseSpec& spec, unsigned seed);
  ~BenchmarkCase();
  /// Minimal bytes of one launch (core/traffic.hpp).
  offset_t minimal_bytes() const { return minimal_bytes_; }
  int rotations() const;
  /// Kernel-only time per launch over `batches` batches of `per_batch` back-to-back launches, each issued
  /// as `issue` says, and the host cost per call (gpu_timing.hpp).
  Timing time(const CaseLaunch& launch, int warmup, int batches, BatchIssue issue = BatchIssue::held, int per_batch = 10);
  /// One launch on the first copy, downloaded as double (to cross-check kernels against each other).
  std::vector<double> result(const CaseLaunch& launch);
  /// The launch configuration a plan with this choice uses (elements_per_block decided as in apply).
  cuda::LaunchConfig launch_config(const CaseLaunch& launch);

 private:
  struct Runner;
  template <class Real>
  struct RunnerOf;
  offset_t minimal_bytes_ = 0;
  std::unique_ptr<Runner> runner_;
};

}  // namespace feinterp::tuning
