#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/check-repository.py on small git trees built here: a clean tree passes; a README past
300 lines, a CSV, SVG or log in a library folder, a results folder, a write-up beside the code, and a
README example that differs from its examples/ file each fail it, named, with exit status 1."""
import os
import random
import subprocess
import sys

from scratch_directory import ScratchDirectoryTest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "check-repository.py")
CPP = '#include <cstdio>\nint main() { std::printf("%d\\n", 42); }\n'
PY = 'print(42)\n'


class CheckRepository(ScratchDirectoryTest):
    def make_tree(self, readme_lines=None, extra=()):
        root = os.path.join(self.directory.name, "tree%d" % random.randrange(1 << 30))
        lines = readme_lines if readme_lines is not None else random.randint(20, 280)
        readme = "# x\n" + "text\n" * (lines - 8) + "```cpp\n" + CPP + "```\n```python\n" + PY + "```\n"
        files = {"README.md": readme, "examples/readme_example.cpp": CPP, "examples/readme_example.py": PY,
                 "fem/a.hpp": "// code\n", "tuning/tables/README.md": "# tables\n", "tuning/tables/gpu.txt": "1\n",
                 "docs/performance/gpu/bench.csv": "a,b\n", "docs/performance/gpu/notes.md": "# notes\n"}
        files.update(dict(extra))
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        subprocess.run(["git", "init", "-q", root], check=True)
        subprocess.run(["git", "-C", root, "add", "."], check=True)
        return root

    def check(self, root):
        return subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)

    def test_clean_tree_passes(self):
        result = self.check(self.make_tree())
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_long_readme_fails(self):
        result = self.check(self.make_tree(readme_lines=random.randint(302, 900)))
        self.assertEqual(result.returncode, 1)
        self.assertIn("README.md:", result.stdout)
        self.assertIn("a front page has at most 300", result.stdout)

    def test_measurements_in_library_folders_fail(self):
        path = random.choice(["cuda/results/bench.csv", "tuning/timings.svg", "apps/cli/run.log",
                              "fem/profile-x/data.txt", "mesh/findings.md", "cpu/results/notes.txt"])
        result = self.check(self.make_tree(extra={path: "1,2\n"}))
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertTrue(result.stdout.startswith(path + ":"), result.stdout)
        self.assertEqual(result.stdout.count("\n"), 1, result.stdout)

    def test_readme_example_must_equal_its_file(self):
        language, path = random.choice([("cpp", "examples/readme_example.cpp"), ("python", "examples/readme_example.py")])
        result = self.check(self.make_tree(extra={path: "// changed\n"}))
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("no ```%s block equals %s" % (language, path), result.stdout)


if __name__ == "__main__":
    import unittest
    unittest.main()
