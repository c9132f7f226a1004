#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Physical gradients at the quadrature points, written for ParaView with meshio.

    python3 examples/python/gradients_to_paraview.py [OUTPUT_PREFIX]     (default: ./gradients)

feinterp generates a quadratic tetrahedral mesh of the unit ball, interpolates u = sin(2x) y + z^2 and its
physical gradient at a degree-4 rule's points, and meshio writes two VTK XML files:
  PREFIX_mesh.vtu    the mesh (its vertices: ParaView draws tetra10 through meshio's node order) with u
  PREFIX_points.vtu  the quadrature points as vertex cells, with u, grad u (a vector: Glyph it) and det J
The same two files come from the command line: feinterp interpolate MESH --expr ... --output out.vtu.
"""
import sys

import numpy

import feinterp

try:
    import meshio
except ImportError as error:
    sys.exit(f"this example needs meshio (Debian: apt-get install python3-meshio): {error}")


def main(prefix):
    mesh = feinterp.generate_mesh(feinterp.ElementType("tet", 2), 5000, 0, "ball")
    block = mesh.blocks[0]
    x = mesh.coordinates
    u = numpy.sin(2 * x[:, 0]) * x[:, 1] + x[:, 2] ** 2
    plan = feinterp.Interpolator(block, 4, x)
    points = plan.apply("values", x)  # (E, Q, 3): the points' positions (x interpolated as a 3-component field)
    values = plan.apply("values", u)[:, :, 0]
    gradients, detj = plan.apply("physical_gradients", u)
    exact = numpy.stack([2 * numpy.cos(2 * points[..., 0]) * points[..., 1], numpy.sin(2 * points[..., 0]),
                         2 * points[..., 2]], axis=-1)
    print(f"{block.element_count} tetra10, {plan.points} points each: |grad u - exact| <= "
          f"{numpy.abs(gradients[:, :, 0, :] - exact).max():.2e} (interpolation error, O(h^2))")

    # meshio's tetra10 is in VTK's node order: Gmsh's with nodes 8 and 9 swapped.
    vtk_order = block.connectivity[:, [0, 1, 2, 3, 4, 5, 6, 7, 9, 8]]
    meshio.write(f"{prefix}_mesh.vtu", meshio.Mesh(x, [("tetra10", vtk_order)], point_data={"u": u}))
    flat = points.reshape(-1, 3)
    meshio.write(f"{prefix}_points.vtu", meshio.Mesh(
        flat, [("vertex", numpy.arange(len(flat)).reshape(-1, 1))],
        point_data={"u": values.reshape(-1), "grad_u": gradients[:, :, 0, :].reshape(-1, 3),
                    "detj": detj.reshape(-1)}))
    print(f"wrote {prefix}_mesh.vtu and {prefix}_points.vtu")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gradients")
