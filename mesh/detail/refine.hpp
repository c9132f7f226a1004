// SPDX-License-Identifier: BSD-3-Clause
// Uniform refinement of a first-order mesh, in feinterp's own arrays: lines into 2, triangles and
// quadrilaterals into 4, tetrahedra and hexahedra into 8. Gmsh 4.8.4's gmsh::model::mesh::refine takes ~5 s to go
// from 250k to 1M triangles (and 5.5 s from 155k to 1.2M tetrahedra), measured on one core, far
// from the 10 s budget of a 1M-element mesh; this does the same in well under a second.
//
// New nodes: edge midpoints, quadrilateral face centres (mean of the 4 vertices) and cell centres.
// Tetrahedra are split as in Bey (1995): 4 corner tetrahedra and the inner octahedron cut along the
// diagonal between the midpoints of edges 02 and 13, which keeps element quality bounded under
// repeated refinement. Children keep the parent's orientation (by construction, and for tetrahedra
// checked: a child with negative volume has two vertices swapped) and its physical tag. Node tags become 1..N and element tags
// 1..E. New nodes lie on the parent's straight edges and faces, so a curved (ball) boundary is
// refined as the polyhedron of the coarse mesh.
#pragma once

#include <feinterp/mesh/mesh.hpp>

namespace feinterp::detail {

/// Refines every block of `mesh` (all of order 1) once. Throws MeshError for a higher order.
void refine_uniformly(Mesh& mesh);

}  // namespace feinterp::detail
