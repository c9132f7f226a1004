#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the GPU test suite under compute-sanitizer's memcheck, racecheck and synccheck tools.
#   tests/cuda/sanitize.sh BUILD_DIR [gtest filter]
# Exit 77 (ctest: skipped) without a GPU or without compute-sanitizer. The 1M-element test is left
# out: under memcheck it runs ~100x slower and adds no coverage the other sizes lack.
set -u
build=${1:?usage: sanitize.sh BUILD_DIR [filter]}
filter=${2:-'-*MillionElement*'}
binary="$build/tests/feinterp_tests_cuda"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
if [ -z "$sanitizer" ]; then echo "SKIPPED: compute-sanitizer not found"; exit 77; fi
if ! nvidia-smi -L >/dev/null 2>&1; then echo "SKIPPED: no GPU"; exit 77; fi
status=0
for tool in memcheck racecheck synccheck; do
  extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  echo "== compute-sanitizer --tool $tool"
  "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 1 "$binary" --gtest_filter="$filter" --gtest_brief=1 \
    > "$build/sanitize-$tool.log" 2>&1
  code=$?
  tail -n 3 "$build/sanitize-$tool.log"
  [ $code -ne 0 ] && status=1
done
exit $status
