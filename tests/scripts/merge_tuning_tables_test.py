#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/merge_tuning_tables.py: whole configurations replaced, older versions converted to v3,
mismatched tables refused with the file named, no output on error. With FEINTERP_TUNING_CHECK set (the
feinterp-tuning-check of a CUDA build), the merged table is also parsed by the library's own reader."""
import os
import random
import subprocess
import sys
import unittest

from scratch_directory import ScratchDirectoryTest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "merge_tuning_tables.py")
HEADER = "device: NVIDIA Test GPU\ncompute_capability: 9.0\npoints: nodes\n"


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def entries(path):
    """The (element, order, C, operation, precision, variant, points) -> (per_block, time) of a v3 table."""
    table = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == "# feinterp tuning table v3", lines[0]
    for line in lines[1:]:
        fields = line.split("#", 1)[0].split()
        if len(fields) == 9:
            table[tuple(fields[:7])] = (int(fields[7]), float(fields[8]))
    return table


class MergeTuningTables(ScratchDirectoryTest):
    def setUp(self):
        super().setUp()
        self.rng = random.Random()  # fresh counts and times each run

    def count(self):
        return self.rng.choice([1, 2, 4, 8, 16, 32, 64])

    def time(self):
        return round(self.rng.uniform(10, 5000), 1)

    def test_newer_sweeps_replace_whole_configurations_and_old_entries_become_dense(self):
        tri, hex_dense, hex_values = (self.count(), self.time()), (self.count(), self.time()), (self.count(), self.time())
        base = self.write("base.txt", "# feinterp tuning table v2\n# base comment\n" + HEADER +
                          f"triangle 1 1 values fp64 3 {tri[0]} {tri[1]}\n"
                          f"hexahedron 3 1 reference_gradients fp64 64 {hex_dense[0]} {hex_dense[1]}\n"
                          f"hexahedron 3 1 values fp32 64 {hex_values[0]} {hex_values[1]}\n")
        new_dense, new_sumfac = (self.count(), self.time()), (self.count(), self.time())
        newer = self.write("newer.txt", "# feinterp tuning table v3\n# newer comment\n" + HEADER +
                           f"hexahedron 3 1 reference_gradients fp64 dense 64 {new_dense[0]} {new_dense[1]}\n"
                           f"hexahedron 3 1 reference_gradients fp64 sum_factorised 64 {new_sumfac[0]} {new_sumfac[1]}\n")
        output = os.path.join(self.directory.name, "merged.txt")
        result = run(base, newer, "--output", output)
        self.assertEqual(result.returncode, 0, result.stderr)
        merged = entries(output)
        self.assertEqual(merged, {
            ("triangle", "1", "1", "values", "fp64", "dense", "3"): tri,
            ("hexahedron", "3", "1", "values", "fp32", "dense", "64"): hex_values,
            ("hexahedron", "3", "1", "reference_gradients", "fp64", "dense", "64"): new_dense,
            ("hexahedron", "3", "1", "reference_gradients", "fp64", "sum_factorised", "64"): new_sumfac,
        })
        with open(output, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("# base comment", text)  # the base's short header, and nothing of the newer sweep's
        self.assertNotIn("# newer comment", text)
        checker = os.environ.get("FEINTERP_TUNING_CHECK")
        if checker:
            check = subprocess.run([checker, output], capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    def test_a_newer_dense_only_sweep_drops_the_older_sum_factorised_entry(self):
        # One run's variants are compared with each other only: an older sum_factorised time must not
        # survive beside a newer dense one.
        base = self.write("base.txt", "# feinterp tuning table v3\n" + HEADER +
                          "quadrilateral 3 1 values fp64 dense 16 8 300\n"
                          "quadrilateral 3 1 values fp64 sum_factorised 16 4 150\n")
        newer = self.write("newer.txt", "# feinterp tuning table v3\n" + HEADER +
                           f"quadrilateral 3 1 values fp64 dense 16 {self.count()} {self.time()}\n")
        output = os.path.join(self.directory.name, "merged.txt")
        self.assertEqual(run(base, newer, "--output", output).returncode, 0)
        self.assertEqual([key[5] for key in entries(output)], ["dense"])

    def test_tables_of_different_devices_are_refused_and_nothing_is_written(self):
        base = self.write("base.txt", "# feinterp tuning table v2\n" + HEADER + "line 1 1 values fp64 2 64 24.7\n")
        other = self.write("other.txt", "# feinterp tuning table v3\n" + HEADER.replace("Test GPU", "Other GPU") +
                           "line 1 1 values fp64 dense 2 32 20\n")
        output = os.path.join(self.directory.name, "merged.txt")
        result = run(base, other, "--output", output)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("other.txt", result.stderr)
        self.assertIn("same device", result.stderr)
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)  # one line
        self.assertFalse(os.path.exists(output))

    def test_a_malformed_entry_names_the_file_and_line(self):
        bad = self.write("bad.txt", "# feinterp tuning table v3\n" + HEADER + "line 1 1 values fp64 dense 2 64\n")
        output = os.path.join(self.directory.name, "merged.txt")
        result = run(bad, "--output", output)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("bad.txt:5: expected 9 fields", result.stderr)
        self.assertFalse(os.path.exists(output))

    def test_a_file_that_is_not_a_table_is_refused(self):
        notes = self.write("notes.txt", "hello\n")
        result = run(notes, "--output", os.path.join(self.directory.name, "merged.txt"))
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("notes.txt:1: expected '# feinterp tuning table v", result.stderr)


if __name__ == "__main__":
    unittest.main()
