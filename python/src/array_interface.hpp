// SPDX-License-Identifier: BSD-3-Clause
// What an array protocol claims about an array (its element type, shape, strides, address), checked
// before anything is computed from it. Plain C++, no Python: the claims of __cuda_array_interface__ and
// DLPack come from any object, so each field is checked here where a unit test and a libFuzzer target
// (fuzz/array_interface_fuzzer.cpp) can reach every path without a GPU. A description is either accepted,
// with sizes that are consistent and computable without overflow, or refused with an ArrayInterfaceError.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace feinterp::python {

/// A refused description (Python's ValueError): the message starts with the argument's name and the
/// protocol, as given to the check, and says which field is wrong and what was expected.
class ArrayInterfaceError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// NumPy's limit on dimensions; beyond it a description is refused before anything is allocated.
inline constexpr std::size_t max_array_dimensions = 64;
/// The largest element accepted (bytes); the module itself uses 4 and 8.
inline constexpr std::int64_t max_array_itemsize = 1 << 16;

struct ArrayDescription {
  char kind = '?';              ///< NumPy's kind: 'f', 'i', 'u', 'b', 'c', ... ('?': not a plain number)
  std::int64_t itemsize = 0;    ///< bytes per element
  std::vector<std::int64_t> shape;
  /// In bytes; none: C-contiguous.
  std::optional<std::vector<std::int64_t>> strides;
  std::uintptr_t data = 0;
};

struct ArrayLayout {
  std::int64_t size = 0;   ///< elements
  std::int64_t bytes = 0;  ///< size * itemsize
  bool c_contiguous = false;
  bool aligned = false;    ///< data is a multiple of the element's alignment (its scalar's size)
};

/// Checks a description: itemsize in [1, max_array_itemsize], at most max_array_dimensions non-negative
/// extents, a size and a byte count that fit std::int64_t, strides (if any) one per dimension whose
/// reach from `data` stays inside the address space, and a non-null `data` unless the array is empty.
/// `what` starts each message ("u: __cuda_array_interface__").
ArrayLayout check_array(const ArrayDescription& array, const std::string& what);

/// An __array_interface__ / __cuda_array_interface__ typestr: byte order ('<', '|', '=', or '>' for
/// one-byte elements), NumPy kind, decimal itemsize ("<f8", "|u1").
struct Typestr {
  char kind;
  std::int64_t itemsize;
};
Typestr parse_typestr(const std::string& typestr, const std::string& what);

/// The __cuda_array_interface__ versions this module reads (0 to 3).
void check_cuda_array_interface_version(std::int64_t version, const std::string& what);

/// A v3 'stream': a handle; 0 is refused by the protocol (ambiguous between none and the legacy default).
void check_cuda_array_interface_stream(std::int64_t stream, const std::string& what);

/// A DLTensor's fields as DLPack (v0.8) declares them: dtype code (0 int, 1 uint, 2 float, ...), bits,
/// lanes; ndim, shape and strides (in elements; null: C-contiguous); data and byte_offset. Reads
/// `shape` and `strides` only for a valid `ndim`.
ArrayDescription dlpack_description(std::uint8_t code, std::uint8_t bits, std::uint16_t lanes, std::int32_t ndim,
                                    const std::int64_t* shape, const std::int64_t* strides, const void* data,
                                    std::uint64_t byte_offset, const std::string& what);

/// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte: numpy.shares_memory for two
/// C-contiguous arrays. Empty ranges share nothing.
bool byte_ranges_overlap(std::uintptr_t a, std::int64_t a_bytes, std::uintptr_t b, std::int64_t b_bytes);

}  // namespace feinterp::python
