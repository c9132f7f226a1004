# SPDX-License-Identifier: BSD-3-Clause
# The transposes through Python: the adjoint identity <T f, u> = <f, F u> for every operation (to 1e-12),
# the weighted transpose as an integral, element vectors against nodes, accumulate, and the fused
# operators (the Laplacian, mass and diffusion with coefficients, the diagonal) against their two-step
# definitions.
import numpy
import pytest

import feinterp
from conftest import box_mesh, first_block

TYPES = [feinterp.ElementType("triangle", 2), feinterp.ElementType("hexahedron", 2), feinterp.ElementType("line", 3)]


def plan_for(element_type, **options):
    mesh = box_mesh(element_type.shape, element_type.order)
    block = first_block(mesh, element_type)
    return feinterp.Interpolator(block, 2 * element_type.order, mesh.coordinates, **options), block


@pytest.mark.parametrize("op", ["values", "reference_gradients", "physical_gradients"])
@pytest.mark.parametrize("element_type", TYPES, ids=str)
def test_adjoint_identity(element_type, op, rng):
    plan, _ = plan_for(element_type)
    components = int(rng.integers(1, 4))
    u = rng.standard_normal((plan.node_count, components))
    forward = plan.apply(op, u)
    forward = forward[0] if isinstance(forward, tuple) else forward
    f = rng.standard_normal(forward.shape)
    transposed = plan.apply_transpose(op, f)
    assert transposed.shape == (plan.node_count, components)
    left, right = numpy.vdot(transposed, u), numpy.vdot(f, forward)
    assert abs(left - right) <= 1e-12 * numpy.abs(f).sum() * numpy.abs(forward).max()
    # apply() of a transpose is apply_transpose
    assert numpy.array_equal(plan.apply(feinterp.Operation.__members__[op].transpose, f), transposed)


def test_weighted_values_transpose_integrates(rng):
    # r_n = integral of phi_n f: with f = 1, the sum over the nodes is the box's measure, 1.
    plan, _ = plan_for(feinterp.ElementType("tetrahedron", 2))
    f = numpy.ones(plan.output_shape("values", 1))
    r = plan.apply_transpose("values", f, weighted=True)
    assert r.sum() == pytest.approx(1.0, rel=1e-12)


def test_element_vectors_sum_to_the_nodes_and_accumulate_adds(rng):
    plan, block = plan_for(feinterp.ElementType("quadrilateral", 2))
    f = rng.standard_normal(plan.output_shape("physical_gradients", 2))
    nodes = plan.apply_transpose("physical_gradients", f, weighted=True)
    vectors = plan.apply_transpose("physical_gradients", f, target="element_vectors", weighted=True)
    assert vectors.shape == (block.element_count, block.nodes_per_element, 2)
    assembled = numpy.zeros_like(nodes)
    numpy.add.at(assembled, block.connectivity, vectors)
    assert numpy.abs(assembled - nodes).max() <= 1e-13 * numpy.abs(nodes).max()
    start = rng.standard_normal(nodes.shape)
    out = start.copy()
    assert plan.apply_transpose("physical_gradients", f, out, weighted=True, accumulate=True) is out
    assert numpy.abs(out - (start + nodes)).max() <= 1e-13 * numpy.abs(out).max()


@pytest.mark.parametrize("element_type", TYPES, ids=str)
def test_fused_laplacian_is_gradient_then_weighted_transpose(element_type, rng):
    plan, _ = plan_for(element_type)
    u = rng.standard_normal(plan.node_count)  # (N,): one component, result (N,)
    fused = plan.apply_laplacian(u)
    gradients, _ = plan.apply("physical_gradients", u)
    two_steps = plan.apply_transpose("physical_gradients", gradients, weighted=True)
    assert fused.shape == u.shape
    assert numpy.abs(fused - two_steps[:, 0]).max() <= 1e-12 * numpy.abs(two_steps).max()
    # A constant is in the Laplacian's kernel.
    assert numpy.abs(plan.apply_laplacian(numpy.full(plan.node_count, 3.0))).max() < 1e-11


@pytest.mark.parametrize("element_type", TYPES, ids=str)
def test_operator_geometry_precomputed_and_on_the_fly_agree(element_type, rng):
    # The option reaches the plan and is refused by name when wrong; the CPU plan's two geometries agree
    # (test_gpu.py compares a GPU plan's two geometries with the CPU).
    precomputed, _ = plan_for(element_type, operator_geometry="precomputed")
    on_the_fly, _ = plan_for(element_type, operator_geometry=feinterp.OperatorGeometry.on_the_fly)
    u = rng.standard_normal((precomputed.node_count, 2))
    rho = rng.uniform(0.5, 2.0, (precomputed.element_count, precomputed.points))
    for op in ("mass", "diffusion"):
        a = precomputed.apply_operator(op, u, coefficient=rho)
        b = on_the_fly.apply_operator(op, u, coefficient=rho)
        assert numpy.abs(a - b).max() <= 1e-12 * numpy.abs(b).max()
    with pytest.raises(ValueError, match="expected a OperatorGeometry: precomputed, on_the_fly"):
        plan_for(element_type, operator_geometry="cached")


@pytest.mark.parametrize("element_type", TYPES, ids=str)
def test_fused_operators_with_coefficients_are_their_two_steps(element_type, rng):
    # mass with rho (E, Q) and diffusion with a symmetric tensor kappa (E, Q, s(s+1)/2) against the forward
    # operation, the coefficient applied with NumPy, and the weighted transpose; the diagonal against A on a
    # unit vector.
    plan, _ = plan_for(element_type)
    s = plan.space_dimension
    u = rng.standard_normal((plan.node_count, 2))
    rho = rng.uniform(0.5, 2.0, (plan.element_count, plan.points))
    values = plan.apply("values", u)
    two_steps = plan.apply_transpose("values", values * rho[:, :, None], weighted=True)
    fused = plan.apply_operator("mass", u, coefficient=rho)
    assert numpy.abs(fused - two_steps).max() <= 1e-12 * numpy.abs(two_steps).max()

    upper = numpy.triu_indices(s)
    tensor = rng.uniform(-0.3, 0.3, (plan.element_count, plan.points, s, s))
    tensor = tensor + tensor.transpose(0, 1, 3, 2) + 2 * numpy.eye(s)
    kappa = numpy.ascontiguousarray(tensor[:, :, upper[0], upper[1]])
    gradients, _ = plan.apply("physical_gradients", u)
    flux = numpy.einsum("eqkl,eqcl->eqck", tensor, gradients)
    two_steps = plan.apply_transpose("physical_gradients", numpy.ascontiguousarray(flux), weighted=True)
    fused = plan.apply_operator("diffusion", u, coefficient=kappa)
    assert numpy.abs(fused - two_steps).max() <= 1e-12 * numpy.abs(two_steps).max()

    diagonal = plan.operator_diagonal("diffusion", 1, coefficient=kappa)
    node = int(rng.integers(plan.node_count))
    unit = numpy.zeros(plan.node_count)
    unit[node] = 1.0
    column = plan.apply_operator("diffusion", unit, coefficient=kappa)
    assert diagonal[node] == pytest.approx(column[node], rel=1e-12)
    with pytest.raises(ValueError, match="coefficient"):
        plan.apply_operator("mass", u, coefficient=rho[:, :-1])
