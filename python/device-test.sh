#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On the GPU machine: build the Python module against that machine's python3 (with its NumPy, CuPy and
# PyTorch) from the pybind11 headers carried in .deps/ (the Debian pybind11-dev .deb, header-only: its
# headers and CMake package files), then run the Python tests there: the GPU ones (tests/python/test_gpu.py)
# first, then the CPU ones, then the CuPy example with its Python overhead per call.
#   python/device-test.sh [BUILD_DIR]         (default build-gpu: reuses the objects of a GPU build there)
# Only the module and what it links are built; in an existing GPU build (scripts/gpu-check.sh's) that is the
# module alone, in a new one the CUDA backend too (several minutes: a second call resumes where it stopped).
# Needs, carried to the machine: .deps/ (pybind11-dev_*.deb, and the Debian packages .deps/env.sh unpacks:
# Gmsh, Eigen, ...). Environment: FEINTERP_CUDA_ARCHITECTURES (default native), PYBIND11_DIR (a pybind11
# CMake package folder to use instead of the .deb's), EXAMPLE_ELEMENTS (default 1000000; 0 skips the example).
# Logs go to $OUT (or ./python-device-test); the last lines printed are the summary.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:-build-gpu}
out=${OUT:-$root/python-device-test}
mkdir -p "$out"
python=$(command -v python3)
[ -f .deps/env.sh ] && source .deps/env.sh   # Gmsh, Eigen, ... from the carried .debs (sets CMAKE_PREFIX_PATH)

echo "== $("$python" --version) at $python; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
"$python" - <<'PY'
import importlib, sysconfig, os
print("   Python.h:", os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))
for name in ("numpy", "cupy", "torch", "pytest"):
    try:
        print(f"   {name} {importlib.import_module(name).__version__}")
    except Exception as error:
        print(f"   {name}: missing ({error})")
PY

# pybind11 from the carried .deb: unpacked into the build folder (dpkg -x, or ar + tar where dpkg is absent).
if [ -z "${PYBIND11_DIR:-}" ]; then
  # The newest carried: the GPU machine's NumPy 2 needs pybind11 2.12 or newer (cmake/python.cmake), which
  # Debian 12 does not have; Debian 13's header-only pybind11-dev_2.13.6-2_all.deb (deb.debian.org's pool) does.
  deb=$(ls -v .deps/pybind11-dev_*.deb 2>/dev/null | tail -1)
  [ -n "$deb" ] || { echo "no .deps/pybind11-dev_*.deb: carry .deps (a pybind11-dev .deb, 2.12 or newer for NumPy 2)"; exit 1; }
  # One folder per .deb: another version's headers get another path, so the module is rebuilt against them
  # (dpkg -x keeps the packaged, older file times, which would not make ninja rebuild in place).
  unpacked=$root/$build/$(basename "$deb" .deb)
  mkdir -p "$unpacked"
  if command -v dpkg >/dev/null; then
    dpkg -x "$deb" "$unpacked"
  else
    (cd "$unpacked" && ar x "$root/$deb" && tar -xf data.tar.* && rm -f data.tar.* control.tar.* debian-binary)
  fi
  PYBIND11_DIR=$unpacked/usr/lib/cmake/pybind11
fi

# An existing build keeps its CUDA architectures (changing them would rebuild every kernel); a new one
# gets FEINTERP_CUDA_ARCHITECTURES, else the GPU's own.
architectures=()
if [ -n "${FEINTERP_CUDA_ARCHITECTURES:-}" ] || [ ! -f "$build/CMakeCache.txt" ]; then
  architectures=(-DCMAKE_CUDA_ARCHITECTURES="${FEINTERP_CUDA_ARCHITECTURES:-native}")
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${architectures[@]}" \
  -DFEINTERP_PYTHON=ON -DPython3_EXECUTABLE="$python" -Dpybind11_DIR="$PYBIND11_DIR" >"$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; exit 1; }
grep -E "Python package|CUDA (backend|architectures)" "$out/configure.log"
start=$SECONDS
cmake --build "$build" --target feinterp_python -j "$(nproc)" >"$out/build.log" 2>&1 \
  || { grep -m 30 -E "error|FAILED" "$out/build.log"; exit 1; }
echo "== module built in $((SECONDS - start)) s: $(ls "$build"/python/feinterp/_feinterp*.so)"

export PYTHONPATH=$root/$build/python FEINTERP_TEST_DATA_DIR=$root/tests/data
status=0
"$python" -m pytest -v -rs -p no:cacheprovider tests/python/test_gpu.py >"$out/pytest-gpu.log" 2>&1 || status=1
tail -n 25 "$out/pytest-gpu.log"
"$python" -m pytest -q -rs -p no:cacheprovider tests/python --ignore=tests/python/test_gpu.py >"$out/pytest-cpu.log" 2>&1 || status=1
tail -n 3 "$out/pytest-cpu.log"
"$python" -m feinterp demo --device cuda --components 3 --size 20000 >"$out/demo.log" 2>&1 || status=1
tail -n 20 "$out/demo.log"
if [ "${EXAMPLE_ELEMENTS:-1000000}" != 0 ]; then
  timeout 400 "$python" examples/python/cupy_device.py --elements "${EXAMPLE_ELEMENTS:-1000000}" >"$out/cupy-example.log" 2>&1 || status=1
  tail -n 15 "$out/cupy-example.log"
fi
echo "== python device test: $([ $status -eq 0 ] && echo ok || echo FAILED), logs in $out"
exit $status
