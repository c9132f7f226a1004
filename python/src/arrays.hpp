// SPDX-License-Identifier: BSD-3-Clause
// Any array a Python caller hands the module, seen the same way: its address, element type, shape,
// whether it is C-contiguous and where it lives. Nothing is ever copied here: an array of the wrong
// type, shape, layout or memory is refused with a TypeError or ValueError naming the argument and what
// was expected, because a silent copy would hide both the cost and the fact that `out=` was not written.
//
// Accepted, in this order:
//   NumPy arrays                       host memory (the buffer the ndarray owns or views)
//   __dlpack__ + __dlpack_device__     CuPy, PyTorch, JAX, ...: CUDA memory (device type 2 or 13) or host
//                                      memory (type 1); __dlpack__ is called with stream = the plan's
//                                      stream, so the producer orders its pending work before ours (the
//                                      DLPack protocol's stream argument)
//   __cuda_array_interface__           Numba and anything else: CUDA memory; a v3 'stream' key is kept
//                                      and honoured by stream_order.hpp
//
// What DLPack and __cuda_array_interface__ claim comes from any object: every field is checked
// (array_interface.hpp) before an address or a size is computed from it, and a malformed claim is a
// TypeError (a field of the wrong Python type) or ValueError naming the argument and the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <feinterp/python/src/bindings.hpp>

namespace feinterp::python {

struct ArrayRef {
  void* data = nullptr;
  std::vector<std::int64_t> shape;
  char kind = '?';            ///< 'f' float, 'i' signed integer, 'u' unsigned integer, '?' anything else
  int itemsize = 0;           ///< bytes per element
  std::int64_t bytes = 0;     ///< size() * itemsize, checked to fit (array_interface.hpp)
  bool c_contiguous = false;  ///< row-major with no gaps (dimensions of extent 1 may have any stride)
  bool aligned = true;        ///< data (and strides) multiples of the element's scalar size
  bool readonly = false;
  bool device = false;        ///< CUDA memory (device or managed)
  int device_id = -1;         ///< the CUDA device, where the protocol says (DLPack); -1 if unknown
  /// __cuda_array_interface__ v3: the stream on which the producer's work on the array is ordered.
  std::optional<std::intptr_t> stream;
  std::string protocol;       ///< "NumPy", "DLPack" or "__cuda_array_interface__", for messages
  py::object keep;            ///< what must live while `data` is used (the DLPack capsule)

  std::int64_t size() const;
  std::string shape_string() const;
  std::string dtype_string() const;
};

/// Reads `object` as an array. `name` is the argument's name, for messages; `consumer_stream` the stream
/// the data will be used on (the plan's; 0 or 1: the legacy default stream), passed to __dlpack__.
/// Throws TypeError for an object that is not an array of a known protocol, TypeError or ValueError for a
/// malformed DLPack tensor or __cuda_array_interface__.
ArrayRef read_array(py::handle object, const std::string& name, std::intptr_t consumer_stream);

/// The element types the module checks arrays against.
struct Dtype {
  char kind;
  int itemsize;
  const char* name;  ///< "float64", "float32", "int32", "uint64"
};
inline constexpr Dtype float64{'f', 8, "float64"};
inline constexpr Dtype float32{'f', 4, "float32"};
inline constexpr Dtype int32{'i', 4, "int32"};
inline constexpr Dtype uint64{'u', 8, "uint64"};

template <class T>
constexpr Dtype dtype_of();
template <>
constexpr Dtype dtype_of<double>() { return float64; }
template <>
constexpr Dtype dtype_of<float>() { return float32; }

/// Where an array must be, for a plan's executor.
enum class Memory { host, device };

/// Throws TypeError unless `array` has `dtype`; ValueError unless its shape is one of `shapes` (the
/// first is the one named in the message), it is C-contiguous, it lives in `memory`, and (`writable`)
/// it can be written. ValueError too for data not aligned to its elements.
void expect(const ArrayRef& array, const std::string& name, Dtype dtype,
            const std::vector<std::vector<std::int64_t>>& shapes, Memory memory, bool writable);

/// ValueError unless `output` shares no byte with `other` (numpy.shares_memory, for the C-contiguous
/// arrays expect() lets through): "out: shares memory with u ...". Host and device memory never overlap.
void expect_disjoint(const ArrayRef& output, const std::string& output_name, const ArrayRef& other,
                     const std::string& other_name);

/// "(3, 4, 2)".
std::string shape_string(const std::vector<std::int64_t>& shape);

}  // namespace feinterp::python
