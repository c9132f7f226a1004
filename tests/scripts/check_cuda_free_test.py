#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/check-cuda-free.py with the C++ compiler (FEINTERP_CXX, set by CMake) on planted
sources: a source that includes no toolkit header passes; one that includes cuda_runtime.h, directly or
through a project header, fails with exit status 1 and its chain; so does one that reaches a cuda*.h outside
the toolkit's directories, or lacks a required header (a backend's definition not given); a compiler
error is status 2, never a pass. The toolkit is a planted one, and, in a CUDA build (FEINTERP_CUDA_INCLUDE,
its include directories), also the real one."""
import os
import subprocess
import sys
import unittest

from scratch_directory import ScratchDirectoryTest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "check-cuda-free.py")
COMPILER = os.environ.get("FEINTERP_CXX", "c++")
REAL_TOOLKIT = [d for d in os.environ.get("FEINTERP_CUDA_INCLUDE", "").split(os.pathsep) if d]


class CheckCudaFree(ScratchDirectoryTest):
    def setUp(self):
        super().setUp()
        # A toolkit (cuda_runtime.h including driver_types.h) and a project whose backend header includes it.
        self.toolkit = os.path.join(self.directory.name, "toolkit", "include")
        self.project = os.path.join(self.directory.name, "project")
        for path, text in {
            os.path.join(self.toolkit, "cuda_runtime.h"): "#pragma once\n#include <driver_types.h>\n",
            os.path.join(self.toolkit, "driver_types.h"): "#pragma once\n",
            os.path.join(self.project, "feinterp", "core", "types.hpp"): "#pragma once\n#include <vector>\n",
            os.path.join(self.project, "feinterp", "backend", "plan.hpp"):
                "#pragma once\n#include <feinterp/core/types.hpp>\n#include <cuda_runtime.h>\n",
            os.path.join(self.project, "feinterp", "backend", "opaque_plan.hpp"):
                "#pragma once\n#include <feinterp/core/types.hpp>\n",
        }.items():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            self.write(path, text)

    def check(self, source_text, *extra, toolkit=None, require=()):
        source = self.write("front_door.cpp", source_text)
        toolkit = [self.toolkit] if toolkit is None else toolkit
        arguments = [a for d in toolkit for a in ("--toolkit-include", d)]
        arguments += [a for h in require for a in ("--require", h)]
        command = [sys.executable, SCRIPT, *arguments, source, "--", COMPILER, "-std=c++17", "-I" + self.project]
        command += ["-I" + d for d in toolkit] + list(extra)
        return subprocess.run(command, capture_output=True, text=True)

    def assert_chain(self, result, chain):
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("front_door.cpp -> " + " -> ".join(chain) + "\n", result.stdout)

    def test_clean_source_passes(self):
        result = self.check("#include <feinterp/backend/opaque_plan.hpp>\nint main() {}\n",
                            require=["feinterp/backend/opaque_plan.hpp"])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("none of the CUDA toolkit", result.stdout)

    def test_direct_include_fails(self):
        self.assert_chain(self.check("#include <vector>\n#include <cuda_runtime.h>\n"), ["cuda_runtime.h"])

    def test_include_through_a_project_header_fails_naming_the_chain(self):
        result = self.check("#if HAS_BACKEND\n#include <feinterp/backend/plan.hpp>\n#endif\n", "-DHAS_BACKEND=1")
        self.assert_chain(result, ["feinterp/backend/plan.hpp", "cuda_runtime.h"])
        self.assertEqual(result.stdout.count("\n"), 1, result.stdout)  # the way in once, not what it includes

    def test_toolkit_header_other_than_cuda_runtime_fails(self):
        self.assert_chain(self.check("#include <driver_types.h>\n"), ["driver_types.h"])

    def test_cuda_header_outside_the_toolkit_directories_fails(self):
        elsewhere = os.path.join(self.directory.name, "elsewhere")
        os.makedirs(elsewhere)
        self.write(os.path.join(elsewhere, "cuda.h"), "#pragma once\n")
        self.assert_chain(self.check("#include <cuda.h>\n", "-I" + elsewhere, toolkit=[]), ["cuda.h"])

    def test_missing_definition_fails_through_the_required_header(self):
        result = self.check("#if HAS_BACKEND\n#include <feinterp/backend/opaque_plan.hpp>\n#endif\n",
                            require=["feinterp/backend/opaque_plan.hpp"])
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("does not include feinterp/backend/opaque_plan.hpp", result.stdout)

    def test_compiler_error_is_status_2(self):
        result = self.check("#include <feinterp/backend/absent.hpp>\n")
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn("the compiler failed", result.stdout)

    @unittest.skipUnless(REAL_TOOLKIT, "no CUDA toolkit (FEINTERP_CUDA_INCLUDE): a CUDA build sets it")
    def test_real_cuda_runtime_fails(self):
        self.write(os.path.join(self.project, "feinterp", "backend", "plan.hpp"), "#pragma once\n#include <cuda_runtime.h>\n")
        result = self.check("#include <feinterp/backend/plan.hpp>\n", toolkit=REAL_TOOLKIT)
        self.assert_chain(result, ["feinterp/backend/plan.hpp", "cuda_runtime.h"])


if __name__ == "__main__":
    unittest.main()
