// SPDX-License-Identifier: BSD-3-Clause
// The library's small types, with the names and values of their C++ declarations: Shape and ElementType
// (elements/element_type.hpp), Operation with its transposes (core/operation.hpp), Precision,
// TransposeTarget, TransposeOptions, Summation, OperatorGeometry (interpolator/interpolator.hpp), and Executor: the kind of
// interpolator/executor.hpp's executors, which Python names by kind or by name ("cuda:1").
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <pybind11/operators.h>

#include <functional>
#include <string>

#include <feinterp/python/src/arguments.hpp>
#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

Executor executor_from(py::handle executor) {
  if (py::isinstance<py::str>(executor)) return parse_executor(executor.cast<std::string>());
  if (py::isinstance<ExecutorKind>(executor)) {
    switch (executor.cast<ExecutorKind>()) {
      case ExecutorKind::cpu: return Executor::cpu();
      case ExecutorKind::cuda: return Executor::cuda();
      case ExecutorKind::automatic: return Executor::automatic();
    }
  }
  throw py::type_error("executor: expected a feinterp.Executor or a name ('cpu', 'cuda', 'cuda:N', 'auto'), got " +
                       py::repr(executor).cast<std::string>());
}

namespace {

ElementType element_type(Shape shape, py::handle order) {
  const ElementType type{shape, integer_argument<int>(order, "order", min_order, max_order)};
  check_order(type);
  return type;
}

}  // namespace

void bind_types(py::module_& m) {
  py::enum_<Shape>(m, "Shape", "The reference shapes (Gmsh's reference elements).")
      .value("line", Shape::line)
      .value("triangle", Shape::triangle)
      .value("quadrilateral", Shape::quadrilateral)
      .value("tetrahedron", Shape::tetrahedron)
      .value("hexahedron", Shape::hexahedron)
      .def_property_readonly("dimension", [](Shape s) { return dimension(s); }, "the reference dimension d");
  m.def("parse_shape", &parse_shape, "'line', 'triangle' or 'tri', 'quadrilateral' or 'quad', 'tetrahedron' or 'tet', "
        "'hexahedron' or 'hex'");

  py::class_<ElementType>(m, "ElementType", "A complete Lagrange element: a shape and an order 1, 2 or 3.")
      .def(py::init([](Shape shape, py::handle order) { return element_type(shape, order); }), py::arg("shape"),
           py::arg("order"))
      .def(py::init([](const std::string& shape, py::handle order) { return element_type(parse_shape(shape), order); }),
           py::arg("shape"), py::arg("order"))
      .def_readonly("shape", &ElementType::shape)
      .def_readonly("order", &ElementType::order)
      .def_property_readonly("nodes_per_element", [](ElementType t) { return nodes_per_element(t); })
      .def_property_readonly("dimension", [](ElementType t) { return dimension(t.shape); })
      .def(py::self == py::self)
      .def(py::self != py::self)
      .def("__hash__", [](ElementType t) { return std::hash<int>()(int(t.shape) * 16 + t.order); })
      .def("__repr__", [](ElementType t) {
        return std::string("ElementType(Shape.") + shape_name(t.shape) + ", " + std::to_string(t.order) + ")";
      })
      .def("__str__", [](ElementType t) { return to_string(t); });

  py::enum_<Operation>(m, "Operation", "What a plan computes: the forward operations and their transposes.")
      .value("values", Operation::values)
      .value("reference_gradients", Operation::reference_gradients)
      .value("physical_gradients", Operation::physical_gradients)
      .value("values_transpose", Operation::values_transpose)
      .value("reference_gradients_transpose", Operation::reference_gradients_transpose)
      .value("physical_gradients_transpose", Operation::physical_gradients_transpose)
      .def_property_readonly("is_transpose", [](Operation op) { return is_transpose(op); })
      .def_property_readonly("forward", [](Operation op) { return forward_of(op); })
      .def_property_readonly("transpose", [](Operation op) { return transpose_of(op); });
  m.def("parse_operation", &parse_operation);

  py::enum_<Precision>(m, "Precision").value("fp64", Precision::fp64).value("fp32", Precision::fp32);
  m.def("parse_precision", &parse_precision, "'fp64' or 'double', 'fp32' or 'float'");

  py::enum_<TransposeTarget>(m, "TransposeTarget", "Where a transpose puts its result.")
      .value("nodes", TransposeTarget::nodes)
      .value("element_vectors", TransposeTarget::element_vectors);

  py::class_<TransposeOptions>(m, "TransposeOptions")
      .def(py::init([](TransposeTarget target, bool weighted, bool accumulate) {
             return TransposeOptions{target, weighted, accumulate};
           }),
           py::arg("target") = TransposeTarget::nodes, py::arg("weighted") = false, py::arg("accumulate") = false)
      .def_readwrite("target", &TransposeOptions::target)
      .def_readwrite("weighted", &TransposeOptions::weighted)
      .def_readwrite("accumulate", &TransposeOptions::accumulate);

  py::enum_<FusedOperator>(m, "FusedOperator", "The fused FEM operators: mass and diffusion.")
      .value("mass", FusedOperator::mass)
      .value("diffusion", FusedOperator::diffusion);

  py::enum_<Summation>(m, "Summation", "How a GPU plan sums element contributions into shared nodes.")
      .value("atomic", Summation::atomic)
      .value("deterministic", Summation::deterministic);

  py::enum_<OperatorGeometry>(m, "OperatorGeometry",
                              "Where a plan's fused operators take the geometry from: precomputed once, or on_the_fly.")
      .value("precomputed", OperatorGeometry::precomputed)
      .value("on_the_fly", OperatorGeometry::on_the_fly);

  py::enum_<ExecutorKind>(m, "Executor", "Where a plan computes: cpu, cuda, or automatic (cuda when a GPU is usable).")
      .value("cpu", ExecutorKind::cpu)
      .value("cuda", ExecutorKind::cuda)
      .value("automatic", ExecutorKind::automatic);
  m.def("parse_executor", [](const std::string& name) { return parse_executor(name).kind(); },
        "The kind an executor's name names: 'cpu', 'cuda', 'cuda:N' (device N), 'auto' or 'automatic'.");
  m.def("cuda_usable", &cuda_usable, "True when this feinterp was built with CUDA and a GPU is usable.");
  m.def("cuda_unusable_reason", &cuda_unusable_reason);
  m.def("cuda_device_count", &cuda_device_count, "The number of CUDA devices (0 without CUDA or a usable GPU).");
  m.def("describe_executor", [](py::handle e) { return describe_executor(executor_from(e)); },
        "The executor's GPU (its name and compute capability) or 'CPU, N threads'; a feinterp.Executor or a name.");

  m.attr("max_components") = max_components;
  m.def("integer_argument", [](py::handle value, const std::string& name, std::int64_t lo, std::int64_t hi) {
    return integer_argument(value, name, lo, hi);
  }, py::arg("value"), py::arg("name"), py::arg("lo"), py::arg("hi"),
        "value as an int in [lo, hi]: TypeError for a non-integer (bool included), InvalidArgumentError naming "
        "`name` and the range outside it. For the package's Python layer.");
}

}  // namespace feinterp::python
