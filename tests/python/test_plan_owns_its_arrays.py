# SPDX-License-Identifier: BSD-3-Clause
# A plan copies the host arrays it keeps (connectivity, coordinates, element tags): whatever the caller
# does to them afterwards — writing out-of-range node indices, moving the coordinates, resizing or
# freeing the buffers — neither crashes the interpreter nor changes a result. Each scenario runs in a
# fresh interpreter (conftest.isolated), so that a regression is a failed test naming the signal.
import numpy
import pytest

import feinterp
from conftest import isolated

# A grid of p1 triangles on random, slightly perturbed nodes (never degenerate), big enough (about
# 0.5 MB of connectivity) that a freed buffer is returned to the system and reading it faults.
GRID = """
rng = numpy.random.default_rng({seed})
n = 150
i, j = numpy.meshgrid(numpy.arange(n), numpy.arange(n), indexing="ij")
x = numpy.stack([i.ravel(), j.ravel(), numpy.zeros(n * n)], axis=1).astype(float)
x[:, :2] += rng.uniform(-0.2, 0.2, (n * n, 2))
a = (i[:-1, :-1] * n + j[:-1, :-1]).ravel()
connectivity = numpy.concatenate([numpy.stack([a, a + n, a + 1], 1), numpy.stack([a + 1, a + n, a + n + 1], 1)]).astype(numpy.int32)
tags = rng.permutation(len(connectivity)).astype(numpy.uint64) + 1
block = feinterp.BlockArrays(feinterp.ElementType("tri", 1), connectivity, 2, tags)
plan = feinterp.Interpolator(block, 2, x)
u = rng.standard_normal((len(x), 2))
expected, expected_detj = plan.apply("physical_gradients", u)
"""


def run(rng, change):
    return isolated(GRID.format(seed=int(rng.integers(1 << 32))) + change + """
got, detj = plan.apply("physical_gradients", u)
result = {"same": bool(numpy.array_equal(got, expected) and numpy.array_equal(detj, expected_detj))}
""")


def test_connectivity_written_after_the_plan_is_built(rng):
    # Out-of-range node indices would send the plan's gathers gigabytes past u.
    assert run(rng, "connectivity[:] = 2**31 - 1\n") == {"same": True}


def test_connectivity_permuted_after_the_plan_is_built(rng):
    assert run(rng, "connectivity[:] = connectivity[rng.permutation(len(connectivity))]\n") == {"same": True}


def test_connectivity_freed_after_the_plan_is_built(rng):
    # resize without the reference check reallocates the buffer the caller's array had: the old one is freed.
    assert run(rng, "connectivity.resize((3 * connectivity.size,), refcheck=False)\nconnectivity[:] = -1\n") == {
        "same": True}


def test_coordinates_changed_or_freed_after_the_plan_is_built(rng):
    assert run(rng, "x[:] *= 3.0\n") == {"same": True}
    assert run(rng, "x.resize((7, 3), refcheck=False)\n") == {"same": True}


def test_tags_changed_after_the_plan_is_built(rng):
    # A degenerate element is reported by the tag it had when the plan was built. Its third node is moved
    # onto its first, so that det J is exactly 0: moved to the midpoint of the other two, at coordinates
    # near 150 the rounding of the midpoint leaves a det J of ~1e-14, a sliver the plan rightly computes.
    result = isolated(GRID.format(seed=int(rng.integers(1 << 32))) + """
bad = int(rng.integers(len(connectivity)))
x2 = x.copy()
x2[connectivity[bad, 2]] = x2[connectivity[bad, 0]]
plan = feinterp.Interpolator(block, 2, x2)
tag = int(tags[bad])
tags[:] = 0
tags.resize((1,), refcheck=False)
try:
    plan.apply("physical_gradients", u)
    result = "no error"
except feinterp.DegenerateElementError as e:
    result = {"element": e.element, "tag": e.tag, "expected": [bad, tag]}
""")
    assert result != "no error"
    # the moved node may be shared: the first degenerate element met is at most `bad`
    assert result["element"] <= result["expected"][0] and result["tag"] != 0
    if result["element"] == result["expected"][0]:
        assert result["tag"] == result["expected"][1]


def test_a_line_mesh_keeps_its_geometry(rng):
    # In process: moved coordinates cannot crash, only change results, which they must not.
    n = int(rng.integers(3, 30))
    connectivity = numpy.stack([numpy.arange(n - 1), numpy.arange(1, n)], 1).astype(numpy.int64)
    x = numpy.zeros((n, 3))
    x[:, 0] = numpy.arange(n) + rng.uniform(0, 0.5, n)
    plan = feinterp.Interpolator(feinterp.BlockArrays(feinterp.ElementType("line", 1), connectivity), 2, x)
    u = rng.standard_normal(n)
    expected = plan.apply("physical_gradients", u)[0]
    x[:, 0] *= -2.0
    connectivity[:] = connectivity[::-1]
    assert numpy.array_equal(plan.apply("physical_gradients", u)[0], expected)
