#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a machine with a GPU: build (Release, Ninja), run the GPU test suite, compute-sanitizer on the
# tests named by FILTER, and the demo on the GPU. Logs go to $OUT (or ./gpu-check) and a summary is
# printed last.
#   scripts/gpu-check.sh [BUILD_DIR] [FILTER]
# CUDA architectures: FEINTERP_CUDA_ARCHITECTURES, else the GPU's own (native).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-gpu}
filter=${2:-'-*MillionElement*'}
out=${OUT:-$root/gpu-check}
mkdir -p "$out"
summary=()
step() {  # step NAME COMMAND...: runs it with its output in $out/NAME.log, records pass/fail
  local name=$1; shift
  local start=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local code=$?
  summary+=("$(printf '%-12s %s (%d s)' "$name" "$([ $code -eq 0 ] && echo ok || echo "FAILED ($code)")" $((SECONDS - start)))")
  return $code
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$out/gpu.txt" 2>&1
step configure cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${FEINTERP_CUDA_ARCHITECTURES:-native}" || { printf '%s\n' "${summary[@]}"; tail -30 "$out/configure.log"; exit 1; }
step build cmake --build "$build" -j "$(nproc)" || { printf '%s\n' "${summary[@]}"; grep -m 20 -E "error|FAILED" "$out/build.log"; exit 1; }
step gpu-tests ctest --test-dir "$build" -L gpu -LE sanitizer --output-on-failure -j 4
step all-tests ctest --test-dir "$build" -LE 'gpu|sanitizer' -j 8
step sanitizers "$root/tests/cuda/sanitize.sh" "$build" "$filter"
cp "$build"/sanitize-*.log "$out/" 2>/dev/null
step demo "$build/apps/feinterp" demo --device cuda --components 3
echo "== GPU: $(cat "$out/gpu.txt")"
grep -h -E "tests passed|tests failed" "$out/gpu-tests.log" "$out/all-tests.log" | sed 's/^/   /'
grep -h -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY" "$out"/sanitize-*.log | sed 's/^/   /'
tail -n 18 "$out/demo.log"
printf '%s\n' "${summary[@]}"
