// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the checks the Python module applies to what __cuda_array_interface__ and DLPack
// claim about an array (python/src/array_interface.hpp): a typestr, a shape, strides, a data address, a
// version, a stream, a DLTensor's fields, all decoded from the fuzz bytes. Each check must either accept,
// with sizes that agree with the claim and stay inside the address space, or throw ArrayInterfaceError;
// anything else (another exception, a crash, undefined behaviour, an inconsistent result) is a finding.
// In process, with AddressSanitizer and UndefinedBehaviorSanitizer.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <feinterp/python/src/array_interface.hpp>

namespace {

using namespace feinterp::python;

[[noreturn]] void finding() { __builtin_trap(); }

/// Extents and strides: mostly small, sometimes extreme, so that both the accepting and the refusing
/// paths are reached.
std::int64_t interesting(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.ConsumeIntegralInRange<std::int64_t>(-2, 16);
    case 1: return in.ConsumeIntegralInRange<std::int64_t>(-(1 << 20), 1 << 20);
    case 2: return std::int64_t(1) << in.ConsumeIntegralInRange<int>(0, 62);
    default: return in.ConsumeIntegral<std::int64_t>();
  }
}

std::uintptr_t address(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: return in.ConsumeIntegralInRange<std::uintptr_t>(0, 64) * 8;
    case 1: return std::numeric_limits<std::uintptr_t>::max() - in.ConsumeIntegralInRange<std::uintptr_t>(0, 1 << 16);
    default: return in.ConsumeIntegral<std::uintptr_t>();
  }
}

/// An accepted description must have the sizes its claim implies, reachable without leaving the address
/// space: recomputed here in 128 bits.
void verify(const ArrayDescription& d, const ArrayLayout& layout) {
  // A zero extent makes the array empty whatever the others are, huge ones included.
  bool empty = false;
  for (std::int64_t e : d.shape) {
    if (e < 0) finding();
    empty = empty || e == 0;
  }
  __int128 size = empty ? 0 : 1;
  for (std::int64_t e : d.shape) {
    if (empty) break;
    size *= e;
    if (size > std::numeric_limits<std::int64_t>::max()) finding();
  }
  if (layout.size != size || __int128(layout.bytes) != size * d.itemsize) finding();
  if (d.itemsize < 1 || d.itemsize > max_array_itemsize || d.shape.size() > max_array_dimensions) finding();
  if (size == 0) return;
  if (d.data == 0) finding();
  __int128 low = 0, high = d.itemsize - 1;
  bool contiguous = true;
  std::int64_t expected = d.itemsize;
  for (std::size_t i = d.shape.size(); i-- > 0;) {
    const __int128 stride = d.strides ? (*d.strides)[i] : expected;
    (stride < 0 ? low : high) += stride * (d.shape[i] - 1);
    if (d.shape[i] != 1 && stride != expected) contiguous = false;
    expected *= d.shape[i];
  }
  if (__int128(d.data) + low < 0 || __int128(d.data) + high > __int128(std::numeric_limits<std::uintptr_t>::max()))
    finding();
  if (layout.c_contiguous != contiguous) finding();
  if (layout.c_contiguous && byte_ranges_overlap(d.data, layout.bytes, d.data, layout.bytes) != (layout.bytes > 0))
    finding();
}

void fuzz_description(FuzzedDataProvider& in) {
  ArrayDescription d;
  const std::string typestr = in.ConsumeRandomLengthString(12);
  try {
    const Typestr t = parse_typestr(typestr, "fuzz");
    if (t.itemsize < 1 || t.itemsize > max_array_itemsize) finding();
    d.kind = t.kind;
    d.itemsize = t.itemsize;
  } catch (const ArrayInterfaceError&) {
    d.kind = 'f';
    d.itemsize = interesting(in);
  }
  const std::size_t ndim = in.ConsumeIntegralInRange<std::size_t>(0, max_array_dimensions + 2);
  for (std::size_t i = 0; i < ndim; ++i) d.shape.push_back(interesting(in));
  if (in.ConsumeBool()) {
    std::vector<std::int64_t> strides;
    const std::size_t count = in.ConsumeBool() ? ndim : in.ConsumeIntegralInRange<std::size_t>(0, ndim + 1);
    for (std::size_t i = 0; i < count; ++i) strides.push_back(interesting(in));
    d.strides = std::move(strides);
  }
  d.data = address(in);
  try {
    verify(d, check_array(d, "fuzz"));
  } catch (const ArrayInterfaceError&) {
  }
  try {
    check_cuda_array_interface_version(in.ConsumeIntegral<std::int64_t>(), "fuzz");
    check_cuda_array_interface_stream(in.ConsumeIntegral<std::int64_t>(), "fuzz");
  } catch (const ArrayInterfaceError&) {
  }
}

void fuzz_dlpack(FuzzedDataProvider& in) {
  const auto code = in.ConsumeIntegral<std::uint8_t>();
  const auto bits = in.ConsumeIntegral<std::uint8_t>();
  const auto lanes = in.ConsumeBool() ? std::uint16_t(1) : in.ConsumeIntegral<std::uint16_t>();
  // ndim may claim more than the arrays hold, as a hostile producer's would; the arrays the target
  // passes always hold max_array_dimensions entries, so a read past a valid ndim would be ASan's finding.
  const std::int32_t ndim = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int32_t>(0, 8)
                                             : in.ConsumeIntegral<std::int32_t>();
  std::vector<std::int64_t> shape(max_array_dimensions), strides(max_array_dimensions);
  for (std::size_t i = 0; i < max_array_dimensions && in.remaining_bytes() > 0; ++i) shape[i] = interesting(in);
  const bool with_strides = in.ConsumeBool(), with_shape = in.ConsumeIntegralInRange<int>(0, 15) != 0;
  for (std::size_t i = 0; with_strides && i < max_array_dimensions && in.remaining_bytes() > 0; ++i)
    strides[i] = interesting(in);
  const std::uintptr_t data = address(in);
  const auto byte_offset = in.ConsumeIntegral<std::uint64_t>();
  try {
    const ArrayDescription d =
        dlpack_description(code, bits, lanes, ndim, with_shape ? shape.data() : nullptr,
                           with_strides ? strides.data() : nullptr, reinterpret_cast<const void*>(data), byte_offset,
                           "fuzz");
    if (ndim < 0 || std::size_t(ndim) > max_array_dimensions || d.shape.size() != std::size_t(ndim)) finding();
    if (d.strides && d.strides->size() != d.shape.size()) finding();
    verify(d, check_array(d, "fuzz"));
  } catch (const ArrayInterfaceError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool())
    fuzz_description(in);
  else
    fuzz_dlpack(in);
  const std::uintptr_t a = address(in), b = address(in);
  const std::int64_t a_bytes = interesting(in), b_bytes = interesting(in);
  // Symmetric, and only for ranges check_array would accept (inside the address space).
  const auto inside = [](std::uintptr_t p, std::int64_t n) {
    return n <= 0 || p <= std::numeric_limits<std::uintptr_t>::max() - std::uintptr_t(n - 1);
  };
  if (inside(a, a_bytes) && inside(b, b_bytes) &&
      byte_ranges_overlap(a, a_bytes, b, b_bytes) != byte_ranges_overlap(b, b_bytes, a, a_bytes))
    finding();
  return 0;
}
