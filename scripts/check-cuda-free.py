#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that a source's include closure holds no header of the CUDA toolkit: the front door
(interpolator/interpolator.cpp) reaches the CUDA backend through cuda/front_door_plan.hpp only, never
through a header that includes cuda_runtime.h. The compiler preprocesses SOURCE with the given arguments
(the target's include directories and definitions) and -H, which lists every header it opens and how
deep; a toolkit header is one under a --toolkit-include directory, or any cuda*.h wherever it was found.
Each toolkit header opened from outside the toolkit is printed with the chain that first reached it,
SOURCE -> header -> ... -> the toolkit header, each header named as its include directory finds it.

    scripts/check-cuda-free.py [--toolkit-include DIR]... [--require HEADER]... SOURCE -- COMPILER [ARG...]

--require names a header (as included, e.g. feinterp/cuda/front_door_plan.hpp) that the closure must hold:
a source preprocessed without its backend's definition would pass for the wrong reason.
Exit status: 0 clean, 1 a toolkit header or a required one missing, 2 bad arguments or the compiler failed."""
import argparse
import os
import re
import subprocess
import sys

TOOLKIT_NAME = re.compile(r"^cuda\w*\.h$")
HEADER_LINE = re.compile(r"^(\.+) (.+)$")


def include_directories(arguments):
    """The directories the compiler searches, from -I, -isystem, -iquote and -idirafter arguments."""
    found, take_next = [], False
    for argument in arguments:
        if take_next:
            found.append(argument)
            take_next = False
            continue
        for flag in ("-I", "-isystem", "-iquote", "-idirafter"):
            if argument == flag:
                take_next = True
            elif argument.startswith(flag):
                found.append(argument[len(flag):])
    return found


def shown(path, directories):
    """`path` as its include directory finds it (the longest directory that holds it), else as given."""
    best = None
    for directory in directories:
        prefix = os.path.normpath(directory) + os.sep
        if os.path.normpath(path).startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return os.path.normpath(path)[len(best):] if best else path


def is_toolkit(path, toolkit):
    real = os.path.realpath(path)
    return TOOLKIT_NAME.match(os.path.basename(path)) is not None or any(
        real.startswith(os.path.realpath(directory) + os.sep) for directory in toolkit)


def chains(headers, toolkit):
    """The chain of headers from the source down to each toolkit header opened from outside the toolkit
    (what that header includes in turn is not listed). `headers`: (depth, path), in -H's order."""
    found, stack, inside = [], [], None
    for depth, path in headers:
        if inside is not None and depth > inside:
            continue
        inside = None
        del stack[depth - 1:]
        stack.append(path)
        if is_toolkit(path, toolkit):
            found.append(list(stack))
            inside = depth
    return found


def main():
    if "--" not in sys.argv:
        print("usage: check-cuda-free.py [--toolkit-include DIR]... [--require HEADER]... SOURCE -- COMPILER [ARG...]")
        return 2
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser(prog="check-cuda-free.py")
    parser.add_argument("--toolkit-include", action="append", default=[])
    parser.add_argument("--require", action="append", default=[])
    parser.add_argument("source")
    options = parser.parse_args(sys.argv[1:split])
    compiler = sys.argv[split + 1:]
    if not compiler:
        print("check-cuda-free.py: no compiler after --")
        return 2
    command = compiler + ["-E", "-H", "-o", os.devnull, options.source]
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        print("%s: the compiler did not run: %s" % (options.source, error))
        return 2
    headers, other = [], []
    for line in result.stderr.splitlines():
        match = HEADER_LINE.match(line)
        if match:
            headers.append((len(match.group(1)), match.group(2)))
        else:
            other.append(line)
    if result.returncode != 0:
        print("%s: the compiler failed (exit status %d): %s" % (options.source, result.returncode, " ".join(command)))
        print("\n".join(other))
        return 2
    directories = include_directories(compiler)
    names = [shown(path, directories) for _, path in headers]
    failures = []
    for chain in chains(headers, options.toolkit_include):
        failures.append("%s: includes the CUDA toolkit's %s: %s" % (
            options.source, shown(chain[-1], directories),
            " -> ".join([options.source] + [shown(path, directories) for path in chain])))
    for header in options.require:
        if header not in names:
            failures.append("%s: does not include %s (preprocessed without the backend's definitions?)" % (
                options.source, header))
    for line in failures:
        print(line)
    if failures:
        return 1
    print("%s: %d headers, none of the CUDA toolkit" % (options.source, len(headers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
