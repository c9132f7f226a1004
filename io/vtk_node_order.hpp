// SPDX-License-Identifier: BSD-3-Clause
// Gmsh's node order -> VTK's, for the .vtu output: which VTK cell type an element becomes, and where
// each of its nodes goes.
//
//   p = 1   the linear cells VTK_LINE (3), VTK_TRIANGLE (5), VTK_QUAD (9), VTK_TETRA (10),
//           VTK_HEXAHEDRON (12): their vertex order is Gmsh's
//   p = 2,3 the arbitrary-order Lagrange cells VTK_LAGRANGE_CURVE (68), _TRIANGLE (69),
//           _QUADRILATERAL (70), _TETRAHEDRON (71), _HEXAHEDRON (72), which ParaView draws curved
//
// VTK numbers a Lagrange cell's nodes vertices first, then edge by edge, face by face, then the interior,
// like Gmsh, but with other edge directions, edge and face orders and interior orders (quadrilaterals and
// hexahedra: lexicographic; Gmsh: recursive). Rather than tables typed by hand, the permutation is
// derived: VTK's rule gives each VTK node its parametric point (vtk_parametric_point: VTK 9's
// vtkHigherOrderQuadrilateral/Hexahedron::PointIndexFromIJK, its triangle and tetrahedron edge and face
// orders), which is mapped to Gmsh's reference element and matched to the Gmsh node there. A test checks
// the result against VTK's own cells (tests/apps/read_outputs.py, with VTK's Python module).
#pragma once

#include <vector>

#include <feinterp/elements/element_type.hpp>

namespace feinterp::io {

/// The VTK cell type of elements of `type`.
int vtk_cell_type(ElementType type);

/// gmsh_node[i] for VTK node i: VTK's connectivity of an element is its Gmsh connectivity taken in this
/// order. Throws std::logic_error if a VTK node has no Gmsh node at its point (a bug).
std::vector<int> vtk_from_gmsh(ElementType type);

}  // namespace feinterp::io
