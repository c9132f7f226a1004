// SPDX-License-Identifier: BSD-3-Clause
// How a packed launch is shaped: threads per element, elements per block, shared memory; and the one
// place where elements_per_block is decided. A launch is of one kernel variant (tuning/kernel_variant.hpp:
// the dense packed kernel, or the sum-factorised one), chosen first (launch/kernel_variant_choice.hpp);
// its count is then looked up for that variant.
//
// elements_per_block is a run-time argument (a sweep needs no recompilation). The decision
// (choose_elements_per_block), in order:
//   - the tuning table's entry for exactly this configuration and variant (tuning/registry.hpp says which
//     table);
//   - else its entry for the same (element, operation, C, precision, variant) with the nearest Q, the count
//     scaled to keep the block's thread count: count * threads(Q_entry) / threads(Q), rounded, at least
//     1 (the sweep's best block size is mostly a threads-per-block optimum: the GV100 p1 triangle curve
//     flattens from 8 elements = 24 threads up), with a one-time warning;
//   - a fused operator of a table that has no entry of its (element, operation, fusion, C, precision,
//     variant) at any Q: the same from the transpose's entries, whose kernel it runs (a table swept before
//     the fused operators had entries of their own), with a one-time warning;
//   - else the heuristic (the smallest count that fills whole warps), with a one-time warning;
//   - a count that does not fit the device (shared memory, threads) also falls back to the heuristic,
//     with a one-time warning.
// Every count is checked against the device before a launch; the limits themselves are core/limits.hpp.
#pragma once

#include <cstddef>
#include <string>

#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/kernel_variant.hpp>
#include <feinterp/tuning/table.hpp>
#include <feinterp/cuda/layout/tensor_buffer_residues.hpp>
#include <feinterp/cuda/layout/tensor_operator_layout.hpp>

namespace feinterp::backends::cuda {

using tuning::KernelVariant;

/// What a launch computes, as far as its shape depends on it.
struct LaunchShape {
  ElementType type;
  Operation op;
  int points = 1;            ///< Q
  int components = 1;        ///< C
  int space_dimension = 2;   ///< S (physical gradients only)
  Precision precision = Precision::fp64;
  bool weighted = false;     ///< transposes: w_q |det J| folded in (the kernel then computes the geometry)
  bool fused = false;        ///< a fused operator: the weighted transpose of values (mass) or physical gradients
                             ///< (diffusion) that it computes from the field
  bool precomputed_geometry = false;  ///< fused: reads the plan's precomputed factors where its variant can
                                      ///< (sum-factorised; the dense kernel computes J whatever this says)
  KernelVariant variant = KernelVariant::dense;  ///< which kernel family runs it
  int points_per_direction = 0;  ///< Q1 of a tensor-product point set (points == Q1^d), else 0; what the
                                 ///< sum-factorised variant is compiled for
  /// The sum-factorised forward kernel's per-element buffer strides modulo the banks (default: the
  /// smallest odd ones; launch/tensor_bank_conflicts.hpp chooses others).
  TensorBufferResidues tensor_buffer_residues;
  /// The run-time-C kernel even where C has a compiled one (layout/component_kernels.hpp): benchmarks and
  /// tests compare the two. Beyond the compiled counts it runs anyway.
  bool run_time_components = false;
};

/// The sum-factorised operator kernel a fused launch runs: diffusion on the fly, or mass or diffusion with
/// precomputed geometry.
TensorOperatorKind tensor_operator_kind(const LaunchShape& shape);

/// The tuning table's key of the launch when `variant` runs it (tuning/table.hpp). A fused operator has
/// entries of its own, by the geometry that variant reads: the precomputed factors only where the
/// sum-factorised kernel reads them (the dense kernel computes J whatever the plan precomputed).
tuning::TuningKey tuning_key(const LaunchShape& shape, KernelVariant variant);

/// "hexahedron p3, reference_gradients, C = 1, Q = 64, fp64, sum_factorised": for messages.
std::string describe_launch(const LaunchShape& shape);

/// True when the launch's kernel computes the geometry: physical gradients and their transpose, and a
/// weighted transpose.
bool geometric(const LaunchShape& shape);

struct LaunchConfig {
  int threads_per_element = 0;
  int elements_per_block = 0;
  int element_slots = 0;  ///< blockDim.z: elements_per_block, or fewer where a thread computes several
                          ///< elements (layout/elements_per_thread.hpp)
  std::size_t shared_bytes = 0;
  KernelVariant variant = KernelVariant::dense;
  TensorBufferResidues tensor_buffer_residues;  ///< the shape's, for KernelArgs::tensor_buffer_residues
};

/// One thread per point, up to max_threads_per_element (a larger point set is looped over).
int threads_per_element(int points);

/// Of the launch: one per point for a dense forward operation; for a transpose one per point or node,
/// whichever are more (it runs over points, then over nodes); for the sum-factorised variant one per
/// line of its largest stage and field contracted, forward, or one per point of the larger of its node and
/// point lattices, transposes (layout/tensor_launch_shape.hpp); up to max_threads_per_element.
int threads_per_element(const LaunchShape& shape);

/// How many elements a thread of the launch's kernel computes (layout/elements_per_thread.hpp): K for the
/// dense forward kernel, 1 for every other kernel.
int elements_per_thread(const LaunchShape& shape);

/// The threads of a block of `elements_per_block` elements: threads_per_element times the element slots,
/// ceil(elements_per_block / elements_per_thread).
int threads_per_block(const LaunchShape& shape, int elements_per_block);

/// Dynamic shared memory of the launch's kernel: the packed kernel, the transpose kernel
/// (layout/shared_layout.hpp) or the sum-factorised kernel or its transpose (layout/tensor_launch_shape.hpp,
/// layout/tensor_transpose_launch_shape.hpp).
std::size_t packed_shared_bytes(const LaunchShape& shape, int elements_per_block);

/// The largest elements_per_block that fits the device: count <= max_elements_per_block (core/limits.hpp),
/// threads_per_block <= max_threads_per_block (the kernel's launch bound) and shared memory <= the
/// device's per-block opt-in limit. 0 if not even one element fits.
int max_elements_per_block(const LaunchShape& shape, const DeviceInfo& device);

/// The heuristic: the smallest count of whole element slots whose threads_per_block is a multiple of 32
/// (full warps), within the limits; if none fits, the count with the best warp utilisation.
int heuristic_elements_per_block(const LaunchShape& shape, const DeviceInfo& device);

/// The decision above, from `table` (nullptr: the heuristic, with a one-time "no table for this device"
/// warning).
int choose_elements_per_block(const LaunchShape& shape, const DeviceInfo& device, const tuning::TuningTable* table);

/// The same from the table this process uses on `device` (tuning_table_for). Throws
/// tuning::TuningTableError if FEINTERP_TUNING_TABLE names a bad file.
int choose_elements_per_block(const LaunchShape& shape, const DeviceInfo& device);

/// The full configuration of shape.variant for `elements_per_block` (0: choose), checked: throws
/// std::invalid_argument naming the limit when the count does not fit the device.
LaunchConfig packed_launch_config(const LaunchShape& shape, int elements_per_block, const DeviceInfo& device);

}  // namespace feinterp::backends::cuda
