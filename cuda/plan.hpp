// SPDX-License-Identifier: BSD-3-Clause
// Plan<Real>: the CUDA backend's work for one block and one point set, in one precision, built once:
// the block checked (connectivity in range, z = 0 for a planar block), the shape functions tabulated on
// the device, and for each (operation, component count) the launch decided once, at its first call,
// and cached: kernel, elements_per_block, grid, shared-memory attribute. A call (apply) is then a size
// check and a kernel launch, asynchronous on the plan's stream, and nothing else: no allocation, no
// synchronisation.
//
// A plan lives on one device, its block's, fixed when it is built: its construction, every launch,
// allocation and query of a call and check() run with that device made current (runtime/
// scoped_device.hpp), whatever device the caller has made current, which is left as it was.
//
// Degenerate and tangled elements (fem/orientation.hpp) found by physical gradients are recorded on the
// device in the plan's flag, which is sticky: the smallest such element is kept until check() reads it.
// check() waits for the stream, and throws DegenerateElementError naming that element (a one-element
// rerun of the baseline kernel says at which point and why), then clears the flag. Plans that share a
// block have a flag each, so work on one stream can never hide the other's error.
//
// Kernel variants (tuning/kernel_variant.hpp): each (operation, C) runs the dense packed kernel or, for a
// quadrilateral or hexahedron block at a tensor-product point set, the sum-factorised one, as
// launch/kernel_variant_choice.hpp decides; the tensor structure (fem/tensor_structure.hpp) is found when
// the plan is built and its 1D tables and permutations are copied to the device then.
//
// Transposes (apply_transpose) launch the transpose kernel once, summing into the nodes with atomics,
// or, for a plan built with Summation::deterministic, once per element colour (fem/ordering/colouring.hpp, built
// with the plan: the connectivity is copied to the host once), adding without atomics.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/arguments.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/tensor_structure.hpp>
#include <feinterp/cuda/device_block.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/device_buffer.hpp>
#include <feinterp/cuda/runtime/scoped_device.hpp>
#include <feinterp/cuda/device_tabulation.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>

namespace feinterp::backends::cuda {

enum class Kernel {
  packed,    ///< several elements per block along threadIdx.z (the product)
  baseline,  ///< one element per block, the naive kernel (for benchmarks)
};

/// The sum-factorised forward kernel's per-element buffer strides (layout/tensor_launch_shape.hpp).
enum class TensorStrides {
  counted,  ///< each buffer's residue with the fewest bank conflicts (launch/tensor_bank_conflicts.hpp)
  odd,      ///< the smallest odd strides (to measure what the counted ones buy)
};

/// How a plan runs: its device and stream, how nodal transposes sum, and the knobs that benchmarks, the
/// sweep and the tests turn (elements_per_block, kernel, variant, tensor_strides); the front door leaves
/// those at their defaults, the tuned choice.
struct PlanOptions {
  /// The device of the plan's memory and launches: an ordinal, or current_device_ordinal for the
  /// block's (the device current when the DeviceBlock was made). Another device than the block's is
  /// refused.
  int device = current_device_ordinal;
  int elements_per_block = 0;  ///< packed kernel only; 0: the tuning table's choice (or the heuristic)
  Kernel kernel = Kernel::packed;
  /// The kernel variant of the packed launches: none for the launch module's choice
  /// (launch/kernel_variant_choice.hpp); a variant to force it, std::invalid_argument at the first call of
  /// an operation it does not apply to (the fused operators too: dense, or sum-factorised diffusion).
  std::optional<KernelVariant> variant;
  /// Every launch runs its variant's run-time-C kernel, even where C has a compiled one
  /// (layout/component_kernels.hpp): what the benchmarks and tests compare the compiled kernels with.
  bool run_time_components = false;
  cudaStream_t stream = nullptr;  ///< a stream of the plan's device; null: that device's default stream
  Summation summation = Summation::atomic;  ///< nodal transposes
  TensorStrides tensor_strides = TensorStrides::counted;
  OperatorGeometry operator_geometry = OperatorGeometry::precomputed;  ///< the fused operators (core/operation.hpp)
};

template <class Real>
class Plan {
 public:
  /// `coordinates`: device x[node*3 + k] of block->node_count() nodes, needed for physical gradients
  /// (null: the plan refuses them). Throws std::invalid_argument for a null block, a device that does
  /// not exist or is not the block's, points of another shape, an empty point set, an elements_per_block
  /// that does not fit, or a node off the plane z = 0 in a block of space dimension 2 (naming it).
  Plan(std::shared_ptr<const DeviceBlock> block, const PointSet& points, const Real* coordinates,
       const PlanOptions& options = {});
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  const DeviceBlock& block() const { return *block_; }
  /// The device the plan computes on (its block's).
  int device() const { return device_; }
  int points() const { return table_.points(); }
  /// The point set's tensor structure for this block's element, if it has one (quadrilaterals and
  /// hexahedra at tensor-product point sets); why not otherwise.
  const std::optional<TensorStructure>& tensor_structure() const { return tensor_; }
  const std::string& why_not_tensor() const { return why_not_tensor_; }
  int space_dimension() const { return space_dimension_; }
  /// The options it was built with, `device` resolved.
  const PlanOptions& options() const { return options_; }

  /// Launches `op` on `stream` (the plan's unless given). Device arrays; sizes checked (core/layout.hpp).
  void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj = {}) const;
  void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj,
             cudaStream_t stream) const;

  /// Launches the transpose `op` on `stream` (the plan's unless given): point data `f` into the nodes or
  /// the element vectors (core/operation.hpp's TransposeOptions). Device arrays; sizes checked.
  void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                       const TransposeOptions& options = {}) const;
  void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out, const TransposeOptions& options,
                       cudaStream_t stream) const;

  /// A fused operator r = A u (interpolator.hpp's apply_operator) in one kernel on `stream` (the plan's
  /// unless given), with no point data in memory: the mass operator (values, rho, their transpose) or the
  /// diffusion operator (physical gradients, kappa, their transpose). `u` the nodal field, `coefficient` at
  /// the points; target and accumulate as for a transpose (weighted implied). Device arrays; sizes checked.
  void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                      BasicCoefficientView<Real> coefficient = {}, const TransposeOptions& options = {}) const;
  void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                      BasicCoefficientView<Real> coefficient, const TransposeOptions& options, cudaStream_t stream) const;

  /// Its diagonal for a field of `components` components (kernels/diagonal/diagonal_kernel.cuh), on the
  /// plan's stream, summed as the plan's transposes are.
  void operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                         BasicCoefficientView<Real> coefficient = {}, const TransposeOptions& options = {}) const;

  /// Colours of a deterministic plan (0 otherwise).
  int colours() const { return int(colour_offsets_.size()) - 1 > 0 ? int(colour_offsets_.size()) - 1 : 0; }

  /// Waits for `stream` (the plan's unless given), then throws DegenerateElementError if a physical-
  /// gradient launch of this plan met a degenerate or tangled element since the last check.
  void check() const { check(options_.stream); }
  void check(cudaStream_t stream) const;

  /// The launch configuration of (op, components), as apply uses it (decided at the first use): its
  /// variant, threads, elements per block and shared memory. `precomputed`: a fused launch that would
  /// read precomputed geometry (what apply_operator asks for under OperatorGeometry::precomputed).
  LaunchConfig launch_config(Operation op, int components, bool weighted = false, bool fused = false,
                             bool precomputed = false) const;

 private:
  // The constructor proper, run by the public one with the plan's device current: `on_device` is a
  // temporary of that delegating call, alive until this constructor returns.
  Plan(const ScopedDevice& on_device, std::shared_ptr<const DeviceBlock> block, const PointSet& points,
       const Real* coordinates, const PlanOptions& options);

  struct Launch {
    KernelSet<Real> kernels{};
    LaunchConfig config;
    dim3 grid, block;
  };
  struct Slot {
    std::once_flag once;
    Launch launch;
  };
  const Launch& launch(Operation op, int components, bool weighted = false, bool fused = false,
                       bool precomputed = false) const;
  Launch decide(Operation op, int components, bool weighted, bool fused, bool precomputed) const;
  // The fused operator's precomputed geometric factors (layout/tensor_operator_layout.hpp), computed on
  // `stream` at the first call and kept; throws DegenerateElementError, keeping nothing, where an element
  // is degenerate or tangled.
  const Real* operator_factors(FusedOperator op, cudaStream_t stream) const;
  // The launches of a transpose (one, or one per colour) with `args` filled but for the store and list.
  void launch_transpose(const Launch* l, KernelArgs<Real> args, const TransposeOptions& options, cudaStream_t stream) const;
  // A fused call's arrays for fem/arguments.hpp's checks: u (or none, for a diagonal) and r.
  TransposeArguments fused_arguments(BasicFieldView<Real> u, BasicOutputView<Real> r, const TransposeOptions& options) const;

  int device_;
  std::shared_ptr<const DeviceBlock> block_;
  DeviceTabulation<Real> table_;
  std::string why_not_tensor_;
  std::optional<TensorStructure> tensor_;
  DeviceBuffer<Real> tensor_basis_;  // B then G (KernelArgs::tensor_basis)
  std::vector<Real> tensor_tables_;  // the same on the host, copied into each launch's KernelArgs::tensor_tables
  DeviceBuffer<int> tensor_maps_;    // node_lattice then point_of_lattice (KernelArgs::tensor_maps)
  const Real* coordinates_;
  PlanOptions options_;
  int space_dimension_;
  mutable DeviceBuffer<unsigned long long> flag_;  // the sticky flag: written by launches of a const plan
  // One slot per (operation, mode, C): the mode unweighted, weighted (transposes only), fused (the values
  // transpose for mass, the physical-gradient one for diffusion) or fused with precomputed geometry.
  static constexpr std::size_t slot_modes = 4;
  static constexpr std::size_t slot_count = std::size_t(operation_count) * slot_modes * max_components;
  mutable std::unique_ptr<std::array<Slot, slot_count>> slots_;
  DeviceBuffer<offset_t> colour_elements_;    // deterministic plans: fem/ordering/colouring.hpp's element list
  std::vector<offset_t> colour_offsets_;      // and its colour offsets, on the host
  mutable std::mutex factors_mutex_;
  mutable DeviceBuffer<Real> factors_[2];     // operator_factors: mass, diffusion; empty until first used
};

}  // namespace feinterp::backends::cuda
