# SPDX-License-Identifier: BSD-3-Clause
"""Random polynomials of total degree p in the s coordinates, with their gradients: fields that a
Lagrange element of order p reproduces exactly on straight-sided meshes (affine simplices, and Q1-mapped
quadrilaterals and hexahedra, where each monomial of degree <= p becomes a polynomial of degree <= p in
each reference variable), so every interpolated value and gradient has an exact answer. The demo and
the tests compare against it, as apps/cli/polynomial.hpp does for the command's demo.
"""
import itertools

import numpy


class Polynomial:
    def __init__(self, degree, space_dimension, components, rng):
        self.s = space_dimension
        self.exponents = numpy.array(
            [e for e in itertools.product(range(degree + 1), repeat=space_dimension) if sum(e) <= degree]
        )
        self.coefficients = rng.uniform(-1.0, 1.0, size=(len(self.exponents), components))

    def values(self, x):
        """x: (..., >= s) points; returns (..., C)."""
        x = numpy.asarray(x)[..., : self.s]
        monomials = numpy.prod(x[..., None, :] ** self.exponents, axis=-1)  # (..., M)
        return monomials @ self.coefficients

    def gradients(self, x):
        """x: (..., >= s) points; returns (..., C, s): du_c/dx_k."""
        x = numpy.asarray(x)[..., : self.s]
        columns = []
        for k in range(self.s):
            lowered = self.exponents.copy()
            lowered[:, k] = numpy.maximum(lowered[:, k] - 1, 0)
            derivative = numpy.prod(x[..., None, :] ** lowered, axis=-1) * self.exponents[:, k]
            columns.append(derivative @ self.coefficients)
        return numpy.stack(columns, axis=-1)


def exact_results(polynomial, x, dx):
    """What values, reference gradients and physical gradients must be at points of physical position
    x (E, Q, 3) with dx/dxi (E, Q, 3, d): (E, Q, C), (E, Q, C, d), (E, Q, C, s). For a curve or surface
    (d < s) the physical gradient is the tangential one, J (J^T J)^-1 J^T grad u (fem/geometry.hpp)."""
    s = polynomial.s
    g = polynomial.gradients(x)  # (E, Q, C, s)
    jacobian = dx[:, :, :s, :]  # (E, Q, s, d)
    reference = numpy.einsum("eqck,eqkd->eqcd", g, jacobian)
    d = jacobian.shape[-1]
    if d == s:
        physical = g
    else:
        metric = numpy.einsum("eqkd,eqkf->eqdf", jacobian, jacobian)
        projector = jacobian @ numpy.linalg.inv(metric) @ numpy.swapaxes(jacobian, -1, -2)  # (E, Q, s, s)
        physical = numpy.einsum("eqkl,eqcl->eqck", projector, g)
    return polynomial.values(x), reference, physical


def relative_error(computed, exact):
    """max |computed - exact| / max |exact| (exact 0: the absolute error)."""
    computed = numpy.asarray(computed, dtype=numpy.float64)
    scale = numpy.max(numpy.abs(exact)) if numpy.size(exact) else 0.0
    error = numpy.max(numpy.abs(computed - exact)) if numpy.size(exact) else 0.0
    return error / scale if scale > 0 else error
