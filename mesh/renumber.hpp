// SPDX-License-Identifier: BSD-3-Clause
// Renumbering a Mesh in place: the permutations of fem/ordering/renumbering.hpp (reverse Cuthill–McKee or the
// Hilbert curve) applied to every array indexed by node or element, so that the mesh describes the same
// nodes and elements, tags and physical groups included, in a numbering whose gathers are local.
//
//   nodes     coordinates, node_tags, every field's values: row i of each moves together
//   elements  each block's connectivity (rows moved, node indices renamed), element_tags, physical_tags
//
// Mesh::renumbering records the permutations, composed with any earlier renumbering, so it always maps
// the numbering the mesh was loaded or generated with to the current one: results computed on the
// renumbered mesh go back to that order with mesh.renumbering.elements[b].to_old_order(results), a
// nodal result with mesh.renumbering.nodes.to_old_order(values); restore_original_numbering undoes it all.
#pragma once

#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

/// Renumbers `mesh` by `method` (none: changes nothing) and returns mesh.renumbering. Throws
/// std::invalid_argument, before changing anything, if the mesh's arrays disagree (coordinates,
/// tags, fields or physical tags of the wrong size; a node index out of range, naming the element).
const Renumbering& renumber(Mesh& mesh, RenumberMethod method);

/// Puts the nodes and elements back in the order they had when the mesh was loaded or generated, and
/// clears mesh.renumbering. Nothing to do for a mesh never renumbered.
void restore_original_numbering(Mesh& mesh);

}  // namespace feinterp
