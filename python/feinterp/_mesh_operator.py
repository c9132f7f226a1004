# SPDX-License-Identifier: BSD-3-Clause
"""feinterp.MeshOperator: every block of a mesh over one nodal vector (interpolator/mesh_operator.hpp), over
the compiled MeshOperator64 and MeshOperator32 (python/src/mesh_operator.cpp)."""
import numpy

from . import _feinterp as _f
from . import _arrays
from ._plan import Interpolator, _enum, as_operation


class MeshOperator:
    """Every block of a mesh, one plan each, over one global nodal vector u[node, c].

    MeshOperator(blocks, points=None, coordinates=None, *, node_count=None, executor="cpu", precision=None,
                 cuda_stream=None, summation="atomic", threads=0, operator_geometry="precomputed")

    blocks       Blocks of a Mesh (e.g. [b for b in mesh.blocks if b.type.dimension == mesh.dimension]) or
                 BlockArrays, over one node numbering
    points       a PointSet, a quadrature degree, "nodes", or a list of them (one per block); default:
                 degree 2p of each block
    the rest     as for feinterp.Interpolator (each block's plan is built with them)

    Point data of every block lie in one 1D array, block after block, each in its plan's layout
    (output_offset(b, op, C)); every block's points are point_count points, block b's from point_offset(b).
    Coefficients are (P,) (a scalar per point) or (P, s(s+1)/2) (a symmetric tensor for diffusion), P the
    point count. Sums over blocks run in order (bitwise reproducible on the CPU; on a GPU with
    summation="deterministic"); blocks next to each other with the same type and points compute as one run.
    """

    def __init__(self, blocks, points=None, coordinates=None, *, node_count=None, executor="cpu", precision=None,
                 cuda_stream=None, summation="atomic", threads=0, operator_geometry="precomputed"):
        blocks = list(blocks)
        if not blocks:
            raise ValueError("blocks: none; expected at least one")
        per_block = points if isinstance(points, (list, tuple)) else [points] * len(blocks)
        if len(per_block) != len(blocks):
            raise ValueError(f"points: {len(per_block)} for {len(blocks)} blocks; expected one per block")
        self.plans = [
            Interpolator(b, p, coordinates, node_count=node_count, executor=executor, precision=precision,
                         cuda_stream=cuda_stream, summation=summation, threads=threads,
                         operator_geometry=operator_geometry)
            for b, p in zip(blocks, per_block)
        ]
        operator_class = _f.MeshOperator64 if self.plans[0].precision == _f.Precision.fp64 else _f.MeshOperator32
        self._operator = operator_class([p._plan for p in self.plans], [p.point_set for p in self.plans])

    # ---- calls --------------------------------------------------------------------------------------
    def interpolate(self, op, u, out=None):
        """Every block's forward operation op of u, block after block in one 1D array; returns out."""
        op = as_operation(op)
        if out is None:
            out = _arrays.empty(u, (self._operator.output_size(op, _components(u)),))
        self._operator.interpolate(op, u, out)
        return out

    def integrate(self, op, f, components=1, out=None, *, weighted=False, accumulate=False):
        """The sum over blocks of the transpose of op: f every block's point data (1D, as interpolate writes
        it) of a field of `components` components; returns the nodal out (N, C), or (N,) for C = 1."""
        op = as_operation(op)
        options = _f.TransposeOptions(_f.TransposeTarget.nodes, bool(weighted), bool(accumulate))
        if out is None:
            out = _arrays.empty(f, self._nodal_shape(components), zero=accumulate)
        self._operator.integrate(op.transpose, f, components, out, options)
        return out

    def apply_operator(self, op, u, out=None, *, coefficient=None, accumulate=False):
        """r = A u over every block: op "mass" or "diffusion", coefficient rho or kappa at every block's
        points, (P,) or (P, s(s+1)/2); returns out."""
        op = _enum(_f.FusedOperator, op)
        if out is None:
            out = _arrays.empty(u, tuple(u.shape), zero=accumulate)
        self._operator.apply_operator(op, u, out, coefficient, bool(accumulate))
        return out

    def operator_diagonal(self, op, components=1, out=None, *, coefficient=None, like=None):
        """A's diagonal for a field of `components` components; (N,) or (N, C). The result takes the kind
        and device of `like`, else of the coefficient, else NumPy (cpu operators only)."""
        op = _enum(_f.FusedOperator, op)
        if out is None:
            like = like if like is not None else coefficient
            if like is None and self.plans[0].executor != _f.Executor.cpu:
                raise TypeError("operator_diagonal: a cuda operator needs out=, like= or a coefficient to say where "
                                "the diagonal goes")
            shape = self._nodal_shape(components)
            out = numpy.empty(shape, dtype=self.plans[0].dtype) if like is None else _arrays.empty(like, shape)
        self._operator.operator_diagonal(op, components, out, coefficient)
        return out

    def point_coordinates(self, out=None, *, like=None):
        """Every block's points' physical coordinates, (P, 3): where to evaluate a coefficient or a source."""
        if out is None:
            shape = (self.point_count, 3)
            if like is None and self.plans[0].executor != _f.Executor.cpu:
                raise TypeError("point_coordinates: a cuda operator needs out= or like=")
            out = numpy.empty(shape, dtype=self.plans[0].dtype) if like is None else _arrays.empty(like, shape)
        self._operator.point_coordinates(out)
        return out

    def check(self):
        """cuda: waits, and raises DegenerateElementError for an element met since the last check."""
        self._operator.check()

    # ---- sizes ----------------------------------------------------------------------------------------
    def output_size(self, op, components=1):
        return self._operator.output_size(as_operation(op), components)

    def output_offset(self, block, op, components=1):
        return self._operator.output_offset(block, as_operation(op), components)

    def point_offset(self, block):
        return self._operator.point_offset(block)

    @property
    def point_count(self):
        return self._operator.point_count

    @property
    def node_count(self):
        return self._operator.node_count

    @property
    def block_count(self):
        return self._operator.block_count

    @property
    def run_count(self):
        return self._operator.run_count

    def _nodal_shape(self, components):
        return (self.node_count,) if components == 1 else (self.node_count, components)


def _components(u):
    shape = getattr(u, "shape", ())
    return int(shape[1]) if len(shape) == 2 else 1
