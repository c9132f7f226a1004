// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/fields.hpp>

#include <feinterp/mesh/error.hpp>

namespace feinterp {

const NodalField& field(const Mesh& mesh, const std::string& name) {
  for (const NodalField& f : mesh.fields) {
    if (f.name != name) continue;
    const std::size_t expected = std::size_t(mesh.node_count()) * std::size_t(f.components > 0 ? f.components : 0);
    if (f.components < 1 || f.values.size() != expected)
      throw MeshError("field '" + name + "' has " + std::to_string(f.values.size()) + " values and " +
                      std::to_string(f.components) + " components: expected " + std::to_string(mesh.node_count()) +
                      " nodes x components values");
    return f;
  }
  std::string names;
  for (const NodalField& f : mesh.fields) names += (names.empty() ? "'" : ", '") + f.name + "'";
  throw MeshError("no field named '" + name + "' in the mesh (fields: " + (names.empty() ? "none" : names) + ")");
}

const NodalField& field(const Mesh& mesh, const std::string& name, int components) {
  const NodalField& f = field(mesh, name);
  if (f.components != components)
    throw MeshError("field '" + name + "' has " + std::to_string(f.components) + " components: expected " +
                    std::to_string(components));
  return f;
}

}  // namespace feinterp
