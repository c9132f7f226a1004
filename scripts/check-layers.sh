#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The include graph goes one way: no file includes a header of a higher layer, and folders of one layer
# do not include each other. Layers, lowest first (README "Layout"):
#
#   core < elements < fem
#        < backends/cuda/runtime (device, errors, buffers) < backends/cuda/tuning < backends/cuda/launch
#        < backends/cuda/kernels < backends/cuda (its plan) ; backends/cpu (beside the CUDA backend:
#          neither includes the other)
#        < interpolator ; mesh (beside the front door: neither includes the other)
#        < apps ; python (the Python bindings, beside the programs: neither includes the other)
#
# tests/, examples/ and fuzz/ sit on top and may include anything. Every #include "..." (resolved from
# the including file) and #include <feinterp/...> (from the source root) of the library and apps/ is
# checked. Prints each violation as FILE: includes HEADER (LAYER_A -> LAYER_B) and exits 1 if any.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# rank and group of the folder a path lives in; same rank, different group: not allowed either.
layer_of() {
  case "$1" in
    core/*) echo "0 core" ;;
    elements/*) echo "1 elements" ;;
    fem/*) echo "2 fem" ;;
    backends/cuda/runtime/*) echo "3 cuda-runtime" ;;
    backends/cuda/tuning/*) echo "4 cuda-tuning" ;;
    backends/cuda/launch/*) echo "5 cuda-launch" ;;
    backends/cuda/kernels/*) echo "6 cuda-kernels" ;;
    backends/cuda/*) echo "7 cuda" ;;
    backends/cpu/*) echo "7 cpu" ;;
    interpolator/*) echo "8 interpolator" ;;
    mesh/*) echo "8 mesh" ;;
    apps/*) echo "9 apps" ;;
    python/*) echo "9 python" ;;
    *) echo "" ;;
  esac
}

violations=0
checked=0
while IFS= read -r file; do
  read -r file_rank file_group <<<"$(layer_of "$file")"
  dir=$(dirname "$file")
  while IFS= read -r header; do
    case "$header" in
      feinterp/*) target=${header#feinterp/} ;;
      *) target=$(realpath -m --relative-to="$root" "$dir/$header") ;;
    esac
    layer=$(layer_of "$target")
    [ -n "$layer" ] || continue
    read -r rank group <<<"$layer"
    checked=$((checked + 1))
    if [ "$group" != "$file_group" ] && [ "$rank" -ge "$file_rank" ]; then
      echo "$file: includes $target ($file_group -> $group)"
      violations=$((violations + 1))
    fi
  done < <(sed -n -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"].*/\1/p' "$file" |
           grep -E '^(feinterp/|\.|[a-z_]+/|[a-z_]+\.(hpp|cuh|h)$)' || true)
done < <(git ls-files 'core/*' 'elements/*' 'fem/*' 'backends/*' 'interpolator/*' 'mesh/*' 'apps/*' 'python/*' |
         grep -E '\.(hpp|cpp|cu|cuh|h)$')

if [ "$violations" -gt 0 ]; then
  echo "check-layers: $violations includes go up or sideways (of $checked checked)" >&2
  exit 1
fi
echo "check-layers: $checked includes checked, all go down the layers"
