#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/check-layers.sh on small git trees built here: a tree whose includes all go down
passes; each planted violation (an upward include, an include between cuda/launch and cuda/kernels, the
CPU backend including cuda, a quoted project include, a source in a folder with no floor) fails it with
exit status 1 and a line naming the file, the line and the floors."""
import os
import random
import subprocess
import unittest

from scratch_directory import ScratchDirectoryTest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "check-layers.sh")

# One header per floor, each including the floor below it (a valid tree).
CLEAN = {
    "core/a.hpp": [],
    "elements/b.hpp": ["core/a.hpp"],
    "fem/c.hpp": ["elements/b.hpp"],
    "fem/ordering/d.hpp": ["fem/c.hpp"],
    "tuning/e.hpp": ["fem/ordering/d.hpp"],
    "cuda/runtime/f.hpp": ["tuning/e.hpp"],
    "cuda/layout/g.hpp": ["cuda/runtime/f.hpp"],
    "cuda/launch/h.hpp": ["cuda/layout/g.hpp"],
    "cuda/kernels/dense/i.cuh": ["cuda/layout/g.hpp"],
    "cuda/plan.hpp": ["cuda/launch/h.hpp", "cuda/kernels/dense/i.cuh"],
    "cpu/j.hpp": ["fem/c.hpp", "tuning/e.hpp"],
    "interpolator/k.hpp": ["cuda/plan.hpp", "cpu/j.hpp"],
    "mesh/l.hpp": ["fem/c.hpp"],
    "apps/m.cpp": ["interpolator/k.hpp", "mesh/l.hpp"],
    "python/n.cpp": ["interpolator/k.hpp", "mesh/l.hpp"],
    "tests/o.cpp": ["apps/m.cpp", "cuda/kernels/dense/i.cuh"],
}


class CheckLayers(ScratchDirectoryTest):
    def make_tree(self, files):
        """A git checkout of `files` ({path: [included project paths]}), includes in random order."""
        root = os.path.join(self.directory.name, "tree%d" % random.randrange(1 << 30))
        for path, includes in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            lines = ["// SPDX-License-Identifier: BSD-3-Clause", "#pragma once", "#include <vector>"]
            lines += ["#include <feinterp/%s>" % target for target in random.sample(includes, len(includes))]
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
        subprocess.run(["git", "init", "-q", root], check=True)
        subprocess.run(["git", "-C", root, "add", "."], check=True)
        return root

    def run_check(self, root):
        return subprocess.run(["bash", SCRIPT, root], capture_output=True, text=True)

    def test_clean_tree_passes(self):
        result = self.run_check(self.make_tree(CLEAN))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("all <feinterp/...> and down the floors", result.stdout)

    def assert_fails(self, files, file, expected):
        result = self.run_check(self.make_tree(files))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(file, result.stdout)
        self.assertIn(expected, result.stdout)
        self.assertEqual(result.stdout.count("\n"), 1, result.stdout)  # the planted violation alone

    def test_upward_include_fails(self):
        lower, upper = random.choice([("core/a.hpp", "fem/c.hpp"), ("fem/c.hpp", "cuda/runtime/f.hpp"),
                                      ("tuning/e.hpp", "cuda/layout/g.hpp"), ("cuda/layout/g.hpp", "cuda/plan.hpp"),
                                      ("mesh/l.hpp", "apps/m.cpp")])
        files = {path: list(includes) for path, includes in CLEAN.items()}
        files[lower] = files[lower] + [upper]
        self.assert_fails(files, lower, "up or sideways")

    def test_launch_and_kernels_do_not_include_each_other(self):
        for source, target in (("cuda/launch/h.hpp", "cuda/kernels/dense/i.cuh"),
                               ("cuda/kernels/dense/i.cuh", "cuda/launch/h.hpp")):
            files = {path: list(includes) for path, includes in CLEAN.items()}
            files[source] = files[source] + [target]
            self.assert_fails(files, source, "up or sideways")

    def test_cpu_includes_nothing_of_cuda(self):
        files = {path: list(includes) for path, includes in CLEAN.items()}
        files["cpu/j.hpp"] = files["cpu/j.hpp"] + ["cuda/layout/g.hpp"]
        self.assert_fails(files, "cpu/j.hpp", "the CPU backend includes nothing of cuda")

    def test_quoted_project_include_fails(self):
        root = self.make_tree(CLEAN)
        with open(os.path.join(root, "fem/c.hpp"), "a", encoding="utf-8") as f:
            f.write('#include "ordering/d.hpp"\n')
        subprocess.run(["git", "-C", root, "add", "."], check=True)
        result = self.run_check(root)
        self.assertEqual(result.returncode, 1, result.stdout)
        line = 3 + len(CLEAN["fem/c.hpp"]) + 1  # after the three fixed lines and the tree's includes
        self.assertIn('fem/c.hpp:%d: includes "ordering/d.hpp": write <feinterp/fem/ordering/d.hpp>' % line, result.stdout)

    def test_folder_without_floor_fails(self):
        files = dict(CLEAN)
        files[random.choice(["backends/cuda/x.cu", "cuda/misc/y.hpp", "lib/z.cpp"])] = ["core/a.hpp"]
        result = self.run_check(self.make_tree(files))
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("in a folder with no floor", result.stdout)


if __name__ == "__main__":
    unittest.main()
