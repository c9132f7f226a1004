# SPDX-License-Identifier: BSD-3-Clause
# Arguments are read exactly or refused by name: host connectivity and tags of any integer dtype are
# checked for range before conversion (an int64 node index of 2^32 + 3 was silently 3), floats, bools,
# complex numbers and objects are refused rather than truncated, and an integer argument out of range
# (node_count=2**70 was pybind11's "incompatible constructor arguments") names itself and its range.
import numpy
import pytest

import feinterp

LINE = feinterp.ElementType("line", 1)


def chain(rng, dtype):
    """A random chain of line elements over a shuffled node numbering, as `dtype`."""
    n = int(rng.integers(3, 40))
    order = rng.permutation(n)
    return numpy.stack([order[:-1], order[1:]], 1).astype(dtype), n


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32,
                                   numpy.int64, numpy.uint64])
def test_connectivity_of_any_integer_dtype_is_read_exactly(rng, dtype):
    connectivity, n = chain(rng, dtype)
    u = rng.standard_normal(n)
    expected = feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity.astype(numpy.int32)), 1,
                                     node_count=n).apply("values", u)
    plan = feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity), 1, node_count=n)
    assert numpy.array_equal(plan.apply("values", u), expected)
    listed = feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity.tolist()), 1, node_count=n)
    assert numpy.array_equal(listed.apply("values", u), expected)


@pytest.mark.parametrize("dtype", [numpy.int64, numpy.uint64, numpy.uint32, "list"])
def test_connectivity_that_does_not_fit_int32_is_refused(rng, dtype):
    connectivity, n = chain(rng, numpy.int64)
    e, k = int(rng.integers(len(connectivity))), int(rng.integers(2))
    big = int(rng.integers(2**31, 2**32))
    if dtype != numpy.uint32:
        big += 2**32  # 2^32 + 3 wrapped to 3, a valid node
    connectivity = connectivity.tolist() if dtype == "list" else connectivity.astype(dtype)
    connectivity[e][k] = big
    with pytest.raises(ValueError, match=rf"^connectivity: {big} at index \({e}, {k}\) does not fit int32"):
        feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity), 1, node_count=n)
    if dtype == numpy.int64:
        connectivity[e][k] = -(2**31) - 1 - int(rng.integers(2**40))
        with pytest.raises(ValueError, match=r"^connectivity: -\d+ at index .* does not fit int32"):
            feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity), 1, node_count=n)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, bool, numpy.complex128, object, "U3"])
def test_connectivity_that_is_not_integers_is_refused(rng, dtype):
    connectivity, n = chain(rng, numpy.int32)
    values = connectivity.astype(dtype)
    name = numpy.dtype(dtype).name if dtype != "U3" else "<U3"
    with pytest.raises(TypeError, match=rf"^connectivity: expected an array of integers, got {name} values"):
        feinterp.Interpolator(feinterp.BlockArrays(LINE, values), 1, node_count=n)
    with pytest.raises(TypeError, match="^connectivity: expected an array of integers, got float64"):
        feinterp.Interpolator(feinterp.BlockArrays(LINE, (connectivity + 0.5).tolist()), 1, node_count=n)


def test_element_tags_are_checked_like_connectivity(rng):
    connectivity, n = chain(rng, numpy.int32)
    E = len(connectivity)
    tags = rng.integers(1, 2**62, E)
    plan = feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity, 0, tags), 1, node_count=n)
    assert plan.element_count == E
    negative = tags.copy()
    negative[int(rng.integers(E))] = -int(rng.integers(1, 2**40))
    with pytest.raises(ValueError, match=r"^element_tags: -\d+ at index \(\d+,\) does not fit uint64"):
        feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity, 0, negative), 1, node_count=n)
    for bad in (tags.astype(numpy.float64), tags > 5):
        with pytest.raises(TypeError, match=rf"^element_tags: expected an array of integers, got {bad.dtype}"):
            feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity, 0, bad), 1, node_count=n)


def test_coordinates_that_are_not_real_numbers_are_refused(rng):
    connectivity, n = chain(rng, numpy.int32)
    x = rng.standard_normal((n, 3))
    for bad in (x.astype(numpy.complex128), x > 0, x.astype(object)):
        with pytest.raises(TypeError, match=rf"^coordinates: expected an array of real numbers, got {bad.dtype}"):
            feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity), 1, bad)


def range_error(name, lo, hi):
    return pytest.raises(ValueError, match=rf"^{name}: expected an integer in \[{lo}, {hi}\], got ")


def test_integers_out_of_range_name_the_argument_and_the_range(rng):
    connectivity, n = chain(rng, numpy.int32)
    block = feinterp.BlockArrays(LINE, connectivity)
    huge = 2**64 + int(rng.integers(2**40))
    int_max, int64_max = 2**31 - 1, 2**63 - 1
    with range_error("node_count", 0, int64_max):
        feinterp.Interpolator(block, 1, node_count=huge)
    with range_error("node_count", 0, int64_max):
        feinterp.Interpolator(block, 1, node_count=-int(rng.integers(1, 100)))
    with range_error("threads", 0, int_max):
        feinterp.Interpolator(block, 1, node_count=n, threads=2**31 + int(rng.integers(100)))
    with range_error("cuda_stream", 0, int64_max):
        feinterp.Interpolator(block, 1, node_count=n, cuda_stream=-1)
    with range_error("space_dimension", 0, 3):
        feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity, huge), 1, node_count=n)
    top = feinterp.max_quadrature_degree("line")
    with range_error("points", 0, top):
        feinterp.Interpolator(block, top + 1 + int(rng.integers(2**40)), node_count=n)
    with range_error("degree", 0, top):
        feinterp.quadrature_rule("line", -1)
    with range_error("order", 1, 3):
        feinterp.ElementType("tet", huge)
    plan = feinterp.Interpolator(block, 1, node_count=n)
    with range_error("components", 1, feinterp.max_components):
        plan.output_shape("values", huge)
    with range_error("components", 1, feinterp.max_components):
        plan.output_size(feinterp.Operation.values, 0)
    if feinterp._feinterp.has_mesh:
        with range_error("target_elements", 1, int64_max):
            feinterp.generate_mesh(LINE, huge)
        with range_error("seed", 0, 2**32 - 1):
            feinterp.generate_mesh(LINE, 10, -1)
    # a huge value is described by its size, not printed digit by digit
    with pytest.raises(ValueError, match=r"^node_count: .* got an integer of 100001 bits"):
        feinterp.Interpolator(block, 1, node_count=2**100000)


def test_integers_are_not_floats_or_bools(rng):
    connectivity, n = chain(rng, numpy.int32)
    block = feinterp.BlockArrays(LINE, connectivity)
    with pytest.raises(TypeError, match="^node_count: expected an integer, got float"):
        feinterp.Interpolator(block, 1, node_count=n + 0.5)
    with pytest.raises(TypeError, match="^threads: expected an integer, got bool"):
        feinterp.Interpolator(block, 1, node_count=n, threads=True)
    with pytest.raises(TypeError, match="^points: expected an integer, got float"):
        feinterp.Interpolator(block, 2.0, node_count=n)
    with pytest.raises(TypeError, match="^order: expected an integer, got str"):
        feinterp.ElementType("tet", "2")
    # NumPy integers are integers
    plan = feinterp.Interpolator(block, numpy.int64(1), node_count=numpy.uint16(n), threads=numpy.int8(1))
    assert plan.node_count == n


def test_unaligned_host_arrays_given_at_construction_are_copied(rng):
    connectivity, n = chain(rng, numpy.int32)
    offset = int(rng.integers(1, 4))
    buffer = bytearray(connectivity.nbytes + offset)
    unaligned = numpy.frombuffer(buffer, dtype=numpy.int32, count=connectivity.size, offset=offset)
    unaligned = unaligned.reshape(connectivity.shape)
    unaligned[:] = connectivity
    assert not unaligned.flags.aligned
    u = rng.standard_normal(n)
    expected = feinterp.Interpolator(feinterp.BlockArrays(LINE, connectivity), 1, node_count=n).apply("values", u)
    plan = feinterp.Interpolator(feinterp.BlockArrays(LINE, unaligned), 1, node_count=n)
    assert numpy.array_equal(plan.apply("values", u), expected)
