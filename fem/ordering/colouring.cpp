// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/ordering/colouring.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace feinterp {

ElementColouring colour_elements(const BlockView& block, offset_t node_count) {
  const int N = nodes_per_element(block.type);
  const offset_t E = block.element_count;
  std::vector<int> colour(std::size_t(E), -1);
  std::vector<std::uint64_t> used(static_cast<std::size_t>(node_count));
  std::vector<offset_t> pending(static_cast<std::size_t>(E)), deferred;
  for (offset_t e = 0; e < E; ++e) pending[std::size_t(e)] = e;
  // Round r assigns colours 64 r .. 64 r + 63. An element whose nodes already carry all 64 is deferred
  // to the next round, where it only meets other deferred elements: the colours of earlier rounds
  // are all smaller, so no two elements that share a node can end with the same colour.
  for (int base = 0; !pending.empty(); base += 64) {
    std::fill(used.begin(), used.end(), 0);
    deferred.clear();
    for (const offset_t e : pending) {
      const node_index* nodes = block.connectivity + e * N;
      std::uint64_t taken = 0;
      for (int n = 0; n < N; ++n) taken |= used[std::size_t(nodes[n])];
      if (taken == ~std::uint64_t(0)) {
        deferred.push_back(e);
        continue;
      }
      const int bit = __builtin_ctzll(~taken);
      colour[std::size_t(e)] = base + bit;
      for (int n = 0; n < N; ++n) used[std::size_t(nodes[n])] |= std::uint64_t(1) << bit;
    }
    pending.swap(deferred);
  }
  // Counting sort by colour, stable: elements stay in increasing order inside a colour.
  int colours = 0;
  for (const int c : colour) colours = std::max(colours, c + 1);
  ElementColouring result;
  result.colour_offsets.assign(std::size_t(colours) + 1, 0);
  for (const int c : colour) ++result.colour_offsets[std::size_t(c) + 1];
  for (int c = 0; c < colours; ++c) result.colour_offsets[std::size_t(c) + 1] += result.colour_offsets[std::size_t(c)];
  result.elements.resize(std::size_t(E));
  std::vector<offset_t> next(result.colour_offsets.begin(), result.colour_offsets.end() - 1);
  for (offset_t e = 0; e < E; ++e) result.elements[std::size_t(next[std::size_t(colour[std::size_t(e)])]++)] = e;
  return result;
}

void check_distinct_nodes(const BlockView& block) {
  const int N = nodes_per_element(block.type);
  for (offset_t e = 0; e < block.element_count; ++e) {
    const node_index* nodes = block.connectivity + e * N;
    for (int a = 0; a < N; ++a)
      for (int b = a + 1; b < N; ++b)
        if (nodes[a] == nodes[b])
          throw std::invalid_argument(describe_element(block, e) + " lists node " + std::to_string(nodes[a]) +
                                      " twice (local nodes " + std::to_string(a) + " and " + std::to_string(b) +
                                      "): deterministic GPU summation needs distinct nodes in every element");
  }
}

}  // namespace feinterp
