#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A round trip through meshio: feinterp's mesh and field out to .msh and .vtu, and back.

    python3 examples/python/meshio_round_trip.py [OUTPUT_PREFIX]     (default: ./round_trip)

feinterp generates quadratic tetrahedra of the unit cube and u = x + 2y + 3z at their nodes; meshio
writes them as PREFIX.msh (MSH 2.2, u as node data; 2.2 keeps the physical group: meshio's MSH 4.1
writes no $Entities, so Gmsh, and feinterp through it, reads a 4.1 file of meshio's only with every element
on entity 0, without physical groups) and PREFIX.vtu (ParaView's format). feinterp loads the .msh back
(with its field) and meshio the .vtu: both hold the same mesh and values, and the gradient at every
quadrature point of the reloaded mesh is (1, 2, 3).
"""
import sys

import numpy

import feinterp

try:
    import meshio
    from meshio.gmsh.common import _gmsh_to_meshio_order
except ImportError as error:  # python3-meshio on Debian
    sys.exit(f"this example needs meshio (Debian: apt-get install python3-meshio): {error}")


def main(prefix):
    mesh = feinterp.generate_mesh(feinterp.ElementType("tet", 2), 1000, 0, "box")
    block = mesh.blocks[0]
    x = mesh.coordinates
    u = x @ numpy.array([1.0, 2.0, 3.0])
    # meshio holds cells in VTK's node order and converts to Gmsh's when it writes .msh.
    cells = [("tetra10", _gmsh_to_meshio_order("tetra10", block.connectivity))]
    out = meshio.Mesh(x, cells, point_data={"u": u}, cell_data={"gmsh:physical": [numpy.ones(block.element_count, int)],
                                                               "gmsh:geometrical": [numpy.ones(block.element_count, int)]})
    meshio.write(f"{prefix}.msh", out, file_format="gmsh22", binary=False)
    meshio.write(f"{prefix}.vtu", out)

    loaded = feinterp.load_msh(f"{prefix}.msh")
    again = loaded.blocks[0]
    plan = feinterp.Interpolator(again, 4, loaded.coordinates)
    gradients, _ = plan.apply("physical_gradients", loaded.fields["u"])   # the field as read: (N, 1)
    vtu = meshio.read(f"{prefix}.vtu")
    print(f"{prefix}.msh: {loaded.node_count} nodes, {again.element_count} {again.type}; "
          f"gradient error {numpy.abs(gradients[:, :, 0, :] - [1, 2, 3]).max():.1e}")
    print(f"{prefix}.vtu: {len(vtu.points)} points, {len(vtu.cells[0].data)} {vtu.cells[0].type}; "
          f"u error {numpy.abs(vtu.point_data['u'] - u).max():.1e}")
    if (numpy.abs(gradients[:, :, 0, :] - [1, 2, 3]).max() > 1e-10 or loaded.node_count != mesh.node_count
            or numpy.abs(vtu.point_data["u"] - u).max() > 0):
        raise SystemExit("the round trip changed the mesh or the field")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "round_trip")
