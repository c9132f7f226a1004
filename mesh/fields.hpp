// SPDX-License-Identifier: BSD-3-Clause
// Looking up a nodal field of a mesh by name, checked against the mesh.
#pragma once

#include <string>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

/// The field called `name`. Throws MeshError if there is none (listing the names there are) or if its
/// size is not node_count * components.
const NodalField& field(const Mesh& mesh, const std::string& name);

/// As above, and throws MeshError unless the field has `components` components.
const NodalField& field(const Mesh& mesh, const std::string& name, int components);

}  // namespace feinterp
