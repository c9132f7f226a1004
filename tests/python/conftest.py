# SPDX-License-Identifier: BSD-3-Clause
# Shared fixtures of the Python package's tests. Random inputs are fresh on every run (so the tests can
# fail on an input nobody chose); the seed is printed, and FEINTERP_TEST_SEED=... replays a failure.
# The suite runs against whichever feinterp Python imports: the build tree's (ctest sets PYTHONPATH) or an
# installed wheel (CI runs it with a virtual environment's Python, from outside the source tree). The
# header says which; FEINTERP_TEST_PACKAGE_PREFIX=DIR stops the run unless it is the one under DIR.
import functools
import json
import os
import signal
import subprocess
import sys
import textwrap

import numpy
import pytest

import feinterp

_expected_prefix = os.environ.get("FEINTERP_TEST_PACKAGE_PREFIX")
if _expected_prefix and not os.path.realpath(feinterp.__file__).startswith(os.path.realpath(_expected_prefix) + os.sep):
    raise pytest.UsageError(f"feinterp was imported from {feinterp.__file__}, not from under "
                            f"FEINTERP_TEST_PACKAGE_PREFIX={_expected_prefix}")


def pytest_report_header(config):
    return f"feinterp {feinterp.__version__} from {os.path.dirname(feinterp.__file__)}"


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("FEINTERP_TEST_SEED", numpy.random.SeedSequence().entropy % (1 << 32)))
    print(f"{request.node.name}: FEINTERP_TEST_SEED={seed}")
    return numpy.random.default_rng(seed)


@functools.lru_cache(maxsize=None)
def box_mesh(shape, order, target=300):
    """A generated mesh of the unit segment, square or cube (straight-sided: polynomials of degree p are
    reproduced exactly), cached: Gmsh takes a while on a busy machine."""
    return feinterp.generate_mesh(feinterp.ElementType(shape, order), target, 3, "box")


def first_block(mesh, element_type):
    return next(b for b in mesh.blocks if b.type == element_type)


ALL_TYPES = [feinterp.ElementType(shape, order) for shape in feinterp.Shape.__members__.values() for order in (1, 2, 3)]


def type_id(element_type):
    return f"{element_type.shape.name}_p{element_type.order}"


def data_file(name):
    return os.path.join(os.environ.get("FEINTERP_TEST_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "data")),
                        name)


def isolated(code):
    """Runs `code` in a fresh interpreter (feinterp and numpy imported): a crash there is this test's
    failure, with the signal named, not the end of the pytest process. The snippet reports by assigning
    `result`; it comes back through JSON. An exception raised by the snippet comes back as
    {"error": class name, "message": str(e)}."""
    program = ("import json, numpy, feinterp\nresult = None\ntry:\n" + textwrap.indent(textwrap.dedent(code), "    ") +
               "\nexcept Exception as e:\n    result = {'error': type(e).__name__, 'message': str(e)}\n"
               "print('RESULT ' + json.dumps(result))\n")
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    if run.returncode < 0:
        raise AssertionError(f"the snippet died of {signal.Signals(-run.returncode).name}:\n{code}\n{run.stderr[-2000:]}")
    assert run.returncode == 0, f"exit {run.returncode}:\n{code}\n{run.stderr[-2000:]}"
    line = [l for l in run.stdout.splitlines() if l.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])
