// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/python/src/arguments.hpp>

#include <stdexcept>

namespace feinterp::python {

namespace {

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

/// int(value) through __index__ (which float, str and None lack); bool is refused although it is an int.
py::int_ index_of(py::handle value, const std::string& name) {
  if (PyBool_Check(value.ptr())) throw py::type_error(name + ": expected an integer, got bool");
  PyObject* index = PyIndex_Check(value.ptr()) ? PyNumber_Index(value.ptr()) : nullptr;
  if (index == nullptr) {
    PyErr_Clear();
    throw py::type_error(name + ": expected an integer, got " + type_name(value));
  }
  return py::reinterpret_steal<py::int_>(index);
}

/// The value for a message: its digits, or its size when the digits would be many (str() of an int has a
/// limit of its own).
std::string describe(const py::int_& value) {
  const auto bits = value.attr("bit_length")().cast<std::int64_t>();
  if (bits > 128) return "an integer of " + std::to_string(bits) + " bits";
  return py::str(py::handle(value)).cast<std::string>();
}

[[noreturn]] void out_of_range(const std::string& name, const std::string& lo, const std::string& hi,
                               const py::int_& value) {
  throw std::invalid_argument(name + ": expected an integer in [" + lo + ", " + hi + "], got " + describe(value));
}

}  // namespace

std::int64_t integer_argument(py::handle value, const std::string& name, std::int64_t lo, std::int64_t hi) {
  const py::int_ v = index_of(value, name);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || x < lo || x > hi) out_of_range(name, std::to_string(lo), std::to_string(hi), v);
  return x;
}

std::uint64_t unsigned_argument(py::handle value, const std::string& name, std::uint64_t lo, std::uint64_t hi) {
  const py::int_ v = index_of(value, name);
  const int negative = PyObject_RichCompareBool(v.ptr(), py::int_(0).ptr(), Py_LT);
  if (negative < 0) throw py::error_already_set();
  unsigned long long x = 0;
  if (!negative) {
    x = PyLong_AsUnsignedLongLong(v.ptr());
    if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();  // OverflowError: past 64 bits
      out_of_range(name, std::to_string(lo), std::to_string(hi), v);
    }
  }
  if (negative || x < lo || x > hi) out_of_range(name, std::to_string(lo), std::to_string(hi), v);
  return x;
}

std::string path_argument(py::handle value, const std::string& name) {
  const py::module_ os = py::module_::import("os");
  py::object path;
  try {
    path = os.attr("fspath")(value);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    throw py::type_error(name + ": expected a path (str, bytes or os.PathLike), got " + type_name(value));
  }
  const std::string bytes = os.attr("fsencode")(path).cast<py::bytes>();
  const std::size_t nul = bytes.find('\0');
  if (nul != std::string::npos)
    throw py::value_error(name + ": the path has a NUL character at byte " + std::to_string(nul) +
                          ", where the operating system would end it");
  return bytes;
}

}  // namespace feinterp::python
