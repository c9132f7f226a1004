# SPDX-License-Identifier: BSD-3-Clause
# The CPU examples of examples/python run and do what they say: meshio reads a mesh that feinterp
# interpolates on (a linear field's gradient reproduced), the physical gradients written with meshio
# read back as a vector per quadrature point, a mesh and field go through meshio's .msh and .vtu and
# back, a load vector integrates its function, and the Poisson solve converges at its order (each
# example exits non-zero when its own check fails). The meshio ones skip, visibly, without meshio
# (Debian python3-meshio).
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


def test_meshio_round_trip(tmp_path):
    pytest.importorskip("meshio")
    output = run("meshio_round_trip.py", str(tmp_path / "trip"))
    assert "tetrahedron p2; gradient error" in output and "u error 0.0e+00" in output


def test_load_vector_integrates_f():
    assert "sum of b = 1.250000000000" in run("load_vector.py")


def test_poisson_converges_at_order_three():
    output = run("poisson.py", "1000")
    ratio = float(output.split("error ratio ")[1].split()[0])
    assert ratio > 5, output
