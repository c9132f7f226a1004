// SPDX-License-Identifier: BSD-3-Clause
// feinterp.write_vtu, write_msh, write_npy, write_npz, write_csv: the library's writers (io/) over NumPy arrays, the
// same files as `feinterp interpolate --output`. A Python caller holds each block's results whole, so
// each block is one chunk of the streamed writers (io/point_results.hpp).
//
//   results = [{"block": 0, "coordinates": x, "values": v, "physical_gradients": g, "detj": j}, ...]
//   feinterp.write_vtu("out.vtu", mesh, u, results)        # out.vtu (mesh + u) and out_points.vtu
//
// Per block b of the mesh (E elements, Q points each): "coordinates" (E, Q, 3), where the points are (a
// plan's "values" of mesh.coordinates); and any of "values" (E, Q, C) or (E, Q) for C = 1,
// "reference_gradients" (E, Q, C, d), "physical_gradients" (E, Q, C, s) with "detj" (E, Q): every
// block the same quantities. Host arrays (NumPy or anything with __array__), converted to float64.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/io/msh_output.hpp>
#include <feinterp/io/point_results.hpp>
#include <feinterp/io/results_csv.hpp>
#include <feinterp/io/results_npy.hpp>
#include <feinterp/io/results_npz.hpp>
#include <feinterp/io/vtu_output.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

namespace {

using io::PointChunk;
using io::PointLayout;
using io::PointResultsWriter;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

struct BlockArrays {
  std::size_t block = 0;
  Array coordinates, values, reference_gradients, physical_gradients, detj;
};

// results[i][key] as a C-ordered float64 array of `dims` leading dimensions checked against `expected`
// (-1: any), or an empty array where the key is absent and not `required`.
Array entry(const py::dict& result, const char* key, std::size_t i, const std::vector<py::ssize_t>& expected,
            bool required) {
  const std::string where = "results[" + std::to_string(i) + "][\"" + key + "\"]";
  if (!result.contains(key)) {
    if (required) throw py::value_error(where + " is missing");
    return Array();
  }
  const py::object object = result[key];
  if (py::hasattr(object, "__cuda_array_interface__") || py::hasattr(object, "__dlpack_device__")) {
    if (!py::isinstance<py::array>(object))
      throw py::type_error(where + ": a device array; expected host memory (copy it with cupy.asnumpy or "
                                   "tensor.cpu())");
  }
  Array array = Array::ensure(object);
  if (!array) throw py::type_error(where + ": expected an array of numbers");
  std::string shape = "(";
  for (py::ssize_t k = 0; k < array.ndim(); ++k) shape += (k ? ", " : "") + std::to_string(array.shape(k));
  shape += array.ndim() == 1 ? ",)" : ")";
  std::string wanted = "(";
  for (std::size_t k = 0; k < expected.size(); ++k)
    wanted += (k ? ", " : "") + (expected[k] < 0 ? std::string("any") : std::to_string(expected[k]));
  wanted += ")";
  bool ok = array.ndim() == py::ssize_t(expected.size());
  for (std::size_t k = 0; ok && k < expected.size(); ++k) ok = expected[k] < 0 || array.shape(k) == expected[k];
  if (!ok) throw py::value_error(where + " has shape " + shape + "; expected " + wanted);
  return array;
}

// The layout and the blocks' arrays, every shape checked against the mesh and the other blocks.
PointLayout layout_of(const Mesh& mesh, const py::list& results, std::vector<BlockArrays>& arrays) {
  if (results.empty()) throw py::value_error("results is empty; expected one dict per block written");
  PointLayout layout;
  layout.space_dimension = mesh.space_dimension;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!py::isinstance<py::dict>(results[i]))
      throw py::type_error("results[" + std::to_string(i) + "] is not a dict");
    const py::dict result = results[i];
    BlockArrays a;
    if (!result.contains("block")) throw py::value_error("results[" + std::to_string(i) + "][\"block\"] is missing");
    const long long b = result["block"].cast<long long>();
    if (b < 0 || std::size_t(b) >= mesh.blocks.size())
      throw py::value_error("results[" + std::to_string(i) + "][\"block\"] is " + std::to_string(b) +
                            "; expected an index of mesh.blocks, 0 to " + std::to_string(mesh.blocks.size() - 1));
    a.block = std::size_t(b);
    const ElementBlock& block = mesh.blocks[a.block];
    const py::ssize_t E = block.element_count(), d = dimension(block.type.shape), S = mesh.space_dimension;
    a.coordinates = entry(result, "coordinates", i, {E, -1, 3}, true);
    const py::ssize_t Q = a.coordinates.shape(1);
    const bool has_values = result.contains("values");
    if (has_values) {
      const py::object v = result["values"];
      const bool scalar = py::array(v).ndim() == 2;
      a.values = entry(result, "values", i, scalar ? std::vector<py::ssize_t>{E, Q} : std::vector<py::ssize_t>{E, Q, -1}, true);
    }
    const int C = has_values && a.values.ndim() == 3 ? int(a.values.shape(2)) : 1;
    a.reference_gradients = entry(result, "reference_gradients", i, {E, Q, C, d}, false);
    a.physical_gradients = entry(result, "physical_gradients", i, {E, Q, C, S}, false);
    a.detj = entry(result, "detj", i, {E, Q}, a.physical_gradients.size() > 0);
    const bool reference = a.reference_gradients.size() > 0 || result.contains("reference_gradients");
    const bool physical = a.physical_gradients.size() > 0 || result.contains("physical_gradients");
    if (i == 0) {
      layout.components = has_values ? C : 1;
      layout.values = has_values;
      layout.reference_gradients = reference;
      layout.physical_gradients = physical;
      if (!has_values && reference) layout.components = int(a.reference_gradients.shape(2));
      if (!has_values && !reference && physical) layout.components = int(a.physical_gradients.shape(2));
    } else if (layout.values != has_values || layout.reference_gradients != reference ||
               layout.physical_gradients != physical) {
      throw py::value_error("results[" + std::to_string(i) + "] holds other quantities than results[0]; expected the "
                            "same ones (values, reference_gradients, physical_gradients) for every block");
    }
    layout.blocks.push_back({a.block, std::size_t(E), int(Q), int(d)});
    arrays.push_back(std::move(a));
  }
  return layout;
}

// Every block as one chunk, in order.
void write_all(PointResultsWriter& writer, const Mesh& mesh, const PointLayout& layout,
               const std::vector<BlockArrays>& arrays) {
  writer.begin(layout);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const BlockArrays& a = arrays[i];
    PointChunk chunk;
    chunk.block = i;
    chunk.elements = layout.blocks[i].elements;
    chunk.element_tags = mesh.blocks[a.block].element_tags.data();
    chunk.coordinates = a.coordinates.data();
    chunk.values = a.values.size() ? a.values.data() : nullptr;
    chunk.reference_gradients = a.reference_gradients.size() ? a.reference_gradients.data() : nullptr;
    chunk.physical_gradients = a.physical_gradients.size() ? a.physical_gradients.data() : nullptr;
    chunk.detj = a.detj.size() ? a.detj.data() : nullptr;
    writer.write(chunk);
  }
  writer.finish();
}

// The nodal field u (N, C) or (N,) as the writers take it.
NodalField nodal_field(const Mesh& mesh, const py::object& u, const std::string& name) {
  const Array array = Array::ensure(u);
  if (!array) throw py::type_error("the field: expected a host array of numbers (N, C) or (N,)");
  const py::ssize_t N = mesh.node_count();
  if (array.ndim() < 1 || array.ndim() > 2 || array.shape(0) != N)
    throw py::value_error("the field has " + std::to_string(array.ndim()) + " dimensions and " +
                          std::to_string(array.ndim() ? array.shape(0) : 0) + " rows; expected (" + std::to_string(N) +
                          ", C) or (" + std::to_string(N) + ",): one row per node of the mesh");
  NodalField field;
  field.name = name;
  field.components = array.ndim() == 2 ? int(array.shape(1)) : 1;
  field.values.assign(array.data(), array.data() + array.size());
  return field;
}

using MeshPtr = std::shared_ptr<Mesh>;

// write_npy, write_npz, write_csv: the results table alone, one writer constructed from the path.
template <class Writer>
void bind_table_writer(py::module_& m, const char* name, const char* doc) {
  m.def(
      name,
      [](const py::object& path, const MeshPtr& mesh, const py::list& results) {
        std::vector<BlockArrays> arrays;
        const PointLayout layout = layout_of(*mesh, results, arrays);
        Writer writer(py::str(path).cast<std::string>());
        py::gil_scoped_release release;
        write_all(writer, *mesh, layout, arrays);
      },
      py::arg("path"), py::arg("mesh"), py::arg("results"), doc);
}

}  // namespace

void bind_io(py::module_& m) {
  m.def(
      "write_vtu",
      [](const py::object& path, const MeshPtr& mesh, const py::object& u, const py::list& results,
         const std::string& name, const std::string& compression) {
        if (compression != "zlib" && compression != "none")
          throw py::value_error("compression '" + compression + "': expected 'zlib' or 'none'");
        const NodalField field = nodal_field(*mesh, u, name);
        std::vector<BlockArrays> arrays;
        const PointLayout layout = layout_of(*mesh, results, arrays);
        io::VtuWriter writer(py::str(path).cast<std::string>(), *mesh, field,
                             compression == "zlib" ? io::VtuCompression::zlib : io::VtuCompression::none);
        py::gil_scoped_release release;
        write_all(writer, *mesh, layout, arrays);
      },
      py::arg("path"), py::arg("mesh"), py::arg("u"), py::arg("results"), py::arg("name") = "u",
      py::arg("compression") = "zlib",
      "PATH.vtu (the mesh as VTK cells of its order with the nodal field u) and PATH_points.vtu (the points "
      "with every quantity of `results`), VTK XML, zlib-compressed unless compression='none'; ParaView, VTK "
      "and meshio read both. Each file is written whole or not at all.");
  m.def(
      "write_msh",
      [](const py::object& path, const MeshPtr& mesh, const py::object& u, const py::list& results,
         const std::string& name) {
        const NodalField field = nodal_field(*mesh, u, name);
        std::vector<BlockArrays> arrays;
        const PointLayout layout = layout_of(*mesh, results, arrays);
        if (!layout.values)
          throw py::value_error("write_msh: results hold no \"values\"; expected them: the file's field view "
                                "covers the points");
        io::MshPointsWriter writer(py::str(path).cast<std::string>(), *mesh, field);
        py::gil_scoped_release release;
        write_all(writer, *mesh, layout, arrays);
      },
      py::arg("path"), py::arg("mesh"), py::arg("u"), py::arg("results"), py::arg("name") = "u",
      "PATH.msh for Gmsh: the mesh with its physical groups, u as a NodeData view, and every quantity of "
      "`results` as a point view where the points are (meshio reads the mesh, its groups and u).");
  bind_table_writer<io::NpyWriter>(
      m, "write_npy",
      "PATH.npy: one row per point, a NumPy structured array whose fields are the CSV's columns (block, "
      "element, point, x, y, z, u, du/dxi, ..., detj): numpy.load(PATH)['du/dx'].");
  bind_table_writer<io::NpzWriter>(
      m, "write_npz",
      "PATH.npz (numpy.savez's format): one float64 array of the rows per CSV column, named as the column: "
      "numpy.load(PATH)['du/dx'], numpy.load(PATH).files the CSV's header. ValueError where feinterp was "
      "built without libzip.");
  bind_table_writer<io::CsvWriter>(
      m, "write_csv",
      "PATH.csv: a header line, then one line per point (block, element, point, x, y, z, the quantities).");
}

}  // namespace feinterp::python
