// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/physical_group_blocks.hpp>

#include <map>
#include <stdexcept>
#include <string>

namespace feinterp {

std::vector<ElementBlock> physical_group_blocks(const Mesh& mesh, int dimension) {
  if (dimension < 0 || dimension > 3)
    throw std::invalid_argument("physical_group_blocks: dimension " + std::to_string(dimension) + ", expected 0 to 3");
  const int d = dimension == 0 ? mesh.dimension : dimension;
  std::vector<ElementBlock> blocks;
  for (const ElementBlock& block : mesh.blocks) {
    if (feinterp::dimension(block.type.shape) != d) continue;
    const std::size_t N = std::size_t(nodes_per_element(block.type));
    std::map<int, ElementBlock> by_tag;  // ascending tags
    for (std::size_t e = 0; e < std::size_t(block.element_count()); ++e) {
      const int tag = block.physical_tags.empty() ? 0 : block.physical_tags[e];
      ElementBlock& part = by_tag[tag];
      part.connectivity.insert(part.connectivity.end(), block.connectivity.begin() + std::ptrdiff_t(e * N),
                               block.connectivity.begin() + std::ptrdiff_t((e + 1) * N));
      if (e < block.element_tags.size()) part.element_tags.push_back(block.element_tags[e]);
      part.physical_tags.push_back(tag);
    }
    for (auto& [tag, part] : by_tag) {
      part.type = block.type;
      part.space_dimension = block.space_dimension;
      blocks.push_back(std::move(part));
    }
  }
  if (blocks.empty())
    throw std::invalid_argument("physical_group_blocks: the mesh has no block of dimension " + std::to_string(d));
  return blocks;
}

}  // namespace feinterp
