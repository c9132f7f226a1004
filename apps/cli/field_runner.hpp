// SPDX-License-Identifier: BSD-3-Clause
// The command's interpolation runner: one nodal field (and the node coordinates) on the executor the
// command was given, interpolated chunk by chunk through the front door's mesh-level operator
// (interpolator/mesh_operator.hpp), host arrays in and out; the points' physical coordinates are
// computed where the field is. The rest of apps/ never sees which executor computes.
//
// Times are kept apart: transfer (copies to and from the executor, synchronous, wall clock) and compute
// (the wall clock of apply and check; on the GPU it includes the launch itself, a few microseconds). A
// quantity is computed once, and its time is that call's, the plan's first-launch decisions and CUDA's
// lazy module loading included (~1 ms the first time); asked for `repeats`, one untimed call pays those,
// then the fastest of `repeats` timed ones is reported.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <feinterp/core/operation.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>

namespace feinterp::app {

/// A resolved executor: cpu, or cuda on one device.
using Device = Executor;

/// "cpu", "cuda" (the current device), "cuda:N" or "auto" (the GPU when one is usable, else the CPU).
/// Throws std::runtime_error for cuda without a usable GPU, or in a build without CUDA, and
/// std::invalid_argument for a name or a device ordinal that is not one.
Device choose_device(const std::string& choice);

inline bool on_gpu(const Device& device) { return device.kind() == ExecutorKind::cuda; }

/// "cpu" or "cuda".
inline const char* device_name(const Device& device) { return executor_name(device); }

/// "NVIDIA H100 80GB HBM3 (compute capability 9.0)" or "CPU, 16 threads": the count `threads` (0: the
/// default) resolves to. Throws std::invalid_argument for a bad count or thread variable.
inline std::string describe(const Device& device, int threads = 0) { return describe_executor(device, threads); }

class FieldRunner {
 public:
  /// Copies the coordinates (x[node*3 + k]) and the field to where `device` computes; `threads`: the CPU
  /// plans' InterpolatorOptions::threads.
  FieldRunner(const Device& device, const std::vector<double>& coordinates, FieldView field, int threads = 0);

  /// The block and point set the next runs use (copies the connectivity, builds the operator).
  void set_block(const BlockView& block, const PointSet& points);

  /// The physical coordinates of the current block's points, x[point*3 + k] (resized), untimed.
  void points(std::vector<double>& out);

  /// Computes `op` on the current block into `out` (resized), and det J into `detj` for physical
  /// gradients if not null. `repeats` 0: once, returning that call's seconds; else one warm-up call and
  /// `repeats` timed ones, returning the fastest.
  double run(Operation op, std::vector<double>& out, std::vector<double>* detj = nullptr, int repeats = 0);

  /// Seconds spent copying to and from the executor so far.
  double transfer_seconds() const { return transfer_s_; }
  const Device& device() const { return device_; }

 private:
  Device device_;
  offset_t node_count_;
  int components_;
  int threads_;
  double transfer_s_ = 0;
  ExecutorArray<double> coordinates_, field_;
  std::unique_ptr<ExecutorArray<node_index>> connectivity_;
  std::unique_ptr<MeshOperator<double>> operator_;
};

}  // namespace feinterp::app
