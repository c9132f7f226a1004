// SPDX-License-Identifier: BSD-3-Clause
// Looking up a nodal field of a mesh by name, checked against the mesh.
#pragma once

#include <string>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

/// The field called `name`, or, when none is, "#N": the N-th of mesh.fields (from 1), which is how a view
/// the file gives no name (its name "") is chosen. Throws MeshError if there is none (listing the fields
/// there are, "#1 'temperature', #2 ''") or if its size is not node_count * components.
const NodalField& field(const Mesh& mesh, const std::string& name);

/// As above, and throws MeshError unless the field has `components` components.
const NodalField& field(const Mesh& mesh, const std::string& name, int components);

}  // namespace feinterp
