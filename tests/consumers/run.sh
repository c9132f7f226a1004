#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds the consumer project of this folder (CMakeLists.txt) with feinterp as a subproject, then runs
# its tests: examples/gradient_energy (feinterp::core) and, when feinterp::mesh is on, mesh_area.
#
#   tests/consumers/run.sh subdirectory WORK_DIR [-DFEINTERP_...=...]   add_subdirectory(<this source tree>)
#   tests/consumers/run.sh fetchcontent WORK_DIR [-DFEINTERP_...=...]   FetchContent from this git repository,
#                                                                       at its HEAD commit (commit first)
# Exits non-zero if a step fails, with its log.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mode=${1:?usage: run.sh subdirectory|fetchcontent WORK_DIR [cmake options]}
work=${2:?usage: run.sh subdirectory|fetchcontent WORK_DIR [cmake options]}
shift 2
case "$mode" in
  subdirectory) source_args=(-DFEINTERP_SOURCE_DIR="$root") ;;
  fetchcontent) source_args=(-DFEINTERP_GIT_REPOSITORY="$root" -DFEINTERP_GIT_TAG="$(git -C "$root" rev-parse HEAD)") ;;
  *) echo "run.sh: unknown mode '$mode': expected subdirectory or fetchcontent" >&2; exit 2 ;;
esac
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
rm -rf "$work"
mkdir -p "$work"
step() {  # step NAME COMMAND...: runs it into WORK/NAME.log, shows the log if it fails
  "${@:2}" > "$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; echo "run.sh: $mode: $1 failed" >&2; exit 1; }
}
step configure cmake -S "$root/tests/consumers" -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  "${source_args[@]}" "$@"
grep -E "^-- (feinterp [0-9]|  [a-zA-Z])" "$work/configure.log" || true
step build cmake --build "$work/build" --parallel 2
step test ctest --test-dir "$work/build" --output-on-failure
grep -E "tests passed|Test +#" "$work/test.log"
echo "run.sh: $mode consumer: OK"
