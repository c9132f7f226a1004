#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Installs feinterp from a configured and built build directory into a temporary prefix, builds the
# example project (examples/: gradient_energy, load_vector, vtu_for_paraview, poisson) against that installed package only, and runs
# them; builds gradient_energy
# example, and tests/consumers/mesh_area.cpp, with pkg-config instead of CMake, and runs them; then runs
# the installed programs (--version, and `feinterp demo` on small meshes). Exits non-zero if any step
# fails. Static or shared (BUILD_SHARED_LIBS) builds alike.
#
# The consumers are CPU-only FEM codes, whatever the build: they are configured and compiled with the CUDA
# toolkit out of sight (no nvcc in PATH, find_package(CUDAToolkit) disabled), and must not need
# libcudart.so to run (a CUDA build links the runtime statically; checked with ldd).
#
#   examples/run-installed-example.sh BUILD_DIR [--keep]
#
# CI: cmake --build BUILD_DIR && examples/run-installed-example.sh BUILD_DIR
set -eu

if [ $# -lt 1 ] || [ ! -f "$1/CMakeCache.txt" ]; then
  echo "usage: $0 BUILD_DIR [--keep]   (BUILD_DIR: a configured and built feinterp build directory)" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
examples_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/feinterp-installed-example.XXXXXX")
if [ "${2:-}" = "--keep" ]; then
  echo "keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
prefix="$work/prefix"

echo "== installing $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" > "$work/install.log"

generator=
if command -v ninja > /dev/null 2>&1; then generator="-G Ninja"; fi
# PATH without the CUDA toolkit's folders, nor the folder of an nvcc found in it.
nvcc_dir=$(dirname "$(command -v nvcc 2>/dev/null || echo /nonexistent/nvcc)")
cpu_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e cuda -e "^$nvcc_dir\$" | paste -sd: -)
# Fails if PROGRAM would load a CUDA runtime library, or is over 20 MB (the kernels belong in the one
# shared libfeinterp_cuda.so, not in each consumer: linked statically they were 424 MB); then runs it.
max_consumer_bytes=$((20 * 1000 * 1000))
run_without_cudart() {
  if ldd "$1" | grep -i cudart; then
    echo "run-installed-example: $1 needs libcudart.so: expected the CUDA runtime linked statically" >&2
    exit 1
  fi
  bytes=$(stat -c %s "$1")
  if [ "$bytes" -gt "$max_consumer_bytes" ]; then
    echo "run-installed-example: $1 is $bytes bytes: a consumer should be at most $max_consumer_bytes" >&2
    exit 1
  fi
  echo "== $(basename "$1"): $bytes bytes"
  env -u LD_LIBRARY_PATH "$@"
}
echo "== configuring and building the example against the installed package"
# CMAKE_FIND_USE_PACKAGE_REGISTRY=OFF and the explicit prefix: only the freshly installed copy can be found.
# shellcheck disable=SC2086
env -u CUDACXX PATH="$cpu_path" cmake -S "$examples_dir" -B "$work/build" $generator -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON \
  > "$work/configure.log" ||
  { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }

echo "== running the examples"
# README's example prints the gradient of u = x + 2y + 3z: it must be (1, 2, 3).
run_without_cudart "$work/build/readme_example" | tee "$work/readme_example.out"
grep -q 'grad u = (1, 2, 3)' "$work/readme_example.out" ||
  { echo "run-installed-example: README's example printed a wrong gradient" >&2; exit 1; }
run_without_cudart "$work/build/gradient_energy"
run_without_cudart "$work/build/load_vector"
run_without_cudart "$work/build/vtu_for_paraview" "$work/field.vtu"
# The CPU-sized convergence table of the matrix-free Poisson solver (~35 s on 2 cores); fails on a
# wrong rate. The device size is `poisson --full`.
run_without_cudart "$work/build/poisson" --executor auto

echo "== building the example with pkg-config (feinterp.pc), and tests/consumers/mesh_area.cpp (feinterp-mesh.pc)"
pc_dir=$(dirname "$(find "$prefix" -name feinterp.pc | head -n 1)")
libdir=$(cd "$pc_dir/.." && pwd)
pc() { PKG_CONFIG_PATH="$pc_dir" pkg-config "$@"; }
# shellcheck disable=SC2046
PATH="$cpu_path" c++ -std=c++17 -O2 "$examples_dir/gradient_energy.cpp" -o "$work/gradient_energy_pc" \
  $(pc --cflags --libs feinterp) -Wl,-rpath,"$libdir"
run_without_cudart "$work/gradient_energy_pc"
if pc --exists feinterp-mesh; then
  # shellcheck disable=SC2046
  PATH="$cpu_path" c++ -std=c++17 -O2 "$examples_dir/../tests/consumers/mesh_area.cpp" -o "$work/mesh_area_pc" \
    $(pc --cflags --libs feinterp-mesh) -Wl,-rpath,"$libdir"
  run_without_cudart "$work/mesh_area_pc"
fi

for program in "$prefix"/bin/feinterp*; do
  [ -x "$program" ] || continue
  echo "== $(basename "$program") --version"
  env -u LD_LIBRARY_PATH "$program" --version
done

if [ -x "$prefix/bin/feinterp" ]; then
  echo "== running the installed feinterp demo"
  "$prefix/bin/feinterp" demo --device auto --size 500 --element tri,hex --order 1,3
fi
echo "== installed example: OK"
