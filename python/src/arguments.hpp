// SPDX-License-Identifier: BSD-3-Clause
// Python scalars and paths read as the C++ bindings need them, with errors that name the argument and
// what was expected: pybind11's own conversions answer an integer that does not fit with a generic
// "incompatible function arguments" TypeError, and hand a str with a NUL to open(), which reads the path
// only up to it.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

/// `value` (an int, or any object with __index__ other than bool) as an integer in [lo, hi]. TypeError
/// for anything else ("name: expected an integer, got float"); feinterp.InvalidArgumentError (a
/// ValueError) outside the range ("name: expected an integer in [lo, hi], got V").
std::int64_t integer_argument(py::handle value, const std::string& name, std::int64_t lo, std::int64_t hi);
std::uint64_t unsigned_argument(py::handle value, const std::string& name, std::uint64_t lo, std::uint64_t hi);

template <class T>
T integer_argument(py::handle value, const std::string& name, T lo = std::numeric_limits<T>::min(),
                   T hi = std::numeric_limits<T>::max()) {
  if constexpr (std::is_signed_v<T>)
    return T(integer_argument(value, name, std::int64_t(lo), std::int64_t(hi)));
  else
    return T(unsigned_argument(value, name, std::uint64_t(lo), std::uint64_t(hi)));
}

/// A file system path: str, bytes or os.PathLike, as the bytes the OS gets (os.fsencode). TypeError for
/// anything else; ValueError for a path with a NUL character, which the OS would read as its end.
std::string path_argument(py::handle value, const std::string& name);

}  // namespace feinterp::python
