// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/block.hpp>

#include <stdexcept>
#include <string>

namespace feinterp {

int space_dimension(const BlockView& block) {
  if (block.space_dimension == 0) return default_space_dimension(block.type);
  const int d = dimension(block.type.shape);
  if ((block.space_dimension != 2 && block.space_dimension != 3) || block.space_dimension < d)
    throw std::invalid_argument("block of " + to_string(block.type) + ": space dimension " +
                                std::to_string(block.space_dimension) + ", expected " +
                                (d == 3 ? std::string("3") : std::string("2 or 3")) +
                                " (or 0 for the default) for an element of reference dimension " + std::to_string(d));
  return block.space_dimension;
}

std::string describe_element(const BlockView& block, offset_t element) {
  const std::string of_block = " of the block of " + to_string(block.type);
  if (block.element_tags && element >= 0 && element < block.element_count)
    return "element tag " + std::to_string(block.element_tags[element]) + " (index " + std::to_string(element) +
           of_block + ")";
  return "element " + std::to_string(element) + of_block;
}

void validate_connectivity(const BlockView& block, offset_t node_count) {
  const std::string where = "block of " + to_string(block.type);
  if (block.element_count < 0)
    throw std::invalid_argument(where + ": negative element count " + std::to_string(block.element_count));
  if (node_count < 0)
    throw std::invalid_argument(where + ": negative node count " + std::to_string(node_count));
  space_dimension(block);  // throws for a bad one
  if (block.element_count == 0) return;
  if (!block.connectivity)
    throw std::invalid_argument(where + ": connectivity is null but the block has " +
                                std::to_string(block.element_count) + " elements");
  const int nodes = nodes_per_element(block.type);  // throws for an unsupported order
  const offset_t total = block.element_count * nodes;
  // One branch-free pass finds whether anything is out of range (the common case is that nothing is,
  // and this pass then runs at memory speed); only then locate the first offender for the message.
  bool bad = false;
  for (offset_t i = 0; i < total; ++i) {
    const offset_t v = block.connectivity[i];
    bad |= (v < 0) | (v >= node_count);
  }
  if (!bad) return;
  for (offset_t i = 0; i < total; ++i) {
    const offset_t v = block.connectivity[i];
    if (v < 0 || v >= node_count)
      throw std::invalid_argument(describe_element(block, i / nodes) + ", local node " + std::to_string(i % nodes) +
                                  " has node index " + std::to_string(v) + ", expected an index in [0, " +
                                  std::to_string(node_count) + ")");
  }
}

}  // namespace feinterp
