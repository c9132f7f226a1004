// SPDX-License-Identifier: BSD-3-Clause
// Library errors as Python exceptions of matching classes:
//
//   feinterp.Error(RuntimeError)                   the base of every error the library raises
//     InvalidArgumentError(Error, ValueError)      std::invalid_argument: a wrong block, point set, size, ...
//     DegenerateElementError(Error)                fem/orientation.hpp: .element (index in the block),
//                                                  .tag (the file's tag, or None), .kind, .point, .detj
//     MeshError(Error)                             mesh/error.hpp: a file that cannot be loaded, written or
//                                                  generated
//   any other std::runtime_error (a CUDA failure, an unusable executor) arrives as Error itself.
//
// Arguments the bindings themselves refuse (an array of the wrong dtype, shape, layout or memory, a
// malformed array protocol, a path with a NUL) raise the built-in TypeError or ValueError (arrays.cpp,
// arguments.cpp): they are Python usage errors, not the library's. An integer out of range is an
// InvalidArgumentError, like the library's own range checks it stands in front of (arguments.hpp).
#include <feinterp/fem/orientation.hpp>
#include <feinterp/mesh/error.hpp>

#include <stdexcept>
#include <string>

#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

namespace {

// Created once at import and owned by the module (which holds a reference), so the raw pointers live
// as long as any translation can happen.
PyObject* error_class = nullptr;
PyObject* invalid_argument_class = nullptr;
PyObject* degenerate_class = nullptr;
PyObject* mesh_error_class = nullptr;

PyObject* add_class(py::module_& m, const char* name, py::handle bases, const char* doc) {
  const std::string qualified = std::string("feinterp.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  m.add_object(name, py::reinterpret_steal<py::object>(cls));
  return cls;
}

void raise_degenerate(const DegenerateElementError& e) {
  py::object exception = py::handle(degenerate_class)(e.what());
  exception.attr("element") = e.element();
  exception.attr("tag") = e.tag() ? py::object(py::int_(*e.tag())) : py::object(py::none());
  exception.attr("kind") = e.kind() == DegenerateElementError::Kind::singular ? "singular" : "tangled";
  exception.attr("point") = e.point();
  exception.attr("detj") = e.detj();
  PyErr_SetObject(degenerate_class, exception.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
  error_class = add_class(m, "Error", PyExc_RuntimeError, "Base class of the errors feinterp raises.");
  invalid_argument_class = add_class(m, "InvalidArgumentError", py::make_tuple(py::handle(error_class), py::handle(PyExc_ValueError)),
                                     "An argument the library refuses (std::invalid_argument): the message says "
                                     "what, where and what was expected.");
  degenerate_class = add_class(m, "DegenerateElementError", error_class,
                               "An element whose det J is zero, not finite or of both signs. Attributes: element "
                               "(index in the block), tag (the file's element tag, or None), kind ('singular' or "
                               "'tangled'), point, detj.");
  mesh_error_class = add_class(m, "MeshError", error_class,
                               "A mesh that cannot be loaded, generated or written (mesh/error.hpp).");

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const py::builtin_exception&) {
      throw;  // the bindings' own TypeError / ValueError: pybind11's translator raises them
    } catch (const py::error_already_set&) {
      throw;
    } catch (const DegenerateElementError& e) {
      raise_degenerate(e);
    } catch (const MeshError& e) {
      PyErr_SetString(mesh_error_class, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(invalid_argument_class, e.what());
    } catch (const std::runtime_error& e) {
      PyErr_SetString(error_class, e.what());
    }
  });
}

}  // namespace feinterp::python
