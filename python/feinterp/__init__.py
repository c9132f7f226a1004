# SPDX-License-Identifier: BSD-3-Clause
"""feinterp: values, reference gradients and physical gradients of finite-element fields at points,
their transposes (integration) and the fused Laplacian, on the CPU (NumPy) and NVIDIA GPUs (CuPy,
PyTorch, Numba: any array with __cuda_array_interface__ or __dlpack__, used in place).

    import feinterp, numpy
    mesh = feinterp.load_msh("mesh.msh")
    block = mesh.blocks[0]
    plan = feinterp.Interpolator(block, 4, mesh.coordinates)            # quadrature degree 4, on the CPU
    u = numpy.random.rand(mesh.node_count, 3)                            # (N, C)
    grad, detj = plan.apply("physical_gradients", u)                     # (E, Q, C, s), (E, Q)
    r = plan.apply_transpose("physical_gradients", grad, weighted=True)  # (N, C)

Errors: feinterp.Error (a RuntimeError) and its subclasses InvalidArgumentError (also a ValueError),
DegenerateElementError (.element, .tag, .kind, .point, .detj) and MeshError; arrays of the wrong
dtype raise TypeError, of the wrong shape, layout or memory ValueError, naming the argument.
"""
from . import _feinterp
from ._feinterp import (
    DegenerateElementError,
    ElementType,
    Error,
    Executor,
    FusedOperator,
    InvalidArgumentError,
    MeshError,
    Operation,
    OperatorGeometry,
    PointSet,
    Precision,
    Shape,
    Summation,
    TransposeOptions,
    TransposeTarget,
    __version__,
    cuda_unusable_reason,
    cuda_usable,
    element_nodes,
    max_components,
)
from ._mesh_operator import MeshOperator
from ._plan import BlockArrays, Interpolator, as_shape

if _feinterp.has_mesh:
    from ._feinterp import (Block, Mesh, PhysicalGroup, generate_mesh, load_msh, write_csv, write_msh, write_npy,
                            write_npz, write_vtu)


def quadrature_rule(shape, degree):
    """A quadrature rule on `shape` (a Shape or its name: 'tet', 'hexahedron', ...) exact to `degree`."""
    return _feinterp.quadrature_rule(as_shape(shape), degree)


def reference_points(shape, coordinates):
    """Your own reference points: (Q, d) coordinates inside the reference element of `shape`."""
    return _feinterp.reference_points(as_shape(shape), coordinates)


def max_quadrature_degree(shape):
    return _feinterp.max_quadrature_degree(as_shape(shape))
