# SPDX-License-Identifier: BSD-3-Clause
# Every library error arrives as its Python class: DegenerateElementError carries the element's index and
# the file's tag, std::invalid_argument is InvalidArgumentError (a ValueError), MeshError comes from the
# loader, any other library failure is feinterp.Error; all are feinterp.Error, a RuntimeError.
import numpy
import pytest

import feinterp
from conftest import data_file


def test_hierarchy():
    for cls in (feinterp.InvalidArgumentError, feinterp.DegenerateElementError, feinterp.MeshError):
        assert issubclass(cls, feinterp.Error)
    assert issubclass(feinterp.Error, RuntimeError)
    assert issubclass(feinterp.InvalidArgumentError, ValueError)
    assert feinterp.DegenerateElementError.__module__ == "feinterp"


def triangles(rng, degenerate):
    """A strip of p1 triangles with random tags; element `degenerate` has its third node on its first edge."""
    count = 6
    x = numpy.zeros((2 * (count + 1), 3))
    x[: count + 1, 0] = numpy.arange(count + 1)
    x[count + 1 :, 0] = numpy.arange(count + 1)
    x[count + 1 :, 1] = 1.0
    connectivity = numpy.array([[i, i + 1, count + 2 + i] for i in range(count)], dtype=numpy.int32)
    # node (degenerate + 1) on the segment between the element's first two nodes: collinear
    x[connectivity[degenerate, 2]] = (x[connectivity[degenerate, 0]] + x[connectivity[degenerate, 1]]) / 2
    tags = rng.choice(numpy.arange(1, 10**6, dtype=numpy.uint64), size=count, replace=False)
    block = feinterp.BlockArrays(feinterp.ElementType("tri", 1), connectivity, 2, tags)
    return block, x, tags


def test_a_degenerate_element_carries_its_index_and_tag(rng):
    degenerate = int(rng.integers(0, 6))
    block, x, tags = triangles(rng, degenerate)
    plan = feinterp.Interpolator(block, 2, x)
    u = rng.standard_normal(len(x))
    with pytest.raises(feinterp.DegenerateElementError) as raised:
        plan.apply("physical_gradients", u)
    error = raised.value
    assert (error.element, error.tag, error.kind) == (degenerate, int(tags[degenerate]), "singular")
    assert error.detj == pytest.approx(0.0, abs=1e-12) and 0 <= error.point < plan.points
    assert str(tags[degenerate]) in str(error)
    # without tags, .tag is None
    untagged = feinterp.BlockArrays(block.type, block.connectivity, 2)
    with pytest.raises(feinterp.DegenerateElementError) as raised:
        feinterp.Interpolator(untagged, 2, x).apply_laplacian(u)
    assert raised.value.tag is None and raised.value.element == degenerate


def test_invalid_arguments_are_value_errors(rng):
    block, x, _ = triangles(rng, 0)
    block.connectivity = block.connectivity.copy()
    block.connectivity[3, 1] = len(x) + 5
    with pytest.raises(feinterp.InvalidArgumentError, match="node") as raised:
        feinterp.Interpolator(block, 2, x)
    assert isinstance(raised.value, ValueError)
    with pytest.raises(ValueError, match="node_count: required"):
        feinterp.Interpolator(block, 2)


def test_mesh_errors(tmp_path):
    bad = tmp_path / "bad.msh"
    bad.write_text("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\nnot a number\n")
    with pytest.raises(feinterp.MeshError, match="bad.msh"):
        feinterp.load_msh(str(bad))
    with pytest.raises(feinterp.MeshError):
        feinterp.load_msh(str(tmp_path / "missing.msh"))
    with pytest.raises(feinterp.MeshError):
        feinterp.load_msh(data_file("msh-corpus/prism_extruded_v41a.msh"))  # prisms: unsupported


def test_an_executor_is_a_kind_or_a_name():
    block = feinterp.BlockArrays(feinterp.ElementType("line", 1), numpy.array([[0, 1]], dtype=numpy.int32))
    plan = feinterp.Interpolator(block, 1, node_count=2, executor=feinterp.Executor.cpu)
    assert plan.executor == feinterp.Executor.cpu and plan.device == -1
    with pytest.raises(TypeError, match="executor"):
        feinterp.Interpolator(block, 1, node_count=2, executor=3)
    for bad in ("gpu", "cuda:x", "cuda:-1"):
        with pytest.raises(feinterp.InvalidArgumentError, match=bad):
            feinterp.Interpolator(block, 1, node_count=2, executor=bad)


@pytest.mark.skipif(feinterp.cuda_usable(), reason="needs a machine where CUDA is not usable")
def test_an_unusable_executor_is_a_library_error():
    block = feinterp.BlockArrays(feinterp.ElementType("line", 1), numpy.array([[0, 1]], dtype=numpy.int32))
    with pytest.raises(feinterp.Error, match="cuda"):
        feinterp.Interpolator(block, 1, node_count=2, executor="cuda")
