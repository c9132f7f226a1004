#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""meshio reads a mesh, feinterp interpolates on it.

    python3 examples/python/meshio_interpolate.py [MESH]     (default: tests/data/msh-corpus/tet2_v41a.msh)

Any format meshio reads will do (Gmsh, VTK, Abaqus, Exodus, ...). meshio keeps its connectivity in VTK's
node order; feinterp's is Gmsh's, which differs for some second-order cells (tetra10, hexahedron27), so
the connectivity is permuted back (meshio's own table) before it becomes a feinterp block. The field is a
random linear function, whose gradient feinterp must reproduce exactly at every quadrature point.
"""
import os
import sys

import numpy

import feinterp

try:
    import meshio
    from meshio.gmsh.common import _meshio_to_gmsh_order
except ImportError as error:  # python3-meshio on Debian
    sys.exit(f"this example needs meshio (Debian: apt-get install python3-meshio): {error}")

# meshio's cell types that feinterp interpolates: (shape, order).
CELL_TYPES = {
    "line": ("line", 1), "line3": ("line", 2),
    "triangle": ("triangle", 1), "triangle6": ("triangle", 2),
    "quad": ("quadrilateral", 1), "quad9": ("quadrilateral", 2),
    "tetra": ("tetrahedron", 1), "tetra10": ("tetrahedron", 2),
    "hexahedron": ("hexahedron", 1), "hexahedron27": ("hexahedron", 2),
}


def blocks_of(mesh):
    """feinterp blocks from a meshio mesh: the cells of the highest dimension, in Gmsh node order."""
    blocks = [(cells.type, cells.data) for cells in mesh.cells if cells.type in CELL_TYPES]
    if not blocks:
        raise SystemExit(f"no cells feinterp interpolates among {[c.type for c in mesh.cells]}")
    top = max(feinterp.ElementType(*CELL_TYPES[t]).dimension for t, _ in blocks)
    space_dimension = 2 if not numpy.any(mesh.points[:, 2:]) else 3
    for cell_type, connectivity in blocks:
        element_type = feinterp.ElementType(*CELL_TYPES[cell_type])
        if element_type.dimension == top:
            gmsh_order = _meshio_to_gmsh_order(cell_type, connectivity)
            yield feinterp.BlockArrays(element_type, numpy.ascontiguousarray(gmsh_order, dtype=numpy.int32),
                                       space_dimension)


def main(path):
    mesh = meshio.read(path)
    coordinates = numpy.zeros((len(mesh.points), 3))
    coordinates[:, : mesh.points.shape[1]] = mesh.points
    gradient = numpy.random.default_rng().uniform(-1, 1, 3)
    u = coordinates @ gradient
    print(f"{path}: {len(coordinates)} nodes; u = {gradient[0]:+.3f} x {gradient[1]:+.3f} y {gradient[2]:+.3f} z")
    for block in blocks_of(mesh):
        plan = feinterp.Interpolator(block, 2 * block.type.order, coordinates)
        values = plan.apply("values", u)
        gradients, detj = plan.apply("physical_gradients", u)
        s = plan.space_dimension
        error = numpy.abs(gradients[:, :, 0, :] - gradient[:s]).max()
        volume = numpy.sum(numpy.abs(detj) * plan.point_set.weights)
        print(f"  {str(block.type):<16} {plan.element_count:>7} elements x {plan.points} points: "
              f"u in [{values.min():+.3f}, {values.max():+.3f}], measure {volume:.6f}, gradient error {error:.1e}")
        if error > 1e-10 * numpy.abs(gradient).max():
            raise SystemExit("the gradient of a linear field is not reproduced")


if __name__ == "__main__":
    default = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "msh-corpus", "tet2_v41a.msh")
    main(sys.argv[1] if len(sys.argv) > 1 else default)
