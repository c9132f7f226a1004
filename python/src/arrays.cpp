// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/python/src/arrays.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <sstream>

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

/// Strides in elements, C order, ignoring dimensions of extent 1 (NumPy's own rule for contiguity).
bool is_c_contiguous(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides) {
  std::int64_t expected = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

ArrayRef read_numpy(const py::array& a) {
  ArrayRef r;
  r.protocol = "NumPy";
  r.data = const_cast<void*>(a.data());
  r.shape.assign(a.shape(), a.shape() + a.ndim());
  r.kind = a.dtype().kind();
  r.itemsize = int(a.itemsize());
  r.c_contiguous = (a.flags() & py::array::c_style) != 0;
  r.readonly = !a.writeable();
  r.keep = a;
  return r;
}

ArrayRef read_dlpack(py::handle object, const std::string& name, std::intptr_t consumer_stream) {
  const auto device = object.attr("__dlpack_device__")().cast<std::pair<int, int>>();
  const bool cuda = device.first == dl_cuda || device.first == dl_cuda_managed;
  if (!cuda && device.first != dl_cpu && device.first != dl_cuda_host)
    throw py::value_error(name + ": a DLPack array on device type " + std::to_string(device.first) +
                          ": expected CUDA memory (2, 13) or host memory (1, 3)");
  // The consumer's stream: 1 names the legacy default stream (0 is not allowed by the protocol).
  py::object capsule = cuda ? object.attr("__dlpack__")(py::arg("stream") = consumer_stream == 0 ? 1 : consumer_stream)
                            : object.attr("__dlpack__")();
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (managed == nullptr) throw py::error_already_set();
  const DLTensor& t = managed->dl_tensor;
  ArrayRef r;
  r.protocol = "DLPack";
  r.data = static_cast<char*>(t.data) + t.byte_offset;
  r.shape.assign(t.shape, t.shape + t.ndim);
  r.kind = t.dtype.lanes != 1 ? '?' : t.dtype.code == 0 ? 'i' : t.dtype.code == 1 ? 'u' : t.dtype.code == 2 ? 'f' : '?';
  r.itemsize = t.dtype.bits / 8;
  r.c_contiguous = t.strides == nullptr || is_c_contiguous(r.shape, std::vector<std::int64_t>(t.strides, t.strides + t.ndim));
  r.device = cuda;
  r.device_id = cuda ? device.second : -1;
  // The capsule is not consumed (not renamed "used_dltensor"): the producer's capsule destructor then
  // calls the deleter when the capsule goes, after the call. The memory itself belongs to `object`.
  r.keep = capsule;
  return r;
}

ArrayRef read_cuda_array_interface(py::handle object, const std::string& name) {
  const py::dict cai = object.attr("__cuda_array_interface__");
  ArrayRef r;
  r.protocol = "__cuda_array_interface__";
  r.device = true;
  const auto data = cai["data"].cast<py::tuple>();
  r.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  r.readonly = data[1].cast<bool>();
  r.shape = cai["shape"].cast<std::vector<std::int64_t>>();
  const std::string typestr = cai["typestr"].cast<std::string>();
  if (typestr.size() < 3 || typestr[0] == '>')
    throw py::type_error(name + ": __cuda_array_interface__ typestr '" + typestr + "': expected little-endian");
  r.kind = typestr[1];
  r.itemsize = std::stoi(typestr.substr(2));
  r.c_contiguous = true;
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    std::vector<std::int64_t> strides = cai["strides"].cast<std::vector<std::int64_t>>();  // in bytes
    for (auto& s : strides) {
      if (s % r.itemsize != 0) return r.c_contiguous = false, r;
      s /= r.itemsize;
    }
    r.c_contiguous = is_c_contiguous(r.shape, strides);
  }
  // v3: the stream the producer's work is ordered on; absent or None: nothing to wait for.
  if (cai.contains("stream") && !cai["stream"].is_none()) r.stream = cai["stream"].cast<std::intptr_t>();
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
  if (py::isinstance<py::array>(object)) return read_numpy(py::reinterpret_borrow<py::array>(object));
  if (py::hasattr(object, "__dlpack__") && py::hasattr(object, "__dlpack_device__"))
    return read_dlpack(object, name, consumer_stream);
  if (py::hasattr(object, "__cuda_array_interface__")) return read_cuda_array_interface(object, name);
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
  if (writable && array.readonly) throw py::value_error(name + ": the array is read-only, and results are written into it");
}

}  // namespace feinterp::python
