#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Sets up a fresh Debian 12 machine and builds feinterp into ./build:
#   1. installs the Debian packages it needs (when missing; needs root or sudo),
#   2. configures with a plain `cmake -S . -B build` (Ninja as the generator, through CMAKE_GENERATOR):
#      CUDA on when nvcc is found, and CMake's configure summary printed,
#   3. builds the libraries, the CLI and the Python module (target feinterp_products); the tests, the
#      benchmarks and the sweep are built by the README's second command, `cmake --build build` before
#      ctest.
# CUDA architectures: CMake chooses them (cmake/cuda_architectures.cmake): the visible GPU's own; with no
# GPU visible, where no kernel can run, this quick start compiles the kernels to PTX for compute_90 alone
# (90-virtual): no machine code, which is a third of the kernels' compilation; the driver compiles the
# PTX of a kernel unit when a program first loads it on a GPU of compute capability 9.0 or newer, and
# caches it. The summary says which and why. For machine code on a machine without a GPU, give the list:
# FEINTERP_CUDA_ARCHITECTURES="80-real;90" (passed as -DCMAKE_CUDA_ARCHITECTURES).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# python3-vtk9 and python3-numpy: the tests read the .vtu and .npy outputs back with VTK's reader (what
# ParaView uses) and NumPy; nlohmann-json3-dev: they parse the programs' --json output with a real parser.
# python3-dev, pybind11-dev, python3-pytest: the Python package feinterp (python/) and its tests;
# python3-meshio: its examples (examples/python/) and the tests that read the .vtu and .msh outputs back;
# zlib1g-dev: the CLI's compressed .vtu outputs; libzip-dev: the .npz outputs (numpy.savez's ZIP archive);
# python3-pip, python3-setuptools, python3-wheel, python3-venv: the README's `pip install .` (setup.py) into a
# virtual environment, offline.
packages=(cmake ninja-build g++ pkg-config libgmsh-dev libeigen3-dev googletest libgtest-dev libcli11-dev libmuparser-dev
          libseccomp-dev zlib1g-dev libzip-dev python3-vtk9 python3-numpy nlohmann-json3-dev python3-dev pybind11-dev python3-pytest
          python3-meshio python3-pip python3-setuptools python3-wheel python3-venv)
"$root/scripts/install-packages.sh" "${packages[@]}"

[ -d /usr/local/cuda/bin ] && export PATH=/usr/local/cuda/bin:$PATH
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
options=()
if [ -n "${FEINTERP_CUDA_ARCHITECTURES:-}" ]; then
  options+=(-DCMAKE_CUDA_ARCHITECTURES="$FEINTERP_CUDA_ARCHITECTURES")
else
  options+=(-DFEINTERP_DEFAULT_CUDA_ARCHITECTURES=90-virtual)  # used only where no GPU is visible
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cmake -S . -B build "${options[@]}" > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
grep -E '^-- (feinterp [0-9]|  [a-zA-Z])' "$log" >&2 || true   # the configure summary
cmake --build build --target feinterp_products
