// SPDX-License-Identifier: BSD-3-Clause
// Point sets (fem/point_set.hpp) and quadrature rules (fem/quadrature.hpp). A PointSet's coordinates
// and weights come back as NumPy copies: a few hundred numbers at most, and a copy cannot be changed
// behind a plan built from the set.
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <feinterp/python/src/arguments.hpp>
#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

void bind_points(py::module_& m) {
  py::class_<PointSet>(m, "PointSet", "Reference points, with weights when it is a quadrature rule.")
      .def_readonly("shape", &PointSet::shape)
      .def_readonly("degree", &PointSet::degree, "degree of exactness of a quadrature rule, -1 otherwise")
      .def_readonly("name", &PointSet::name)
      .def_property_readonly("dimension", &PointSet::dimension)
      .def("__len__", &PointSet::size)
      .def_property_readonly("size", &PointSet::size)
      .def_property_readonly("coordinates", [](const PointSet& p) {
        py::array_t<double> a({py::ssize_t(p.size()), py::ssize_t(p.dimension())});
        std::copy(p.coordinates.begin(), p.coordinates.end(), a.mutable_data());
        return a;
      }, "(Q, d) reference coordinates, a copy")
      .def_property_readonly("weights", [](const PointSet& p) -> py::object {
        if (p.weights.empty()) return py::none();
        return py::array_t<double>(py::ssize_t(p.weights.size()), p.weights.data());
      }, "(Q,) weights (a copy), None for a point set that is not a quadrature rule")
      .def("__repr__", [](const PointSet& p) {
        return "<PointSet " + p.name + ": " + std::to_string(p.size()) + " points>";
      });

  m.def("element_nodes", &element_nodes, py::arg("type"), "The reference nodes of an element type, in Gmsh order.");
  m.def("quadrature_rule", [](Shape shape, py::handle degree) {
    return quadrature_rule(shape, integer_argument<int>(degree, "degree", 0, max_quadrature_degree(shape)));
  }, py::arg("shape"), py::arg("degree"),
        "A quadrature rule exact to `degree` (fem/quadrature.hpp).");
  m.def("max_quadrature_degree", &max_quadrature_degree, py::arg("shape"));
  m.def("reference_points", [](Shape shape, const py::array_t<double, py::array::c_style | py::array::forcecast>& x) {
    return reference_points(shape, std::vector<double>(x.data(), x.data() + x.size()));
  }, py::arg("shape"), py::arg("coordinates"), "Your own reference points, (Q, d) coordinates.");
}

}  // namespace feinterp::python
