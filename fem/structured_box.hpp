// SPDX-License-Identifier: BSD-3-Clause
// A structured, conforming mesh of the unit interval, square or cube, for any of the 15 element types,
// built without Gmsh: the box split into n cells per side, each cell one line, quadrilateral or
// hexahedron, or 2 triangles, or 6 tetrahedra (the Kuhn/Freudenthal split: one tetrahedron per ordering
// of the axes along the cell's diagonal, the same in every cell, so faces match across cells).
//
// What it is for: meshes far larger than Gmsh makes in reasonable time (Gmsh takes ~14 s for 1M p2
// tetrahedra), for the GPU's scaling benchmark and the test of outputs past 2^31 entries, and small
// conforming meshes for tests. Its cost is writing the result: 12M p3 hexahedra are 3.1 GB of
// connectivity and 7.8 GB of coordinates (326M nodes); 2M took 3.5 s on a busy 2-core VM, most of it
// the first touch of their 1.8 GB.
//
// The mesh:
//   * nodes are the points of the lattice of spacing 1 / (p n) on [0, 1]^d, numbered lexicographically,
//     x fastest: node (a, b, c) is a + (L + 1) (b + (L + 1) c), L = p n, at (a, b, c) / L. Every lattice
//     point belongs to some element, so there are (p n + 1)^d nodes and ids are computed, never looked
//     up: O(nodes + elements) time and no memory beyond the result.
//   * an element's nodes are its reference nodes (elements/, Gmsh's order) placed on the straight-sided
//     element: the element is the affine (simplex) or scaled (tensor) image of its reference element, so
//     a field that is a polynomial of the element's degree is reproduced exactly. Neighbours share their
//     common vertex, edge and face nodes (one id per lattice point), as in a mesh from a file.
//   * every element is positively oriented: det J = h^d for the simplices (h = 1 / n) and (h / 2)^d for
//     the tensor shapes, whose reference element is [-1, 1]^d.
//   * elements are numbered cell by cell, cells x fastest, the simplices of a cell consecutively.
//   * lines and 2D elements lie in the plane z = 0 (space dimension 2), 3D ones in space.
#pragma once

#include <vector>

#include <feinterp/fem/block.hpp>

namespace feinterp {

struct StructuredBox {
  ElementType type{Shape::triangle, 1};
  int cells = 0;                         ///< n, cells per side
  std::vector<node_index> connectivity;  ///< [e * nodes_per_element + n], Gmsh's node order
  std::vector<double> coordinates;       ///< x[node * 3 + k]
  offset_t element_count = 0;

  offset_t node_count() const { return offset_t(coordinates.size() / 3); }
  /// The block, on this box's host arrays, in its default space dimension.
  BlockView view() const { return {type, connectivity.data(), element_count, default_space_dimension(type)}; }
};

/// Elements of the box of `cells` per side: cells^d, times 2 for triangles and 6 for tetrahedra.
offset_t structured_box_element_count(ElementType type, int cells);

/// Nodes of the box: (order * cells + 1)^d.
offset_t structured_box_node_count(ElementType type, int cells);

/// The largest cell count per side whose nodes all have a node_index (core/config.hpp: at most 2^31 - 1
/// nodes): (2^31 - 2) / p for lines; 46,339, 23,169 and 15,446 for 2D elements of order 1, 2 and 3;
/// 1,289, 644 and 429 for 3D ones (429 p3 hexahedra per side: 79M elements).
int structured_box_max_cells(ElementType type);

/// The cell count per side whose element count is nearest `target_elements` (at least 1 cell), e.g.
/// 229 for 12M hexahedra (12,008,989). Throws std::invalid_argument if that box has too many nodes.
int structured_box_cells(ElementType type, offset_t target_elements);

/// The box of `cells` per side (see above). Throws std::invalid_argument for an invalid type, fewer than
/// 1 cell, or more nodes than node_index can number (saying the largest cell count that fits).
StructuredBox structured_box(ElementType type, int cells);

}  // namespace feinterp
