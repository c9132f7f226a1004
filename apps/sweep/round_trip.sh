#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ctest tuning_sweep_round_trip (label gpu): a quick sweep of p1 triangles and quadrilaterals (both kernel
# variants for the quadrilaterals), then the table it wrote
# through the library's loader (feinterp-tuning-check). Exit 77 (skipped) without a usable GPU.
#   sweep_round_trip.sh FEINTERP_SWEEP FEINTERP_TUNING_CHECK WORK_DIR
set -u
sweep=$1 check=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
"$sweep" --quick --elements tri,quad --orders 1 --output "$dir" 2>"$dir/stderr.log"
rc=$?
cat "$dir/stderr.log" >&2
if [ $rc -eq 3 ]; then echo "GPU test skipped: no usable CUDA device"; exit 77; fi
[ $rc -eq 0 ] || { echo "feinterp-sweep failed with status $rc"; exit 1; }
tables=("$dir"/*.txt)
[ ${#tables[@]} -eq 1 ] && [ -f "${tables[0]}" ] || { echo "expected one table in $dir, found: ${tables[*]}"; exit 1; }
for f in "$dir/timings.csv" "$dir/timings.svg"; do [ -s "$f" ] || { echo "missing or empty: $f"; exit 1; }; done
"$check" "${tables[0]}" || exit 1
# C = 1, 2, two precisions, six operations (three forward, three transposes). p1 triangles: dense only, 24
# entries. p1 quadrilaterals at their nodes (a 2 x 2 tensor set): both variants, 48. 72 entries, 48 dense and
# 24 sum-factorised.
"$check" "${tables[0]}" | grep -q ': 72 entries over 2 element types (dense 48, sum_factorised 24)' ||
  { echo "expected 72 entries over 2 types (dense 48, sum_factorised 24):"; "$check" "${tables[0]}"; exit 1; }
head -1 "${tables[0]}" | grep -qx '# feinterp tuning table v3' || { echo "the table is not v3"; exit 1; }
# The CSV names each row's variant and marks one winner per configuration (C x operation x precision: 24 for
# the quadrilaterals and 24 for the triangles).
winners=$(awk -F, '!/^#/ && $NF == 1' "$dir/timings.csv" | wc -l)
[ "$winners" -eq 48 ] || { echo "expected 48 winners in timings.csv, found $winners"; exit 1; }
grep -q '^"generated",quadrilateral,1,1,values,fp64,sum_factorised,' "$dir/timings.csv" ||
  { echo "timings.csv has no sum-factorised row"; exit 1; }
grep -q '^<svg' "$dir/timings.svg" || grep -q '<svg ' "$dir/timings.svg" || { echo "timings.svg is no SVG"; exit 1; }
echo "round trip ok: ${tables[0]}"
