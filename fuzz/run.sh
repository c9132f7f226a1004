#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the fuzz targets of a FEINTERP_FUZZ build (fuzz/CMakeLists.txt), each for SECONDS, on a fresh
# corpus seeded with tests/data/msh-corpus (real Gmsh files), with the MSH dictionary; array-interface,
# whose bytes are decoded into an array's description, starts from nothing and takes no dictionary.
# Exits non-zero if a target finds anything (crash, sanitizer report, leak, timeout, out-of-memory),
# after printing its report and the path of the input that triggers it.
#
#   fuzz/run.sh BUILD_DIR SECONDS [msh-scan] [mesh-wire] [load] [load-raw] [array-interface]
#
# load-raw is feinterp-fuzz-load with FEINTERP_FUZZ_RAW_GMSH=1: the bytes go to Gmsh in the sandbox
# without the pre-scan (fuzzing the sandbox). -print_funcs=0: libFuzzer would otherwise start a
# symbolizer process (with two pipes) that the load target's descriptor and child checks would report.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS [msh-scan] [mesh-wire] [load] [load-raw] [array-interface]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(msh-scan mesh-wire load array-interface)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/feinterp-fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

failed=0
for target in "${targets[@]}"; do
  executable=$build/fuzz/feinterp-fuzz-${target%-raw}
  mkdir -p "$work/$target/corpus" "$work/$target/findings"
  seeds=$root/tests/data/msh-corpus
  [ "$target" = mesh-wire ] && seeds=  # its input is the wire format: found from the dictionary's header
  dictionary=(-dict="$root/fuzz/msh.dict")
  [ "$target" = array-interface ] && seeds= && dictionary=()
  mode=()
  [ "$target" = load-raw ] && mode=(FEINTERP_FUZZ_RAW_GMSH=1)
  echo "== fuzz $target for $seconds s"
  start=$SECONDS
  set +e
  env "${mode[@]}" "$executable" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
    -use_value_profile=1 -print_funcs=0 "${dictionary[@]}" -artifact_prefix="$work/$target/findings/" \
    -print_final_stats=1 "$work/$target/corpus" $seeds > "$work/$target/log" 2>&1
  status=$?
  set -e
  grep -E "^stat::number_of_executed_units|^stat::new_units_added|^#[0-9]+ *DONE" "$work/$target/log" || true
  echo "== $target: $((SECONDS - start)) s, $(ls "$work/$target/corpus" | wc -l) corpus entries, exit status $status"
  if [ $status -ne 0 ] || [ -n "$(ls -A "$work/$target/findings")" ]; then
    failed=1
    tail -n 60 "$work/$target/log"
    mkdir -p "$root/fuzz-findings"
    cp -r "$work/$target/findings" "$root/fuzz-findings/$target"
    echo "== $target FOUND something: inputs copied to $root/fuzz-findings/$target" >&2
  fi
done
exit $failed
