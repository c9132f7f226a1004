// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/python/src/arrays.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>
#include <sstream>
#include <stdexcept>

#include <feinterp/python/src/arguments.hpp>
#include <feinterp/python/src/array_interface.hpp>

namespace feinterp::python {

namespace {

// DLPack's ABI (dlpack.h, v0.8, unversioned capsules named "dltensor"): declared here rather than
// carried as a header, since these few fields are all the module reads and the layout is frozen.
struct DLDevice {
  std::int32_t device_type;  // 1 CPU, 2 CUDA, 3 CUDA host (pinned), 13 CUDA managed
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;  // 0 int, 1 uint, 2 float
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null: C-contiguous
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
constexpr std::int32_t dl_cpu = 1, dl_cuda = 2, dl_cuda_host = 3, dl_cuda_managed = 13;

/// Fills the layout facts of `r` from its protocol's description, checked field by field.
void describe(ArrayRef& r, const ArrayDescription& d, const std::string& what) {
  const ArrayLayout layout = check_array(d, what);
  r.data = reinterpret_cast<void*>(d.data);
  r.shape = d.shape;
  r.kind = d.kind;
  r.itemsize = int(d.itemsize);
  r.bytes = layout.bytes;
  r.c_contiguous = layout.c_contiguous;
  r.aligned = layout.aligned;
}

ArrayRef read_numpy(const py::array& a, const std::string& name) {
  ArrayRef r;
  r.protocol = "NumPy";
  ArrayDescription d;
  d.kind = a.dtype().kind();
  d.itemsize = a.itemsize();
  d.shape.assign(a.shape(), a.shape() + a.ndim());
  d.strides = std::vector<std::int64_t>(a.strides(), a.strides() + a.ndim());
  d.data = reinterpret_cast<std::uintptr_t>(a.data());
  if (d.itemsize > 0 && d.itemsize <= max_array_itemsize) {
    describe(r, d, name + ": NumPy array");
  } else {  // a dtype of no bytes ('V0') or a huge record: no number, and the dtype check says so
    r.shape = d.shape;
    r.kind = d.kind;
  }
  r.c_contiguous = (a.flags() & py::array::c_style) != 0;
  r.readonly = !a.writeable();
  r.keep = a;
  return r;
}

ArrayRef read_dlpack(py::handle object, const std::string& name, std::intptr_t consumer_stream) {
  const std::string what = name + ": DLPack";
  std::pair<std::int64_t, std::int64_t> device;
  try {
    device = object.attr("__dlpack_device__")().cast<std::pair<std::int64_t, std::int64_t>>();
  } catch (const py::cast_error&) {
    throw py::type_error(what + ": __dlpack_device__() did not return a (device type, device id) pair of ints");
  }
  const bool cuda = device.first == dl_cuda || device.first == dl_cuda_managed;
  if (!cuda && device.first != dl_cpu && device.first != dl_cuda_host)
    throw py::value_error(name + ": a DLPack array on device type " + std::to_string(device.first) +
                          ": expected CUDA memory (2, 13) or host memory (1, 3)");
  if (cuda && (device.second < 0 || device.second > std::numeric_limits<int>::max()))
    throw py::value_error(what + ": device id " + std::to_string(device.second) + ", expected a CUDA device number");
  // The consumer's stream: 1 names the legacy default stream (0 is not allowed by the protocol).
  py::object capsule = cuda ? object.attr("__dlpack__")(py::arg("stream") = consumer_stream == 0 ? 1 : consumer_stream)
                            : object.attr("__dlpack__")();
  if (!PyCapsule_IsValid(capsule.ptr(), "dltensor"))
    throw py::type_error(what + ": __dlpack__() did not return an unconsumed 'dltensor' capsule");
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (managed == nullptr) throw py::error_already_set();
  const DLTensor& t = managed->dl_tensor;
  ArrayRef r;
  r.protocol = "DLPack";
  describe(r, dlpack_description(t.dtype.code, t.dtype.bits, t.dtype.lanes, t.ndim, t.shape, t.strides, t.data,
                                 t.byte_offset, what),
           what);
  r.device = cuda;
  r.device_id = cuda ? int(device.second) : -1;
  // The capsule is not consumed (not renamed "used_dltensor"): the producer's capsule destructor then
  // calls the deleter when the capsule goes, after the call. The memory itself belongs to `object`.
  r.keep = capsule;
  return r;
}

/// A tuple (or list) of integers, as a shape or strides; TypeError for anything else.
std::vector<std::int64_t> integers(py::handle value, const std::string& what, const char* field) {
  if (!py::isinstance<py::tuple>(value) && !py::isinstance<py::list>(value))
    throw py::type_error(what + " '" + field + "': expected a tuple of ints, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  const py::sequence items = py::reinterpret_borrow<py::sequence>(value);
  if (items.size() > max_array_dimensions)
    throw py::value_error(what + " '" + field + "': " + std::to_string(items.size()) + " entries, expected at most " +
                          std::to_string(max_array_dimensions));
  std::vector<std::int64_t> result;
  for (std::size_t i = 0; i < items.size(); ++i)
    result.push_back(integer_argument<std::int64_t>(items[i], what + " '" + field + "'[" + std::to_string(i) + "]"));
  return result;
}

ArrayRef read_cuda_array_interface(py::handle object, const std::string& name) {
  const std::string what = name + ": __cuda_array_interface__";
  const py::object interface = object.attr("__cuda_array_interface__");
  if (!py::isinstance<py::dict>(interface))
    throw py::type_error(what + ": expected a dict, got " +
                         std::string(py::str(py::type::handle_of(interface).attr("__name__"))));
  const py::dict cai = py::reinterpret_borrow<py::dict>(interface);
  for (const char* key : {"shape", "typestr", "data", "version"})
    if (!cai.contains(key)) throw py::value_error(what + ": no '" + key + "' (a required key)");
  const auto field = [&](const char* key) { return py::object(cai[key]); };
  const auto present = [&](const char* key) { return cai.contains(key) && !field(key).is_none(); };

  check_cuda_array_interface_version(integer_argument<std::int64_t>(field("version"), what + " 'version'"), what);
  if (present("mask")) throw py::value_error(what + ": a 'mask' (masked array), which feinterp does not read");

  ArrayDescription d;
  d.shape = integers(field("shape"), what, "shape");
  const py::object typestr = field("typestr");
  if (!py::isinstance<py::str>(typestr))
    throw py::type_error(what + " 'typestr': expected a str, as in '<f8'");
  const Typestr type = parse_typestr(typestr.cast<std::string>(), what);
  d.kind = type.kind;
  d.itemsize = type.itemsize;
  if (present("strides")) d.strides = integers(field("strides"), what, "strides");  // in bytes

  const py::object data = field("data");
  if (!py::isinstance<py::tuple>(data) || py::len(data) != 2)
    throw py::type_error(what + " 'data': expected a tuple (pointer, read-only flag)");
  const py::tuple pair = py::reinterpret_borrow<py::tuple>(data);
  d.data = integer_argument<std::uintptr_t>(pair[0], what + " 'data' pointer");
  if (!PyBool_Check(pair[1].ptr())) throw py::type_error(what + " 'data': the read-only flag must be a bool");

  ArrayRef r;
  r.protocol = "__cuda_array_interface__";
  describe(r, d, what);
  r.device = true;
  r.readonly = pair[1].cast<bool>();
  // v3: the stream the producer's work is ordered on; absent or None: nothing to wait for.
  if (present("stream")) {
    const auto stream = integer_argument<std::int64_t>(field("stream"), what + " 'stream'");
    check_cuda_array_interface_stream(stream, what);
    r.stream = std::intptr_t(stream);
  }
  r.keep = py::reinterpret_borrow<py::object>(object);
  return r;
}

}  // namespace

std::int64_t ArrayRef::size() const {
  std::int64_t n = 1;
  for (std::int64_t e : shape) n *= e;
  return n;
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::ostringstream s;
  s << '(';
  for (std::size_t i = 0; i < shape.size(); ++i) s << (i ? ", " : "") << shape[i];
  s << (shape.size() == 1 ? ",)" : ")");
  return s.str();
}

std::string ArrayRef::shape_string() const { return python::shape_string(shape); }

std::string ArrayRef::dtype_string() const {
  switch (kind) {
    case 'f': return "float" + std::to_string(8 * itemsize);
    case 'i': return "int" + std::to_string(8 * itemsize);
    case 'u': return "uint" + std::to_string(8 * itemsize);
    case 'b': return "bool";
    case 'c': return "complex" + std::to_string(8 * itemsize);
    default: return std::string("kind '") + kind + "' of " + std::to_string(itemsize) + " bytes";
  }
}

ArrayRef read_array(py::handle object, const std::string& name, std::intptr_t consumer_stream) {
  // A description refused field by field (array_interface.hpp, arguments.hpp) is the caller's ValueError.
  try {
    if (py::isinstance<py::array>(object)) return read_numpy(py::reinterpret_borrow<py::array>(object), name);
    if (py::hasattr(object, "__dlpack__") && py::hasattr(object, "__dlpack_device__"))
      return read_dlpack(object, name, consumer_stream);
    if (py::hasattr(object, "__cuda_array_interface__")) return read_cuda_array_interface(object, name);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  throw py::type_error(name + ": expected an array (NumPy, or a GPU array with __cuda_array_interface__ or "
                       "__dlpack__: CuPy, PyTorch, Numba), got " +
                       std::string(py::str(py::type::handle_of(object).attr("__name__"))));
}

void expect(const ArrayRef& array, const std::string& name, Dtype dtype,
            const std::vector<std::vector<std::int64_t>>& shapes, Memory memory, bool writable) {
  if (array.kind != dtype.kind || array.itemsize != dtype.itemsize)
    throw py::type_error(name + ": expected " + dtype.name + " values, got " + array.dtype_string());
  bool shape_ok = false;
  for (const auto& s : shapes) shape_ok = shape_ok || s == array.shape;
  if (!shape_ok) {
    std::string expected = shape_string(shapes.front());
    for (std::size_t i = 1; i < shapes.size(); ++i) expected += " or " + shape_string(shapes[i]);
    throw py::value_error(name + ": expected shape " + expected + ", got " + array.shape_string());
  }
  if (!array.c_contiguous)
    throw py::value_error(name + ": expected a C-contiguous array (row-major, the layouts of core/layout.hpp); "
                          "this one is strided: pass numpy.ascontiguousarray(" + name + ") or its library's equivalent");
  if (memory == Memory::device && !array.device)
    throw py::value_error(name + ": a host array (" + array.protocol +
                          "), but the plan computes on cuda: pass a device array (CuPy, PyTorch, Numba)");
  if (memory == Memory::host && array.device)
    throw py::value_error(name + ": a CUDA device array (" + array.protocol +
                          "), but the plan computes on the cpu: pass a NumPy array, or build the plan with executor='cuda'");
  if (!array.aligned)
    throw py::value_error(name + ": the array's data (" + array.protocol + ") is not aligned to its " +
                          std::to_string(array.itemsize) + "-byte elements: pass a copy");
  if (writable && array.readonly) throw py::value_error(name + ": the array is read-only, and results are written into it");
}

void expect_disjoint(const ArrayRef& output, const std::string& output_name, const ArrayRef& other,
                     const std::string& other_name) {
  // Device addresses are unique across devices (unified addressing): only host against device is apart.
  if (output.device != other.device) return;
  if (byte_ranges_overlap(reinterpret_cast<std::uintptr_t>(output.data), output.bytes,
                          reinterpret_cast<std::uintptr_t>(other.data), other.bytes))
    throw py::value_error(output_name + ": shares memory with " + other_name + " (numpy.shares_memory(" + output_name +
                          ", " + other_name + ") is True), and the plan reads " + other_name + " while it writes " +
                          output_name + ": pass separate arrays");
}

}  // namespace feinterp::python
