// SPDX-License-Identifier: BSD-3-Clause
// The plan (interpolator/interpolator.hpp) as _feinterp.Plan64 and Plan32. Every array is checked here,
// once per call, against the layouts of core/layout.hpp, then the front door runs with the GIL released:
//
//   nodal field u, result r       (N, C), or (N,) for C = 1
//   values                        (E, Q, C)
//   reference gradients           (E, Q, C, d)
//   physical gradients            (E, Q, C, s)        det J: (E, Q)
//   element vectors               (E, nodes_per_element, C)
//
//   coefficient (fused operators) (E, Q) scalar, or (E, Q, T) symmetric tensor, T = s(s+1)/2
//
// Memory: a cpu plan takes host arrays, a cuda plan arrays on its device (the current one when it is
// built, or N for 'cuda:N'); the connectivity and coordinates of a cuda plan may also be host arrays.
// Host connectivity, coordinates and tags are copied once, at construction, into memory the plan owns
// (on the device for a cuda plan). An output that shares memory with an input is refused by name.
// Outputs are written in place (`out` is the caller's array, never a copy); the pure-Python layer
// (feinterp/_plan.py) allocates them when the caller gives none.
#include <feinterp/python/src/bindings.hpp>
#include <feinterp/python/src/plan.hpp>

namespace feinterp::python {

namespace {

template <class Real>
void bind_plan(py::module_& m, const char* name) {
  using P = Plan<Real>;
  py::class_<P>(m, name, "A plan over one block (feinterp.Interpolator wraps it; see its documentation).")
      .def(py::init<ElementType, py::handle, const PointSet&, py::handle, py::handle, py::handle, py::handle,
                    py::handle, py::handle, py::handle, Summation, OperatorGeometry>(),
           py::arg("type"), py::arg("connectivity"), py::arg("points"), py::arg("coordinates"), py::arg("node_count"),
           py::arg("space_dimension"), py::arg("element_tags"), py::arg("executor"), py::arg("threads"),
           py::arg("cuda_stream"), py::arg("summation"), py::arg("operator_geometry"))
      .def("apply", &P::apply, py::arg("op"), py::arg("u"), py::arg("out"), py::arg("detj"))
      .def("apply_transpose", &P::apply_transpose, py::arg("op"), py::arg("f"), py::arg("out"), py::arg("options"))
      .def("apply_operator", &P::apply_operator, py::arg("op"), py::arg("u"), py::arg("out"), py::arg("coefficient"),
           py::arg("options"))
      .def("operator_diagonal", &P::operator_diagonal, py::arg("op"), py::arg("components"), py::arg("out"),
           py::arg("coefficient"), py::arg("options"))
      .def("check", &P::check)
      .def("output_shape", &P::output_shape, py::arg("op"), py::arg("components"), py::arg("target"))
      .def_property_readonly("executor", &P::executor)
      .def_property_readonly("device", &P::device)
      .def_property_readonly("cuda_stream", &P::cuda_stream)
      .def_property_readonly("precision", [](const P&) { return precision_of<Real>(); })
      .def_property_readonly("type", [](const P& p) { return p.front_door().block().type; })
      .def_property_readonly("element_count", &P::E)
      .def_property_readonly("node_count", [](const P& p) { return p.front_door().node_count(); })
      .def_property_readonly("points", &P::Q)
      .def_property_readonly("nodes_per_element", [](const P& p) { return nodes_per_element(p.front_door().block().type); })
      .def_property_readonly("reference_dimension", &P::reference_dimension)
      .def_property_readonly("space_dimension", [](const P& p) { return p.front_door().space_dimension(); })
      .def("input_size", [](const P& p, Operation op, py::handle C) {
        return p.front_door().input_size(op, components_argument(C));
      }, py::arg("op"), py::arg("components"))
      .def("output_size", [](const P& p, Operation op, py::handle C, TransposeTarget target) {
        return p.front_door().output_size(op, components_argument(C), target);
      }, py::arg("op"), py::arg("components"), py::arg("target") = TransposeTarget::nodes)
      .def_property_readonly("detj_size", [](const P& p) { return p.front_door().detj_size(); });
}

}  // namespace

void bind_interpolator(py::module_& m) {
  bind_plan<double>(m, "Plan64");
  bind_plan<float>(m, "Plan32");
}

}  // namespace feinterp::python
