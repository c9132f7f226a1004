#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Reads feinterp's .vtu, .pvtu, .msh, .npy and .npz outputs back with the readers their users have, and compares them
with the CSV of the same run (tests/apps/outputs_cli_test.cpp runs it).

  read_outputs.py vtu OUT.vtu OUT_points.vtu OUT.csv CELL_TYPE [none]
                                                                 VTK's XML reader (ParaView's), and meshio
                                                                 for every file of format version 1.0;
                                                                 compressed with zlib, or raw with "none"
  read_outputs.py msh OUT.msh OUT.csv GROUPED                    meshio: the mesh, the points, the field at
                                                                 every node; physical tags iff GROUPED is 1
  read_outputs.py npy OUT.npy OUT.csv                            numpy.load: a structured array, one float64
                                                                 field per CSV column, named as its header
  read_outputs.py pvtu OUT.pvtu WHOLE.vtu|- PIECE.vtu...         VTK's vtkXMLPUnstructuredGridReader: the
                                                                 pieces' points, cells, point and cell data
                                                                 appended in order; and, unless "-", the
                                                                 points and point data of WHOLE.vtu
  read_outputs.py npz OUT.npz OUT.csv                            numpy.load: one float64 member per CSV
                                                                 column, in its order, each numpy.save's
                                                                 bytes for that column, stored uncompressed

The field must be 1 + 2x + 3y - z. Exit status: 0 passed, 1 failed (with what), 77 the reader's Python
module is missing (the test then skips).
"""
import csv
import math
import sys


def fail(message):
    print("read_outputs: " + message)
    sys.exit(1)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) if x != "" else math.nan for x in row] for row in rows[1:]]


def check_compression(path, raw):
    """The VTKFile's compressor: none for a raw file, VTK's zlib one otherwise (feinterp built without zlib
    writes raw files by default: both are accepted then)."""
    with open(path, "rb") as f:
        head = f.read(400).decode("latin-1")
    compressed = 'compressor="vtkZLibDataCompressor"' in head
    if raw and compressed:
        fail("%s: compressed, --vtu-compression none asked for a raw file" % path)
    if not compressed and "compressor=" in head:
        fail("%s: a compressor other than vtkZLibDataCompressor" % path)


def check_vtu(grid_path, points_path, csv_path, cell_type, raw=False):
    try:
        import numpy as np
        import vtk
        from vtk.util.numpy_support import vtk_to_numpy
    except ImportError as e:
        print("read_outputs: SKIPPED: VTK's Python module is missing (Debian: python3-vtk9): %s" % e)
        sys.exit(77)

    def read(path):
        reader = vtk.vtkXMLUnstructuredGridReader()
        reader.SetFileName(path)
        reader.Update()
        if reader.GetErrorCode() != 0:
            fail("%s: VTK's reader reports error %d" % (path, reader.GetErrorCode()))
        return reader.GetOutput()

    check_compression(grid_path, raw)
    check_compression(points_path, raw)
    grid = read(grid_path)
    if grid.GetNumberOfCells() == 0:
        fail("%s: no cells" % grid_path)
    points = vtk_to_numpy(grid.GetPoints().GetData())
    field = vtk_to_numpy(grid.GetPointData().GetArray("1+2*x+3*y-z"))
    expected = 1 + 2 * points[:, 0] + 3 * points[:, 1] - points[:, 2]
    if np.abs(field - expected).max() > 1e-12:
        fail("the nodal field differs from 1+2x+3y-z by %g" % np.abs(field - expected).max())
    # Node order: every cell is straight-sided (a generated box), so each of its nodes is the image of
    # VTK's own parametric point for that node under the map of the cell's vertices: affine for
    # simplices, multilinear for quadrilaterals and hexahedra. A node in the wrong place breaks it.
    corners = {68: [(0,), (1,)], 69: None, 70: [(0, 0), (1, 0), (1, 1), (0, 1)], 71: None,
               72: [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]}
    corners[3], corners[9], corners[12] = corners[68], corners[70], corners[72]
    worst = 0.0
    for c in range(grid.GetNumberOfCells()):
        cell = grid.GetCell(c)
        if cell.GetCellType() != cell_type:
            fail("cell %d has VTK type %d, expected %d" % (c, cell.GetCellType(), cell_type))
        n = cell.GetNumberOfPoints()
        pcoords = cell.GetParametricCoords()
        x = np.array([grid.GetPoint(cell.GetPointId(i)) for i in range(n)])
        for i in range(n):
            u = pcoords[3 * i:3 * i + 3]
            if corners.get(cell_type) is None:  # simplex: affine
                dim = {69: 2, 71: 3, 5: 2, 10: 3}[cell_type]
                y = x[0] + sum(u[k] * (x[k + 1] - x[0]) for k in range(dim))
            else:
                y = np.zeros(3)
                for k, corner in enumerate(corners[cell_type]):
                    w = 1.0
                    for a, bit in enumerate(corner):
                        w *= u[a] if bit else 1 - u[a]
                    y += w * x[k]
            worst = max(worst, float(np.abs(y - x[i]).max()))
    if worst > 1e-9:
        fail("a node is %g away from where VTK's node order puts it" % worst)

    cloud = read(points_path)
    header, rows = read_csv(csv_path)
    table = np.array(rows)
    if cloud.GetNumberOfPoints() != len(rows):
        fail("%d points, the CSV has %d rows" % (cloud.GetNumberOfPoints(), len(rows)))
    xyz = vtk_to_numpy(cloud.GetPoints().GetData())
    if not np.array_equal(xyz, table[:, 3:6]):
        fail("the points differ from the CSV's x, y, z")
    column = {name: i for i, name in enumerate(header)}
    for array, names in [("1+2*x+3*y-z values", ["u"]), ("det J", ["detj"]),
                         ("1+2*x+3*y-z physical gradients", [n for n in header if n.startswith("du/d") and n[4:] in "xyz"])]:
        data = vtk_to_numpy(cloud.GetPointData().GetArray(array)).reshape(len(rows), -1)
        if not np.array_equal(data, table[:, [column[n] for n in names]]):
            fail("'%s' differs from the CSV" % array)
    # Debian 12's meshio 5.0.0 stops with "ValueError: buffer size must be a multiple of element size" on the
    # grid of p = 3 lines (Lagrange curves, VTK type 68), where VTK reads it: that grid is left to VTK.
    if cell_type != 68:
        check_meshio(grid_path, points, field, "1+2*x+3*y-z")
    check_meshio(points_path, xyz, table[:, column["detj"]], "det J")
    print("read_outputs: %s (%d cells) and %s (%d points) match the CSV" %
          (grid_path, grid.GetNumberOfCells(), points_path, cloud.GetNumberOfPoints()))


def check_meshio(path, points, values, array):
    """meshio (Debian's python3-meshio) reads a file of format version 1.0: the same points and point array
    as VTK's reader. Version 2.2, written only for hexahedra of order 2 and 3 (VTK 9.1's node order), is
    one meshio 5 refuses; a missing meshio skips this part."""
    import numpy as np
    import re
    with open(path, "rb") as f:
        head = f.read(300).decode("latin-1")
    version = re.search(r'<VTKFile[^>]*\sversion="([^"]*)"', head)
    if not version or version.group(1) not in ("1.0", "2.2"):
        fail("%s: the VTKFile's format version is not 1.0 or 2.2" % path)
    if version.group(1) != "1.0":
        return
    try:
        import meshio
    except ImportError:
        print("read_outputs: meshio is missing (Debian: python3-meshio): %s not read with it" % path)
        return
    mesh = meshio.read(path)
    if not np.array_equal(mesh.points, points):
        fail("%s: meshio's points differ from VTK's" % path)
    data = np.asarray(mesh.point_data[array]).reshape(len(points), -1)
    if not np.array_equal(data, np.asarray(values).reshape(len(points), -1)):
        fail("%s: meshio's '%s' differs" % (path, array))


def check_msh(msh_path, csv_path, grouped):
    """meshio reads the .msh: the quadrature points are its last nodes, in the CSV's order, one vertex cell
    each; the field (1 + 2x + 3y - z, linear: exact at any point) is there at every node, the mesh's and the
    points'; every cell block has a physical tag when the mesh's elements all had one, and none has one
    otherwise."""
    try:
        import numpy as np
        import meshio
    except ImportError as e:
        print("read_outputs: SKIPPED: meshio or NumPy is missing (Debian: python3-meshio): %s" % e)
        sys.exit(77)
    mesh = meshio.read(msh_path)
    header, rows = read_csv(csv_path)
    table = np.array(rows)
    x = mesh.points
    if len(x) <= len(rows) or not np.array_equal(x[-len(rows):], table[:, 3:6]):
        fail("%s: the last %d of its %d nodes are not the CSV's points" % (msh_path, len(rows), len(x)))
    vertices = sum(len(block.data) for block in mesh.cells if block.type == "vertex")
    if vertices != len(rows):
        fail("%s: %d vertex cells, the CSV has %d points" % (msh_path, vertices, len(rows)))
    field = np.asarray(mesh.point_data["1+2*x+3*y-z"]).reshape(len(x), -1)[:, 0]
    expected = 1 + 2 * x[:, 0] + 3 * x[:, 1] - x[:, 2]
    if np.abs(field - expected).max() > 1e-12 * max(1.0, np.abs(expected).max()):
        fail("%s: the field differs from 1+2x+3y-z by %g" % (msh_path, np.abs(field - expected).max()))
    physical = mesh.cell_data.get("gmsh:physical")
    if grouped and (physical is None or len(physical) != len(mesh.cells)):
        fail("%s: not every cell block has a physical tag" % msh_path)
    if not grouped and physical is not None:
        fail("%s: physical tags in a mesh that had none" % msh_path)
    print("read_outputs: %s (%d nodes, %d cell blocks) matches the CSV" % (msh_path, len(x), len(mesh.cells)))


def check_npy(npy_path, csv_path):
    try:
        import numpy as np
    except ImportError as e:
        print("read_outputs: SKIPPED: NumPy is missing (Debian: python3-numpy): %s" % e)
        sys.exit(77)
    array = np.load(npy_path)
    header, rows = read_csv(csv_path)
    table = np.array(rows)
    if array.dtype.names != tuple(header):
        fail("%s: fields %s, expected the CSV's columns %s" % (npy_path, array.dtype.names, header))
    if any(array.dtype[name] != np.dtype("<f8") for name in header) or array.shape != (table.shape[0],):
        fail("%s: %s %s, expected float64 fields and shape (%d,)" % (npy_path, array.dtype, array.shape, table.shape[0]))
    for i, name in enumerate(header):
        if not np.array_equal(array[name], table[:, i], equal_nan=True):
            fail("%s: column %s differs from the CSV" % (npy_path, name))
    print("read_outputs: %s (%d rows, %d named columns) matches the CSV" % (npy_path, array.shape[0], len(header)))


def check_pvtu(pvtu_path, whole_path, piece_paths):
    try:
        import numpy as np
        import vtk
        from vtk.util.numpy_support import vtk_to_numpy
    except ImportError as e:
        print("read_outputs: SKIPPED: VTK's Python module is missing (Debian: python3-vtk9): %s" % e)
        sys.exit(77)

    def read(path, reader):
        reader.SetFileName(path)
        reader.Update()
        if reader.GetErrorCode() != 0:
            fail("%s: VTK's reader reports error %d" % (path, reader.GetErrorCode()))
        return reader.GetOutput()

    def arrays(data):
        return {data.GetArrayName(i): vtk_to_numpy(data.GetArray(i)) for i in range(data.GetNumberOfArrays())}

    grid = read(pvtu_path, vtk.vtkXMLPUnstructuredGridReader())
    pieces = [read(p, vtk.vtkXMLUnstructuredGridReader()) for p in piece_paths]
    if grid.GetNumberOfPoints() != sum(p.GetNumberOfPoints() for p in pieces) or \
            grid.GetNumberOfCells() != sum(p.GetNumberOfCells() for p in pieces):
        fail("%s: %d points and %d cells, expected the pieces' %d and %d" % (
            pvtu_path, grid.GetNumberOfPoints(), grid.GetNumberOfCells(), sum(p.GetNumberOfPoints() for p in pieces),
            sum(p.GetNumberOfCells() for p in pieces)))
    points = vtk_to_numpy(grid.GetPoints().GetData())
    if not np.array_equal(points, np.concatenate([vtk_to_numpy(p.GetPoints().GetData()) for p in pieces])):
        fail("%s: the points are not the pieces' in order" % pvtu_path)
    for kind in ("GetPointData", "GetCellData"):
        read_arrays = arrays(getattr(grid, kind)())
        piece_arrays = [arrays(getattr(p, kind)()) for p in pieces]
        if sorted(read_arrays) != sorted(piece_arrays[0]) or (kind == "GetPointData" and not read_arrays):
            fail("%s: %s arrays %s, expected the pieces' %s" % (pvtu_path, kind[3:], sorted(read_arrays), sorted(piece_arrays[0])))
        for name, values in read_arrays.items():
            if not np.array_equal(values, np.concatenate([a[name] for a in piece_arrays]), equal_nan=True):
                fail("%s: %s array %s is not the pieces' appended" % (pvtu_path, kind[3:], name))
    if whole_path != "-":
        whole = read(whole_path, vtk.vtkXMLUnstructuredGridReader())
        if not np.array_equal(points, vtk_to_numpy(whole.GetPoints().GetData())):
            fail("%s: the points are not %s's" % (pvtu_path, whole_path))
        expected = arrays(whole.GetPointData())
        read_arrays = arrays(grid.GetPointData())
        if sorted(read_arrays) != sorted(expected):
            fail("%s: point data %s, expected %s's %s" % (pvtu_path, sorted(read_arrays), whole_path, sorted(expected)))
        for name, values in expected.items():
            if not np.array_equal(read_arrays[name], values, equal_nan=True):
                fail("%s: point data %s differs from %s's" % (pvtu_path, name, whole_path))
    print("read_outputs: %s (%d pieces, %d points, %d cells) is the pieces' union" % (
        pvtu_path, len(pieces), grid.GetNumberOfPoints(), grid.GetNumberOfCells()))


def check_npz(npz_path, csv_path):
    try:
        import io
        import zipfile

        import numpy as np
    except ImportError as e:
        print("read_outputs: SKIPPED: NumPy is missing (Debian: python3-numpy): %s" % e)
        sys.exit(77)
    header, rows = read_csv(csv_path)
    table = np.array(rows).reshape(len(rows), len(header))
    with np.load(npz_path) as archive:
        if archive.files != header:
            fail("%s: members %s, expected the CSV's columns %s in order" % (npz_path, archive.files, header))
        for i, name in enumerate(header):
            column = archive[name]
            if column.dtype != np.dtype("<f8") or column.shape != (table.shape[0],):
                fail("%s: %s is %s %s, expected float64 (%d,)" % (npz_path, name, column.dtype, column.shape, table.shape[0]))
            if not np.array_equal(column, table[:, i], equal_nan=True):
                fail("%s: column %s differs from the CSV" % (npz_path, name))
    with zipfile.ZipFile(npz_path) as z:
        for info in z.infolist():
            if info.compress_type != zipfile.ZIP_STORED:
                fail("%s: member %s is compressed (method %d), expected stored" % (npz_path, info.filename, info.compress_type))
            saved = io.BytesIO()
            np.save(saved, np.load(io.BytesIO(z.read(info))))
            if saved.getvalue() != z.read(info):
                fail("%s: member %s is not what numpy.save writes for its column" % (npz_path, info.filename))
    print("read_outputs: %s (%d rows, %d named members) matches the CSV" % (npz_path, table.shape[0], len(header)))


if __name__ == "__main__":
    if len(sys.argv) in (6, 7) and sys.argv[1] == "vtu":
        check_vtu(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6:] == ["none"])
    elif len(sys.argv) == 5 and sys.argv[1] == "msh":
        check_msh(sys.argv[2], sys.argv[3], sys.argv[4] == "1")
    elif len(sys.argv) == 4 and sys.argv[1] == "npy":
        check_npy(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 5 and sys.argv[1] == "pvtu":
        check_pvtu(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "npz":
        check_npz(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)
