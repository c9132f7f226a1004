#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Registers and spills of the dense packed kernels, as kernel_set.cuh selects them, from ptxas.

    scripts/kernel_registers.py [--elements line,triangle,...] [--orders 1,2,3] [--components 1,2,3]
                                [--arch sm_90] [--nvcc PATH] [--csv FILE]

Compiles one translation unit that takes the address of detail::packed_kernel_of<Element, C, Op, S, Real,
AsyncGather>() for every selected element, order, C, forward operation and precision (S the element's
default space dimension; AsyncGather false, the dense variant, and also true, the dense_async_gather
variant, where that applies: values and reference gradients at C = 1), and of packed_kernel_64_registers
where the dense_64_registers variant applies (physical gradients of 3D elements in double, C = 1..3), with
`nvcc -cubin -Xptxas -v` and the project's kernel flags, and prints one row per kernel: its configuration
and variant, the launch-bound flavour (packed_kernel, _40_registers, _32_registers as packed_kernel_of
chose; _64_registers), ptxas's registers and spill stores in bytes. The comments in
cuda/kernels/dense/packed_kernel.cuh that say which kernels spill quote this output; no GPU is needed.
With --csv the rows are also written there, whole or not at all. Python's standard library only.

Exit status: 0 done; 1 a bad argument, a compile that failed (its first lines on stderr), or ptxas output
this script could not read.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = {"line": (0, 1, "Line"), "triangle": (1, 2, "Triangle"), "quadrilateral": (2, 2, "Quadrilateral"),
          "tetrahedron": (3, 3, "Tetrahedron"), "hexahedron": (4, 3, "Hexahedron")}
OPERATIONS = {0: "values", 1: "reference_gradients", 2: "physical_gradients"}
PRECISIONS = {"d": "fp64", "f": "fp32"}
VARIANTS = {0: "dense", 1: "dense_async_gather"}
# Itanium-mangled packed kernel: its flavour, then LagrangeElement<Shape(s), p>, C, Operation(o), S, Real,
# AsyncGather.
KERNEL = re.compile(r"_ZN8feinterp8backends4cuda(\d+)(packed_kernel\w*?)I"
                    r"NS_15LagrangeElementILNS_5ShapeE(\d)ELi(\d)EEELi(\d+)ELNS_9OperationE(\d)ELi(\d)E([df])"
                    r"Lb([01])EE")


def async_gather_applies(c, op):
    """The dense_async_gather variant's kernels: values and reference gradients at C = 1 (kernel_variant.hpp)."""
    return c == 1 and op != "physical_gradients"


def capped_applies(dimension, c, op, real):
    """The dense_64_registers variant's kernels: physical gradients of 3D elements in double at C = 1..3."""
    return dimension == 3 and c <= 3 and op == "physical_gradients" and real == "double"


def variant_of(flavour, gather):
    return "dense_64_registers" if flavour == "packed_kernel_64_registers" else VARIANTS[gather]


class InputError(Exception):
    pass


def numbers(text, name, allowed):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise InputError(f"--{name} '{text}': expected numbers separated by commas")
    bad = [v for v in values if v not in allowed]
    if bad:
        raise InputError(f"--{name}: {bad[0]} is not one of {', '.join(map(str, allowed))}")
    return values


def translation_unit(shapes, orders, components):
    lines = ['#include "feinterp/cuda/kernels/dense/kernel_set.cuh"',
             '#include "feinterp/elements/elements.hpp"',
             "namespace fb = feinterp::backends::cuda;",
             "using feinterp::Operation;",
             "const void* selected_kernels[] = {"]
    for shape in shapes:
        _, dimension, element = SHAPES[shape]
        space = 3 if dimension == 3 else 2
        for p in orders:
            for c in components:
                for op in OPERATIONS.values():
                    for real in ("double", "float"):
                        for gather in ("false", "true") if async_gather_applies(c, op) else ("false",):
                            lines.append("  reinterpret_cast<const void*>(fb::detail::packed_kernel_of<"
                                         f"feinterp::{element}<{p}>, {c}, Operation::{op}, {space}, {real}, {gather}>()),")
                        if capped_applies(dimension, c, op, real):
                            lines.append("  reinterpret_cast<const void*>(&fb::packed_kernel_64_registers<"
                                         f"feinterp::{element}<{p}>, {c}, Operation::{op}, {space}, {real}, false>),")
    lines.append("};")
    return "\n".join(lines) + "\n"


def parse(log):
    """(flavour, shape, order, C, operation, precision, variant, registers, spill bytes) per compiled packed
    kernel."""
    rows, current, spill = [], None, None
    for line in log.splitlines():
        if "Compiling entry function" in line:
            m = KERNEL.search(line)
            current = m.groups()[1:] if m else None
            spill = None
        elif current and "bytes spill stores" in line:
            spill = int(re.search(r"(\d+) bytes spill stores", line).group(1))
        elif current and "Used" in line and "registers" in line:
            if spill is None:
                raise InputError(f"ptxas reported registers before spills for {current[0]}: cannot read its output")
            registers = int(re.search(r"Used (\d+) registers", line).group(1))
            flavour, shape, order, c, op, _s, real, gather = current
            name = next(k for k, v in SHAPES.items() if v[0] == int(shape))
            rows.append((flavour, name, int(order), int(c), OPERATIONS[int(op)], PRECISIONS[real],
                         variant_of(flavour, int(gather)), registers, spill))
            current = None
    return rows


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elements", default=",".join(SHAPES), help="shapes, comma-separated (default: all five)")
    parser.add_argument("--orders", default="1,2,3")
    parser.add_argument("--components", default="1,2,3", help="C values, 1-9")
    parser.add_argument("--arch", default="sm_90", help="the GPU architecture ptxas compiles for")
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    parser.add_argument("--csv", help="also write the rows to this file")
    args = parser.parse_args(argv)
    try:
        shapes = [s for s in args.elements.split(",")]
        unknown = [s for s in shapes if s not in SHAPES]
        if unknown:
            raise InputError(f"--elements: '{unknown[0]}' is not one of {', '.join(SHAPES)}")
        orders = numbers(args.orders, "orders", (1, 2, 3))
        components = numbers(args.components, "components", range(1, 10))
        if not re.fullmatch(r"sm_\d+a?", args.arch):
            raise InputError(f"--arch '{args.arch}': expected sm_NN")
        if not os.access(args.nvcc, os.X_OK):
            raise InputError(f"nvcc not found at '{args.nvcc}': pass --nvcc")
        with tempfile.TemporaryDirectory() as work:
            os.mkdir(os.path.join(work, "include"))
            os.symlink(ROOT, os.path.join(work, "include", "feinterp"))
            source = os.path.join(work, "selected.cu")
            with open(source, "w", encoding="utf-8") as f:
                f.write(translation_unit(shapes, orders, components))
            command = [args.nvcc, "-I" + os.path.join(work, "include"), "-O3", "-DNDEBUG", "-std=c++17",
                       "--expt-relaxed-constexpr", f"-arch={args.arch}", "-cubin", "-Xptxas", "-v", source,
                       "-o", os.path.join(work, "selected.cubin")]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                raise InputError("nvcc failed:\n" + "\n".join(done.stderr.splitlines()[:20]))
        rows = parse(done.stderr + done.stdout)
        expected = len(shapes) * len(orders) * len(PRECISIONS) * sum(
            1 + async_gather_applies(c, op) for c in components for op in OPERATIONS.values()) + len(orders) * sum(
            capped_applies(SHAPES[s][1], c, op, "double") for s in shapes for c in components for op in OPERATIONS.values())
        if len(rows) != expected:
            raise InputError(f"ptxas reported {len(rows)} packed kernels, expected {expected}: cannot read its output")
    except InputError as e:
        print(f"kernel_registers: {e}", file=sys.stderr)
        return 1
    variants = list(VARIANTS.values()) + ["dense_64_registers"]
    rows.sort(key=lambda r: (list(SHAPES).index(r[1]), r[2], r[3], list(OPERATIONS.values()).index(r[4]),
                             list(PRECISIONS.values()).index(r[5]), variants.index(r[6])))
    header = ("element", "order", "components", "operation", "precision", "variant", "kernel", "registers",
              "spill_bytes")
    width = max(len(r[0]) for r in rows)
    print(f"{'element':<14}{'p':>2}{'C':>3}  {'operation':<20}{'prec':<6}{'variant':<20}{'kernel':<{width + 2}}"
          f"{'regs':>5}{'spill B':>9}")
    for flavour, shape, order, c, op, precision, variant, registers, spill in rows:
        print(f"{shape:<14}{order:>2}{c:>3}  {op:<20}{precision:<6}{variant:<20}{flavour:<{width + 2}}{registers:>5}"
              f"{spill:>9}")
    spilling = [r for r in rows if r[8]]
    print(f"{len(rows)} kernels, {len(spilling)} spill", file=sys.stderr)
    if args.csv:
        temporary = args.csv + ".partial"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(",".join(header) + "\n")
            for flavour, shape, order, c, op, precision, variant, registers, spill in rows:
                f.write(f"{shape},{order},{c},{op},{precision},{variant},{flavour},{registers},{spill}\n")
        os.replace(temporary, args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
