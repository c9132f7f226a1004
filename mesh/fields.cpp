// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/fields.hpp>

#include <feinterp/mesh/error.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp {

const NodalField& field(const Mesh& mesh, const std::string& name) {
  for (const NodalField& f : mesh.fields) {
    if (f.name != name) continue;
    const std::size_t expected = std::size_t(mesh.node_count()) * std::size_t(f.components > 0 ? f.components : 0);
    if (f.components < 1 || f.values.size() != expected)
      throw MeshError("field '" + printable_text(name) + "' has " + std::to_string(f.values.size()) + " values and " +
                      std::to_string(f.components) + " components: expected " + std::to_string(mesh.node_count()) +
                      " nodes x components values");
    return f;
  }
  // "#N" is the N-th field (from 1, in the file's order, as `feinterp info` lists them): the way to choose a
  // view that the file gives no name (a $NodeData without string tags, or with ""). A field really called
  // "#N" was found by its name above.
  if (name.size() > 1 && name.size() < 10 && name[0] == '#' &&
      name.find_first_not_of("0123456789", 1) == std::string::npos) {
    const std::size_t index = std::stoul(name.substr(1));
    if (index >= 1 && index <= mesh.fields.size()) return field(mesh, mesh.fields[index - 1].name);
  }
  std::string names;
  for (std::size_t i = 0; i < mesh.fields.size(); ++i)
    names += (names.empty() ? "#" : ", #") + std::to_string(i + 1) + " '" + printable_text(mesh.fields[i].name) + "'";
  throw MeshError("no field named '" + printable_text(name) + "' in the mesh (fields: " + (names.empty() ? "none" : names) +
                  ")");
}

const NodalField& field(const Mesh& mesh, const std::string& name, int components) {
  const NodalField& f = field(mesh, name);
  if (f.components != components)
    throw MeshError("field '" + printable_text(name) + "' has " + std::to_string(f.components) + " components: expected " +
                    std::to_string(components));
  return f;
}

}  // namespace feinterp
