// SPDX-License-Identifier: BSD-3-Clause
// Mesh generation for tests, benchmarks and the demo: a target number of elements of any of the 15
// supported types, on a segment/circle (lines), a square/disk/sphere surface (triangles and
// quadrilaterals) or a cube/ball (3D), reproducible from a seed.
//
// How a large mesh is made fast (Gmsh's 2D unstructured mesher does ~20k triangles/s on one core):
// a coarse unstructured mesh of at most ~25k elements is generated, then uniformly refined k times
// (x2 elements per step for lines, x4 in 2D, x8 in 3D) by feinterp itself (detail/refine.hpp: Gmsh 4.8.4's refine
// took 5 s for the last 250k -> 1M triangle step), then raised to order p with Gmsh's setOrder. A
// refined mesh is straight-sided: on the ball, its boundary is the coarse mesh's polyhedron, and
// high-order nodes lie on straight edges; an unrefined one (target <= ~25k, or 100k quads/hexes) has
// its high-order boundary nodes on the circle/sphere. Quadrilaterals come from splitting each triangle into 3 (Mesh.SubdivisionAlgorithm 1),
// hexahedra from splitting each tetrahedron into 4 (Mesh.SubdivisionAlgorithm 2); refinement keeps
// the shape. The coarse mesh size is calibrated (up to 4 corrections of h), so the element count
// lands within ~5% of the target for targets of a few thousand elements and more (the refinement
// factors are exact), within ~30% for a few hundred (small meshes are dominated by their boundary).
// The coarse mesh uses Gmsh's Frontal-Delaunay 2D and Delaunay 3D with one thread and a fixed
// Mesh.RandomSeed: HXT was measured not to be reproducible.
//
// With GenerateOptions::boundary, the domain's boundary comes too, as a block of the dimension below
// (boundary triangles or quadrilaterals of a 3D mesh, lines of a 2D one, of the same order as the
// elements and sharing their nodes) in a physical group named "boundary"; the elements are in one named
// "domain". That is what a FEM code needs for Dirichlet conditions, found the way it finds them in a
// file: by the group's name.
#pragma once

#include <feinterp/elements/element_type.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

enum class Domain {
  box,     ///< [0,1] on the x axis / unit square [0,1]^2 / unit cube [0,1]^3: straight-sided elements
           ///< (affine simplices)
  ball,    ///< [-1,1] on the x axis / unit disk / unit ball centred at 0: curved boundary elements for p >= 2
  sphere,  ///< lines: the unit circle in the plane z = 0; triangles and quadrilaterals: the surface of the
           ///< unit sphere, in 3D (space dimension 3). Curved elements for p >= 2 (nodes on the circle or
           ///< sphere when unrefined). Not for tetrahedra and hexahedra.
};

struct GenerateOptions {
  ElementType type{Shape::triangle, 1};
  offset_t target_elements = 1000;
  /// Perturbs the mesh size by up to +-5% and drives the node shuffle: the same seed (and Gmsh
  /// version) gives the same mesh, bit for bit.
  unsigned seed = 0;
  /// Randomly renumber the nodes (the worst case for memory locality); otherwise Gmsh's own order,
  /// which follows the mesher's fronts and refinement and is fairly local.
  bool shuffle_nodes = false;
  Domain domain = Domain::box;
  /// Also return the boundary of the domain (see above): box and ball, 2D and 3D elements only.
  bool boundary = false;
};

/// The names of the physical groups of a mesh generated with GenerateOptions::boundary.
inline constexpr const char* domain_group_name = "domain";
inline constexpr const char* boundary_group_name = "boundary";

/// Throws MeshError for a target below 1, an invalid type, Domain::sphere with a 3D element, or a
/// boundary asked of lines or of Domain::sphere (a closed curve or surface has none).
Mesh generate_mesh(const GenerateOptions& options);

}  // namespace feinterp
