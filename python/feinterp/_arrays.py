# SPDX-License-Identifier: BSD-3-Clause
"""Output arrays made by the library of the input array.

A result goes where its input lives: NumPy for NumPy, CuPy for CuPy, PyTorch for PyTorch, Numba for
Numba, on the input's device. This is the only place the package names array libraries; the compiled
module reads every array through its protocol (NumPy, DLPack, __cuda_array_interface__) and never
allocates. An input of any other library (JAX, ...) needs out= given by the caller.
"""
import numpy


def library_of(array):
    """'numpy', 'cupy', 'torch', 'numba', or the top-level module of the array's type."""
    if isinstance(array, numpy.ndarray):
        return "numpy"
    return type(array).__module__.split(".")[0]


def dtype_name(array):
    """'float64', 'float32', ... of a NumPy, CuPy, PyTorch or Numba array; None if it has no dtype."""
    dtype = getattr(array, "dtype", None)
    if dtype is None:
        return None
    return str(dtype).rsplit(".", 1)[-1]  # torch.float32 -> float32


def empty(like, shape, zero=False):
    """A new C-contiguous array of `shape` with the dtype, library and device of `like` (zeros if `zero`)."""
    library = library_of(like)
    if library == "numpy":
        return (numpy.zeros if zero else numpy.empty)(shape, dtype=like.dtype)
    if library == "cupy":
        import cupy

        with cupy.cuda.Device(like.device.id):
            return (cupy.zeros if zero else cupy.empty)(shape, dtype=like.dtype)
    if library == "torch":
        import torch

        return (torch.zeros if zero else torch.empty)(shape, dtype=like.dtype, device=like.device)
    if library == "numba":
        from numba import cuda

        result = cuda.device_array(shape, dtype=like.dtype)
        if zero:
            result[...] = 0
        return result
    raise TypeError(
        f"out: feinterp allocates results for NumPy, CuPy, PyTorch and Numba arrays; "
        f"for a {type(like).__module__}.{type(like).__name__} pass out= (an array of the right shape)"
    )
