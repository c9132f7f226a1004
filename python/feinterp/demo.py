# SPDX-License-Identifier: BSD-3-Clause
"""The demo of `python3 -m feinterp demo`, mirroring the command's (apps/cli/demo.cpp): for each element
type, a generated mesh of the unit segment, square or cube, a random polynomial field of degree p with C
components, and the three operations on the chosen device, each checked against the polynomial at the
physical points. The points' positions x(xi_q) and dx/dxi come from interpolating the node coordinates on
the CPU: they depend on the mesh only, not on the field or the device under test.
"""
import argparse
import time

import numpy

from . import _feinterp as _f
from ._plan import Interpolator
from .polynomial import Polynomial, exact_results, relative_error

OPERATIONS = ("values", "reference_gradients", "physical_gradients")


def _parser():
    parser = argparse.ArgumentParser(prog="python3 -m feinterp", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="interpolate polynomial fields on generated meshes and check them")
    demo.add_argument("--element", default="line,triangle,quadrilateral,tetrahedron,hexahedron",
                      help="shapes, comma-separated (line, tri, quad, tet, hex)")
    demo.add_argument("--order", default="1,2,3", help="orders, comma-separated")
    demo.add_argument("--components", type=int, default=1, help="field components C (1 to 9)")
    demo.add_argument("--size", type=int, default=2000, help="target elements per mesh")
    demo.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"),
                      help="cpu (NumPy), cuda (CuPy arrays on the GPU) or auto")
    demo.add_argument("--precision", default="fp64", choices=("fp64", "fp32"))
    demo.add_argument("--seed", type=int, default=1, help="mesh and coefficient seed")
    demo.add_argument("--repeats", type=int, default=3, help="runs per operation; the fastest is reported")
    demo.add_argument("--tolerance", type=float, default=None,
                      help="largest relative error accepted (default 1e-9 in fp64, 1e-4 in fp32)")
    return parser


def _device_arrays(executor):
    """numpy for the CPU, cupy for a GPU (the demo's GPU arrays are CuPy's)."""
    if executor == _f.Executor.cpu:
        return numpy
    try:
        import cupy
    except ImportError as error:
        raise SystemExit(f"--device cuda: the demo's GPU arrays are CuPy's, and CuPy is missing ({error})")
    return cupy


def run_type(element_type, options, executor, xp):
    mesh = _f.generate_mesh(element_type, options.size, options.seed, "box")
    block = next(b for b in mesh.blocks if b.type == element_type)
    degree = 2 * element_type.order
    geometry = Interpolator(block, degree, mesh.coordinates)
    x = geometry.apply("values", mesh.coordinates)
    dx = geometry.apply("reference_gradients", mesh.coordinates)
    polynomial = Polynomial(element_type.order, block.space_dimension, options.components,
                            numpy.random.default_rng(options.seed * 7919 + int(element_type.shape) * 4 + element_type.order))
    exact = dict(zip(OPERATIONS, exact_results(polynomial, x, dx)))

    real = numpy.float64 if options.precision == "fp64" else numpy.float32
    plan = Interpolator(block, degree, xp.asarray(mesh.coordinates, dtype=real), executor=executor)
    u = xp.asarray(polynomial.values(mesh.coordinates).astype(real))
    row = {"type": str(element_type), "elements": block.element_count, "nodes": mesh.node_count,
           "points": plan.points}
    for name in OPERATIONS:
        out = None
        best = float("inf")
        for _ in range(options.repeats):
            start = time.perf_counter()
            result = plan.apply(name, u, out)
            plan.check()  # on a GPU: waits for the launch
            best = min(best, time.perf_counter() - start)
            out = result[0] if isinstance(result, tuple) else result
        host = out.get() if hasattr(out, "get") else numpy.asarray(out)
        row[name] = (relative_error(host, exact[name]), best)
    return row


def main(argv):
    options = _parser().parse_args(argv)
    if options.tolerance is None:
        options.tolerance = 1e-9 if options.precision == "fp64" else 1e-4
    executor = _f.Executor.cuda if options.device == "cuda" else _f.Executor.cpu
    if options.device == "auto":
        executor = _f.Executor.cuda if _f.cuda_usable() else _f.Executor.cpu
    xp = _device_arrays(executor)
    shapes = [_f.parse_shape(s) for s in options.element.split(",")]
    orders = [int(p) for p in options.order.split(",")]
    print(f"feinterp {_f.__version__} demo on {_f.describe_executor(executor)} ({xp.__name__} arrays, "
          f"{options.precision}): {options.components}-component polynomial fields of degree p, quadrature "
          f"degree 2p, ~{options.size} elements per mesh")
    print(f"{'element':<16}{'elements':>9}{'nodes':>8}{'Q':>4}"
          + "".join(f"{label:>24}" for label in ("values", "reference gradients", "physical gradients")))
    print(" " * 37 + "  relative error     ms" * 3)
    worst = 0.0
    for shape in shapes:
        for order in orders:
            row = run_type(_f.ElementType(shape, order), options, executor, xp)
            cells = "".join(f"{row[n][0]:>16.1e}{1e3 * row[n][1]:>8.3f}" for n in OPERATIONS)
            print(f"{row['type']:<16}{row['elements']:>9}{row['nodes']:>8}{row['points']:>4}{cells}")
            worst = max(worst, *(row[n][0] for n in OPERATIONS))
    verdict = "exact" if worst <= options.tolerance else "NOT exact"
    print(f"largest relative error {worst:.2e}: {verdict} (tolerance {options.tolerance:.0e})")
    return 0 if worst <= options.tolerance else 1
