#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A Poisson solve: -laplace(u) = f on the unit square, u = 0 on its boundary, matrix-free.

    python3 examples/python/poisson.py [TARGET_ELEMENTS]     (default: 2000)

The exact solution is u = sin(pi x) sin(pi y), so f = 2 pi^2 u. feinterp gives the two things a
matrix-free solver needs: the stiffness matrix applied to a vector (apply_laplacian, the fused diffusion
operator) and the load vector (the weighted transpose of "values", as examples/python/load_vector.py);
conjugate gradients on the interior nodes does the rest. The L2 error, integrated at the quadrature
points, falls as h^3 for quadratic elements: about 8x per halving of h, 2.8x per doubling of the
element count (the C++ version, with the rates checked, is examples/poisson/).
"""
import sys

import numpy

import feinterp


def conjugate_gradients(apply, b, tolerance=1e-12, max_iterations=2000):
    x = numpy.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rr = r @ r
    for iteration in range(max_iterations):
        if numpy.sqrt(rr) <= tolerance * numpy.sqrt(b @ b):
            return x, iteration
        ap = apply(p)
        alpha = rr / (p @ ap)
        x += alpha * p
        r -= alpha * ap
        rr, rr_old = r @ r, rr
        p = r + (rr / rr_old) * p
    raise SystemExit(f"CG did not converge in {max_iterations} iterations")


def solve(target_elements):
    mesh = feinterp.generate_mesh(feinterp.ElementType("triangle", 2), target_elements, 0, "box")
    block = mesh.blocks[0]
    plan = feinterp.Interpolator(block, 4, mesh.coordinates)
    x = plan.apply("values", mesh.coordinates)                  # (E, Q, 3): the points' positions
    exact = numpy.sin(numpy.pi * x[..., 0]) * numpy.sin(numpy.pi * x[..., 1])
    f = 2 * numpy.pi**2 * exact
    b = plan.apply_transpose("values", f[..., None], weighted=True)[:, 0]   # (N,): integral of f phi_i

    nodes = mesh.coordinates
    on_boundary = numpy.any((numpy.abs(nodes[:, :2]) < 1e-12) | (numpy.abs(nodes[:, :2] - 1) < 1e-12), axis=1)
    interior = numpy.flatnonzero(~on_boundary)
    full = numpy.zeros(mesh.node_count)

    def stiffness(v):                                           # K restricted to the interior nodes (u = 0 outside)
        full[interior] = v
        return plan.apply_laplacian(full)[interior]

    u = numpy.zeros(mesh.node_count)
    u[interior], iterations = conjugate_gradients(stiffness, b[interior])

    uh = plan.apply("values", u)[..., 0]                        # (E, Q): the solution at the points
    _, detj = plan.apply("physical_gradients", u)
    weights = plan.point_set.weights * numpy.abs(detj)
    error = numpy.sqrt(numpy.sum(weights * (uh - exact) ** 2))
    return block.element_count, mesh.node_count, iterations, error


def main(target_elements):
    previous = None
    for target in (target_elements, 4 * target_elements):
        elements, nodes, iterations, error = solve(target)
        rate = "" if previous is None else f", error ratio {previous / error:.1f} (h halved: 8 for p2)"
        print(f"{elements} triangle6, {nodes} nodes: CG {iterations} iterations, L2 error {error:.3e}{rate}")
        if previous is not None and previous / error < 5:
            raise SystemExit("the error does not fall as h^3")
        previous = error


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
