#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Summarise Nsight Compute CSV reports (ncu --csv --page details, one kernel each) as one table: time,
DRAM / L1 / L2 / SM throughput (% of peak), L2 hit rate, achieved / theoretical occupancy, issue rate,
shared-memory wavefronts of loads and stores (millions, when the report has them: profile-kernels.sh asks
for them) and their bank conflicts (% of wavefronts), bytes used per 32-byte sector of global loads, and
the three largest stall reasons (cycles per issued instruction).

    scripts/ncu_summary.py profile/ncu/*.csv [--markdown]
"""
import csv
import os
import re
import sys

# Metric name in the report -> (summary key, divisor): ns -> µs, wavefront counts -> millions.
METRICS = {
    "Duration": ("time_us", 1e3),
    "DRAM Throughput": ("dram", 1),
    "L1/TEX Cache Throughput": ("l1", 1),
    "L2 Cache Throughput": ("l2", 1),
    "Compute (SM) Throughput": ("sm", 1),
    "L2 Hit Rate": ("l2_hit", 1),
    "Achieved Occupancy": ("occupancy", 1),
    "Theoretical Occupancy": ("theoretical", 1),
    "Issued Warp Per Scheduler": ("issue", 1),
    "Block Size": ("block", 1),
    "Registers Per Thread": ("registers", 1),
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": ("shared_ld_wavefronts", 1e6),
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": ("shared_st_wavefronts", 1e6),
}
STALL_PREFIX = "smsp__average_warps_issue_stalled_"


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def cell(value, decimals):
    return f"{value:.{decimals}f}" if isinstance(value, float) else "-"


def summarise(path):
    rows = list(csv.reader(open(path, newline="")))
    header_at = next((i for i, row in enumerate(rows) if row and row[0] == "ID"), None)
    if header_at is None:
        return None
    header = rows[header_at]
    result, stalls = {"name": os.path.basename(path)[:-4]}, {}
    for row in rows[header_at + 1:]:
        field = dict(zip(header, row))
        name, value = field.get("Metric Name", ""), field.get("Metric Value", "")
        if name in METRICS and number(value) is not None:
            key, divisor = METRICS[name]
            result[key] = number(value) / divisor
        elif name.startswith(STALL_PREFIX) and number(value) is not None:
            stalls[name[len(STALL_PREFIX):].replace("_per_issue_active.ratio", "")] = number(value)
        description = field.get("Rule Description", "")
        conflict = re.search(r"shared (loads|stores).*?represent ([\d.]+)% of the overall", description)
        if conflict:
            result["bank_" + conflict.group(1)] = float(conflict.group(2))
        sectors = re.search(r"global loads.*?only ([\d.]+) of the 32 bytes", description)
        if sectors:
            result["load_sector_bytes"] = float(sectors.group(1))
    result["stalls"] = sorted(stalls.items(), key=lambda item: -item[1])[:3]
    return result


def main(arguments):
    markdown = "--markdown" in arguments
    paths = [a for a in arguments if a != "--markdown"]
    columns = ["name", "time_us", "dram", "l1", "l2", "sm", "l2_hit", "occupancy", "theoretical", "issue",
               "shared_ld_wavefronts", "shared_st_wavefronts", "bank_loads", "bank_stores", "load_sector_bytes"]
    titles = ["config", "µs", "DRAM%", "L1%", "L2%", "SM%", "L2 hit%", "occ%", "theo%", "IPC/sched",
              "shared ld Mwf", "shared st Mwf", "shared ld confl%", "shared st confl%", "B/sector ld",
              "top stalls (cycles/instr)"]
    lines = []
    for path in paths:
        summary = summarise(path)
        if summary is None:
            print(f"{path}: no kernel data (see the .err file beside it)", file=sys.stderr)
            continue
        cells = [summary["name"]] + [cell(summary.get(c), 2 if c == "issue" else 1) for c in columns[1:]]
        cells.append(", ".join(f"{name} {value:.1f}" for name, value in summary["stalls"]))
        lines.append(cells)
    if markdown:
        print("| " + " | ".join(titles) + " |")
        print("|" + "---|" * len(titles))
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(t), *(len(c[i]) for c in lines)) if lines else len(t) for i, t in enumerate(titles)]
        print("  ".join(t.ljust(w) for t, w in zip(titles, widths)))
        for cells in lines:
            print("  ".join(c.ljust(w) for c, w in zip(cells, widths)))


if __name__ == "__main__":
    main(sys.argv[1:])
