// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/ordering/gather_locality.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace feinterp {

GatherLocality measure_gather_locality(const BlockView& block, offset_t node_count, const GatherLocalityOptions& options) {
  if (options.window_elements < 1 || options.value_bytes < 1 || options.sector_bytes < options.value_bytes ||
      options.sector_bytes % options.value_bytes != 0)
    throw std::invalid_argument("gather locality: window of " + std::to_string(options.window_elements) +
                                " elements, " + std::to_string(options.sector_bytes) + "-byte sectors, " +
                                std::to_string(options.value_bytes) +
                                "-byte values (expected a window >= 1 and sectors a whole multiple >= 1 of values)");
  validate_connectivity(block, node_count);
  GatherLocality result;
  if (block.element_count == 0) return result;
  const offset_t N = nodes_per_element(block.type), E = block.element_count;
  const offset_t values_per_sector = options.sector_bytes / options.value_bytes;
  double spread_sum = 0;
  offset_t nodes_used = 0, sectors_used = 0;
  std::vector<node_index> window;
  for (offset_t begin = 0; begin < E; begin += options.window_elements) {
    const offset_t end = std::min(E, begin + offset_t(options.window_elements));
    window.assign(block.connectivity + begin * N, block.connectivity + end * N);
    for (offset_t e = begin; e < end; ++e) {
      const node_index* nodes = block.connectivity + e * N;
      const auto [lo, hi] = std::minmax_element(nodes, nodes + N);
      const offset_t spread = offset_t(*hi) - offset_t(*lo);
      spread_sum += double(spread);
      result.bandwidth = std::max(result.bandwidth, spread);
    }
    std::sort(window.begin(), window.end());
    window.erase(std::unique(window.begin(), window.end()), window.end());
    nodes_used += offset_t(window.size());
    offset_t last_sector = -1;
    for (const node_index v : window) {  // sorted: the distinct sectors come in order
      const offset_t sector = offset_t(v) / values_per_sector;
      sectors_used += sector != last_sector;
      last_sector = sector;
    }
  }
  result.mean_spread = spread_sum / double(E);
  result.sector_efficiency = double(nodes_used) / double(sectors_used * values_per_sector);
  result.sectors_per_element = double(sectors_used) / double(E);
  return result;
}

}  // namespace feinterp
