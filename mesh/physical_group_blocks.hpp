// SPDX-License-Identifier: BSD-3-Clause
// A mesh's blocks split by physical group. A loaded Mesh has one block per element type, whatever its
// physical groups; a FEM code with a material per physical volume wants one block per (type, group), so
// that a MeshOperator's coefficient (or its choice of blocks) follows the groups. Blocks of one type stay
// next to each other, so a MeshOperator still computes them as one run.
#pragma once

#include <vector>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

/// `mesh`'s blocks of reference dimension `dimension` (0: the mesh's) split by physical tag: one
/// ElementBlock per (element type, tag), in the mesh's block order, then by ascending tag (elements of no
/// group, tag 0, first), each with its elements in their order in the mesh (connectivity, element tags and
/// physical tags copied; the space dimension kept). The blocks index the mesh's nodes. Throws
/// std::invalid_argument for a dimension outside 0..3 or one the mesh has no block of.
std::vector<ElementBlock> physical_group_blocks(const Mesh& mesh, int dimension = 0);

}  // namespace feinterp
