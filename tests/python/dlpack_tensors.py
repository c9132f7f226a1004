# SPDX-License-Identifier: BSD-3-Clause
# DLPack tensors made by hand (dlpack.h v0.8's C structures through ctypes), with fields no library would
# set, to test what the module does with them (test_array_protocols.py).
import ctypes


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_capsule = ctypes.pythonapi.PyCapsule_New
_capsule.restype = ctypes.py_object
_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class HandMadeDLPack:
    """Host memory (a NumPy array) described by a DLTensor whose fields the caller may override: ndim,
    data, byte_offset, code, bits, lanes; shape=None for a null shape; strides (in elements); device for
    __dlpack_device__. The capsule has no destructor: this object owns the structures."""

    def __init__(self, array, shape=(), device=(1, 0), **fields):
        self.array = array
        self.device = device
        self.shape_buffer = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        self.managed = DLManagedTensor()
        t = self.managed.dl_tensor
        t.data = array.ctypes.data
        t.device = DLDevice(1, 0)
        t.ndim = array.ndim
        t.dtype = DLDataType(2, 8 * array.itemsize, 1)
        if shape is not None:
            t.shape = ctypes.cast(self.shape_buffer, ctypes.POINTER(ctypes.c_int64))
        for name, value in fields.items():
            if name == "strides":
                self.strides_buffer = (ctypes.c_int64 * len(value))(*value)
                t.strides = ctypes.cast(self.strides_buffer, ctypes.POINTER(ctypes.c_int64))
            elif name in ("code", "bits", "lanes"):
                setattr(t.dtype, name, value)
            else:
                setattr(t, name, value)

    def __dlpack__(self, stream=None):
        return _capsule(ctypes.addressof(self.managed), b"dltensor", None)

    def __dlpack_device__(self):
        return self.device
