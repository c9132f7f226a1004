// SPDX-License-Identifier: BSD-3-Clause
// BlockView: a non-owning view of a block of same-type elements, the unit every interpolation
// routine (CPU and GPU) works on. The mesh loader's ElementBlock converts to it; a FEM code that
// brings its own mesh builds one from its own arrays.
//
// A block knows two dimensions: the reference dimension d of its element (dimension(type.shape): 1
// for lines, 2 for triangles and quadrilaterals, 3 for tetrahedra and hexahedra) and the space
// dimension s of the coordinates it lives in (2: every node has z = 0; 3: anywhere). s >= d, so a
// triangle may be a surface element in 3D (d = 2 < s = 3) and a line a curve in the plane or in space.
// Physical gradients have s components (core/layout.hpp).
#pragma once

#include <cstddef>
#include <string>

#include <feinterp/core/config.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/core/operation.hpp>

namespace feinterp {

struct BlockView {
  ElementType type;
  const node_index* connectivity = nullptr;  ///< element e, local node n at [e * nodes_per_element + n], Gmsh order
  offset_t element_count = 0;
  /// s: 2 (the nodes lie in the plane z = 0, which the physical-gradient routines check) or 3; 0 means
  /// the default, default_space_dimension(type): 3 for 3D elements, 2 for the others.
  int space_dimension = 0;
  /// Optional, host memory, not owned: element_tags[e] is element e's tag in the file it came from.
  /// Only read to name an element in an error message ("element tag 82" rather than "element 81").
  const std::size_t* element_tags = nullptr;
};

/// The smallest space an element of this type lives in without loss: max(d, 2).
inline int default_space_dimension(ElementType type) { return dimension(type.shape) == 3 ? 3 : 2; }

/// The block's space dimension s, its default applied. Throws std::invalid_argument unless s is 2 or 3
/// and s >= d.
int space_dimension(const BlockView& block);

/// Number of doubles in the result of `op` on the block at `points` points, for a `components`-component
/// field (operation.hpp's output_size with the block's two dimensions).
inline std::size_t output_size(Operation op, const BlockView& block, int points, int components) {
  return output_size(op, block.element_count, points, components, dimension(block.type.shape), space_dimension(block));
}

/// "element tag 82 (index 81 of the block of triangle p2)" when the block has tags, else
/// "element 81 of the block of triangle p2": how every message names an element.
std::string describe_element(const BlockView& block, offset_t element);

/// Throws std::invalid_argument naming the first element whose connectivity holds an index outside
/// [0, node_count), or if the view is inconsistent (null data with elements, negative count, a space
/// dimension other than 0, 2 or 3 or below d). Host-side, once per block: kernels then never read out of
/// bounds.
void validate_connectivity(const BlockView& block, offset_t node_count);

}  // namespace feinterp
