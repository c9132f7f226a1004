// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/python/src/array_interface.hpp>

#include <limits>

namespace feinterp::python {

namespace {

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::uintptr_t address_max = std::numeric_limits<std::uintptr_t>::max();

[[noreturn]] void refuse(const std::string& what, const std::string& message) {
  throw ArrayInterfaceError(what + ": " + message);
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

/// The alignment an element needs: its scalar's size (a complex number's part), as a power of two up to 16.
std::int64_t alignment_of(char kind, std::int64_t itemsize) {
  const std::int64_t scalar = kind == 'c' && itemsize % 2 == 0 ? itemsize / 2 : itemsize;
  std::int64_t a = 1;
  while (a < 16 && scalar % (2 * a) == 0) a *= 2;
  return a;
}

}  // namespace

ArrayLayout check_array(const ArrayDescription& array, const std::string& what) {
  if (array.itemsize < 1 || array.itemsize > max_array_itemsize)
    refuse(what, "itemsize " + std::to_string(array.itemsize) + ", expected 1 to " + std::to_string(max_array_itemsize) +
                     " bytes");
  const std::size_t ndim = array.shape.size();
  if (ndim > max_array_dimensions)
    refuse(what, std::to_string(ndim) + " dimensions, expected at most " + std::to_string(max_array_dimensions));
  bool empty = false;
  for (std::int64_t extent : array.shape) {
    if (extent < 0) refuse(what, "negative extent in shape " + shape_text(array.shape));
    empty = empty || extent == 0;
  }
  if (array.strides && array.strides->size() != ndim)
    refuse(what, std::to_string(array.strides->size()) + " strides for shape " + shape_text(array.shape) +
                     ", expected one per dimension");

  ArrayLayout layout;
  if (!empty) {
    // size * itemsize must fit: every later byte count and pointer offset is computed from it.
    std::int64_t size = 1;
    for (std::int64_t extent : array.shape) {
      if (size > int64_max / extent) refuse(what, "shape " + shape_text(array.shape) + ": more elements than fit 64 bits");
      size *= extent;
    }
    if (size > int64_max / array.itemsize)
      refuse(what, "shape " + shape_text(array.shape) + " of " + std::to_string(array.itemsize) +
                       "-byte elements: more bytes than fit 64 bits");
    layout.size = size;
    layout.bytes = size * array.itemsize;
  }
  if (empty) {  // nothing is read or written: any address and strides will do
    layout.c_contiguous = true;
    layout.aligned = true;
    return layout;
  }
  if (array.data == 0) refuse(what, "null data pointer for " + std::to_string(layout.size) + " elements");

  const std::int64_t alignment = alignment_of(array.kind, array.itemsize);
  layout.aligned = array.data % std::uintptr_t(alignment) == 0;
  if (!array.strides) {
    if (array.data > address_max - std::uintptr_t(layout.bytes - 1))
      refuse(what, std::to_string(layout.bytes) + " bytes from address " + std::to_string(array.data) +
                       " run past the end of the address space");
    layout.c_contiguous = true;
    return layout;
  }

  // The lowest and highest byte the strides reach, relative to data. Each step is at most 2^63 * 2^63
  // in magnitude, so it is bounded before it is added: past 2^64 it cannot be an address anyway.
  constexpr unsigned __int128 reach_max = (unsigned __int128)1 << 64;
  __int128 low = 0, high = 0;
  const std::vector<std::int64_t>& strides = *array.strides;
  for (std::size_t i = 0; i < ndim; ++i) {
    const __int128 step = __int128(array.shape[i] - 1) * strides[i];
    const unsigned __int128 magnitude = step < 0 ? (unsigned __int128)(-step) : (unsigned __int128)step;
    if (magnitude >= reach_max) refuse(what, "strides " + shape_text(strides) + " reach past the address space");
    (step < 0 ? low : high) += step;
  }
  high += array.itemsize - 1;
  const __int128 first = __int128(array.data) + low, last = __int128(array.data) + high;
  if (first < 0 || last > __int128(address_max))
    refuse(what, "strides " + shape_text(strides) + " for shape " + shape_text(array.shape) + " from address " +
                     std::to_string(array.data) + " reach outside the address space");

  bool contiguous = true, aligned = layout.aligned;
  std::int64_t expected = array.itemsize;  // bounded by layout.bytes: no overflow
  for (std::size_t i = ndim; i-- > 0;) {
    if (array.shape[i] != 1) {
      contiguous = contiguous && strides[i] == expected;
      aligned = aligned && strides[i] % alignment == 0;
    }
    expected *= array.shape[i];
  }
  layout.c_contiguous = contiguous;
  layout.aligned = aligned;
  return layout;
}

Typestr parse_typestr(const std::string& typestr, const std::string& what) {
  const std::string quoted = "typestr '" + typestr.substr(0, 32) + (typestr.size() > 32 ? "...'" : "'");
  if (typestr.size() < 3 || typestr.size() > 8)
    refuse(what, quoted + ": expected a byte order, a kind and an itemsize, as in '<f8'");
  const char order = typestr[0], kind = typestr[1];
  if (std::string("<>|=").find(order) == std::string::npos)
    refuse(what, quoted + ": byte order '" + std::string(1, order) + "', expected '<', '|', '=' or '>'");
  if (std::string("biufcmMOSUV").find(kind) == std::string::npos)
    refuse(what, quoted + ": unknown kind '" + std::string(1, kind) + "'");
  std::int64_t itemsize = 0;
  for (std::size_t i = 2; i < typestr.size(); ++i) {
    if (typestr[i] < '0' || typestr[i] > '9') refuse(what, quoted + ": the itemsize is not a decimal number");
    itemsize = itemsize * 10 + (typestr[i] - '0');  // at most 6 digits: no overflow
  }
  if (itemsize < 1 || itemsize > max_array_itemsize)
    refuse(what, quoted + ": itemsize " + std::to_string(itemsize) + ", expected 1 to " +
                     std::to_string(max_array_itemsize) + " bytes");
  if (order == '>' && itemsize > 1) refuse(what, quoted + ": big-endian, expected little-endian ('<')");
  return {kind, itemsize};
}

void check_cuda_array_interface_version(std::int64_t version, const std::string& what) {
  if (version < 0 || version > 3)
    refuse(what, "version " + std::to_string(version) + ", expected 0 to 3 (the versions this module reads)");
}

void check_cuda_array_interface_stream(std::int64_t stream, const std::string& what) {
  if (stream == 0)
    refuse(what, "stream 0, which the protocol forbids (ambiguous): expected None, 1 (legacy default), 2 "
                 "(per-thread default) or a stream handle");
  if (stream < 0) refuse(what, "stream " + std::to_string(stream) + ", expected a handle (a positive integer) or None");
}

ArrayDescription dlpack_description(std::uint8_t code, std::uint8_t bits, std::uint16_t lanes, std::int32_t ndim,
                                    const std::int64_t* shape, const std::int64_t* strides, const void* data,
                                    std::uint64_t byte_offset, const std::string& what) {
  if (ndim < 0 || std::size_t(ndim) > max_array_dimensions)
    refuse(what, "ndim " + std::to_string(ndim) + ", expected 0 to " + std::to_string(max_array_dimensions));
  if (ndim > 0 && shape == nullptr) refuse(what, "null shape for " + std::to_string(ndim) + " dimensions");
  if (bits == 0 || bits % 8 != 0) refuse(what, "dtype of " + std::to_string(bits) + " bits, expected whole bytes");
  if (lanes == 0) refuse(what, "dtype of 0 lanes");
  ArrayDescription d;
  // Vector types (lanes > 1) are not plain numbers: kind '?', which every dtype check refuses.
  d.kind = lanes != 1 ? '?' : code == 0 ? 'i' : code == 1 ? 'u' : code == 2 ? 'f' : code == 5 ? 'c' : code == 6 ? 'b' : '?';
  d.itemsize = std::int64_t(bits / 8) * lanes;
  d.shape.assign(shape, shape + ndim);
  if (strides != nullptr) {
    std::vector<std::int64_t> bytes(strides, strides + ndim);
    for (std::int64_t& s : bytes) {
      if (s > int64_max / d.itemsize || s < -(int64_max / d.itemsize))
        refuse(what, "stride " + std::to_string(s) + " elements: more bytes than fit 64 bits");
      s *= d.itemsize;
    }
    d.strides = std::move(bytes);
  }
  const auto base = reinterpret_cast<std::uintptr_t>(data);
  if (byte_offset > address_max - base)
    refuse(what, "byte_offset " + std::to_string(byte_offset) + " from address " + std::to_string(base) +
                     " runs past the end of the address space");
  d.data = base + std::uintptr_t(byte_offset);
  return d;
}

bool byte_ranges_overlap(std::uintptr_t a, std::int64_t a_bytes, std::uintptr_t b, std::int64_t b_bytes) {
  if (a_bytes <= 0 || b_bytes <= 0) return false;
  // Compared as last bytes, which check_array keeps inside the address space.
  const std::uintptr_t a_last = a + std::uintptr_t(a_bytes - 1), b_last = b + std::uintptr_t(b_bytes - 1);
  return a <= b_last && b <= a_last;
}

}  // namespace feinterp::python
