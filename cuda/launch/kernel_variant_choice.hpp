// SPDX-License-Identifier: BSD-3-Clause
// Which kernel variant (tuning/kernel_variant.hpp) computes a launch: the one place that decides it.
// elements_per_block is decided after it, for that variant (launch_config.hpp).
//
// Where each variant applies (variant_applies, which reads the variant's traits: launch/variant_traits.cpp
// for the built-in ones, cuda/kernel_variants.hpp for one registered later):
//   dense           always
//   sum_factorised  an operation or transpose of a quadrilateral or hexahedron whose point set is a
//                   tensor product (LaunchShape::points_per_direction > 0, found by fem/tensor_structure.hpp
//                   when the plan was built), with Q1 among the compiled ones
//                   (layout/tensor_launch_shape.hpp), and at least one element per block fits the device's
//                   shared memory; of the fused operators, Q1 = p + 1 or p + 2 only, and the mass operator
//                   only with precomputed geometry (LaunchShape::precomputed_geometry)
//   dense_tensor_cores  values and reference gradients (forward) in FP64 of any element, on a device of
//                   compute capability 8.0 or newer (FP64 tensor cores), where one element per block fits
//   dense_async_gather  values and reference gradients at C = 1 (where a thread computes two elements:
//                   layout/elements_per_thread.hpp), any element, point set and precision
//   dense_64_registers  physical gradients of tetrahedra and hexahedra in FP64 at a compiled C (1..3)
//
// The decision (choose_kernel_variant), in order:
//   1. the plan's request (PlanOptions::variant): that variant, or std::invalid_argument saying why it does
//      not apply (tests and benchmarks force a variant this way, and must know that it really ran);
//   2. FEINTERP_KERNEL_VARIANT = a variant's name (A/B measurements of whole programs): that variant where
//      it applies, else dense with a one-time warning; "auto" or empty: no override; anything else is
//      std::invalid_argument naming the variable and its value;
//   3. the tuning table, when it holds an entry of this configuration for the variant step 4 would take:
//      the fastest of the variants that apply and that it holds entries of (the sweep times each variant
//      at its best elements_per_block). A table that never measured the default's variant says nothing
//      about it (a v2 table of dense entries against the sum-factorised default), and one that measured
//      it and not a newer variant keeps its decision among those it measured. The dense kernel's two
//      register allocations (dense, dense_64_registers) count as one there: a table that timed either
//      decides among the variants it timed. Without an entry at this Q the variants are compared at the
//      Q nearest to it where the default's variant was measured (with a warning, once, where that
//      overrides the default), as elements_per_block is taken from there (launch_config.hpp): the tables
//      are swept at the nodes, and a degree-2p rule moves Q only a little for simplices (tet p3: 20 ->
//      24), where the winner is the same on the H100 (tensor cores 0.358 against dense 0.693 ms at Q =
//      24, C = 1: docs/performance/nvidia-h100-80gb-hbm3/bench-tensor-cores-quadrature.txt);
//   4. sum_factorised where it applies and the dense product is large, N * Q * W >= 512 multiply-adds per
//      element and component (quadrilaterals p3, hexahedra p2 and p3 at Q = nodes), else dense. Untuned
//      (heuristic elements_per_block), reference gradients, FP64, Q = nodes, ~1M Gmsh elements on the H100
//      (docs/performance/nvidia-h100-80gb-hbm3/bench-variants.txt): sum factorisation won at
//      quad p3 C=1 (217 against 274 us), hex p2 C=1 (580 / 1086), hex p3 C=1 (1312 / 3739), tied at hex p2
//      C=3, and lost wherever N * Q * W < 512 (quad p1 51 / 39 us, quad p2 147 / 124, hex p1 C=3 341 / 232),
//      where the dense product is cheap and the kernel's extra passes through shared memory are not.
//      Where the dense kernel runs, dense_64_registers for the physical gradients at C = 3 of p = 2
//      tetrahedra and p = 1, 2 hexahedra, where the cap won on the H200 (494.5 against 517.8 us, 311.6 /
//      318.8, 2280 / 2350) and lost elsewhere by up to 11% (p = 1 tetrahedra: 156.7 / 140.9:
//      docs/performance/nvidia-h200/register-caps.md). The tensor-core and asynchronous-gather variants
//      are never the default: only a table that measured them chooses them.
// The transposes follow the same rule (their adjoint stages do the forward's work in reverse). The fused
// operators have entries of their own (tuning/table.hpp's Fusion: the dense kernel's on the fly, the
// sum-factorised kernel's on the fly or reading precomputed factors, as the plan asks): a request is
// honoured where it applies, then the environment's variant where it applies (silently passed over
// where it does not), then the table as in step 3, else the default: sum-factorised where it applies
// (but for the diffusion on the fly at p = 1), dense elsewhere.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/kernel_variant.hpp>
#include <feinterp/tuning/table.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>

namespace feinterp::backends::cuda {

/// The default's threshold (step 4 above): dense multiply-adds per element and component.
inline constexpr long sum_factorisation_threshold = 512;

/// The environment variable that forces a variant where it applies.
inline constexpr const char* kernel_variant_environment_variable = "FEINTERP_KERNEL_VARIANT";

/// True when shape.variant can compute the launch on `device` (above); otherwise false and, when given,
/// `why_not` says why in one sentence.
bool variant_applies(const LaunchShape& shape, const DeviceInfo& device, std::string* why_not = nullptr);

/// The variants registered (tuning::all_kernel_variants) that apply to the launch on `device`, in
/// registration order (shape.variant is ignored): what the sweep times and step 3 compares.
std::vector<KernelVariant> applicable_variants(const LaunchShape& shape, const DeviceInfo& device);

/// The decision above; shape.variant is ignored. `table` as in choose_elements_per_block (nullptr: no
/// table). Throws std::invalid_argument for a requested variant that does not apply, or a bad
/// FEINTERP_KERNEL_VARIANT.
KernelVariant choose_kernel_variant(const LaunchShape& shape, const DeviceInfo& device,
                                    const tuning::TuningTable* table, std::optional<KernelVariant> requested);

/// The same with the table this process uses on `device` (tuning_table_for).
KernelVariant choose_kernel_variant(const LaunchShape& shape, const DeviceInfo& device,
                                    std::optional<KernelVariant> requested);

}  // namespace feinterp::backends::cuda
