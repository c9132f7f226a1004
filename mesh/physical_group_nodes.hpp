// SPDX-License-Identifier: BSD-3-Clause
// The nodes of a physical group: where a FEM code puts essential (Dirichlet) conditions when the file
// names its boundaries (interpolator/constrained_operator.hpp). A boundary group's elements are a block
// of the dimension below the domain's only when the mesh was loaded with
// LoadOptions::keep_lower_dimensional (mesh/mesh.hpp); a generated mesh has them with
// GenerateOptions::boundary.
#pragma once

#include <string>
#include <vector>

#include <feinterp/core/config.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

/// The physical group of `mesh` named `name`, or, when `name` is an integer and no group has that name,
/// the one with that tag (of the highest dimension that has one). Throws std::invalid_argument listing
/// the groups for a name that matches none, or two groups of the same name and different dimensions.
const PhysicalGroup& find_physical_group(const Mesh& mesh, const std::string& name);

/// The nodes, ascending and each once, of every element of `group` (the elements of `mesh`'s blocks of the
/// group's dimension whose physical tag is the group's: ElementBlock::physical_tags keeps an element's
/// first group, so a group whose entities all belong to an earlier group first has no elements here).
/// Throws std::invalid_argument when it has no element in `mesh`, saying whether its dimension has no
/// block (load with keep_lower_dimensional) or no element carries its tag.
std::vector<node_index> physical_group_nodes(const Mesh& mesh, const PhysicalGroup& group);

/// physical_group_nodes(mesh, find_physical_group(mesh, name)).
std::vector<node_index> physical_group_nodes(const Mesh& mesh, const std::string& name);

}  // namespace feinterp
