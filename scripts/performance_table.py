#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The README's performance table, from a feinterp-bench CSV.

    scripts/performance_table.py BENCH_CSV [--mfem MFEM_CSV] [--operation reference_gradients]

Prints one Markdown row per (element, order, components) of the operation, with FP64 and FP32 columns
(whichever precisions the CSV holds) and, with --mfem, MFEM's FP64 time as the last column (rows in the
MFEM file's order, every one of which must be in the benchmark); then, on stderr, the summary the README's
paragraph quotes: the share-of-copy range per precision, the configurations at >= 80%, the speedups over
MFEM and of FP32 over FP64, and the host cost per call. Python's standard library only.

MFEM_CSV: columns element, order, components, mfem_fp64_ms ('#' lines are comments).
Exit status: 0 done, 1 bad input (one line on stderr naming the file, the line and what was expected).
"""
import argparse
import csv
import statistics
import sys

BENCH_COLUMNS = ("element", "order", "components", "operation", "precision", "variant", "points", "packed_ms",
                 "elements_per_block", "packed_fraction_of_copy", "host_us_per_call")
MFEM_COLUMNS = ("element", "order", "components", "mfem_fp64_ms")
VARIANT_NAMES = {"dense": "dense", "sum_factorised": "sum-fact.", "dense_tensor_cores": "tensor cores",
                 "dense_async_gather": "dense, async gather"}
PRECISIONS = ("fp64", "fp32")


class InputError(Exception):
    pass


def read_csv(path, columns):
    """The rows of a CSV whose '#' lines are comments, each with its line number, every column present."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            numbered = [(n, line) for n, line in enumerate(f, 1) if line.strip() and not line.startswith("#")]
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    if not numbered:
        raise InputError(f"{path}: no header line: expected the columns {', '.join(columns)}")
    reader = csv.DictReader(line for _, line in numbered)
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise InputError(f"{path}:{numbered[0][0]}: no column {', '.join(missing)} in the header")
    rows = []
    for (n, _), row in zip(numbered[1:], reader):
        if any(row.get(c) in (None, "") for c in columns):
            raise InputError(f"{path}:{n}: a row without a value in every column {', '.join(columns)}")
        rows.append((n, row))
    return rows


def number(path, n, row, column, kind=float):
    try:
        value = kind(row[column])
    except ValueError:
        raise InputError(f"{path}:{n}: column {column}: '{row[column]}' is not a number")
    if not value >= 0:
        raise InputError(f"{path}:{n}: column {column}: {row[column]} is negative or NaN")
    return value


def configuration(path, n, row):
    return (row["element"], number(path, n, row, "order", int), number(path, n, row, "components", int))


def load_bench(path, operation):
    """(element, order, C) -> precision -> the row's values, for the operation."""
    bench = {}
    for n, row in read_csv(path, BENCH_COLUMNS):
        if row["operation"] != operation or row["precision"] not in PRECISIONS:
            continue
        key = configuration(path, n, row)
        if row["precision"] in bench.get(key, {}):
            raise InputError(f"{path}:{n}: a second {row['precision']} row for {key[0]} p{key[1]} C = {key[2]}")
        bench.setdefault(key, {})[row["precision"]] = {
            "ms": number(path, n, row, "packed_ms"),
            "share": number(path, n, row, "packed_fraction_of_copy"),
            "host_us": number(path, n, row, "host_us_per_call"),
            "variant": VARIANT_NAMES.get(row["variant"], row["variant"]),
            "per_block": number(path, n, row, "elements_per_block", int),
            "points": number(path, n, row, "points", int),
        }
    if not bench:
        raise InputError(f"{path}: no {operation} row in fp64 or fp32")
    return bench


def load_mfem(path):
    mfem = {}
    for n, row in read_csv(path, MFEM_COLUMNS):
        mfem[configuration(path, n, row)] = number(path, n, row, "mfem_fp64_ms")
    return mfem


def name(key):
    return f"{key[0]} p{key[1]}"


def table(bench, mfem, keys, precisions):
    """The Markdown rows, header first, of the configurations `keys` in the `precisions` the CSV holds."""
    header = "| element | C | Q |"
    for p in precisions:
        header += f" {p.upper()} ms | variant | e/blk | share of copy | host µs |"
    if mfem is not None:
        header += " MFEM FP64 ms |"
    lines = [header, "|" + "---|" * (header.count("|") - 1)]
    for key in keys:
        row = bench[key]
        line = f"| {name(key)} | {key[2]} | {row[precisions[0]]['points']} |"
        for p in precisions:
            r = row[p]
            line += f" {r['ms']:.3f} | {r['variant']} | {r['per_block']} | {100 * r['share']:.0f}% | {r['host_us']:.1f} |"
        if mfem is not None:
            line += f" {mfem[key]:.3f} |"
        lines.append(line)
    return lines


def summary(bench, mfem, keys, precisions):
    lines = []
    for p in precisions:
        shares = sorted(((100 * bench[k][p]["share"], k) for k in keys), reverse=True)
        at_80 = [f"{name(k)} C = {k[2]} {s:.1f}" for s, k in shares if s >= 80]
        lines.append(f"{p}: {shares[-1][0]:.1f}-{shares[0][0]:.1f}% of copy (median "
                     f"{statistics.median(s for s, _ in shares):.1f}); {len(at_80)} of {len(keys)} at >= 80%"
                     + (f": {', '.join(at_80)}" if at_80 else ""))
    if mfem is not None and "fp64" in precisions:
        speedups = [mfem[k] / bench[k]["fp64"]["ms"] for k in keys]
        lines.append(f"faster than MFEM: {min(speedups):.2f}-{max(speedups):.1f}x (fp64)")
    if precisions == list(PRECISIONS):
        ratios = [bench[k]["fp64"]["ms"] / bench[k]["fp32"]["ms"] for k in keys]
        lines.append(f"fp32 over fp64: {min(ratios):.2f}-{max(ratios):.2f}x")
    host = [bench[k][p]["host_us"] for k in keys for p in precisions]
    lines.append(f"host per call: {min(host):.1f}-{max(host):.1f} us (median {statistics.median(host):.1f})")
    return lines


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", help="a feinterp-bench --csv file")
    parser.add_argument("--mfem", help="MFEM's FP64 times: element, order, components, mfem_fp64_ms")
    parser.add_argument("--operation", default="reference_gradients")
    args = parser.parse_args(argv)
    try:
        bench = load_bench(args.bench, args.operation)
        mfem = load_mfem(args.mfem) if args.mfem else None
        for key in mfem or []:
            if key not in bench:
                raise InputError(f"{args.bench}: no {args.operation} row for {name(key)} C = {key[2]}, which "
                                 f"{args.mfem} lists")
        precisions = [p for p in PRECISIONS if any(p in v for v in bench.values())]
        keys = list(mfem) if mfem is not None else sorted(bench)
        for key in keys:
            absent = [p for p in precisions if p not in bench[key]]
            if absent:
                raise InputError(f"{args.bench}: no {absent[0]} row for {name(key)} C = {key[2]}")
        rows = table(bench, mfem, keys, precisions)
        notes = summary(bench, mfem, keys, precisions)
    except InputError as e:
        print(f"performance_table: error: {e}", file=sys.stderr)
        return 1
    print("\n".join(rows))
    print("\n".join(notes), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
