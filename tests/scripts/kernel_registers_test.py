#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/kernel_registers.py: its reader of ptxas's output on a fresh random log (every kernel's
configuration, variant, flavour, registers and spills as written, other functions ignored); with the CUDA
compiler (FEINTERP_NVCC, set by CMake in a CUDA build) a real compile of the line kernels, whose variants and
flavours are the ones packed_kernel.cuh's rules give (the dense_async_gather kernels under the dense ones'
caps) and whose CSV is written whole; bad arguments are one line and exit status 1."""
import importlib.util
import os
import random
import subprocess
import sys
import unittest

from scratch_directory import ScratchDirectoryTest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "kernel_registers.py")
spec = importlib.util.spec_from_file_location("kernel_registers", SCRIPT)
kernel_registers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel_registers)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def mangled(flavour, shape, order, c, op, s, real, gather):
    return (f"_ZN8feinterp8backends4cuda{len(flavour)}{flavour}INS_15LagrangeElementILNS_5ShapeE{shape}ELi{order}EEE"
            f"Li{c}ELNS_9OperationE{op}ELi{s}E{real}Lb{gather}EEEvNS1_10KernelArgsIT3_EE")


class Reader(unittest.TestCase):
    def test_every_kernel_of_a_random_log_is_read_as_written(self):
        rng = random.Random()  # fresh inputs each run
        flavours = ["packed_kernel", "packed_kernel_64_registers", "packed_kernel_40_registers",
                    "packed_kernel_32_registers"]
        log, expected = [], []
        for _ in range(40):
            flavour, shape, order = rng.choice(flavours), rng.randrange(5), rng.randint(1, 3)
            c, op, real, gather = rng.randint(1, 9), rng.randrange(3), rng.choice("df"), rng.randrange(2)
            registers, spill = rng.randint(16, 255), rng.choice([0, 0, 4 * rng.randint(1, 40)])
            name = mangled(flavour, shape, order, c, op, 3, real, gather)
            log += [f"ptxas info    : Compiling entry function '{name}' for 'sm_90'",
                    f"ptxas info    : Function properties for {name}",
                    f"    {spill + 8} bytes stack frame, {spill} bytes spill stores, {spill} bytes spill loads",
                    f"ptxas info    : Used {registers} registers, used 1 barriers, 528 bytes cmem[0]"]
            if rng.random() < 0.3:  # another function between kernels: not a packed kernel, not counted
                log += ["ptxas info    : Compiling entry function '_Z6helperv' for 'sm_90'",
                        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads",
                        "ptxas info    : Used 8 registers"]
            shape_name = list(kernel_registers.SHAPES)[shape]
            variant = "dense_64_registers" if flavour == "packed_kernel_64_registers" else kernel_registers.VARIANTS[gather]
            expected.append((flavour, shape_name, order, c, kernel_registers.OPERATIONS[op],
                             kernel_registers.PRECISIONS[real], variant, registers, spill))
        self.assertEqual(kernel_registers.parse("\n".join(log)), expected)


class Command(ScratchDirectoryTest):
    def test_bad_arguments_are_one_line_and_status_1(self):
        for args in (["--elements", "pyramid"], ["--orders", "4"], ["--components", "x"], ["--arch", "90"],
                     ["--nvcc", os.path.join(self.directory.name, "no-nvcc")]):
            done = run(*args)
            self.assertEqual(done.returncode, 1, args)
            self.assertEqual(done.stdout, "", args)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
            self.assertTrue(done.stderr.startswith("kernel_registers: "), done.stderr)

    @unittest.skipUnless(os.environ.get("FEINTERP_NVCC"), "SKIPPED: no CUDA compiler (FEINTERP_NVCC unset)")
    def test_line_kernels_compile_with_the_flavours_the_rules_give(self):
        out = os.path.join(self.directory.name, "registers.csv")
        done = run("--elements", "line", "--orders", "1", "--components", "1,2", "--nvcc", os.environ["FEINTERP_NVCC"],
                   "--csv", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0],
                         "element,order,components,operation,precision,variant,kernel,registers,spill_bytes")
        rows = [line.split(",") for line in lines[1:]]
        # C x operations x precisions dense kernels, and the dense_async_gather ones of values and reference
        # gradients at C = 1 in both precisions.
        self.assertEqual(len(rows), 2 * 3 * 2 + 2 * 2)
        self.assertEqual(sorted((r[2], r[3], r[4]) for r in rows if r[5] == "dense_async_gather"),
                         [("1", "reference_gradients", "fp32"), ("1", "reference_gradients", "fp64"),
                          ("1", "values", "fp32"), ("1", "values", "fp64")])
        for element, order, c, op, precision, variant, flavour, registers, spill in rows:
            self.assertEqual((element, order), ("line", "1"))
            # packed_kernel.cuh: values and reference gradients held to 32 registers (few results per point),
            # physical gradients keep their own.
            self.assertEqual(flavour, "packed_kernel" if op == "physical_gradients" else "packed_kernel_32_registers")
            self.assertGreater(int(registers), 0)
            if flavour == "packed_kernel_32_registers":
                self.assertLessEqual(int(registers), 32)
            self.assertGreaterEqual(int(spill), 0)
        self.assertFalse(os.path.exists(out + ".partial"))


if __name__ == "__main__":
    unittest.main(verbosity=2)  # shows the compile test as skipped where there is no CUDA compiler
