# SPDX-License-Identifier: BSD-3-Clause
# `python3 -m feinterp demo` runs, prints its table and succeeds: every value and gradient exact.
import os
import subprocess
import sys


def test_demo_is_exact():
    result = subprocess.run([sys.executable, "-m", "feinterp", "demo", "--size", "200", "--components", "2",
                             "--element", "tri,hex", "--order", "1,3", "--repeats", "1"],
                            capture_output=True, text=True, env=os.environ, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert sum(line.startswith(("triangle p", "hexahedron p")) for line in lines) == 4
    assert ": exact" in lines[-1]


def test_demo_rejects_an_unknown_command():
    result = subprocess.run([sys.executable, "-m", "feinterp", "interpolate"], capture_output=True, text=True,
                            env=os.environ, timeout=60)
    assert result.returncode == 2 and "invalid choice" in result.stderr
