// SPDX-License-Identifier: BSD-3-Clause
// Meshes (mesh/mesh.hpp): load_msh and generate_mesh return a Mesh whose arrays are NumPy views of the
// C++ vectors, not copies: each view's base holds the mesh, so a block's connectivity outlives the Mesh
// object that gave it. The views are read-only: the loader's checks (tags, finite coordinates) would no
// longer hold after a write. A plan built from them copies what it keeps, as it does any host array.
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/renumber.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>

#include <feinterp/python/src/arguments.hpp>
#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

namespace {

using MeshPtr = std::shared_ptr<Mesh>;  // pybind11 holders are of non-const types; the views are read-only

/// A read-only view of `count` x `columns` values owned by `mesh`.
template <class T>
py::array view(const MeshPtr& mesh, const T* data, std::vector<py::ssize_t> shape) {
  auto* owner = new MeshPtr(mesh);
  py::capsule base(owner, [](void* p) { delete static_cast<MeshPtr*>(p); });
  py::array_t<T> a(shape, data, base);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(a);
}

/// One block of a mesh, by index: holding the mesh keeps the views valid.
struct Block {
  MeshPtr mesh;
  std::size_t index;
  const ElementBlock& block() const { return mesh->blocks[index]; }
};

MeshPtr generate(ElementType type, py::handle target_elements, py::handle seed, const std::string& domain,
                 bool boundary, bool shuffle_nodes, const std::string& renumber_name) {
  const RenumberMethod method = parse_renumber_method(renumber_name);
  GenerateOptions options;
  options.type = type;
  options.target_elements = integer_argument<offset_t>(target_elements, "target_elements", 1);
  options.seed = integer_argument<unsigned>(seed, "seed");
  options.boundary = boundary;
  options.shuffle_nodes = shuffle_nodes;
  if (domain == "box") options.domain = Domain::box;
  else if (domain == "ball") options.domain = Domain::ball;
  else if (domain == "sphere") options.domain = Domain::sphere;
  else throw std::invalid_argument("unknown domain '" + domain + "': expected box, ball or sphere");
  py::gil_scoped_release release;
  auto mesh = std::make_shared<Mesh>(generate_mesh(options));
  renumber(*mesh, method);  // after the shuffle: the worst case renumbered
  return mesh;
}

MeshPtr load(py::handle path_object, bool keep_lower_dimensional, bool skip_unsupported, bool read_fields,
             const std::string& renumber_name) {
  // Warnings are collected and raised as Python warnings after the load, with the GIL held again.
  const std::string path = path_argument(path_object, "path");
  std::vector<std::string> warnings;
  LoadOptions options;
  options.keep_lower_dimensional = keep_lower_dimensional;
  options.skip_unsupported = skip_unsupported;
  options.read_fields = read_fields;
  options.renumber = parse_renumber_method(renumber_name);
  options.warn = [&warnings](const std::string& w) { warnings.push_back(w); };
  MeshPtr mesh;
  {
    py::gil_scoped_release release;
    mesh = std::make_shared<Mesh>(load_msh(path, options));
  }
  for (const std::string& w : warnings) PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1);
  return mesh;
}

/// Mesh.renumbering: None when the mesh was never renumbered, else the method and read-only views of the
/// permutations, which map the loaded or generated order to the mesh's (mesh/renumber.hpp).
py::object renumbering(const MeshPtr& mesh) {
  const Renumbering& r = mesh->renumbering;
  if (r.method == RenumberMethod::none) return py::none();
  py::dict d;
  d["method"] = renumber_method_name(r.method);
  d["nodes_new_to_old"] = view(mesh, r.nodes.new_to_old.data(), {py::ssize_t(r.nodes.size())});
  d["nodes_old_to_new"] = view(mesh, r.nodes.old_to_new.data(), {py::ssize_t(r.nodes.size())});
  py::list new_to_old, old_to_new;
  for (const Permutation<offset_t>& p : r.elements) {
    new_to_old.append(view(mesh, p.new_to_old.data(), {py::ssize_t(p.size())}));
    old_to_new.append(view(mesh, p.old_to_new.data(), {py::ssize_t(p.size())}));
  }
  d["elements_new_to_old"] = new_to_old;
  d["elements_old_to_new"] = old_to_new;
  return std::move(d);
}

}  // namespace

void bind_mesh(py::module_& m) {
  py::class_<PhysicalGroup>(m, "PhysicalGroup")
      .def_readonly("dimension", &PhysicalGroup::dimension)
      .def_readonly("tag", &PhysicalGroup::tag)
      .def_readonly("name", &PhysicalGroup::name)
      .def("__repr__", [](const PhysicalGroup& g) {
        return "PhysicalGroup(dimension=" + std::to_string(g.dimension) + ", tag=" + std::to_string(g.tag) +
               ", name='" + g.name + "')";
      });

  py::class_<Block>(m, "Block", "One element type of a mesh; its arrays are read-only views of the mesh.")
      .def_property_readonly("type", [](const Block& b) { return b.block().type; })
      .def_property_readonly("space_dimension", [](const Block& b) {
        return b.block().space_dimension ? b.block().space_dimension : default_space_dimension(b.block().type);
      })
      .def_property_readonly("element_count", [](const Block& b) { return b.block().element_count(); })
      .def_property_readonly("nodes_per_element", [](const Block& b) { return nodes_per_element(b.block().type); })
      .def_property_readonly("connectivity", [](const Block& b) {
        const ElementBlock& e = b.block();
        return view(b.mesh, e.connectivity.data(), {py::ssize_t(e.element_count()), nodes_per_element(e.type)});
      }, "(E, nodes_per_element) int32 node indices (rows of Mesh.coordinates), Gmsh order")
      .def_property_readonly("element_tags", [](const Block& b) {
        const ElementBlock& e = b.block();
        return view(b.mesh, e.element_tags.data(), {py::ssize_t(e.element_tags.size())});
      }, "(E,) uint64: the elements' tags in the file")
      .def_property_readonly("physical_tags", [](const Block& b) {
        const ElementBlock& e = b.block();
        return view(b.mesh, e.physical_tags.data(), {py::ssize_t(e.physical_tags.size())});
      }, "(E,) int32: the first physical group of each element's entity, 0 if none")
      .def("__repr__", [](const Block& b) {
        return "<Block " + to_string(b.block().type) + ": " + std::to_string(b.block().element_count()) + " elements>";
      });

  py::class_<Mesh, MeshPtr>(m, "Mesh", "A mesh: coordinates, node tags, blocks, fields, physical groups.")
      .def_readonly("dimension", &Mesh::dimension)
      .def_readonly("space_dimension", &Mesh::space_dimension)
      .def_readonly("skipped_elements", &Mesh::skipped_elements)
      .def_property_readonly("node_count", &Mesh::node_count)
      .def_property_readonly("element_count", &Mesh::element_count)
      .def_property_readonly("coordinates", [](const MeshPtr& mesh) {
        return view(mesh, mesh->coordinates.data(), {py::ssize_t(mesh->node_count()), 3});
      }, "(N, 3) float64 node coordinates (z = 0 in 2D)")
      .def_property_readonly("node_tags", [](const MeshPtr& mesh) {
        return view(mesh, mesh->node_tags.data(), {py::ssize_t(mesh->node_tags.size())});
      }, "(N,) uint64: node_tags[i] is the file's tag of node i")
      .def_property_readonly("blocks", [](const MeshPtr& mesh) {
        py::list blocks;
        for (std::size_t i = 0; i < mesh->blocks.size(); ++i) blocks.append(Block{mesh, i});
        return blocks;
      }, "one Block per element type, top dimension first")
      .def_property_readonly("fields", [](const MeshPtr& mesh) {
        py::dict fields;
        for (const NodalField& f : mesh->fields)
          fields[py::str(f.name)] = view(mesh, f.values.data(), {py::ssize_t(mesh->node_count()), f.components});
        return fields;
      }, "the file's $NodeData views: name -> (N, C) float64")
      .def_readonly("physical_groups", &Mesh::physical_groups)
      .def_property_readonly("renumbering", &renumbering,
                             "None, or when renumbered (renumber='rcm' or 'hilbert'): a dict of 'method' and the "
                             "permutations from the loaded/generated order: 'nodes_new_to_old', 'nodes_old_to_new' "
                             "(int32), 'elements_new_to_old', 'elements_old_to_new' (one int64 array per block); "
                             "results per element go back with result[elements_old_to_new[b]]")
      .def("__repr__", [](const Mesh& mesh) {
        return "<Mesh: " + std::to_string(mesh.node_count()) + " nodes, " + std::to_string(mesh.blocks.size()) +
               " blocks, " + std::to_string(mesh.element_count()) + " elements>";
      });

  m.def("load_msh", &load, py::arg("path"), py::arg("keep_lower_dimensional") = false,
        py::arg("skip_unsupported") = false, py::arg("read_fields") = true, py::arg("renumber") = "none",
        "Loads an MSH 2.2 or 4.1 file (a str, bytes or os.PathLike path; ValueError for one with a NUL) in a "
        "sandboxed child process (docs/design/SANDBOX.md); raises MeshError. "
        "renumber='rcm' or 'hilbert' renumbers nodes and elements for local gathers (Mesh.renumbering).");
  m.def("generate_mesh", &generate, py::arg("type"), py::arg("target_elements") = 1000, py::arg("seed") = 0u,
        py::arg("domain") = "box", py::arg("boundary") = false, py::arg("shuffle_nodes") = false,
        py::arg("renumber") = "none",
        "A Gmsh mesh of about target_elements elements on 'box', 'ball' or 'sphere' (mesh/generate.hpp), "
        "renumbered after any shuffle with renumber='rcm' or 'hilbert'.");
}

}  // namespace feinterp::python
