#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Installs feinterp from a configured and built build directory into a temporary prefix, builds the
# example project (examples/) against that installed package only, and runs it; then runs the
# installed `feinterp demo` on small meshes. Exits non-zero if any step fails.
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
echo "== configuring and building the example against the installed package"
# CMAKE_FIND_USE_PACKAGE_REGISTRY=OFF and the explicit prefix: only the freshly installed copy can be found.
# shellcheck disable=SC2086
cmake -S "$examples_dir" -B "$work/build" $generator -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$work/configure.log" ||
  { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }

echo "== running the example"
"$work/build/gradient_energy"

if [ -x "$prefix/bin/feinterp" ]; then
  echo "== running the installed feinterp demo"
  "$prefix/bin/feinterp" demo --device auto --size 500 --element tri,hex --order 1,3
fi
echo "== installed example: OK"
