# SPDX-License-Identifier: BSD-3-Clause
# feinterp.MeshOperator: a generated box of hexahedra p2 split into blocks of consecutive elements is one
# run whose results are the single block's; blocks at different rules stay apart and sum to their plans';
# point data, coefficients and coordinates over every block's points; the diagonal; refusals.
import numpy
import pytest

import feinterp
from conftest import box_mesh, first_block

TYPE = feinterp.ElementType("hexahedron", 2)


def split(block, parts):
    bounds = numpy.linspace(0, block.element_count, parts + 1).astype(int)
    return [feinterp.BlockArrays(block.type, block.connectivity[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def test_split_blocks_are_one_run_and_the_single_blocks_results(rng):
    mesh = box_mesh(TYPE.shape, TYPE.order)
    block = first_block(mesh, TYPE)
    plan = feinterp.Interpolator(block, 4, mesh.coordinates)
    op = feinterp.MeshOperator(split(block, 3), 4, mesh.coordinates)
    assert (op.block_count, op.run_count) == (3, 1)
    assert op.point_count == block.element_count * plan.points
    u = rng.standard_normal((mesh.node_count, 2))
    assert numpy.array_equal(op.interpolate("values", u), plan.apply("values", u).ravel())
    kappa = rng.uniform(0.5, 2.0, op.point_count)
    assert numpy.array_equal(op.apply_operator("diffusion", u, coefficient=kappa),
                             plan.apply_operator("diffusion", u, coefficient=kappa.reshape(block.element_count, -1)))
    x = op.point_coordinates()
    assert x.shape == (op.point_count, 3)
    assert numpy.array_equal(x.ravel(), plan.apply("values", numpy.ascontiguousarray(mesh.coordinates)).ravel())
    # integral of 1 over the unit cube
    assert op.integrate("values", numpy.ones(op.point_count), weighted=True).sum() == pytest.approx(1.0, rel=1e-12)


def test_blocks_at_different_rules_sum_to_their_plans(rng):
    mesh = box_mesh(TYPE.shape, TYPE.order)
    block = first_block(mesh, TYPE)
    parts = split(block, 3)
    degrees = [4, 2, 4]
    op = feinterp.MeshOperator(parts, degrees, mesh.coordinates)
    assert op.run_count == 3
    plans = [feinterp.Interpolator(p, d, mesh.coordinates) for p, d in zip(parts, degrees)]
    u = rng.standard_normal(mesh.node_count)
    rho = rng.uniform(0.5, 2.0, op.point_count)
    expected = numpy.zeros(mesh.node_count)
    for b, plan in enumerate(plans):
        at = op.point_offset(b)
        own = rho[at : at + plan.element_count * plan.points].reshape(plan.element_count, plan.points)
        expected += plan.apply_operator("mass", u, coefficient=own)
    r = op.apply_operator("mass", u, coefficient=rho)
    assert numpy.abs(r - expected).max() <= 1e-13 * numpy.abs(expected).max()
    assert op.output_offset(2, "physical_gradients", 1) == 3 * (op.point_offset(2))

    diagonal = op.operator_diagonal("mass", coefficient=rho)
    node = int(rng.integers(mesh.node_count))
    unit = numpy.zeros(mesh.node_count)
    unit[node] = 1.0
    assert diagonal[node] == pytest.approx(op.apply_operator("mass", unit, coefficient=rho)[node], rel=1e-12)

    with pytest.raises(ValueError, match="coefficient"):
        op.apply_operator("mass", u, coefficient=rho[:-1])
    with pytest.raises(ValueError, match="points"):
        feinterp.MeshOperator(parts, [4, 2], mesh.coordinates)
