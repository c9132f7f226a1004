#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The repository is a product, not a lab notebook: checks a git checkout for
  - README.md longer than a front page (300 lines; the manual lives in docs/);
  - a measurement inside a library folder: data (.csv .tsv .svg .png .log .ncu-rep), a results or profile
    folder, or a markdown file other than a README (write-ups live in docs/performance/);
  - a README whose C++ or Python example differs from the examples/ file that CI compiles and runs.
Prints one line per finding and exits 1 if there is any.

    scripts/check-repository.py [ROOT]      (ROOT: a git checkout, default this one)"""
import os
import re
import subprocess
import sys

README_MAX_LINES = 300
LIBRARY_FOLDERS = ("core", "elements", "fem", "tuning", "cuda", "cpu", "interpolator", "mesh", "apps", "python")
DATA_EXTENSIONS = (".csv", ".tsv", ".svg", ".png", ".log", ".ncu-rep")
# README code block language -> the example file it must equal, byte for byte.
README_EXAMPLES = {"cpp": "examples/readme_example.cpp", "python": "examples/readme_example.py"}


def findings(root):
    files = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"], capture_output=True, text=True, check=True).stdout.split("\n")
    found = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    lines = readme.count("\n")
    if lines > README_MAX_LINES:
        found.append("README.md: %d lines, a front page has at most %d (the manual goes to docs/)" % (lines, README_MAX_LINES))
    for path in filter(None, files):
        parts = path.split("/")
        if parts[0] not in LIBRARY_FOLDERS or len(parts) < 2:
            continue
        name = parts[-1]
        if name.lower().endswith(DATA_EXTENSIONS):
            found.append("%s: measurement data in a library folder (it belongs in docs/performance/)" % path)
        elif any(p == "results" or p.startswith("profile") for p in parts[1:-1]):
            found.append("%s: a results folder in a library folder (it belongs in docs/performance/)" % path)
        elif name.endswith(".md") and name != "README.md":
            found.append("%s: a write-up in a library folder (it belongs in docs/)" % path)
    for language, example in README_EXAMPLES.items():
        blocks = re.findall(r"^```%s\n(.*?)^```" % language, readme, re.S | re.M)
        path = os.path.join(root, example)
        if not os.path.exists(path):
            found.append("%s: missing (README's %s example is compiled and run from it)" % (example, language))
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text not in blocks:
            found.append("README.md: no ```%s block equals %s (the example CI runs)" % (language, example))
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    found = findings(root)
    for line in found:
        print(line)
    if found:
        print("check-repository: %d findings" % len(found), file=sys.stderr)
        return 1
    print("check-repository: README is a front page, its examples are examples/'s, no measurement in a library folder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
