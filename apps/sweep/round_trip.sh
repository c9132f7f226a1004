#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ctest tuning_sweep_round_trip and tuning_sweep_operators_round_trip (label gpu): a quick sweep of p1
# triangles and quadrilaterals (every kernel variant that applies to them) of the six operations, or of the
# fused operators, then the table it wrote through the library's loader (feinterp-tuning-check). Exit 77
# (skipped) without a usable GPU.
#   round_trip.sh FEINTERP_SWEEP FEINTERP_TUNING_CHECK WORK_DIR [operations|operators]
set -u
sweep=$1 check=$2 dir=$3 mode=${4:-operations}
rm -rf "$dir" && mkdir -p "$dir" || exit 1
if [ "$mode" = operators ]; then
  "$sweep" --quick --elements tri,quad --orders 1 --operations operators --output "$dir" 2>"$dir/stderr.log"
else
  "$sweep" --quick --elements tri,quad --orders 1 --operations forward,transposes --output "$dir" 2>"$dir/stderr.log"
fi
rc=$?
cat "$dir/stderr.log" >&2
if [ $rc -eq 3 ]; then echo "GPU test skipped: no usable CUDA device"; exit 77; fi
[ $rc -eq 0 ] || { echo "feinterp-sweep failed with status $rc"; exit 1; }
tables=("$dir"/*.txt)
[ ${#tables[@]} -eq 1 ] && [ -f "${tables[0]}" ] || { echo "expected one table in $dir, found: ${tables[*]}"; exit 1; }
for f in "$dir/timings.csv" "$dir/timings.svg"; do [ -s "$f" ] || { echo "missing or empty: $f"; exit 1; }; done
"$check" "${tables[0]}" || exit 1
head -1 "${tables[0]}" | grep -qx '# feinterp tuning table v3' || { echo "the table is not v3"; exit 1; }
if [ "$mode" = operators ]; then
  # C = 1, 2, two precisions, at the degree-2 rule. Triangles: mass and diffusion, dense (J on the fly):
  # 8 entries. Quadrilaterals (2 x 2 Gauss points): mass (dense), mass_precomputed (sum-factorised),
  # diffusion (dense and sum-factorised) and diffusion_precomputed (sum-factorised): 20.
  expected='28 entries over 2 element types (dense 16, sum_factorised 12, dense_tensor_cores 0, dense_async_gather 0, dense_64_registers 0)'
  "$check" "${tables[0]}" | grep -qF ": $expected" ||
    { echo "expected $expected:"; "$check" "${tables[0]}"; exit 1; }
  for row in 'quadrilateral +1 +2 +diffusion_precomputed +fp64 +sum_factorised +4 ' 'quadrilateral +1 +1 +mass_precomputed +fp32 +sum_factorised +4 ' \
             'triangle +1 +1 +diffusion +fp64 +dense +3 ' 'quadrilateral +1 +2 +diffusion +fp32 +sum_factorised +4 '; do
    grep -qE "^$row" "${tables[0]}" || { echo "the table has no row matching '$row'"; exit 1; }
  done
  # Every configuration has a winner: C x precision x (mass, diffusion) for each type, 8 + 8, and for the
  # quadrilaterals' diffusion the precomputed kernel competes with dense apart from the one on the fly.
  winners=$(awk -F, '!/^#/ && $NF == 1' "$dir/timings.csv" | wc -l)
  [ "$winners" -ge 16 ] || { echo "expected at least 16 winners in timings.csv, found $winners"; exit 1; }
  grep -q '^"generated",quadrilateral,1,1,mass_precomputed,fp64,sum_factorised,' "$dir/timings.csv" ||
    { echo "timings.csv has no precomputed mass row"; exit 1; }
  echo "round trip ok: ${tables[0]}"
  exit 0
fi
# C = 1, 2, two precisions, six operations (three forward, three transposes). p1 triangles: dense on all, 24
# entries. p1 quadrilaterals at their nodes (a 2 x 2 tensor set): both of dense and sum-factorised, 48. The
# asynchronous gather adds values and reference gradients at C = 1 of both types in both precisions: 2 types
# x 2 operations x 2 precisions, 8 more. The tensor cores (on compute capability 8.0 and newer) add values and
# reference gradients in fp64 of both types: 2 types x 2 C x 2 operations, 8 more. The 64-register variant
# is for 3D elements: none. feinterp-tuning-check counts every variant, those without entries too.
expected='80 entries over 2 element types (dense 48, sum_factorised 24, dense_tensor_cores 0, dense_async_gather 8, dense_64_registers 0)'
sm=$(grep -o -m1 '(sm_[0-9]*' "$dir/stderr.log" | tr -dc '0-9')  # the sweep names its device: "(sm_90, ..."
major=$(( ${sm:-0} / 10 ))
[ "${major:-0}" -ge 8 ] &&
  expected='88 entries over 2 element types (dense 48, sum_factorised 24, dense_tensor_cores 8, dense_async_gather 8, dense_64_registers 0)'
"$check" "${tables[0]}" | grep -qF ": $expected" ||
  { echo "expected $expected:"; "$check" "${tables[0]}"; exit 1; }
# The CSV names each row's variant and marks one winner per configuration (C x operation x precision: 24 for
# the quadrilaterals and 24 for the triangles).
winners=$(awk -F, '!/^#/ && $NF == 1' "$dir/timings.csv" | wc -l)
[ "$winners" -eq 48 ] || { echo "expected 48 winners in timings.csv, found $winners"; exit 1; }
grep -q '^"generated",quadrilateral,1,1,values,fp64,sum_factorised,' "$dir/timings.csv" ||
  { echo "timings.csv has no sum-factorised row"; exit 1; }
grep -q '^"generated",triangle,1,1,reference_gradients,fp32,dense_async_gather,' "$dir/timings.csv" ||
  { echo "timings.csv has no asynchronous-gather row"; exit 1; }
if [ "${major:-0}" -ge 8 ]; then
  grep -q '^"generated",triangle,1,2,reference_gradients,fp64,dense_tensor_cores,' "$dir/timings.csv" ||
    { echo "timings.csv has no tensor-core row"; exit 1; }
fi
grep -q '^<svg' "$dir/timings.svg" || grep -q '<svg ' "$dir/timings.svg" || { echo "timings.svg is no SVG"; exit 1; }
echo "round trip ok: ${tables[0]}"
