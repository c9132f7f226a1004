#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every tracked source file of the project carries the licence's SPDX line in its first lines, so that
# a file copied out of the tree still says under which licence it may be used, and a new file cannot
# forget it (ctest runs this). Sources: C++, CUDA, CMake, shell and Python files, and the scripts
# without an extension under .ci/. The line may follow a shebang, hence the first 2 lines.
#
#   scripts/check-spdx.sh          prints each file without the line and exits 1 if there is one
#   scripts/check-spdx.sh --add    adds the line (after a shebang) where it is missing
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
spdx='SPDX-License-Identifier: BSD-3-Clause'

sources() {
  git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' '*.cmake' '*.cmake.in' 'CMakeLists.txt' '*/CMakeLists.txt' \
    '*.sh' '*.py' '.ci/*'
}

# The comment leader of a file's language.
leader() {
  case "$1" in
    *.cpp | *.hpp | *.h | *.cu | *.cuh) echo '//' ;;
    *) echo '#' ;;
  esac
}

add=false
[ "${1:-}" = "--add" ] && add=true
missing=0
checked=0
while IFS= read -r file; do
  [ -f "$file" ] || continue
  checked=$((checked + 1))
  head -n 2 "$file" | grep -qF "$spdx" && continue
  if $add; then
    line="$(leader "$file") $spdx"
    if head -n 1 "$file" | grep -q '^#!'; then
      sed -i "1a $line" "$file"
    else
      sed -i "1i $line" "$file"
    fi
    echo "added: $file"
  else
    echo "$file: no '$spdx' in its first 2 lines"
    missing=$((missing + 1))
  fi
done < <(sources)

if [ "$missing" -gt 0 ]; then
  echo "check-spdx: $missing of $checked source files lack the SPDX line (scripts/check-spdx.sh --add adds it)" >&2
  exit 1
fi
echo "check-spdx: $checked source files carry '$spdx'"
