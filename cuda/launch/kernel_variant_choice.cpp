// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>

#include <cstdlib>
#include <stdexcept>

#include <feinterp/tuning/registry.hpp>
#include <feinterp/cuda/layout/elements_per_thread.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>

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

tuning::TuningKey key_of(const LaunchShape& s, KernelVariant v) {
  return tuning::TuningKey{s.type, s.op, s.components, s.points, s.precision, v};
}

/// Step 4 of the decision (kernel_variant_choice.hpp).
KernelVariant default_variant(const LaunchShape& s, const DeviceInfo& device) {
  return variant_applies(with_variant(s, KernelVariant::sum_factorised), device) &&
                 dense_products_per_element(s) >= sum_factorisation_threshold
             ? KernelVariant::sum_factorised
             : KernelVariant::dense;
}

/// FEINTERP_KERNEL_VARIANT, read at each decision (a plan decides once per operation and C).
std::optional<KernelVariant> environment_variant() {
  const char* value = std::getenv(kernel_variant_environment_variable);
  const std::string text = value ? value : "";
  if (text.empty() || text == "auto") return std::nullopt;
  for (KernelVariant v : tuning::all_kernel_variants)
    if (text == tuning::kernel_variant_name(v)) return v;
  throw std::invalid_argument(std::string(kernel_variant_environment_variable) + "='" + text + "': expected " +
                              tuning::expected_kernel_variants() + ", or auto");
}

}  // namespace

bool variant_applies(const LaunchShape& s, const DeviceInfo& device, std::string* why_not) {
  auto refuse = [&](const std::string& sentence) {
    if (why_not) *why_not = sentence;
    return false;
  };
  switch (s.variant) {
    case KernelVariant::dense: return true;
    case KernelVariant::dense_async_gather: {
      if (s.op != Operation::values && s.op != Operation::reference_gradients)
        return refuse(std::string("the asynchronous-gather kernel computes values and reference gradients, not ") +
                      operation_name(s.op) +
                      (s.op == Operation::physical_gradients ? " (whose dense kernel always copies its gather)" : ""));
      if (packed_elements_per_thread(s.op, s.components) < 2)
        return refuse("the asynchronous-gather kernel is compiled for C = 1 (two elements per thread), not C = " +
                      std::to_string(s.components));
      return true;
    }
    case KernelVariant::sum_factorised: {
      if (s.type.shape != Shape::quadrilateral && s.type.shape != Shape::hexahedron)
        return refuse("the sum-factorised kernel needs a quadrilateral or hexahedron, not a " +
                      std::string(shape_name(s.type.shape)));
      if (s.fused) return refuse("the fused Laplacian has the dense kernel only");
      if (s.points_per_direction < 1)
        return refuse("the point set is not a tensor product of one 1D set (fem/tensor_structure.hpp)");
      if (s.points_per_direction < min_tensor_points_per_direction ||
          s.points_per_direction > max_tensor_points_per_direction(s.type.order))
        return refuse(std::to_string(s.points_per_direction) + " points per direction: the sum-factorised kernels are compiled for " +
                      std::to_string(min_tensor_points_per_direction) + " to " +
                      std::to_string(max_tensor_points_per_direction(s.type.order)) + " at order " +
                      std::to_string(s.type.order));
      if (max_elements_per_block(s, device) < 1)
        return refuse("one element needs " + std::to_string(packed_shared_bytes(s, 1)) +
                      " bytes of shared memory in the sum-factorised kernel; " + device.name + " allows " +
                      std::to_string(device.shared_per_block_optin) + " per block");
      return true;
    }
    case KernelVariant::dense_tensor_cores: {
      if (s.op != Operation::values && s.op != Operation::reference_gradients)
        return refuse(std::string("the tensor-core kernel computes values and reference gradients, not ") +
                      operation_name(s.op));
      if (s.precision != Precision::fp64)
        return refuse("the tensor-core kernel is FP64 (DMMA); FP32 runs on the CUDA cores");
      if (device.major < 8)
        return refuse(device.name + " (compute capability " + device.compute_capability() +
                      ") has no FP64 tensor cores: they need 8.0 or newer");
      if (max_elements_per_block(s, device) < 1)
        return refuse("one element needs " + std::to_string(packed_shared_bytes(s, 1)) +
                      " bytes of shared memory in the tensor-core kernel; " + device.name + " allows " +
                      std::to_string(device.shared_per_block_optin) + " per block");
      return true;
    }
  }
  return refuse("unknown kernel variant");
}

KernelVariant choose_kernel_variant(const LaunchShape& s, const DeviceInfo& device, const tuning::TuningTable* table,
                                    std::optional<KernelVariant> requested) {
  if (s.fused) return KernelVariant::dense;  // the one variant it has
  // 1. The plan's request.
  if (requested) {
    std::string why;
    if (!variant_applies(with_variant(s, *requested), device, &why))
      throw std::invalid_argument(std::string("kernel variant ") + tuning::kernel_variant_name(*requested) +
                                  " requested for " + describe_launch(with_variant(s, *requested)) + ": " + why);
    return *requested;
  }
  // 2. The environment.
  if (const std::optional<KernelVariant> forced = environment_variant()) {
    std::string why;
    if (variant_applies(with_variant(s, *forced), device, &why)) return *forced;
    tuning::warn_once(std::string("variant ") + tuning::kernel_variant_name(*forced) + " " + describe_launch(s),
                      std::string(kernel_variant_environment_variable) + "=" + tuning::kernel_variant_name(*forced) +
                          " does not apply to " + describe_launch(s) + " (" + why + "): the dense kernel runs it");
    return KernelVariant::dense;
  }
  // 3. The table, when it measured the default's variant: at this Q, else at the Q nearest to it that it
  // measured that variant at. The variants are compared at that one Q, where the sweep timed them side by
  // side; another Q's winner stands in for this one's, as its elements_per_block does (launch_config.cpp).
  const KernelVariant fallback = default_variant(s, device);
  const tuning::TuningEntry* measured = table ? table->nearest(key_of(s, fallback)) : nullptr;
  if (measured) {
    LaunchShape at_measured = s;
    at_measured.points = measured->points;
    const tuning::TuningEntry* fastest = nullptr;
    for (KernelVariant v : tuning::all_kernel_variants) {
      if (!variant_applies(with_variant(s, v), device)) continue;
      const tuning::TuningEntry* entry = table->find(key_of(at_measured, v));
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
