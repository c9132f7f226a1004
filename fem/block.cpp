#include "block.hpp"

#include <stdexcept>
#include <string>

namespace feinterp {

void validate_connectivity(const BlockView& block, offset_t node_count) {
  const std::string where = "block of " + to_string(block.type);
  if (block.element_count < 0)
    throw std::invalid_argument(where + ": negative element count " + std::to_string(block.element_count));
  if (node_count < 0)
    throw std::invalid_argument(where + ": negative node count " + std::to_string(node_count));
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
      throw std::invalid_argument(where + ": element " + std::to_string(i / nodes) + ", local node " +
                                  std::to_string(i % nodes) + " has node index " + std::to_string(v) +
                                  ", expected an index in [0, " + std::to_string(node_count) + ")");
  }
}

}  // namespace feinterp
