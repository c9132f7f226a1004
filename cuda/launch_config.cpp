#include "launch_config.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "../elements/visit.hpp"
#include "shared_layout.hpp"
#include "tuned_elements_per_block.hpp"

namespace feinterp::cuda {

namespace {
constexpr int max_threads = 512;     // packed_kernel's __launch_bounds__
constexpr int max_block_z = 64;      // CUDA's limit on blockDim.z, hence on elements_per_block
}

int threads_per_element(int points) { return std::min(points, 128); }

std::size_t packed_shared_bytes(ElementType type, Operation op, int points, int components, int space_dimension,
                                int elements_per_block) {
  return shared_layout(nodes_per_element(type), dimension(type.shape), space_dimension, op, points, components,
                       elements_per_block)
      .bytes;
}

int max_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                           const DeviceInfo& device) {
  const int threads = threads_per_element(points);
  int count = std::min(max_threads / threads, max_block_z);
  while (count > 0 &&
         packed_shared_bytes(type, op, points, components, space_dimension, count) > device.shared_per_block_optin)
    --count;
  return count;
}

int heuristic_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                                 const DeviceInfo& device) {
  const int threads = threads_per_element(points);
  const int limit = max_elements_per_block(type, op, points, components, space_dimension, device);
  int best = std::min(1, limit);
  double best_utilisation = 0.0;
  for (int count = 1; count <= limit; ++count) {
    const int block = threads * count;
    if (block % 32 == 0) return count;
    const double utilisation = double(block) / (32.0 * ((block + 31) / 32));
    if (utilisation > best_utilisation) {
      best_utilisation = utilisation;
      best = count;
    }
  }
  return best;
}

LaunchConfig packed_launch_config(ElementType type, Operation op, int points, int components, int space_dimension,
                                  int elements_per_block, const DeviceInfo& device) {
  if (points < 1) throw std::invalid_argument("interpolation needs at least one point, got " + std::to_string(points));
  LaunchConfig config;
  config.threads_per_element = threads_per_element(points);
  const int limit = max_elements_per_block(type, op, points, components, space_dimension, device);
  if (limit < 1)
    throw std::invalid_argument("one " + to_string(type) + " element with " + std::to_string(points) + " points and " +
                                std::to_string(components) + " components needs " +
                                std::to_string(packed_shared_bytes(type, op, points, components, space_dimension, 1)) +
                                " bytes of shared memory; " + device.name + " allows " +
                                std::to_string(device.shared_per_block_optin) + " per block");
  if (elements_per_block == 0)
    elements_per_block = choose_elements_per_block(type, op, points, components, space_dimension, device);
  if (elements_per_block < 1 || elements_per_block > limit)
    throw std::invalid_argument(
        "elements_per_block = " + std::to_string(elements_per_block) + " does not fit " + device.name + " for " +
        to_string(type) + ", " + operation_name(op) + ", Q = " + std::to_string(points) + ", C = " +
        std::to_string(components) + ": expected 1 to " + std::to_string(limit) + " (at most " +
        std::to_string(max_threads) + " threads and " + std::to_string(device.shared_per_block_optin) +
        " bytes of shared memory per block; " + std::to_string(elements_per_block) + " elements would need " +
        std::to_string(elements_per_block * config.threads_per_element) + " threads and " +
        std::to_string(packed_shared_bytes(type, op, points, components, space_dimension, std::max(elements_per_block, 1))) + " bytes)");
  config.elements_per_block = elements_per_block;
  config.shared_bytes = packed_shared_bytes(type, op, points, components, space_dimension, elements_per_block);
  return config;
}

}  // namespace feinterp::cuda
