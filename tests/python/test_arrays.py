# SPDX-License-Identifier: BSD-3-Clause
# How arrays go in and out: results written in place into out= (the same object comes back), and clear
# errors naming the argument for a wrong dtype (TypeError), shape, layout, memory or a read-only output
# (ValueError), with nothing copied behind the caller's back. The GPU protocols are exercised on the CPU
# too: an object exposing host memory through __dlpack__ is used in place, one exposing
# __cuda_array_interface__ is refused by a CPU plan as device memory.
import numpy
import pytest

import feinterp
from conftest import box_mesh, first_block

TYPE = feinterp.ElementType("triangle", 2)


@pytest.fixture(scope="module")
def plan():
    mesh = box_mesh(TYPE.shape, TYPE.order)
    return feinterp.Interpolator(first_block(mesh, TYPE), 4, mesh.coordinates)


def test_out_is_written_in_place(plan, rng):
    u = rng.standard_normal((plan.node_count, 3))
    out = numpy.full(plan.output_shape("physical_gradients", 3), numpy.nan)
    detj = numpy.full(plan.detj_shape, numpy.nan)
    result, result_detj = plan.apply("physical_gradients", u, out, detj)
    assert result is out and result_detj is detj
    assert numpy.isfinite(out).all() and numpy.isfinite(detj).all()
    assert numpy.array_equal(out, plan.apply("physical_gradients", u)[0])


class HostDLPack:
    """Host memory seen only through DLPack (as a CPU PyTorch tensor would be)."""

    def __init__(self, array):
        self.array = array
        self.shape = array.shape
        self.dtype = array.dtype

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class FakeDevice:
    """An object claiming device memory through __cuda_array_interface__ (never dereferenced)."""

    def __init__(self, array):
        self.shape = array.shape
        self.dtype = array.dtype
        self.__cuda_array_interface__ = {"shape": array.shape, "typestr": array.dtype.str, "version": 3,
                                         "data": (array.ctypes.data, False), "strides": None, "stream": 1}


def test_dlpack_host_arrays_are_used_in_place(plan, rng):
    u = rng.standard_normal((plan.node_count, 2))
    out = numpy.zeros(plan.output_shape("values", 2))
    plan.apply("values", HostDLPack(u), HostDLPack(out))
    assert numpy.array_equal(out, plan.apply("values", u))


def test_device_arrays_are_refused_by_a_cpu_plan(plan):
    u = numpy.zeros(plan.node_count)
    with pytest.raises(ValueError, match="^u: a CUDA device array.*computes on the cpu"):
        plan.apply("values", FakeDevice(u), numpy.zeros(plan.output_shape("values")))


def test_wrong_dtype_is_a_type_error(plan):
    with pytest.raises(TypeError, match="^u: expected float64 values, got float32"):
        plan.apply("values", numpy.zeros(plan.node_count, dtype=numpy.float32))
    with pytest.raises(TypeError, match="^out: expected float64 values, got int64"):
        plan.apply("values", numpy.zeros(plan.node_count), numpy.zeros(plan.output_shape("values"), dtype=numpy.int64))


def test_wrong_shape_is_a_value_error(plan):
    n = plan.node_count
    with pytest.raises(ValueError, match=rf"^u: expected shape \({n}, 2\), got \({n + 1}, 2\)"):
        plan.apply("values", numpy.zeros((n + 1, 2)))
    with pytest.raises(ValueError, match="^u: expected a nodal field"):
        plan.apply("values", numpy.zeros((n, 2, 1)))
    E, Q = plan.detj_shape
    with pytest.raises(ValueError, match=rf"^out: expected shape \({E}, {Q}, 2, 2\)"):
        plan.apply("physical_gradients", numpy.zeros((n, 2)), numpy.zeros((E, Q, 2, 3)))
    with pytest.raises(ValueError, match=rf"^detj: expected shape \({E}, {Q}\)"):
        plan.apply("physical_gradients", numpy.zeros(n), detj=numpy.zeros(E * Q))
    with pytest.raises(ValueError, match="^f: expected point data"):
        plan.apply_transpose("values", numpy.zeros((E, Q)))


def test_strided_arrays_are_refused(plan):
    u = numpy.zeros((plan.node_count, 4))[:, ::2]
    with pytest.raises(ValueError, match="^u: expected a C-contiguous array"):
        plan.apply("values", u)


def test_read_only_outputs_are_refused(plan):
    out = numpy.zeros(plan.output_shape("values"))
    out.flags.writeable = False
    with pytest.raises(ValueError, match="^out: the array is read-only"):
        plan.apply("values", numpy.zeros(plan.node_count), out)


def test_other_objects_are_a_type_error(plan):
    with pytest.raises(TypeError, match="^u: expected an array.*got list"):
        plan.apply("values", [0.0] * plan.node_count, numpy.zeros(plan.output_shape("values")))
    with pytest.raises(TypeError, match="^detj: expected an array"):
        plan._plan.apply(feinterp.Operation.physical_gradients, numpy.zeros(plan.node_count),
                         numpy.zeros(plan.output_shape("physical_gradients")), "detj")


def test_detj_only_for_physical_gradients(plan):
    with pytest.raises(ValueError, match="^detj: only physical_gradients"):
        plan.apply("values", numpy.zeros(plan.node_count), None, numpy.zeros(plan.detj_shape))


def overlapping(rng, first_shape, second_shape):
    """Two C-contiguous float64 arrays of the given shapes cut from one buffer at random offsets: they
    overlap or not as chance has it (numpy.shares_memory says which)."""
    a, b = int(numpy.prod(first_shape)), int(numpy.prod(second_shape))
    buffer = numpy.zeros(a + b + 8)
    i, j = int(rng.integers(0, b + 9)), int(rng.integers(0, a + 9))
    return buffer[i : i + a].reshape(first_shape), buffer[j : j + b].reshape(second_shape)


def test_outputs_sharing_memory_with_an_input_are_refused_by_name(plan, rng):
    n = plan.node_count
    E, Q = plan.detj_shape
    for _ in range(20):
        u, out = overlapping(rng, (n,), plan.output_shape("values"))
        u[:] = rng.standard_normal(n)
        if numpy.shares_memory(u, out):
            with pytest.raises(ValueError, match=r"^out: shares memory with u"):
                plan.apply("values", u, out)
        else:
            expected = plan.apply("values", u.copy())
            assert numpy.array_equal(plan.apply("values", u, out), expected)
    for _ in range(20):
        grad, detj = overlapping(rng, plan.output_shape("physical_gradients"), (E, Q))
        if numpy.shares_memory(grad, detj):
            with pytest.raises(ValueError, match=r"^detj: shares memory with out"):
                plan.apply("physical_gradients", numpy.zeros(n), grad, detj)
    u = rng.standard_normal(n)
    with pytest.raises(ValueError, match=r"^out: shares memory with u"):
        plan.apply_laplacian(u, out=u)
    buffer = rng.standard_normal(max(n, E * Q))
    with pytest.raises(ValueError, match=r"^detj: shares memory with u"):
        plan.apply("physical_gradients", buffer[:n], detj=buffer[: E * Q].reshape(E, Q))
    with pytest.raises(ValueError, match=r"^out: shares memory with f"):
        plan.apply_transpose("values", buffer[: E * Q].reshape(E, Q, 1), out=buffer[:n])
