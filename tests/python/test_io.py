# SPDX-License-Identifier: BSD-3-Clause
"""feinterp.write_vtu, write_msh, write_npy, write_npz, write_csv: the library's writers from Python. Results of a
random field on a generated mesh, written and read back with NumPy, meshio and VTK's reader; every
number compared with what the plans computed; bad arguments refused by name, leaving no file."""
import csv
import os
import zipfile

import numpy
import pytest

import feinterp
from conftest import box_mesh

pytestmark = pytest.mark.skipif(not feinterp._feinterp.has_mesh, reason="feinterp built without FEINTERP_MESH")


def results_of(mesh, u, quantities=("values", "reference_gradients", "physical_gradients")):
    """One dict per block of the mesh's own dimension: where the points are and what the plans computed."""
    results = []
    for index, block in enumerate(mesh.blocks):
        plan = feinterp.Interpolator(block, 2 * block.type.order, mesh.coordinates, executor="cpu")
        result = {"block": index, "coordinates": plan.apply("values", mesh.coordinates)}
        if "values" in quantities:
            result["values"] = plan.apply("values", u)
        if "reference_gradients" in quantities:
            result["reference_gradients"] = plan.apply("reference_gradients", u)
        if "physical_gradients" in quantities:
            result["physical_gradients"], result["detj"] = plan.apply("physical_gradients", u)
        results.append(result)
    return results


def flat_rows(results, key, per_point):
    return numpy.concatenate([r[key].reshape(-1, per_point) for r in results])


@pytest.mark.parametrize("shape,order", [("triangle", 2), ("hexahedron", 1)])
def test_npy_and_csv_hold_every_number(tmp_path, rng, shape, order):
    mesh = box_mesh(shape, order)
    u = rng.standard_normal((mesh.node_count, 2))
    results = results_of(mesh, u)
    feinterp.write_npy(tmp_path / "out.npy", mesh, results)
    feinterp.write_csv(tmp_path / "out.csv", mesh, results)
    table = numpy.load(tmp_path / "out.npy")
    d, s = results[0]["reference_gradients"].shape[-1], mesh.space_dimension
    assert table.shape == (sum(r["detj"].size for r in results),)
    assert numpy.array_equal(numpy.column_stack([table[n] for n in ("x", "y", "z")]),
                             flat_rows(results, "coordinates", 3))
    assert numpy.array_equal(numpy.column_stack([table["u0"], table["u1"]]), flat_rows(results, "values", 2))
    axes = ("x", "y", "z")[:s]
    physical = numpy.column_stack([table[f"du{c}/d{a}"] for c in range(2) for a in axes])
    assert numpy.array_equal(physical, flat_rows(results, "physical_gradients", 2 * s))
    reference = numpy.column_stack([table[f"du{c}/d{a}"] for c in range(2) for a in ("xi", "eta", "zeta")[:d]])
    assert numpy.array_equal(reference, flat_rows(results, "reference_gradients", 2 * d))
    assert numpy.array_equal(table["detj"], flat_rows(results, "detj", 1)[:, 0])
    tags = numpy.concatenate([numpy.repeat(b.element_tags, results[0]["detj"].shape[1]) for b in mesh.blocks])
    assert numpy.array_equal(table["element"], tags)
    with open(tmp_path / "out.csv") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == table.dtype.names
    assert numpy.array_equal(numpy.array(rows[1:], dtype=float), table.view((float, len(rows[0]))).reshape(len(rows) - 1, -1))


@pytest.mark.parametrize("shape,order", [("tetrahedron", 2), ("quadrilateral", 1)])
def test_npz_holds_the_npy_columns_by_name(tmp_path, rng, shape, order):
    mesh = box_mesh(shape, order)
    u = rng.standard_normal(mesh.node_count)
    results = results_of(mesh, u)
    feinterp.write_npy(tmp_path / "out.npy", mesh, results)
    try:
        feinterp.write_npz(tmp_path / "out.npz", mesh, results)
    except ValueError as e:
        assert "libzip-dev" in str(e) and not (tmp_path / "out.npz").exists()
        pytest.skip("feinterp built without libzip: .npz refused")
    table = numpy.load(tmp_path / "out.npy")
    with numpy.load(tmp_path / "out.npz") as archive:
        assert tuple(archive.files) == table.dtype.names
        for name in table.dtype.names:
            assert archive[name].dtype == numpy.float64 and archive[name].shape == table.shape
            assert numpy.array_equal(archive[name], table[name], equal_nan=True), name
        assert numpy.array_equal(archive["du/dx"], flat_rows(results, "physical_gradients", mesh.space_dimension)[:, 0])
    with zipfile.ZipFile(tmp_path / "out.npz") as z:
        assert z.testzip() is None
        assert {info.compress_type for info in z.infolist()} == {zipfile.ZIP_STORED}
    with pytest.raises(ValueError, match='results\\[0\\]\\["block"\\] is 9'):
        feinterp.write_npz(tmp_path / "bad.npz", mesh, [dict(results[0], block=9)])
    assert sorted(os.listdir(tmp_path)) == ["out.npy", "out.npz"]


def test_vtu_reads_back_in_meshio_and_vtk(tmp_path, rng):
    meshio = pytest.importorskip("meshio")
    mesh = box_mesh("tetrahedron", 2)
    u = rng.standard_normal(mesh.node_count)
    results = results_of(mesh, u)
    for compression in ("zlib", "none"):
        path = tmp_path / f"out-{compression}.vtu"
        feinterp.write_vtu(path, mesh, u, results, name="u", compression=compression)
        head = open(path, "rb").read(400).decode("latin-1")
        assert ('compressor="vtkZLibDataCompressor"' in head) == (compression == "zlib")
        grid = meshio.read(path)
        assert numpy.array_equal(grid.points, mesh.coordinates)
        assert numpy.array_equal(grid.point_data["u"].ravel(), u)
        points = meshio.read(tmp_path / f"out-{compression}_points.vtu")
        assert numpy.array_equal(points.points, flat_rows(results, "coordinates", 3))
        detj = next(v for k, v in points.point_data.items() if k.lower().replace(" ", "") == "detj")
        assert numpy.array_equal(detj.ravel(), flat_rows(results, "detj", 1)[:, 0])
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(tmp_path / "out-zlib_points.vtu"))
    reader.Update()
    data = reader.GetOutput().GetPointData()
    names = [data.GetArrayName(i) for i in range(data.GetNumberOfArrays())]
    values = vtk_to_numpy(data.GetArray(next(n for n in names if n.endswith("values"))))
    assert numpy.array_equal(values.ravel(), flat_rows(results, "values", 1)[:, 0])


def test_msh_reads_back_in_meshio(tmp_path, rng):
    meshio = pytest.importorskip("meshio")
    mesh = box_mesh("triangle", 1)
    u = rng.standard_normal(mesh.node_count)
    feinterp.write_msh(tmp_path / "out.msh", mesh, u, results_of(mesh, u, ("values",)), name="u")
    read = meshio.read(tmp_path / "out.msh")
    assert numpy.array_equal(read.points[: mesh.node_count], mesh.coordinates)
    assert numpy.allclose(read.point_data["u"][: mesh.node_count].ravel(), u, rtol=0, atol=0)
    again = feinterp.load_msh(tmp_path / "out.msh")
    assert again.node_count >= mesh.node_count


def test_bad_results_are_refused_by_name_and_leave_no_file(tmp_path, rng):
    mesh = box_mesh("triangle", 1)
    u = rng.standard_normal(mesh.node_count)
    good = results_of(mesh, u)
    path = tmp_path / "out.npy"
    cases = [
        ([], ValueError, "results is empty"),
        ([{"block": 0}], ValueError, 'results[0]["coordinates"] is missing'),
        ([dict(good[0], block=7)], ValueError, 'results[0]["block"] is 7'),
        ([dict(good[0], values=good[0]["values"][:-1])], ValueError, 'results[0]["values"] has shape'),
        ([{k: v for k, v in good[0].items() if k != "detj"}], ValueError, 'results[0]["detj"] is missing'),
        ([dict(good[0], reference_gradients=good[0]["reference_gradients"][..., :1])], ValueError,
         'results[0]["reference_gradients"] has shape'),
    ]
    for results, error, message in cases:
        with pytest.raises(error) as caught:
            feinterp.write_npy(path, mesh, results)
        assert message in str(caught.value)
        assert not path.exists()
    with pytest.raises(ValueError, match="one row per node"):
        feinterp.write_vtu(tmp_path / "out.vtu", mesh, u[:-1], good)
    with pytest.raises(ValueError, match="compression"):
        feinterp.write_vtu(tmp_path / "out.vtu", mesh, u, good, compression="gzip")
    with pytest.raises(ValueError, match="values"):
        feinterp.write_msh(tmp_path / "out.msh", mesh, u, results_of(mesh, u, ("physical_gradients",)))
    with pytest.raises(Exception):
        feinterp.write_csv(tmp_path / "missing-folder" / "out.csv", mesh, good)
    assert sorted(os.listdir(tmp_path)) == []
