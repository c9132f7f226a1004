#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A load vector: b_i = integral of f phi_i over the mesh, from f at the quadrature points.

    python3 examples/python/load_vector.py

feinterp generates a quadratic triangular mesh of the unit square, places a degree-4 rule's points in its
elements (their physical positions: the coordinates interpolated as a 3-component field), evaluates
f = 1 + x y there, and sums w_q |det J| f phi_i into the nodes with the weighted transpose of "values".
The shape functions sum to one, so sum_i b_i is the integral of f itself: 1 + 1/4 = 1.25.
"""
import numpy

import feinterp


def main():
    mesh = feinterp.generate_mesh(feinterp.ElementType("triangle", 2), 2000, 0, "box")
    block = mesh.blocks[0]
    plan = feinterp.Interpolator(block, 4, mesh.coordinates)
    x = plan.apply("values", mesh.coordinates)           # (E, Q, 3): where the points are
    f = (1 + x[..., 0] * x[..., 1])[..., None]           # (E, Q, 1): f at every point, one component
    b = plan.apply_transpose("values", f, weighted=True)  # (N, 1): sum over elements and points of w |det J| f phi_i
    print(f"{block.element_count} triangle6, {plan.points} points each: sum of b = {b.sum():.12f} (exact 1.25)")
    if abs(b.sum() - 1.25) > 1e-12:
        raise SystemExit("the load vector does not integrate f")


if __name__ == "__main__":
    main()
