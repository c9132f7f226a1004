#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""CuPy arrays on the GPU, used in place: a generated mesh, its arrays moved to the device once, then
physical gradients and their weighted transpose computed from and into CuPy arrays on a CuPy stream,
with no copy and no synchronisation per call. Prints the time per call: the host's (the Python layer's
overhead: argument checks, DLPack, the launch) and the GPU's, over --repeats warm calls.

    python3 examples/python/cupy_device.py [--elements 1000000] [--type tet,2] [--components 1] [--fp32]
"""
import argparse
import sys
import time

import numpy

import feinterp

try:
    import cupy
except ImportError as error:
    sys.exit(f"this example needs CuPy and a GPU: {error}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elements", type=int, default=1_000_000)
    parser.add_argument("--type", default="tet,2", help="shape,order")
    parser.add_argument("--components", type=int, default=1)
    parser.add_argument("--fp32", action="store_true")
    parser.add_argument("--repeats", type=int, default=100)
    options = parser.parse_args()
    if not feinterp.cuda_usable():
        sys.exit("no usable GPU: " + feinterp.cuda_unusable_reason())
    shape, order = options.type.split(",")
    element_type = feinterp.ElementType(shape, int(order))
    real = cupy.float32 if options.fp32 else cupy.float64

    start = time.perf_counter()
    mesh = feinterp.generate_mesh(element_type, options.elements, 0, "box")
    block = mesh.blocks[0]
    print(f"{block.element_count} {element_type} elements, {mesh.node_count} nodes "
          f"(generated in {time.perf_counter() - start:.1f} s)")

    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:  # every CuPy operation below, and the plan's launches, on one stream: in order, no syncs
        connectivity = cupy.asarray(block.connectivity)
        coordinates = cupy.asarray(mesh.coordinates, dtype=real)
        plan = feinterp.Interpolator(feinterp.BlockArrays(element_type, connectivity), 2 * element_type.order,
                                     coordinates, executor="cuda", cuda_stream=stream)
        u = cupy.sin(coordinates[:, :1] * 3).repeat(options.components, axis=1).astype(real)
        gradients = cupy.empty(plan.output_shape("physical_gradients", options.components), dtype=real)
        detj = cupy.empty(plan.detj_shape, dtype=real)
        residual = cupy.empty_like(u)
        print(f"plan: {plan}, {describe(plan)}")

        for name, call in (
            ("physical_gradients", lambda: plan.apply("physical_gradients", u, gradients, detj)),
            ("physical_gradients_transpose (weighted)",
             lambda: plan.apply_transpose("physical_gradients", gradients, residual, weighted=True)),
            ("laplacian (fused)", lambda: plan.apply_laplacian(u, residual)),
        ):
            call()  # the first call decides and caches the launch
            plan.check()
            host = time.perf_counter()
            begin, end = cupy.cuda.Event(), cupy.cuda.Event()
            begin.record(stream)
            for _ in range(options.repeats):
                call()
            host = (time.perf_counter() - host) / options.repeats
            end.record(stream)
            end.synchronize()
            gpu = cupy.cuda.get_elapsed_time(begin, end) * 1e-3 / options.repeats
            print(f"  {name:<42} host {host * 1e6:8.1f} us per call, GPU {gpu * 1e6:9.1f} us per call")
        plan.check()
        print(f"  measure of the domain: {float(cupy.sum(cupy.abs(detj) * cupy.asarray(plan.point_set.weights))):.6f}"
              " (the unit cube: 1)")


def describe(plan):
    return f"{plan.element_count} elements x {plan.points} points, {numpy.dtype(plan.dtype).name}"


if __name__ == "__main__":
    main()
