# SPDX-License-Identifier: BSD-3-Clause
# feinterp next to the packages a user imports with it, in either order, in a fresh interpreter each: a
# module that exports what it links statically (libstdc++) lets Gmsh and PyTorch bind to its copy, and the
# process crashes in gmsh::initialize or in free() (python/CMakeLists.txt). The neighbours a machine lacks
# are skipped with their name; NumPy's random module is always there.
import importlib.util
import subprocess
import sys

import pytest

import feinterp

pytestmark = pytest.mark.skipif(not feinterp._feinterp.has_mesh, reason="feinterp built without its mesh layer (Gmsh)")

GENERATE = 'm = feinterp.generate_mesh(feinterp.ElementType("tri", 1), 200, 3, "box"); assert m.blocks'
NEIGHBOURS = ["numpy.random", "cupy", "torch", "meshio"]


def run(code):
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"exit {result.returncode} running {code!r}:\n{result.stderr[-2000:]}"


def available(name):
    top = name.split(".")[0]
    if importlib.util.find_spec(top) is None:
        pytest.skip(f"{top} is not installed here")


@pytest.mark.parametrize("neighbour", NEIGHBOURS)
def test_neighbour_first_then_gmsh(neighbour):
    available(neighbour)
    run(f"import {neighbour}\nimport feinterp\n{GENERATE}")


@pytest.mark.parametrize("neighbour", NEIGHBOURS)
def test_feinterp_first_then_neighbour(neighbour):
    available(neighbour)
    run(f"import feinterp\nimport {neighbour}\n{GENERATE}")
