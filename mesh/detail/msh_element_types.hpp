// SPDX-License-Identifier: BSD-3-Clause
// Gmsh's element type codes as the MSH format uses them: dimension and node count of each, for the
// pre-scan (detail/msh_scan.hpp), which must know how many node tags follow an element's tag before
// Gmsh sees the file. The table is Gmsh 4.8.4's own (gmsh::model::mesh::getElementProperties for
// codes 1-140), limited to points, lines, triangles, quadrilaterals, tetrahedra, hexahedra, prisms and
// pyramids of every order Gmsh defines. Left out, so that a file using them is refused before Gmsh
// reads it: polygons and polyhedra (34, 35, 69: their node count is in the file), the "B"/"C" and
// XFEM types (67, 68, 70, 133-136: they name parent or domain elements), and the one-node "sub"
// elements (84-89, 132).
#pragma once

namespace feinterp::detail {

struct MshElementType {
  int code = 0;
  int dimension = 0;
  int nodes = 0;
  const char* name = "";  ///< Gmsh's name, e.g. "Tetrahedron 10"
};

/// The type with this code, or nullptr when the pre-scan does not accept it.
const MshElementType* find_msh_element_type(long long code);

/// The largest node count of an accepted type (1000: the 9th-order hexahedron).
constexpr int max_msh_element_nodes = 1000;

}  // namespace feinterp::detail
