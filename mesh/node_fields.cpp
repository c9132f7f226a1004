// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/node_fields.hpp>

#include <algorithm>
#include <limits>

#include <feinterp/mesh/detail/extract.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp::detail {

std::vector<NodalField> node_fields(std::vector<ScannedNodeData>& sections, const Mesh& mesh,
                                    const std::function<void(const std::string&)>& warn, const std::string& context) {
  std::vector<std::string> names;  // in order of first appearance
  for (const ScannedNodeData& s : sections)
    if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);

  const NodeTagMap map(mesh.node_tags);
  const std::size_t n = mesh.node_tags.size();
  std::vector<NodalField> fields;
  for (const std::string& name : names) {
    std::vector<ScannedNodeData*> step0;
    long long steps = 0;
    std::vector<long long> seen_steps;
    for (ScannedNodeData& s : sections)
      if (s.name == name) {
        if (std::find(seen_steps.begin(), seen_steps.end(), s.step) == seen_steps.end()) seen_steps.push_back(s.step);
        if (s.step == 0) step0.push_back(&s);
      }
    steps = (long long)seen_steps.size();
    const std::string view = "$NodeData view '" + printable_text(name) + "'";
    if (step0.empty()) {
      if (warn) warn(context + ": " + view + " has no time step 0: ignored");
      continue;
    }
    if (steps > 1 && warn) warn(context + ": " + view + " has " + std::to_string(steps) + " time steps: only step 0 is read");
    const std::size_t c = std::size_t(step0.front()->components);
    NodalField field{name, int(c), std::vector<double>(n * c, std::numeric_limits<double>::quiet_NaN())};
    std::vector<char> has_value(n, 0);
    for (ScannedNodeData* s : step0) {
      if (std::size_t(s->components) != c)
        throw MeshError(s->where + ": " + view + " has " + std::to_string(s->components) + " components here and " +
                        std::to_string(c) + " in its first section (expected the same number)");
      for (std::size_t i = 0; i < s->tags.size(); ++i) {
        const node_index node = map.find(s->tags[i]);
        if (node < 0)  // the pre-scan checked the file's nodes; the mesh must have them all
          throw MeshError(s->where + ": " + view + " has a value at node " + std::to_string(s->tags[i]) +
                          ", which is not a node of the mesh (expected values at the mesh's nodes only)");
        if (has_value[std::size_t(node)]++)
          throw MeshError(s->where + ": " + view + " has two values at node " + std::to_string(s->tags[i]) +
                          " (expected one per node and time step)");
        std::copy_n(s->values.begin() + std::ptrdiff_t(i * c), c, field.values.begin() + std::ptrdiff_t(std::size_t(node) * c));
      }
      std::vector<std::uint32_t>().swap(s->tags);
      std::vector<double>().swap(s->values);
    }
    const std::size_t missing = std::size_t(std::count(has_value.begin(), has_value.end(), 0));
    if (missing) {
      const std::size_t first = std::size_t(std::find(has_value.begin(), has_value.end(), 0) - has_value.begin());
      throw MeshError(step0.front()->where + ": " + view + " has no value at " + std::to_string(missing) + " of the mesh's " +
                      std::to_string(n) + " nodes (first: node " + std::to_string(mesh.node_tags[first]) +
                      "); expected a value at every node (or load with read_fields = false)");
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace feinterp::detail
