#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The include graph goes one way, down the floors (README.md, Architecture), lowest first:
#
#   core < elements < fem < tuning < cuda/runtime < cuda/layout < {cuda/launch, cuda/kernels}
#        < {cuda (its plan), cpu} < {interpolator, mesh} < io < {apps, python}
#
# A file may include its own floor and any floor below it; folders on one floor (in braces) do not
# include each other, and cpu includes nothing of cuda. tests/, examples/ and fuzz/ sit on top and may
# include anything. Every include of a project file is written <feinterp/...> (one style: the same in
# the source tree, the build tree and an installed prefix), except in examples/, a project of its own
# built against the installed package, whose own headers are quoted.
#
# Every C++ and CUDA source git tracks or would add (.hpp .cpp .cu .cuh .h, and .in templates of them)
# is read; a source in a folder that has no floor is itself an error, so that a new folder must be
# given one here.
# Prints each violation as FILE: LINE: what is wrong, and exits 1 if there is any.
#
#   scripts/check-layers.sh [ROOT]     (ROOT: a git checkout, default this one)
set -euo pipefail
root=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
cd "$root"

# The floor of a path: "rank group". Same rank, different group: sideways, not allowed.
floor_of() {
  case "$1" in
    core/*) echo "0 core" ;;
    elements/*) echo "1 elements" ;;
    fem/*) echo "2 fem" ;;
    tuning/*) echo "3 tuning" ;;
    cuda/runtime/*) echo "4 cuda/runtime" ;;
    cuda/layout/*) echo "5 cuda/layout" ;;
    cuda/launch/*) echo "6 cuda/launch" ;;
    cuda/kernels/*) echo "6 cuda/kernels" ;;
    cuda/*/*) echo "" ;;  # a folder of cuda/ without a floor
    cuda/*) echo "7 cuda" ;;
    cpu/*) echo "7 cpu" ;;
    interpolator/*) echo "8 interpolator" ;;
    mesh/*) echo "8 mesh" ;;
    io/*) echo "9 io" ;;
    apps/*) echo "10 apps" ;;
    python/*) echo "10 python" ;;
    tests/* | examples/* | fuzz/* | docs/performance/peers/*) echo "11 top" ;;  # peers: other libraries' benchmarks
    *) echo "" ;;
  esac
}

violations=0
checked=0
files=0
report() {
  echo "$1"
  violations=$((violations + 1))
}
while IFS= read -r file; do
  files=$((files + 1))
  floor=$(floor_of "$file")
  if [ -z "$floor" ]; then
    report "$file: in a folder with no floor (give it one in scripts/check-layers.sh)"
    continue
  fi
  read -r file_rank file_group <<<"$floor"
  dir=$(dirname "$file")
  # LINE<TAB>QUOTE<TAB>HEADER for every #include of a quoted or <feinterp/...> header.
  while IFS=$'\t' read -r line quote header; do
    if [ "$quote" = '"' ]; then
      # examples/ is a project of its own, built against the installed package: its own headers are quoted.
      [[ "$file" == examples/* ]] && continue
      relative=$(realpath -m --relative-to="$root" "$dir/$header")
      if [ -e "$root/$relative" ] && [ -n "$(floor_of "$relative")" ]; then
        report "$file:$line: includes \"$header\": write <feinterp/$relative>"
        target=$relative
      else
        continue  # not a project file (a generated header, a system one)
      fi
    else
      target=${header#feinterp/}
    fi
    target_floor=$(floor_of "$target")
    [ -n "$target_floor" ] || continue
    read -r rank group <<<"$target_floor"
    checked=$((checked + 1))
    [ "$group" = "$file_group" ] && continue
    if [ "$rank" -ge "$file_rank" ] && [ "$file_group" != top ]; then
      report "$file:$line: includes $target ($file_group -> $group: up or sideways)"
    elif [ "$file_group" = cpu ] && [[ "$group" == cuda* ]]; then
      report "$file:$line: includes $target (cpu -> $group: the CPU backend includes nothing of cuda)"
    fi
  done < <(awk '{
             if (match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]+"/)) {
               s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"$/, "", s); print NR "\t\"\t" s
             } else if (match($0, /^[ \t]*#[ \t]*include[ \t]*<feinterp\/[^>]+>/)) {
               s = substr($0, RSTART, RLENGTH); sub(/^[^<]*</, "", s); sub(/>$/, "", s); print NR "\t<\t" s
             }
           }' "$file")
done < <(git ls-files --cached --others --exclude-standard | grep -E '\.(hpp|cpp|cu|cuh|h)(\.in)?$')

if [ "$violations" -gt 0 ]; then
  echo "check-layers: $violations violations ($files files, $checked project includes)" >&2
  exit 1
fi
echo "check-layers: $files files, $checked project includes, all <feinterp/...> and down the floors"
