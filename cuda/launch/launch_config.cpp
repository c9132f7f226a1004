// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/launch/launch_config.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <feinterp/core/limits.hpp>
#include <feinterp/cuda/launch/variant_traits.hpp>
#include <feinterp/cuda/layout/elements_per_thread.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/tuning/registry.hpp>

namespace feinterp::backends::cuda {

namespace {

tuning::DeviceIdentity identity(const DeviceInfo& device) { return {device.name, device.major, device.minor}; }

/// The d-th root of a point count (the points per direction of a tensor-product set).
int points_per_direction(int points, int d) {
  int n = int(std::lround(std::pow(double(points), 1.0 / d)));
  while (n > 1 && integer_power(n, d) > points) --n;
  while (integer_power(n + 1, d) <= points) ++n;
  return n;
}

}  // namespace

TensorOperatorKind tensor_operator_kind(const LaunchShape& s) {
  if (!s.precomputed_geometry) return TensorOperatorKind::diffusion;
  return forward_of(s.op) == Operation::values ? TensorOperatorKind::mass_precomputed
                                               : TensorOperatorKind::diffusion_precomputed;
}

tuning::TuningKey tuning_key(const LaunchShape& s, KernelVariant variant) {
  const tuning::Fusion fusion = !s.fused ? tuning::Fusion::none
                                : variant == KernelVariant::sum_factorised && s.precomputed_geometry
                                    ? tuning::Fusion::precomputed
                                    : tuning::Fusion::on_the_fly;
  return tuning::TuningKey{s.type, s.op, s.components, s.points, s.precision, variant, fusion};
}

std::string describe_launch(const LaunchShape& s) {
  return to_string(s.type) + ", " + operation_name(s.op) +
         (s.fused ? (forward_of(s.op) == Operation::values ? " (fused mass" : " (fused diffusion") +
                        std::string(s.precomputed_geometry ? ", precomputed geometry)" : ")")
          : is_transpose(s.op) && s.weighted ? " (weighted)" : "") + ", C = " +
         std::to_string(s.components) + ", Q = " + std::to_string(s.points) + ", " + precision_name(s.precision) +
         (s.variant != KernelVariant::dense ? std::string(", ") + tuning::kernel_variant_name(s.variant) : std::string()) +
         (s.run_time_components ? ", run-time C" : "");
}

int threads_per_element(int points) { return std::min(points, max_threads_per_element); }

int threads_per_element(const LaunchShape& s) { return variant_traits(s.variant).threads_per_element(s); }

int elements_per_thread(const LaunchShape& s) { return variant_traits(s.variant).elements_per_thread(s); }

int threads_per_block(const LaunchShape& s, int elements_per_block) {
  return threads_per_element(s) * packed_element_slots(elements_per_block, elements_per_thread(s));
}

bool geometric(const LaunchShape& s) {
  return forward_of(s.op) == Operation::physical_gradients || (is_transpose(s.op) && (s.weighted || s.fused));
}

std::size_t packed_shared_bytes(const LaunchShape& s, int elements_per_block) {
  return variant_traits(s.variant).shared_bytes(s, elements_per_block);
}

int max_elements_per_block(const LaunchShape& s, const DeviceInfo& device) {
  int count = std::min(max_threads_per_block / threads_per_element(s) * elements_per_thread(s),
                       feinterp::max_elements_per_block);
  while (count > 0 && packed_shared_bytes(s, count) > device.shared_per_block_optin) --count;
  return count;
}

int heuristic_elements_per_block(const LaunchShape& s, const DeviceInfo& device) {
  const int per_slot = elements_per_thread(s);
  const int limit = max_elements_per_block(s, device);
  int best = std::min(1, limit);
  double best_utilisation = 0.0;
  for (int count = 1; count <= limit; ++count) {
    if (count % per_slot != 0 && count != limit) continue;  // whole slots, unless only a partial one fits
    const int block = threads_per_block(s, count);
    if (block % 32 == 0) return count;
    const double utilisation = double(block) / (32.0 * ((block + 31) / 32));
    if (utilisation > best_utilisation) {
      best_utilisation = utilisation;
      best = count;
    }
  }
  return best;
}

int choose_elements_per_block(const LaunchShape& s, const DeviceInfo& device, const tuning::TuningTable* table) {
  const int heuristic = heuristic_elements_per_block(s, device);
  const tuning::DeviceIdentity id = identity(device);
  if (!table) {
    tuning::warn_once("no table " + device.name,
                      "no tuning table for " + tuning::describe(id) + ": elements_per_block from the heuristic");
    return heuristic;
  }
  if (!table->matches(device.name, device.major, device.minor))
    tuning::warn_once("foreign " + table->source + " " + device.name,
                      "tuning table " + table->source + " was measured on " + table->device + " (compute capability " +
                          table->compute_capability() + "); using it for " + tuning::describe(id) + " as asked");
  tuning::TuningKey key = tuning_key(s, s.variant);
  const std::string where = table->source + " " + describe_launch(s);
  if (key.fusion != tuning::Fusion::none && !table->nearest(key)) {
    // A table swept before the fused operators had entries: the weighted transpose's, whose kernel the
    // fused operator runs with more work in it.
    key.fusion = tuning::Fusion::none;
    tuning::warn_once("unfused " + where, "tuning table " + table->source + " has no fused-operator entry for " +
                                              describe_launch(s) + "; using the transpose's entries");
  }
  int count = 0;
  const tuning::TuningEntry* entry = table->find(key);
  if (entry) {
    count = entry->elements_per_block;
  } else if ((entry = table->nearest(key))) {
    // Keep the block's thread count: the sweep measured a threads-per-block optimum at entry->points.
    LaunchShape measured = s;
    measured.points = entry->points;
    if (s.variant == KernelVariant::sum_factorised)
      measured.points_per_direction = points_per_direction(entry->points, dimension(s.type.shape));
    count = std::max(1, int(std::lround(double(entry->elements_per_block) * threads_per_element(measured) /
                                        threads_per_element(s))));
    tuning::warn_once("nearest " + where,
                      "tuning table " + table->source + " has no entry for " + describe_launch(s) + "; using its Q = " +
                          std::to_string(entry->points) + " entry (line " + std::to_string(entry->line) + ", " +
                          std::to_string(entry->elements_per_block) + " elements per block) scaled to " +
                          std::to_string(count) + " elements per block (same threads per block)");
  } else {
    tuning::warn_once("none " + where, "tuning table " + table->source + " has no entry for " + describe_launch(s) +
                                           ": elements_per_block " + std::to_string(heuristic) + " from the heuristic");
    return heuristic;
  }
  const int limit = max_elements_per_block(s, device);
  if (count > limit) {
    tuning::warn_once("fit " + where,
                      "tuning table " + table->source + (entry->line ? ":" + std::to_string(entry->line) : std::string()) +
                          ": " + std::to_string(count) + " elements per block for " + describe_launch(s) + " do not fit " +
                          tuning::describe(id) + " (at most " + std::to_string(limit) + "): elements_per_block " +
                          std::to_string(heuristic) + " from the heuristic");
    return heuristic;
  }
  return count;
}

int choose_elements_per_block(const LaunchShape& s, const DeviceInfo& device) {
  const std::shared_ptr<const tuning::TuningTable> table = tuning::tuning_table_for(identity(device));
  return choose_elements_per_block(s, device, table.get());
}

LaunchConfig packed_launch_config(const LaunchShape& s, int elements_per_block, const DeviceInfo& device) {
  if (s.points < 1) throw std::invalid_argument("interpolation needs at least one point, got " + std::to_string(s.points));
  LaunchConfig config;
  config.variant = s.variant;
  config.tensor_buffer_residues = s.tensor_buffer_residues;
  config.threads_per_element = threads_per_element(s);
  const int limit = max_elements_per_block(s, device);
  if (limit < 1)
    throw std::invalid_argument("one " + to_string(s.type) + " element with " + std::to_string(s.points) + " points and " +
                                std::to_string(s.components) + " components needs " +
                                std::to_string(packed_shared_bytes(s, 1)) + " bytes of shared memory; " + device.name +
                                " allows " + std::to_string(device.shared_per_block_optin) + " per block");
  if (elements_per_block == 0) elements_per_block = choose_elements_per_block(s, device);
  if (elements_per_block < 1 || elements_per_block > limit)
    throw std::invalid_argument(
        "elements_per_block = " + std::to_string(elements_per_block) + " does not fit " + device.name + " for " +
        describe_launch(s) + ": expected 1 to " + std::to_string(limit) + " (at most " + std::to_string(max_threads_per_block) +
        " threads and " + std::to_string(device.shared_per_block_optin) + " bytes of shared memory per block; " +
        std::to_string(elements_per_block) + " elements would need " +
        std::to_string(threads_per_block(s, elements_per_block)) + " threads and " +
        std::to_string(packed_shared_bytes(s, std::max(elements_per_block, 1))) + " bytes)");
  config.elements_per_block = elements_per_block;
  config.element_slots = packed_element_slots(elements_per_block, elements_per_thread(s));
  config.shared_bytes = packed_shared_bytes(s, elements_per_block);
  return config;
}

}  // namespace feinterp::backends::cuda
