// SPDX-License-Identifier: BSD-3-Clause
// --output FILE.msh: what the Gmsh GUI shows as it is. The mesh with its physical groups, the nodal field
// as a NodeData view, and the results at the true quadrature points as list-based point views (SP, VP,
// TP: scalar, vector, tensor; mesh/write.hpp's PointCloud): one view per quantity over every block
// (values, reference gradients, physical gradients, det J), each point drawn where it is in space. The
// field's NodeData covers the points' nodes too (its values there), and the points carry a physical group
// where the mesh's elements all do, so that meshio reads the file (the mesh, its groups and the field;
// it skips the point views, which are ElementNodeData).
#pragma once

#include <string>
#include <vector>

#include <feinterp/mesh/mesh.hpp>

#include <feinterp/apps/cli/results_table.hpp>

namespace feinterp::app {

void write_msh_output(const std::string& path, const Mesh& mesh, const NodalField& field,
                      const std::vector<BlockResults>& results);

}  // namespace feinterp::app
