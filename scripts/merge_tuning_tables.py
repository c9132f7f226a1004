#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Merges feinterp tuning tables (tuning/tables/README.md) into one v3 table.

    scripts/merge_tuning_tables.py BASE.txt NEWER.txt [NEWER2.txt ...] --output TABLE.txt

Each configuration (element, order, components, operation, precision, points) is taken whole from the
last file that measured it: a newer sweep of some configurations replaces all of the base's entries for
them (every variant), so a configuration never mixes variants timed in different runs. The files must
name the same device, compute capability and point set. v1 and v2 entries become v3 entries of the
dense variant (the only one those versions had). The output keeps the base table's header comments
only, so that a table stays entries under a short header that links its data: a newer sweep's
provenance belongs beside its CSV in docs/performance/<gpu>/. It is written whole or not at all (a
temporary file renamed over the target).
"""
import argparse
import os
import sys
import tempfile

SIGNATURE = "# feinterp tuning table v"
HEADERS = ("device", "compute_capability", "points")
MERGED = "Merged by scripts/merge_tuning_tables.py"


class TableError(Exception):
    pass


def read_table(path):
    """Returns (headers, comments, entries): entries maps the configuration key to a list of v3 rows."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or not lines[0].startswith(SIGNATURE):
        raise TableError(f"{path}:1: expected '{SIGNATURE}1', 2 or 3 as the first line")
    version = lines[0][len(SIGNATURE):].strip()
    if version not in ("1", "2", "3"):
        raise TableError(f"{path}:1: unknown table version '{version}': expected 1, 2 or 3")
    fields_expected = {"1": 7, "2": 8, "3": 9}[version]
    headers, comments, entries = {}, [], {}
    for number, line in enumerate(lines[1:], start=2):
        text = line.split("#", 1)[0].strip()
        if not text:
            if line.strip().startswith("#") and not line.lstrip("# ").startswith(("element ", MERGED, "---- from")):
                comments.append(line)  # the column header is written once, by write()
            continue
        name, colon, value = text.partition(":")
        if colon and name.strip() in HEADERS:
            headers[name.strip()] = value.strip()
            continue
        fields = text.split()
        if len(fields) != fields_expected:
            raise TableError(f"{path}:{number}: expected {fields_expected} fields in a v{version} entry, found "
                             f"{len(fields)}: '{text}'")
        if version == "1":
            fields.insert(4, "fp64")
        if version in ("1", "2"):
            fields.insert(5, "dense")
        element, order, components, operation, precision, variant, points, per_block, time_us = fields
        key = (element, int(order), int(components), operation, precision, int(points))
        entries.setdefault(key, []).append((variant, int(per_block), time_us))
    missing = [h for h in HEADERS if h not in headers]
    if missing:
        raise TableError(f"{path}: no '{missing[0]}:' header")
    return headers, comments, entries


def merge(paths):
    merged_headers, merged_comments, merged = None, [], {}
    for path in paths:
        headers, comments, entries = read_table(path)
        if merged_headers is None:
            merged_headers = headers
            merged_comments = comments  # the base's header alone
        elif headers != merged_headers:
            raise TableError(f"{path}: headers {headers} differ from the first table's {merged_headers}: the "
                             "tables must come from the same device and point set")
        merged.update(entries)  # whole configurations: the last file that measured one wins
    return merged_headers, merged_comments, merged


ELEMENT_ORDER = ["line", "triangle", "quadrilateral", "tetrahedron", "hexahedron"]


def sort_key(item):
    (element, order, components, operation, precision, points), _ = item
    position = ELEMENT_ORDER.index(element) if element in ELEMENT_ORDER else len(ELEMENT_ORDER)
    return (position, order, components, operation.endswith("_transpose"), operation, precision, points)


def write(path, headers, comments, entries):
    lines = ["# feinterp tuning table v3"] + comments
    lines += [f"{h}: {headers[h]}" for h in HEADERS]
    lines.append(f"# {'element':<15} order components {'operation':<29} precision {'variant':<14} points "
                 "elements_per_block    time_us")
    for (element, order, components, operation, precision, points), rows in sorted(entries.items(), key=sort_key):
        for variant, per_block, time_us in sorted(rows):
            lines.append(f"{element:<17} {order:>5} {components:>10} {operation:<29} {precision:>9} {variant:<14} "
                         f"{points:>6} {per_block:>18} {time_us:>10}")
    directory = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
        temporary = f.name
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", nargs="+", help="base table first, then newer sweeps")
    parser.add_argument("--output", required=True, help="the merged v3 table")
    args = parser.parse_args()
    try:
        write(args.output, *merge(args.tables))
    except (OSError, TableError) as error:
        print(f"merge_tuning_tables: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
