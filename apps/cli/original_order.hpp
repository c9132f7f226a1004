// SPDX-License-Identifier: BSD-3-Clause
// feinterp interpolate --renumber: the mesh is renumbered on load (mesh/renumber.hpp) so the kernels
// gather from a local node numbering, and the results come out in the file's order all the same: each
// chunk of elements is a range of the file's element order, its connectivity gathered from the
// renumbered block (nodes in the new numbering), its tags the file's. The outputs then mean what they
// mean without --renumber: the same rows (block, element tag, point) in the same order; the mesh and the
// field are given their file numbering back before the writers write them (restore_file_order).
#pragma once

#include <cstddef>
#include <vector>

#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/renumber.hpp>

namespace feinterp::app {

/// Elements [first, first + count) of block `b` in the file's order: their connectivity (in the mesh's
/// node numbering) and tags, gathered into `connectivity` and `tags` where the mesh was renumbered; a
/// view of the block's own arrays otherwise.
struct FileOrderChunk {
  BlockView view;
  const std::size_t* tags = nullptr;
};
inline FileOrderChunk file_order_chunk(const Mesh& mesh, std::size_t b, std::size_t first, std::size_t count,
                                       std::vector<node_index>& connectivity, std::vector<std::size_t>& tags) {
  const ElementBlock& block = mesh.blocks[b];
  const std::size_t per = std::size_t(nodes_per_element(block.type));
  FileOrderChunk chunk{block.view(), nullptr};
  chunk.view.element_count = offset_t(count);
  if (mesh.renumbering.method == RenumberMethod::none) {
    chunk.view.connectivity = block.connectivity.data() + first * per;
    chunk.tags = block.element_tags.data() + first;
  } else {
    const std::vector<offset_t>& new_of_old = mesh.renumbering.elements[b].old_to_new;
    connectivity.resize(count * per);
    tags.resize(count);
    for (std::size_t e = 0; e < count; ++e) {
      const std::size_t at = std::size_t(new_of_old[first + e]);
      std::copy_n(&block.connectivity[at * per], per, &connectivity[e * per]);
      tags[e] = block.element_tags[at];
    }
    chunk.view.connectivity = connectivity.data();
    chunk.tags = tags.data();
  }
  chunk.view.element_tags = chunk.tags;
  return chunk;
}

/// Gives the mesh and the field (node-major) their file numbering back. Nothing to do for a mesh that was
/// not renumbered.
inline void restore_file_order(Mesh& mesh, NodalField& field) {
  if (mesh.renumbering.method == RenumberMethod::none) return;
  field.values = mesh.renumbering.nodes.to_old_order(field.values);
  restore_original_numbering(mesh);
}

}  // namespace feinterp::app
