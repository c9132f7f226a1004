# SPDX-License-Identifier: BSD-3-Clause
# Round trips through the Python layer against the library's exact answers: a random polynomial of
# degree p is reproduced by every element type of order p (tests/interpolator does the same in C++), so
# values, reference gradients and physical gradients at the points must match it to round-off, in FP64,
# and within FP32's rounding in FP32.
import numpy
import pytest

import feinterp
from conftest import ALL_TYPES, box_mesh, first_block, type_id
from feinterp.polynomial import Polynomial, exact_results, relative_error


def fp32_bound(name, u, dx, s, order):
    """An absolute bound on FP32's error where the result is much smaller than the field (a gradient on a
    small element: differences of nodal values): 256 eps |u| p^2 (the basis derivatives' size), times the
    largest |J^-1| (the pseudo-inverse for d < s) for physical gradients. tests/interpolator/precision_test.cpp
    holds the tight, derived bound; this one checks that the Python path computes in FP32 correctly."""
    bound = 256 * numpy.finfo(numpy.float32).eps * order * order * numpy.abs(u).max()
    if name == "physical":
        bound *= numpy.linalg.norm(numpy.linalg.pinv(dx[:, :, :s, :]), ord=2, axis=(-2, -1)).max()
    return bound


def geometry(block, coordinates, degree):
    plan = feinterp.Interpolator(block, degree, coordinates)
    return plan.apply("values", coordinates), plan.apply("reference_gradients", coordinates)


@pytest.mark.parametrize("precision", ["fp64", "fp32"])
@pytest.mark.parametrize("element_type", ALL_TYPES, ids=type_id)
def test_polynomials_are_reproduced(element_type, precision, rng):
    mesh = box_mesh(element_type.shape, element_type.order)
    block = first_block(mesh, element_type)
    components = int(rng.integers(1, 4))
    degree = int(rng.integers(element_type.order, 2 * element_type.order + 2))
    x, dx = geometry(block, mesh.coordinates, degree)
    polynomial = Polynomial(element_type.order, block.space_dimension, components, rng)
    exact = exact_results(polynomial, x, dx)

    real = numpy.float64 if precision == "fp64" else numpy.float32
    plan = feinterp.Interpolator(block, degree, mesh.coordinates.astype(real), threads=int(rng.integers(0, 3)))
    assert plan.precision == feinterp.Precision.__members__[precision] and plan.dtype == real
    u = polynomial.values(mesh.coordinates).astype(real)
    if components == 1 and rng.integers(0, 2):
        u = u[:, 0]  # (N,) is a one-component field too
    values = plan.apply(feinterp.Operation.values, u)
    reference = plan.apply("reference_gradients", u)
    physical, detj = plan.apply("physical_gradients", u)

    E, Q, C, d, s = block.element_count, plan.points, components, element_type.dimension, block.space_dimension
    assert values.shape == (E, Q, C) and reference.shape == (E, Q, C, d) and physical.shape == (E, Q, C, s)
    assert detj.shape == (E, Q) and values.dtype == real
    tolerance = 1e-10 if precision == "fp64" else 2e-4
    for name, computed, expected in zip(("values", "reference", "physical"), (values, reference, physical), exact):
        if precision == "fp64":
            assert relative_error(computed, expected) < tolerance
        else:  # relative to the result, or to what FP32 rounding of the inputs costs where the result cancels
            absolute = numpy.abs(computed - expected).max()
            assert absolute < max(tolerance * numpy.abs(expected).max(), fp32_bound(name, u, dx, block.space_dimension,
                                                                                     element_type.order))
    # det J: the box's elements fill it, so sum_q w_q |det J| over every element is its measure, 1, when
    # the rule integrates det J exactly: constant on affine simplices, of degree d - 1 in each variable
    # on Q1-mapped quadrilaterals and hexahedra (straight-sided meshes).
    tensor = element_type.shape in (feinterp.Shape.line, feinterp.Shape.quadrilateral, feinterp.Shape.hexahedron)
    if plan.point_set.degree >= (d - 1 if tensor else 0):
        assert numpy.sum(numpy.abs(detj) * plan.point_set.weights) == pytest.approx(1.0, rel=tolerance)


def test_element_nodes_give_back_the_nodal_values(rng):
    element_type = feinterp.ElementType("quad", 3)
    mesh = box_mesh(element_type.shape, element_type.order)
    block = first_block(mesh, element_type)
    plan = feinterp.Interpolator(block, "nodes", mesh.coordinates)
    u = rng.standard_normal((mesh.node_count, 2))
    values = plan.apply("values", u)
    assert numpy.abs(values - u[block.connectivity]).max() < 1e-13
