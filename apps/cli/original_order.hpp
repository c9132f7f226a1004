// SPDX-License-Identifier: BSD-3-Clause
// feinterp interpolate --renumber: the mesh is renumbered on load (mesh/renumber.hpp) so the kernels
// gather from a local numbering, and everything is put back in the file's order before anything is
// reported or written. The outputs then mean what they mean without --renumber: the same rows (block,
// element tag, point) in the same order, the same nodes in a written mesh; only the kernel times change,
// and the last bits of values the CPU's Eigen products round by an element's place in a product (1e-16).
#pragma once

#include <vector>

#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/renumber.hpp>

#include <feinterp/apps/cli/results_table.hpp>

namespace feinterp::app {

/// Moves every result array (element-major: an element's rows together) and the field (node-major) back
/// to the order the mesh had when loaded, then restores the mesh's own numbering. Nothing to do for a
/// mesh that was not renumbered.
inline void restore_original_order(Mesh& mesh, NodalField& field, std::vector<BlockResults>& results) {
  if (mesh.renumbering.method == RenumberMethod::none) return;
  field.values = mesh.renumbering.nodes.to_old_order(field.values);
  for (BlockResults& r : results) {
    const Permutation<offset_t>& elements = mesh.renumbering.elements[r.block];
    for (std::vector<double>* data : {&r.physical_points, &r.values, &r.reference_gradients, &r.physical_gradients, &r.detj})
      *data = elements.to_old_order(*data);
  }
  restore_original_numbering(mesh);
}

}  // namespace feinterp::app
