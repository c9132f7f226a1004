# SPDX-License-Identifier: BSD-3-Clause
# The package on a GPU, with CuPy and PyTorch arrays used in place: round trips against the CPU plan
# (the fused operators of hexahedra with either operator geometry too),
# zero copy (the caller's device pointer is the one written), the adjoint identity, stream ordering
# (an input written on another stream after a long kernel is waited for; DLPack and
# __cuda_array_interface__ both), errors for host/device mix-ups, and a degenerate element reported by
# check() with its tag. Each test skips, visibly, without its library or a usable GPU (label `gpu`).
import numpy
import pytest

import feinterp
from conftest import box_mesh, first_block


def require_gpu():
    if not feinterp.cuda_usable():
        pytest.skip("GPU test skipped: " + feinterp.cuda_unusable_reason())


@pytest.fixture
def cp():
    cupy = pytest.importorskip("cupy")
    require_gpu()
    return cupy


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    require_gpu()
    if not torch.cuda.is_available():
        pytest.skip("GPU test skipped: torch.cuda.is_available() is False")
    return torch


TYPE = feinterp.ElementType("tetrahedron", 2)


def mesh_block():
    mesh = box_mesh(TYPE.shape, TYPE.order, 2000)
    return mesh, first_block(mesh, TYPE)


def test_cupy_round_trip_matches_the_cpu(cp, rng):
    mesh, block = mesh_block()
    cpu = feinterp.Interpolator(block, 4, mesh.coordinates)
    gpu = feinterp.Interpolator(block, 4, mesh.coordinates, executor="cuda")  # host mesh arrays: copied once
    assert gpu.executor == feinterp.Executor.cuda and gpu.device == cp.cuda.Device().id
    u = rng.standard_normal((mesh.node_count, 3))
    for op in ("values", "reference_gradients", "physical_gradients"):
        expected = cpu.apply(op, u)
        computed = gpu.apply(op, cp.asarray(u))
        gpu.check()
        if op == "physical_gradients":
            assert isinstance(computed[1], cp.ndarray)
            assert numpy.abs(computed[1].get() - expected[1]).max() <= 1e-12 * numpy.abs(expected[1]).max()
            expected, computed = expected[0], computed[0]
        assert isinstance(computed, cp.ndarray) and computed.shape == expected.shape
        assert numpy.abs(computed.get() - expected).max() <= 1e-12 * numpy.abs(expected).max()


@pytest.mark.parametrize("geometry", ["precomputed", "on_the_fly"])
def test_fused_operators_of_hexahedra_match_the_cpu(cp, rng, geometry):
    # The sum-factorised operators read precomputed factors, or compute J at every call.
    hexahedra = feinterp.ElementType("hexahedron", 2)
    mesh = box_mesh(hexahedra.shape, hexahedra.order)
    block = first_block(mesh, hexahedra)
    cpu = feinterp.Interpolator(block, 4, mesh.coordinates)
    gpu = feinterp.Interpolator(block, 4, mesh.coordinates, executor="cuda", operator_geometry=geometry)
    u = rng.standard_normal((mesh.node_count, 2))
    rho = rng.uniform(0.5, 2.0, (cpu.element_count, cpu.points))
    for op in ("mass", "diffusion"):
        expected = cpu.apply_operator(op, u, coefficient=rho)
        computed = gpu.apply_operator(op, cp.asarray(u), coefficient=cp.asarray(rho))
        gpu.check()
        assert numpy.abs(computed.get() - expected).max() <= 1e-12 * numpy.abs(expected).max()


def test_device_connectivity_and_coordinates_are_copied(cp, rng):
    """A plan built from device arrays owns copies: the caller changing or freeing them changes nothing."""
    mesh, block = mesh_block()
    connectivity = cp.asarray(block.connectivity)
    coordinates = cp.asarray(mesh.coordinates)
    gpu = feinterp.Interpolator(feinterp.BlockArrays(TYPE, connectivity), 4, coordinates, executor="cuda")
    u = rng.standard_normal((mesh.node_count, 3))
    expected = gpu.apply("physical_gradients", cp.asarray(u))[0].get()
    connectivity[...] = 0
    coordinates[...] = 0.0
    del connectivity, coordinates
    cp.get_default_memory_pool().free_all_blocks()
    again = gpu.apply("physical_gradients", cp.asarray(u))[0].get()
    assert numpy.array_equal(again, expected)


def test_results_are_written_into_the_callers_device_arrays(cp, torch, rng):
    mesh, block = mesh_block()
    coordinates = cp.asarray(mesh.coordinates)
    plan = feinterp.Interpolator(feinterp.BlockArrays(TYPE, cp.asarray(block.connectivity)), 4, coordinates,
                                 executor="cuda")
    u = cp.asarray(rng.standard_normal(mesh.node_count))
    out = cp.full(plan.output_shape("values", 1), cp.nan)
    pointer = out.data.ptr
    assert plan.apply("values", u, out) is out and out.data.ptr == pointer
    plan.check()
    assert bool(cp.isfinite(out).all())
    # PyTorch, FP32: the tensor given is the tensor written, on its device.
    plan32 = feinterp.Interpolator(block, 4, mesh.coordinates, executor="cuda", precision="fp32")
    ut = torch.as_tensor(cp.asnumpy(u), dtype=torch.float32, device="cuda")
    grad = torch.full(plan32.output_shape("physical_gradients", 1), float("nan"), device="cuda")
    detj = torch.empty(plan32.detj_shape, device="cuda")
    pointer = grad.data_ptr()
    result, result_detj = plan32.apply("physical_gradients", ut, grad, detj)
    plan32.check()
    assert result is grad and grad.data_ptr() == pointer and result_detj is detj
    reference, _ = plan.apply("physical_gradients", u)
    assert float((grad.double().cpu() - torch.as_tensor(reference.get())).abs().max()) < 1e-4 * float(abs(reference).max())
    # A new result is made by the input's library.
    new, _ = plan32.apply("physical_gradients", ut)
    assert isinstance(new, torch.Tensor) and new.device == ut.device and new.dtype == torch.float32


def test_adjoint_identity_on_the_gpu(cp, rng):
    mesh, block = mesh_block()
    for summation in ("atomic", "deterministic"):
        plan = feinterp.Interpolator(block, 4, mesh.coordinates, executor="cuda", summation=summation)
        u = cp.asarray(rng.standard_normal((mesh.node_count, 2)))
        forward, _ = plan.apply("physical_gradients", u)
        f = cp.asarray(rng.standard_normal(forward.shape))
        transposed = plan.apply_transpose("physical_gradients", f)
        plan.check()
        left, right = float(cp.vdot(transposed, u)), float(cp.vdot(f, forward))
        assert abs(left - right) <= 1e-12 * float(cp.abs(f).sum() * cp.abs(forward).max())
    again = plan.apply_transpose("physical_gradients", f)
    assert bool((again == transposed).all())  # deterministic: bitwise the same


SPIN = r"""
extern "C" __global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
}
"""


class CudaArrayInterfaceOnly:
    """A CuPy array seen through __cuda_array_interface__ v3 alone, with the stream it was written on."""

    def __init__(self, array, stream):
        self.shape, self.dtype = array.shape, array.dtype
        interface = dict(array.__cuda_array_interface__)
        interface["stream"] = stream.ptr
        self.__cuda_array_interface__ = interface


@pytest.mark.parametrize("protocol", ["dlpack", "cuda_array_interface"])
def test_inputs_written_on_another_stream_are_waited_for(cp, rng, protocol):
    mesh, block = mesh_block()
    producer = cp.cuda.Stream(non_blocking=True)
    plan_stream = cp.cuda.Stream(non_blocking=True)
    plan = feinterp.Interpolator(block, 4, mesh.coordinates, executor="cuda", cuda_stream=plan_stream)
    values = rng.standard_normal(mesh.node_count)
    expected = feinterp.Interpolator(block, 4, mesh.coordinates).apply("values", values)
    u = cp.zeros(mesh.node_count)
    out = cp.zeros(plan.output_shape("values"))
    cp.cuda.runtime.deviceSynchronize()
    spin = cp.RawKernel(SPIN, "spin")
    host_values = cp.cuda.alloc_pinned_memory(values.nbytes)
    staged = numpy.frombuffer(host_values, values.dtype, values.size)
    staged[:] = values
    with producer:  # ~100 ms of work, then u written: all on the producer's stream
        spin((1,), (1,), (numpy.int64(200_000_000),))
        u.set(staged, stream=producer)
        if protocol == "dlpack":
            plan.apply("values", u, out)  # CuPy's __dlpack__(stream=plan's) orders producer -> plan
        else:
            plan.apply("values", CudaArrayInterfaceOnly(u, producer), CudaArrayInterfaceOnly(out, producer))
    plan_stream.synchronize()
    producer.synchronize()
    assert numpy.abs(out.get() - expected).max() <= 1e-12 * numpy.abs(expected).max()


def test_host_and_device_arrays_are_not_mixed(cp):
    mesh, block = mesh_block()
    gpu = feinterp.Interpolator(block, 4, mesh.coordinates, executor="cuda")
    cpu = feinterp.Interpolator(block, 4, mesh.coordinates)
    with pytest.raises(ValueError, match="^u: a host array .* computes on cuda"):
        gpu.apply("values", numpy.zeros(mesh.node_count), cp.zeros(gpu.output_shape("values")))
    with pytest.raises(ValueError, match="^u: a CUDA device array"):
        cpu.apply("values", cp.zeros(mesh.node_count), numpy.zeros(cpu.output_shape("values")))
    with pytest.raises(TypeError, match="^u: expected float64 values, got float32"):
        gpu.apply("values", cp.zeros(mesh.node_count, dtype=cp.float32))
    with pytest.raises(ValueError, match="^u: expected a C-contiguous array"):
        gpu.apply("values", cp.zeros((mesh.node_count, 2))[:, 0])


def test_check_reports_a_degenerate_element_with_its_tag(cp, rng):
    connectivity = numpy.array([[0, 1, 2], [1, 3, 2]], dtype=numpy.int32)
    x = numpy.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.5, 0.5, 0]], dtype=float)  # element 1: collinear
    tags = numpy.array([11, 7777], dtype=numpy.uint64)
    plan = feinterp.Interpolator(feinterp.BlockArrays(feinterp.ElementType("tri", 1), connectivity, 2, tags), 2,
                                 x, executor="cuda")
    plan.apply("physical_gradients", cp.asarray(rng.standard_normal(4)))
    with pytest.raises(feinterp.DegenerateElementError) as raised:
        plan.check()
    assert (raised.value.element, raised.value.tag) == (1, 7777)
