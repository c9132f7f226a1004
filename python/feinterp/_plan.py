# SPDX-License-Identifier: BSD-3-Clause
"""The plan: feinterp.Interpolator, over the compiled Plan64 and Plan32 (python/src/interpolator.cpp).

This layer only turns Python conveniences into the compiled module's exact arguments (names into
enums, a degree into a quadrature rule, host arrays into the plan's dtype) and allocates results that
the caller did not pass. Every array is checked by the compiled module.
"""
from dataclasses import dataclass
from typing import Any, Optional

import numpy

from . import _arrays
from . import _feinterp as _f


@dataclass
class BlockArrays:
    """A block from your own arrays: what a Mesh's Block also provides.

    connectivity: (E, nodes_per_element) node indices, Gmsh node order; host integers of any dtype (checked
                  to fit int32) or int32 device memory.
    space_dimension: 2 (z = 0, checked) or 3; 0: 3 for volumes, 2 otherwise.
    element_tags: optional (E,) non-negative integers (uint64) in host memory: errors then name your tags.
    """

    type: _f.ElementType
    connectivity: Any
    space_dimension: int = 0
    element_tags: Optional[Any] = None


def _enum(enum, value, parse=None):
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        if parse:
            return parse(value)
        if value in enum.__members__:
            return enum.__members__[value]
        raise ValueError(f"{value!r}: expected a {enum.__name__}: {', '.join(enum.__members__)}")
    raise TypeError(f"expected a {enum.__name__} or its name, got {value!r}")


def as_operation(op):
    return _enum(_f.Operation, op, _f.parse_operation)


def as_shape(shape):
    return _enum(_f.Shape, shape, _f.parse_shape)


def _precision(precision, coordinates):
    """fp64 unless `precision` says otherwise or the coordinates are float32."""
    if precision is None:
        return _f.Precision.fp32 if _arrays.dtype_name(coordinates) == "float32" else _f.Precision.fp64
    if isinstance(precision, _f.Precision):
        return precision
    if isinstance(precision, str):
        return _f.parse_precision(precision)
    dtype = numpy.dtype(precision)  # numpy.float32, "float32", numpy.dtype(...)
    if dtype == numpy.float64:
        return _f.Precision.fp64
    if dtype == numpy.float32:
        return _f.Precision.fp32
    raise TypeError(f"precision: expected fp64 or fp32 (or float64 / float32), got {precision!r}")


def _stream(cuda_stream):
    """A cudaStream_t as an int: an int, a CuPy stream (.ptr), a PyTorch stream (.cuda_stream); anything
    else goes to the compiled module as it is, which checks it (cuda_stream)."""
    if cuda_stream is None:
        return 0
    for attribute in ("ptr", "cuda_stream", "handle"):
        if hasattr(cuda_stream, attribute):
            value = getattr(cuda_stream, attribute)
            return getattr(value, "value", value)
    return cuda_stream


def _on_device(array):
    return hasattr(array, "__cuda_array_interface__") or (
        hasattr(array, "__dlpack_device__") and not isinstance(array, numpy.ndarray)
    )


def _integers(array, name, dtype):
    """Host integers (NumPy, lists) converted once, at construction, to `dtype`, after a range check: a
    value that does not fit is refused, never wrapped, and floats, bools, complex numbers and objects are
    refused rather than truncated. Device arrays are passed as they are (the compiled module checks them)."""
    if array is None or _on_device(array):
        return array
    values = numpy.asarray(array)
    if values.dtype.kind not in "iu":
        if values.size == 0 and not isinstance(array, numpy.ndarray):
            values = values.astype(numpy.int64)  # an empty list: no value to misread
        else:
            raise TypeError(f"{name}: expected an array of integers, got {values.dtype} values")
    info = numpy.iinfo(dtype)
    if values.size and values.dtype != info.dtype:
        low, high = int(values.min()), int(values.max())
        if low < info.min or high > info.max:
            # Each bound is compared only when it is crossed, so it fits the array's own dtype.
            outside = numpy.zeros(values.shape, dtype=bool)
            if low < info.min:
                outside |= values < info.min
            if high > info.max:
                outside |= values > info.max
            index = tuple(int(i) for i in numpy.unravel_index(numpy.flatnonzero(outside)[0], values.shape))
            raise ValueError(f"{name}: {values[index]} at index {index} does not fit {info.dtype}: expected values "
                             f"in [{info.min}, {info.max}]")
    return numpy.require(values, dtype, ["C", "A"])  # C-contiguous and aligned: a copy if not


def _reals(array, name, dtype):
    """Host real numbers (NumPy, lists) converted once, at construction, to the plan's precision; bools,
    complex numbers and objects are refused rather than converted."""
    if array is None or _on_device(array):
        return array
    values = numpy.asarray(array)
    if values.dtype.kind not in "fiu":
        raise TypeError(f"{name}: expected an array of real numbers, got {values.dtype} values")
    return numpy.require(values, dtype, ["C", "A"])  # C-contiguous and aligned: a copy if not


def _point_set(element_type, points):
    """A PointSet, "nodes" or a quadrature degree (an integer, checked for range)."""
    if isinstance(points, _f.PointSet):
        return points
    if isinstance(points, str):
        if points == "nodes":
            return _f.element_nodes(element_type)
        raise ValueError(f"points: expected a PointSet, a quadrature degree or 'nodes', got {points!r}")
    shape = element_type.shape
    degree = _f.integer_argument(points, "points", 0, _f.max_quadrature_degree(shape))
    return _f.quadrature_rule(shape, degree)


class Interpolator:
    """A plan over one block: values, reference and physical gradients at points, their transposes and
    the fused Laplacian (interpolator/interpolator.hpp), in FP64 or FP32, on the CPU or a GPU.

    Interpolator(block, points=None, coordinates=None, *, node_count=None, executor="cpu",
                 precision=None, cuda_stream=None, summation="atomic", threads=0,
                 operator_geometry="precomputed")

    block        a Mesh's Block, or BlockArrays(type, connectivity, space_dimension, element_tags)
    points       a PointSet, a quadrature degree (int), "nodes" (the element's nodes); default: degree 2p
    coordinates  (N, 3) node coordinates, needed by physical gradients and weighted transposes
    node_count   N, when no coordinates are given
    executor     "cpu" (the default: NumPy arrays), "cuda" (arrays on the current device, CuPy's and
                 PyTorch's current device), "cuda:N" (on device N) or "auto" (cuda if usable); or a
                 feinterp.Executor. The plan keeps its device: .device says which (-1 for the CPU)
    precision    "fp64" / "fp32" (or numpy.float64 / float32); default: float32 coordinates give fp32
    cuda_stream  the stream of the plan's launches, of the plan's device: an int, a CuPy or PyTorch stream
                 (default: the legacy default stream, which CuPy and PyTorch use too)
    summation    "atomic" or "deterministic" (how a GPU plan sums shared nodes)
    operator_geometry  "precomputed" or "on_the_fly": where the fused operators of a CPU plan (every type but
                 P1 simplices) or a GPU plan of quadrilaterals and hexahedra take the geometry from (w |det J| and w |det J| K^T K kept per point after the
                 first call, or J at every call: coordinates that move need on_the_fly)

    Host connectivity, coordinates and tags are converted once, here, to int32, the plan's precision and
    uint64, and copied into memory the plan owns (on the device for a cuda plan): changing or freeing
    them afterwards changes nothing the plan computes. Integers of any dtype are checked for range before
    conversion (ValueError naming the first value that does not fit); floats, bools, complex numbers and
    objects are refused (TypeError) rather than truncated. Device arrays are used as they are, by
    reference: they must already have the right dtype and must not change while the plan lives.

    Arrays in calls (core/layout.hpp): nodal fields (N, C) or (N,); values (E, Q, C); reference
    gradients (E, Q, C, d); physical gradients (E, Q, C, s); det J (E, Q); element vectors
    (E, nodes_per_element, C). They must have the plan's dtype, be C-contiguous and live where the plan
    computes (TypeError / ValueError otherwise: nothing is copied behind your back). Results are written
    into out= when given (the same array is returned), else into a new array of the input's library.
    A cuda call is asynchronous on the plan's stream, like the C++ one; check() waits and raises
    DegenerateElementError for an element met since the last check.
    """

    def __init__(self, block, points=None, coordinates=None, *, node_count=None, executor="cpu", precision=None,
                 cuda_stream=None, summation="atomic", threads=0, operator_geometry="precomputed"):
        element_type = block.type
        points = _point_set(element_type, 2 * element_type.order if points is None else points)
        precision = _precision(precision, coordinates)
        real = numpy.float64 if precision == _f.Precision.fp64 else numpy.float32
        tags = getattr(block, "element_tags", None)
        if tags is not None and len(tags) == 0:
            tags = None
        plan_class = _f.Plan64 if precision == _f.Precision.fp64 else _f.Plan32
        self._plan = plan_class(
            element_type,
            _integers(block.connectivity, "connectivity", numpy.int32),
            points,
            _reals(coordinates, "coordinates", real),
            node_count,  # None, or an integer: the compiled module checks the integers' ranges
            getattr(block, "space_dimension", 0),
            _integers(tags, "element_tags", numpy.uint64),
            executor,  # a feinterp.Executor or a name ("cuda:1"): the compiled module reads both
            threads,
            _stream(cuda_stream),
            _enum(_f.Summation, summation),
            _enum(_f.OperatorGeometry, operator_geometry),
        )
        self.point_set = points

    # ---- calls --------------------------------------------------------------------------------------
    def apply(self, op, u, out=None, detj=None):
        """op(u): returns out, or (out, detj) for physical gradients. A transpose goes to apply_transpose."""
        op = as_operation(op)
        if op.is_transpose:
            return self.apply_transpose(op, u, out=out)
        components = _nodal_components(u)
        if out is None and components is not None:
            out = _arrays.empty(u, self._plan.output_shape(op, components, _f.TransposeTarget.nodes))
        if op == _f.Operation.physical_gradients:
            if detj is None and components is not None:
                detj = _arrays.empty(u, self.detj_shape)
            self._plan.apply(op, u, out, detj)
            return out, detj
        self._plan.apply(op, u, out, detj)  # detj given for another operation: the module says why not
        return out

    def apply_transpose(self, op, f, out=None, *, target="nodes", weighted=False, accumulate=False):
        """The adjoint of apply(op): point data f back to the nodes (or element vectors); returns out."""
        op = as_operation(op)
        options = _f.TransposeOptions(_enum(_f.TransposeTarget, target), bool(weighted), bool(accumulate))
        shape = getattr(f, "shape", ())
        if out is None and len(shape) >= 3:
            out = _arrays.empty(f, self._plan.output_shape(op.transpose, int(shape[2]), options.target),
                                zero=accumulate)
        self._plan.apply_transpose(op, f, out, options)
        return out

    def apply_operator(self, op, u, out=None, *, coefficient=None, target="nodes", accumulate=False):
        """r = A u for the fused operator op ("mass" or "diffusion"): A_ij = sum_q w_q |det J| rho phi_i phi_j,
        or sum_q w_q |det J| grad(phi_i) . kappa grad(phi_j), per component, in one pass. coefficient: rho or
        kappa at the plan's points, None (1), shape (E, Q), or (E, Q, s(s+1)/2) for a symmetric tensor kappa
        (its upper entries row by row). Returns out."""
        op = _enum(_f.FusedOperator, op)
        options = _f.TransposeOptions(_enum(_f.TransposeTarget, target), True, bool(accumulate))
        components = _nodal_components(u)
        if out is None and components is not None:
            out = _arrays.empty(u, self._fused_shape(options.target, components, tuple(u.shape)), zero=accumulate)
        self._plan.apply_operator(op, u, out, coefficient, options)
        return out

    def operator_diagonal(self, op, components=1, out=None, *, coefficient=None, target="nodes", like=None):
        """The diagonal of apply_operator's A for a field of `components` components (the same for each):
        shape (N,) for one component, (N, C) otherwise, or the element vectors' diagonals. When out is None
        the result takes the kind (NumPy, CuPy, PyTorch) and device of `like`, else of the coefficient, else
        it is a NumPy array (a cpu plan; a cuda plan needs one of them)."""
        op = _enum(_f.FusedOperator, op)
        options = _f.TransposeOptions(_enum(_f.TransposeTarget, target), True, False)
        if out is None:
            nodal = (self.node_count,) if components == 1 else (self.node_count, components)
            shape = self._fused_shape(options.target, components, nodal)
            like = like if like is not None else coefficient
            if like is None and self.executor != _f.Executor.cpu:
                raise TypeError("operator_diagonal: a cuda plan needs out=, like= or a coefficient to say where "
                                "the diagonal goes")
            out = numpy.empty(shape, dtype=self.dtype) if like is None else _arrays.empty(like, shape)
        self._plan.operator_diagonal(op, components, out, coefficient, options)
        return out

    def apply_laplacian(self, u, out=None, *, target="nodes", accumulate=False):
        """apply_operator("diffusion", u) with kappa = 1: the stiffness matrix
        sum_q w_q |det J| grad(phi_i) . grad(phi_j) applied to u; returns out."""
        return self.apply_operator("diffusion", u, out, target=target, accumulate=accumulate)

    def _fused_shape(self, target, components, nodal_shape):
        if target == _f.TransposeTarget.nodes:
            return nodal_shape
        return (self.element_count, self.nodes_per_element, components)

    def check(self):
        """cuda: waits for the plan's stream and raises DegenerateElementError for an element met since
        the last check; cpu: nothing to do (apply raised already)."""
        self._plan.check()

    # ---- sizes and facts ----------------------------------------------------------------------------
    def output_shape(self, op, components=1, target="nodes"):
        """The shape of op's result for a field of `components` components."""
        return tuple(self._plan.output_shape(as_operation(op), components, _enum(_f.TransposeTarget, target)))

    @property
    def detj_shape(self):
        return (self.element_count, self.points)

    @property
    def dtype(self):
        return numpy.dtype(numpy.float64 if self.precision == _f.Precision.fp64 else numpy.float32)

    def __getattr__(self, name):
        # executor, device, precision, type, element_count, node_count, points, nodes_per_element,
        # reference_dimension, space_dimension, cuda_stream, input_size, output_size, detj_size
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._plan, name)

    def __repr__(self):
        return (f"<Interpolator {self.type} x {self.element_count}, {self.points} points, "
                f"{self.executor.name}, {self.precision.name}>")


def _nodal_components(u):
    """C of a nodal field of shape (N,) or (N, C); None when the shape is neither (the compiled module
    then says what is wrong)."""
    shape = getattr(u, "shape", None)
    if shape is None or len(shape) not in (1, 2):
        return None
    return 1 if len(shape) == 1 else int(shape[1])
