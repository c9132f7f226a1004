# SPDX-License-Identifier: BSD-3-Clause
# Meshes from Python: load_msh and generate_mesh give blocks whose arrays are read-only NumPy views of
# the C++ mesh (no copy: they keep the mesh alive after the Mesh object is gone), node tags and physical
# groups as the file has them.
import gc
import os
import pathlib

import numpy
import pytest

import feinterp
from conftest import data_file


def test_load_msh_blocks_and_groups():
    mesh = feinterp.load_msh(data_file("msh-corpus/tri1_named_v41a.msh"))
    assert mesh.space_dimension == 2 and mesh.dimension == 2
    block = mesh.blocks[0]
    assert block.type == feinterp.ElementType("triangle", 1)
    assert block.connectivity.shape == (block.element_count, 3) and block.connectivity.dtype == numpy.int32
    assert block.connectivity.min() >= 0 and block.connectivity.max() < mesh.node_count
    assert mesh.coordinates.shape == (mesh.node_count, 3) and not mesh.coordinates[:, 2].any()
    assert mesh.node_tags.dtype == numpy.uint64 and len(numpy.unique(mesh.node_tags)) == mesh.node_count
    assert block.element_tags.shape == (block.element_count,)
    assert any(g.name for g in mesh.physical_groups)


def test_views_are_zero_copy_read_only_and_keep_the_mesh():
    mesh = feinterp.generate_mesh(feinterp.ElementType("hex", 2), 200, 1, "ball", boundary=True)
    names = sorted(g.name for g in mesh.physical_groups)
    assert names == ["boundary", "domain"]
    assert [b.type.shape.name for b in mesh.blocks] == ["hexahedron", "quadrilateral"]
    connectivity = mesh.blocks[0].connectivity
    assert connectivity.base is not None and not connectivity.flags.writeable
    # Two views of the same vector share their memory: they are the mesh's, not copies.
    assert numpy.shares_memory(connectivity, mesh.blocks[0].connectivity)
    with pytest.raises(ValueError):
        connectivity[0, 0] = 1
    copy = connectivity.copy()
    del mesh
    gc.collect()
    assert numpy.array_equal(connectivity, copy)


def test_a_loaded_block_interpolates(rng):
    mesh = feinterp.load_msh(data_file("msh-corpus/tet2_v41a.msh"))
    block = mesh.blocks[0]
    plan = feinterp.Interpolator(block, 2, mesh.coordinates)
    a = rng.standard_normal(3)
    u = mesh.coordinates @ a  # linear: its physical gradient is a everywhere
    gradients, detj = plan.apply("physical_gradients", u)
    assert numpy.abs(gradients - a).max() < 1e-10 * numpy.abs(a).max()
    assert (detj != 0).all()


@pytest.mark.parametrize("method", ["rcm", "hilbert"])
def test_renumbered_meshes_keep_their_tags_and_map_results_back(method, rng):
    plain = feinterp.generate_mesh(feinterp.ElementType("tet", 2), 300, 2, boundary=True, shuffle_nodes=True)
    mesh = feinterp.generate_mesh(feinterp.ElementType("tet", 2), 300, 2, boundary=True, shuffle_nodes=True,
                                  renumber=method)
    assert plain.renumbering is None
    r = mesh.renumbering
    assert r["method"] == method
    new_to_old, old_to_new = r["nodes_new_to_old"], r["nodes_old_to_new"]
    assert numpy.array_equal(numpy.sort(new_to_old), numpy.arange(mesh.node_count))
    assert numpy.array_equal(old_to_new[new_to_old], numpy.arange(mesh.node_count))
    assert numpy.array_equal(mesh.node_tags, plain.node_tags[new_to_old])
    assert numpy.array_equal(mesh.coordinates, plain.coordinates[new_to_old])
    for b, (block, original) in enumerate(zip(mesh.blocks, plain.blocks)):
        elements = r["elements_new_to_old"][b]
        assert numpy.array_equal(block.element_tags, original.element_tags[elements])
        # The same elements, node for node: connectivity renamed through the node permutation.
        assert numpy.array_equal(new_to_old[block.connectivity], original.connectivity[elements])
    # Results on the renumbered mesh, put back in the original element order, are the original's.
    u = rng.standard_normal((plain.node_count, 2))
    expected, _ = feinterp.Interpolator(plain.blocks[0], 4, plain.coordinates).apply("physical_gradients", u)
    got, _ = feinterp.Interpolator(mesh.blocks[0], 4, mesh.coordinates).apply("physical_gradients", u[new_to_old])
    back = got[r["elements_old_to_new"][0]]
    assert numpy.abs(back - expected).max() <= 1e-14 * numpy.abs(expected).max()


def test_load_msh_renumber_and_bad_methods():
    path = data_file("msh-corpus/tri1_views_v41a.msh")
    plain = feinterp.load_msh(path)
    mesh = feinterp.load_msh(path, renumber="rcm")
    order = mesh.renumbering["nodes_new_to_old"]
    assert numpy.array_equal(mesh.node_tags, plain.node_tags[order])
    for name, field in plain.fields.items():
        assert numpy.array_equal(mesh.fields[name], field[order])
    with pytest.raises(ValueError, match="expected none, rcm or hilbert"):
        feinterp.load_msh(path, renumber="morton")
    with pytest.raises(feinterp.InvalidArgumentError):
        feinterp.generate_mesh(feinterp.ElementType("tri", 1), 50, renumber="random")


class PathLike:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


def test_load_msh_takes_str_bytes_and_path_like():
    path = data_file("msh-corpus/tri1_named_v41a.msh")
    expected = feinterp.load_msh(path).node_count
    for spelling in (os.fsencode(path), pathlib.Path(path), PathLike(path), PathLike(os.fsencode(path))):
        assert feinterp.load_msh(spelling).node_count == expected
    with pytest.raises(TypeError, match="^path: expected a path"):
        feinterp.load_msh(3)


def test_paths_with_a_nul_are_refused(rng):
    # The OS reads a path up to its first NUL: "mesh.msh\0.txt" would open mesh.msh, "/etc/passwd\0.msh" /etc/passwd.
    path = data_file("msh-corpus/tri1_named_v41a.msh")
    cut = int(rng.integers(1, len(path) + 1))
    for name in (path + "\0.msh", path[:cut] + "\0" + path[cut:], "/etc/passwd\0.msh"):
        for spelling in (name, os.fsencode(name), PathLike(name), pathlib.PurePosixPath(name)):
            with pytest.raises(ValueError, match=r"^path: the path has a NUL character at byte \d+"):
                feinterp.load_msh(spelling)
