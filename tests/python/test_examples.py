# SPDX-License-Identifier: BSD-3-Clause
# The CPU examples of examples/python run and do what they say: meshio reads a mesh that feinterp
# interpolates on (a linear field's gradient reproduced), and the physical gradients written with meshio
# read back as a vector per quadrature point. Skipped, visibly, without meshio (Debian python3-meshio).
import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.environ.get("FEINTERP_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                        "examples", "python")


def run(name, *arguments, cwd=None):
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *arguments], capture_output=True,
                            text=True, env=os.environ, cwd=cwd, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_meshio_reads_and_feinterp_interpolates():
    pytest.importorskip("meshio")
    output = run("meshio_interpolate.py")
    assert "tetrahedron p2" in output and "measure 1.000000" in output


def test_gradients_are_written_for_paraview(tmp_path):
    meshio = pytest.importorskip("meshio")
    run("gradients_to_paraview.py", str(tmp_path / "out"))
    points = meshio.read(tmp_path / "out_points.vtu")
    assert points.point_data["grad_u"].shape == (len(points.points), 3)
    mesh = meshio.read(tmp_path / "out_mesh.vtu")
    assert mesh.cells[0].type == "tetra10"
