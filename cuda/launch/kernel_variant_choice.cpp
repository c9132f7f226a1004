// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>

#include <cstdlib>
#include <stdexcept>

#include <feinterp/cuda/launch/variant_traits.hpp>
#include <feinterp/tuning/registry.hpp>

namespace feinterp::backends::cuda {

namespace {

tuning::DeviceIdentity identity(const DeviceInfo& device) { return {device.name, device.major, device.minor}; }

// N * Q * W, the dense kernel's multiply-adds per element and component.
long dense_products_per_element(const LaunchShape& s) {
  const int table_width = forward_of(s.op) == Operation::values ? 1 : dimension(s.type.shape);
  return long(nodes_per_element(s.type)) * s.points * table_width;
}

LaunchShape with_variant(LaunchShape shape, KernelVariant variant) {
  shape.variant = variant;
  return shape;
}

/// The configurations where the 64-register cap measured faster than ptxas left free (step 4).
bool register_cap_measured_faster(const LaunchShape& s) {
  const bool listed = (s.type.shape == Shape::tetrahedron && s.type.order == 2) ||
                      (s.type.shape == Shape::hexahedron && s.type.order <= 2);
  return listed && s.components == 3;
}

/// Step 4 of the decision (kernel_variant_choice.hpp).
KernelVariant default_variant(const LaunchShape& s, const DeviceInfo& device) {
  if (s.fused) {
    // Sum-factorised where it applies, but for the diffusion on the fly at p = 1, where the dense kernel's
    // 8-node J costs less than contracting the coordinates beside the field (2.96 against 1.76 GDoF/s at
    // hex p1, FP64, H200: docs/performance/nvidia-h200/mesh-operator.md).
    const bool sum_factorised = variant_applies(with_variant(s, KernelVariant::sum_factorised), device) &&
                                (s.precomputed_geometry || s.type.order >= 2);
    return sum_factorised ? KernelVariant::sum_factorised : KernelVariant::dense;
  }
  if (variant_applies(with_variant(s, KernelVariant::sum_factorised), device) &&
      dense_products_per_element(s) >= sum_factorisation_threshold)
    return KernelVariant::sum_factorised;
  if (register_cap_measured_faster(s) && variant_applies(with_variant(s, KernelVariant::dense_64_registers), device))
    return KernelVariant::dense_64_registers;
  return KernelVariant::dense;
}

/// FEINTERP_KERNEL_VARIANT, read at each decision (a plan decides once per operation and C).
std::optional<KernelVariant> environment_variant() {
  const char* value = std::getenv(kernel_variant_environment_variable);
  const std::string text = value ? value : "";
  if (text.empty() || text == "auto") return std::nullopt;
  for (KernelVariant v : tuning::all_kernel_variants())
    if (text == tuning::kernel_variant_name(v)) return v;
  throw std::invalid_argument(std::string(kernel_variant_environment_variable) + "='" + text + "': expected " +
                              tuning::expected_kernel_variants() + ", or auto");
}

}  // namespace

bool variant_applies(const LaunchShape& s, const DeviceInfo& device, std::string* why_not) {
  return variant_traits(s.variant).applies(s, device, why_not);
}

std::vector<KernelVariant> applicable_variants(const LaunchShape& s, const DeviceInfo& device) {
  std::vector<KernelVariant> variants;
  for (KernelVariant v : tuning::all_kernel_variants())
    if (variant_applies(with_variant(s, v), device)) variants.push_back(v);
  return variants;
}

KernelVariant choose_kernel_variant(const LaunchShape& s, const DeviceInfo& device, const tuning::TuningTable* table,
                                    std::optional<KernelVariant> requested) {
  // 1. The plan's request, for every launch.
  if (requested) {
    std::string why;
    if (!variant_applies(with_variant(s, *requested), device, &why))
      throw std::invalid_argument(std::string("kernel variant ") + tuning::kernel_variant_name(*requested) +
                                  " requested for " + describe_launch(with_variant(s, *requested)) + ": " + why);
    return *requested;
  }
  // 2. The environment. A fused operator runs the dense or the sum-factorised kernel: a variant that does
  // not apply to it is passed over without a warning (an A/B run of the forward kernels sets it too).
  if (const std::optional<KernelVariant> forced = environment_variant()) {
    std::string why;
    if (variant_applies(with_variant(s, *forced), device, &why)) return *forced;
    if (!s.fused) {
      tuning::warn_once(std::string("variant ") + tuning::kernel_variant_name(*forced) + " " + describe_launch(s),
                        std::string(kernel_variant_environment_variable) + "=" + tuning::kernel_variant_name(*forced) +
                            " does not apply to " + describe_launch(s) + " (" + why + "): the dense kernel runs it");
      return KernelVariant::dense;
    }
  }
  // 3. The table, when it measured the default's variant: at this Q, else at the Q nearest to it that it
  // measured that variant at. The variants are compared at that one Q, where the sweep timed them side by
  // side; another Q's winner stands in for this one's, as its elements_per_block does (launch_config.cpp).
  const KernelVariant fallback = default_variant(s, device);
  const tuning::TuningEntry* measured = table ? table->nearest(tuning_key(s, fallback)) : nullptr;
  // The dense kernel ptxas left free and held to 64 registers are one kernel to the table: an entry of
  // either says that the sweep timed it.
  if (table && !measured && (fallback == KernelVariant::dense || fallback == KernelVariant::dense_64_registers))
    measured = table->nearest(
        tuning_key(s, fallback == KernelVariant::dense ? KernelVariant::dense_64_registers : KernelVariant::dense));
  if (measured) {
    LaunchShape at_measured = s;
    at_measured.points = measured->points;
    const tuning::TuningEntry* fastest = nullptr;
    for (KernelVariant v : applicable_variants(s, device)) {
      const tuning::TuningEntry* entry = table->find(tuning_key(at_measured, v));
      if (entry && (!fastest || entry->time_us < fastest->time_us)) fastest = entry;
    }
    if (measured->points != s.points && fastest->variant != fallback)
      tuning::warn_once("nearest variant " + table->source + " " + describe_launch(s),
                        "tuning table " + table->source + " has no Q = " + std::to_string(s.points) + " entries for " +
                            describe_launch(with_variant(s, fallback)) + "; its Q = " + std::to_string(measured->points) +
                            " entries (line " + std::to_string(fastest->line) + ") choose " +
                            tuning::kernel_variant_name(fastest->variant));
    return fastest->variant;
  }
  // 4. The default.
  return fallback;
}

KernelVariant choose_kernel_variant(const LaunchShape& s, const DeviceInfo& device, std::optional<KernelVariant> requested) {
  const std::shared_ptr<const tuning::TuningTable> table = tuning::tuning_table_for(identity(device));
  return choose_kernel_variant(s, device, table.get(), requested);
}

}  // namespace feinterp::backends::cuda
