# SPDX-License-Identifier: BSD-3-Clause
"""Counts the shared-memory wavefronts of the dense packed kernel's compute-phase reads, per warp and point:
the table (one real per read in [n][w][q], or 16-byte vectors of point-major rows of an odd number of
vectors, launch/shared_layout.hpp) and the element's nodal values (vectors as wide as N*C reals allow).
Model: a read of W bytes per lane is served 128 / W lanes at a time (W = 4: the warp, 8: half warps, 16:
quarter warps); within a phase, distinct addresses that fall in the same group of W / 4 banks take one
wavefront each, identical ones are broadcast. Lane t of a block of blockDim = (Q, 1, E) is point t % Q
of element t / Q. The figures of table-rows.md (no arguments; runs in a second):
    python3 backends/cuda/tuning/results/nvidia-h100-80gb-hbm3/table-rows-count.py
"""


def wavefronts(addresses, width):
    per_phase = 128 // width
    actual = ideal = 0
    for first in range(0, 32, per_phase):
        phase = {a for a in addresses[first:first + per_phase] if a is not None}
        if not phase:
            continue
        groups = {}
        for a in phase:
            g = (a // width) % per_phase
            groups[g] = groups.get(g, 0) + 1
        actual += max(groups.values())
        ideal += -(-len(phase) * width // 128)
    return actual, ideal


def count(nodes, table_width, components, points, elements, real, rows):
    stride = ((nodes * table_width * real + 15) // 16 | 1) * 16 // real  # packed_table_row_stride
    threads = points * elements
    actual = ideal = 0
    for warp in range((threads + 31) // 32):
        lanes = [t if t < threads else None for t in range(warp * 32, warp * 32 + 32)]
        reads = []
        if rows:
            for k in range(0, nodes * table_width, 16 // real):
                reads.append(([None if t is None else ((t % points) * stride + k) * real for t in lanes], 16))
        else:
            for k in range(nodes * table_width):
                reads.append(([None if t is None else (k * points + t % points) * real for t in lanes], real))
        run = nodes * components * real
        vector = 16 if run % 16 == 0 else 8 if run % 8 == 0 else 4 if run % 4 == 0 else real
        for i in range(0, nodes * components, vector // real):
            reads.append(([None if t is None else (t // points) * run + i * real for t in lanes], vector))
        for addresses, width in reads:
            a, i = wavefronts(addresses, width)
            actual, ideal = actual + a, ideal + i
    return actual, ideal


CONFIGURATIONS = [  # name, nodes, W, C, Q, elements per block (the table's), bytes per real
    ("tri p2 C=1 reference gradients fp32", 6, 2, 1, 6, 16, 4),
    ("tri p3 C=1 reference gradients fp32", 10, 2, 1, 10, 16, 4),
    ("tet p2 C=1 reference gradients fp32", 10, 3, 1, 10, 16, 4),
    ("tri p3 C=1 reference gradients fp64", 10, 2, 1, 10, 16, 8),
    ("tet p2 C=1 reference gradients fp64", 10, 3, 1, 10, 16, 8),
    ("tet p3 C=1 reference gradients fp64", 20, 3, 1, 20, 8, 8),
]

if __name__ == "__main__":
    print(f"{'configuration':40} {'[n][w][q]':>18} {'16-byte rows':>18}")
    for name, n, w, c, q, e, real in CONFIGURATIONS:
        cells = []
        for rows in (False, True):
            a, i = count(n, w, c, q, e, real, rows)
            cells.append(f"{a:5d} ({100 * (a - i) / a:4.1f}% confl)")
        print(f"{name:40} {cells[0]:>18} {cells[1]:>18}")
