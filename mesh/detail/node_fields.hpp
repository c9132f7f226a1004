// SPDX-License-Identifier: BSD-3-Clause
// The nodal fields of a loaded mesh, made from the $NodeData sections the pre-scan read (Gmsh is never
// given views: their step, component and tag headers crashed its reader, and it kept them in arrays
// indexed by the largest tag). Semantics, as Gmsh's views had them:
//   * a field per view name, in the order the names first appear; its values are time step 0,
//     merged over the sections of that name and step (one per partition); other steps are ignored
//     with a warning, and so is a view without a step 0;
//   * values are aligned with the mesh's contiguous node indices; a value at every node, exactly one.
// Errors name the section where the problem is: "cannot load mesh 'F': section $NodeData, line 40:
// $NodeData view 'u' has no value at 1 of the mesh's 4 nodes (first: node 3); expected ...".
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/detail/msh_scan.hpp>

namespace feinterp::detail {

/// Consumes `sections` (their arrays are moved from or freed).
std::vector<NodalField> node_fields(std::vector<ScannedNodeData>& sections, const Mesh& mesh,
                                    const std::function<void(const std::string&)>& warn, const std::string& context);

}  // namespace feinterp::detail
