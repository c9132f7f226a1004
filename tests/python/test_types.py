# SPDX-License-Identifier: BSD-3-Clause
# The small types and the point sets: names and values as in C++, the transposes' pairing, point sets'
# sizes and quadrature weights.
import numpy
import pytest

import feinterp
from conftest import ALL_TYPES, type_id

REFERENCE_MEASURE = {"line": 2.0, "triangle": 0.5, "quadrilateral": 4.0, "tetrahedron": 1.0 / 6.0, "hexahedron": 8.0}


def test_operations_pair_with_their_transposes():
    forward = [feinterp.Operation.values, feinterp.Operation.reference_gradients, feinterp.Operation.physical_gradients]
    for op in forward:
        transpose = op.transpose
        assert transpose.is_transpose and not op.is_transpose
        assert transpose.name == op.name + "_transpose"
        assert transpose.forward == op and transpose.transpose == transpose
    assert len(feinterp.Operation.__members__) == 6


def test_element_types():
    t = feinterp.ElementType("tet", 2)
    assert t == feinterp.ElementType(feinterp.Shape.tetrahedron, 2)
    assert (t.nodes_per_element, t.dimension, str(t)) == (10, 3, "tetrahedron p2")
    assert hash(t) == hash(feinterp.ElementType(feinterp.Shape.tetrahedron, 2))
    with pytest.raises(feinterp.InvalidArgumentError, match=r"^order: expected an integer in \[1, 3\], got 4"):
        feinterp.ElementType("hex", 4)
    with pytest.raises(ValueError, match="unknown element shape 'prism'"):
        feinterp.ElementType("prism", 1)


@pytest.mark.parametrize("element_type", ALL_TYPES, ids=type_id)
def test_element_nodes_are_the_gmsh_nodes(element_type):
    nodes = feinterp.element_nodes(element_type)
    assert nodes.coordinates.shape == (element_type.nodes_per_element, element_type.dimension)
    assert nodes.weights is None and nodes.degree == -1


@pytest.mark.parametrize("shape", list(feinterp.Shape.__members__))
def test_quadrature_weights_sum_to_the_reference_measure(shape, rng):
    degree = int(rng.integers(0, 9))
    rule = feinterp.quadrature_rule(shape, degree)
    assert rule.degree >= degree and rule.shape == feinterp.as_shape(shape)
    assert rule.coordinates.shape == (len(rule), rule.dimension)
    assert rule.weights.sum() == pytest.approx(REFERENCE_MEASURE[shape], rel=1e-14)


def test_reference_points_refuse_a_point_outside():
    inside = feinterp.reference_points("triangle", numpy.array([[0.2, 0.3], [0.1, 0.1]]))
    assert len(inside) == 2
    with pytest.raises(feinterp.InvalidArgumentError):
        feinterp.reference_points("triangle", numpy.array([[0.9, 0.9]]))


def test_names_parse_as_in_cpp():
    assert feinterp._feinterp.parse_operation("physical_gradients_transpose") == feinterp.Operation.physical_gradients_transpose
    assert feinterp._feinterp.parse_precision("float") == feinterp.Precision.fp32
    assert feinterp._feinterp.parse_executor("auto") == feinterp.Executor.automatic
    assert feinterp._feinterp.parse_executor("cuda:1") == feinterp.Executor.cuda
    with pytest.raises(feinterp.InvalidArgumentError, match="unknown operation"):
        feinterp._feinterp.parse_operation("divergence")
