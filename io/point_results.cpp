// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/point_results.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace feinterp::io {

int PointLayout::reference_directions() const {
  int D = 1;
  for (const Block& b : blocks) D = std::max(D, b.dimension);
  return D;
}

std::size_t PointLayout::rows() const {
  std::size_t n = 0;
  for (const Block& b : blocks) n += b.elements * std::size_t(b.points);
  return n;
}

void PointLayout::check() const {
  if (components < 1 || components > 9)
    throw std::invalid_argument("point results: " + std::to_string(components) + " components (expected 1 to 9)");
  if (space_dimension != 2 && space_dimension != 3)
    throw std::invalid_argument("point results: space dimension " + std::to_string(space_dimension) + " (expected 2 or 3)");
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.points < 1 || b.dimension < 0 || b.dimension > space_dimension)
      throw std::invalid_argument("point results: block " + std::to_string(i) + " has " + std::to_string(b.points) +
                                  " points per element of dimension " + std::to_string(b.dimension) +
                                  " (expected at least 1 point, a dimension of 0 to the space dimension)");
  }
}

void ChunkOrder::next(const PointLayout& layout, const PointChunk& chunk, bool needs_field_values) {
  // Blocks written whole (or empty) are passed over: the next chunk may begin the block after them.
  while (block_ < layout.blocks.size() && element_ == layout.blocks[block_].elements && chunk.block != block_) {
    ++block_;
    element_ = 0;
  }
  if (chunk.block != block_ || chunk.first_element != element_ || block_ >= layout.blocks.size() ||
      chunk.elements > layout.blocks[block_].elements - element_)
    throw std::invalid_argument("point results: a chunk of " + std::to_string(chunk.elements) + " elements from element " +
                                std::to_string(chunk.first_element) + " of block " + std::to_string(chunk.block) +
                                " (expected the next one: from element " + std::to_string(element_) + " of block " +
                                std::to_string(block_) + ", within the block)");
  auto require = [&](bool given, const char* what) {
    if (chunk.elements && !given)
      throw std::invalid_argument(std::string("point results: a chunk of block ") + std::to_string(chunk.block) +
                                  " without its " + what + " (expected them: the layout says they were computed)");
  };
  require(chunk.element_tags, "element tags");
  require(chunk.coordinates, "coordinates");
  if (layout.values) require(chunk.values, "values");
  if (layout.reference_gradients) require(chunk.reference_gradients, "reference gradients");
  if (layout.physical_gradients) require(chunk.physical_gradients && chunk.detj, "physical gradients and det J");
  if (needs_field_values && !layout.values) require(chunk.field_values, "field values");
  element_ += chunk.elements;
}

void ChunkOrder::finish(const PointLayout& layout) const {
  for (std::size_t b = block_; b < layout.blocks.size(); ++b) {
    const std::size_t written = b == block_ ? element_ : 0;
    if (written != layout.blocks[b].elements)
      throw std::logic_error("point results: finished with " + std::to_string(written) + " of the " +
                             std::to_string(layout.blocks[b].elements) + " elements of block " + std::to_string(b) +
                             " written (expected every element)");
  }
}

}  // namespace feinterp::io
