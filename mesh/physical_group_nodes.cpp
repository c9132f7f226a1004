// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/physical_group_nodes.hpp>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace feinterp {

namespace {

std::string describe(const PhysicalGroup& g) {
  return "physical group " + (g.name.empty() ? std::string() : "'" + g.name + "' ") + "(dimension " +
         std::to_string(g.dimension) + ", tag " + std::to_string(g.tag) + ")";
}

std::string list_groups(const Mesh& mesh) {
  if (mesh.physical_groups.empty()) return "the mesh has no physical groups";
  std::string list = "the mesh has";
  for (std::size_t i = 0; i < mesh.physical_groups.size(); ++i)
    list += (i ? ", " : " ") + describe(mesh.physical_groups[i]);
  return list;
}

}  // namespace

const PhysicalGroup& find_physical_group(const Mesh& mesh, const std::string& name) {
  const PhysicalGroup* found = nullptr;
  for (const PhysicalGroup& g : mesh.physical_groups)
    if (!name.empty() && g.name == name) {
      if (found && found->dimension != g.dimension)
        throw std::invalid_argument("physical group name '" + name + "' is used in dimensions " +
                                    std::to_string(found->dimension) + " and " + std::to_string(g.dimension) +
                                    "; expected a name that picks one group");
      found = &g;
    }
  if (found) return *found;
  int tag = 0;
  const char* end = name.data() + name.size();
  const auto [at, error] = std::from_chars(name.data(), end, tag);
  if (!name.empty() && error == std::errc() && at == end)
    for (const PhysicalGroup& g : mesh.physical_groups)
      if (g.tag == tag && (!found || g.dimension > found->dimension)) found = &g;
  if (found) return *found;
  throw std::invalid_argument("no physical group named '" + name + "': " + list_groups(mesh));
}

std::vector<node_index> physical_group_nodes(const Mesh& mesh, const PhysicalGroup& group) {
  std::vector<node_index> nodes;
  bool dimension_has_blocks = false;
  for (const ElementBlock& block : mesh.blocks) {
    if (dimension(block.type.shape) != group.dimension) continue;
    dimension_has_blocks = true;
    const std::size_t N = std::size_t(nodes_per_element(block.type));
    for (std::size_t e = 0; e < block.physical_tags.size(); ++e)
      if (block.physical_tags[e] == group.tag)
        nodes.insert(nodes.end(), block.connectivity.begin() + std::ptrdiff_t(e * N),
                     block.connectivity.begin() + std::ptrdiff_t((e + 1) * N));
  }
  if (nodes.empty())
    throw std::invalid_argument(
        describe(group) + " has no elements in the mesh: " +
        (dimension_has_blocks ? std::string("no element of its dimension carries its tag (an element keeps the first "
                                            "group of its entity)")
                              : "the mesh has no block of dimension " + std::to_string(group.dimension) +
                                    " (load with LoadOptions::keep_lower_dimensional)"));
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

std::vector<node_index> physical_group_nodes(const Mesh& mesh, const std::string& name) {
  return physical_group_nodes(mesh, find_physical_group(mesh, name));
}

}  // namespace feinterp
