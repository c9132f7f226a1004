#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds the documentation into OUTDIR: Doxygen's XML of the public headers (docs/sphinx/Doxyfile), then
# Sphinx's HTML of the guides (docs/*.md, MyST), the C++ API (Breathe) and, when a built Python package
# is given, the Python API (autodoc). Any warning of either is an error.
#   docs/build.sh OUTDIR [PYTHONPATH]      e.g. docs/build.sh build-docs build/python
# Needs Debian's doxygen, python3-sphinx, python3-breathe and python3-myst-parser. The HTML starts at
# OUTDIR/html/index.html.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: docs/build.sh OUTDIR [PYTHONPATH of a built feinterp package]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
rm -rf "$out/doxygen" "$out/html" "$out/doctrees"
mkdir -p "$out/doxygen"

cd "$root"
FEINTERP_DOXYGEN_OUT="$out/doxygen" doxygen docs/sphinx/Doxyfile

if [ -n "${2:-}" ]; then
  export FEINTERP_DOCS_PYTHONPATH
  FEINTERP_DOCS_PYTHONPATH=$(cd "$2" && pwd)
else
  echo "docs/build.sh: no PYTHONPATH given: the Python API page is left out" >&2
fi
# Debian's Sphinx, with Debian's Python: the one its packages are installed for.
FEINTERP_DOXYGEN_XML="$out/doxygen/xml" /usr/bin/python3 -m sphinx -b html -W --keep-going -q -j 1 \
  -c docs/sphinx -d "$out/doctrees" docs "$out/html"
# The root document is docs/sphinx/index.rst; OUTDIR/html/index.html sends a browser there.
printf '<!DOCTYPE html>\n<meta http-equiv="refresh" content="0; url=sphinx/index.html">\n' > "$out/html/index.html"
echo "docs/build.sh: $(find "$out/html" -name '*.html' | wc -l) HTML pages, $(du -sh "$out/html" | cut -f1) in $out/html"
