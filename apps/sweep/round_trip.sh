#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ctest tuning_sweep_round_trip (label gpu): a quick sweep of p1 triangles, then the table it wrote
# through the library's loader (feinterp-tuning-check). Exit 77 (skipped) without a usable GPU.
#   sweep_round_trip.sh FEINTERP_SWEEP FEINTERP_TUNING_CHECK WORK_DIR
set -u
sweep=$1 check=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
"$sweep" --quick --elements tri --orders 1 --output "$dir" 2>"$dir/stderr.log"
rc=$?
cat "$dir/stderr.log" >&2
if [ $rc -eq 3 ]; then echo "GPU test skipped: no usable CUDA device"; exit 77; fi
[ $rc -eq 0 ] || { echo "feinterp-sweep failed with status $rc"; exit 1; }
tables=("$dir"/*.txt)
[ ${#tables[@]} -eq 1 ] && [ -f "${tables[0]}" ] || { echo "expected one table in $dir, found: ${tables[*]}"; exit 1; }
for f in "$dir/timings.csv" "$dir/timings.svg"; do [ -s "$f" ] || { echo "missing or empty: $f"; exit 1; }; done
"$check" "${tables[0]}" || exit 1
# p1 triangles, C = 1 and 2, six operations (three forward, three transposes), two precisions: 24 entries.
"$check" "${tables[0]}" | grep -q ': 24 entries over 1 element types' || { echo "expected 24 entries (C = 1, 2 x 6 operations x fp64, fp32)"; exit 1; }
grep -q '^<svg' "$dir/timings.svg" || grep -q '<svg ' "$dir/timings.svg" || { echo "timings.svg is no SVG"; exit 1; }
echo "round trip ok: ${tables[0]}"
