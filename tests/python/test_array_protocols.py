# SPDX-License-Identifier: BSD-3-Clause
# What __cuda_array_interface__ and DLPack claim comes from any object, and every claim is checked before
# an address or a size is computed from it: a malformed one is a TypeError or ValueError naming the
# argument and the protocol, never a crash (an itemsize of 0 was a division by zero, SIGFPE). A CPU plan
# reads the claims before it refuses device memory, so all of this runs without a GPU. Each malformed
# interface is read in a fresh interpreter (conftest.isolated). The plain C++ checks behind it are fuzzed
# too (fuzz/array_interface_fuzzer.cpp).
import os

import numpy
import pytest

import feinterp
from conftest import isolated
from dlpack_tensors import HandMadeDLPack

SETUP = """
class Fake:
    def __init__(self, interface):
        self.__cuda_array_interface__ = interface
block = feinterp.BlockArrays(feinterp.ElementType("line", 1), numpy.array([[0, 1], [1, 2]], dtype=numpy.int32))
plan = feinterp.Interpolator(block, 1, node_count=3)
good = {"shape": (3,), "typestr": "<f8", "data": (4096, False), "version": 3, "strides": None}
"""

# (what is wrong, the interface as a Python expression over `good`)
MALFORMED = [
    ("itemsize 0", "dict(good, typestr='<f0', strides=(8,))"),
    ("itemsize 0, no strides", "dict(good, typestr='<f0')"),
    ("no shape", "{k: v for k, v in good.items() if k != 'shape'}"),
    ("shape None", "dict(good, shape=None)"),
    ("shape not a tuple", "dict(good, shape='abc')"),
    ("negative extent", "dict(good, shape=(-3,))"),
    ("a float extent", "dict(good, shape=(3.0,))"),
    ("an extent past 64 bits", "dict(good, shape=(2**64 + 3,))"),
    ("a size past 64 bits", "dict(good, shape=(2**40, 2**40))"),
    ("too many dimensions", "dict(good, shape=(1,) * 65)"),
    ("no typestr", "{k: v for k, v in good.items() if k != 'typestr'}"),
    ("typestr not a str", "dict(good, typestr=8)"),
    ("typestr too short", "dict(good, typestr='f8')"),
    ("typestr of no itemsize", "dict(good, typestr='<f')"),
    ("typestr of a bad itemsize", "dict(good, typestr='<f8x')"),
    ("typestr of a huge itemsize", "dict(good, typestr='<f999999')"),
    ("typestr of an unknown kind", "dict(good, typestr='<q8')"),
    ("typestr of an unknown byte order", "dict(good, typestr='!f8')"),
    ("big-endian", "dict(good, typestr='>f8')"),
    ("strides, fewer than dimensions", "dict(good, shape=(3, 2), strides=(16,))"),
    ("strides, more than dimensions", "dict(good, strides=(8, 8))"),
    ("strides not a tuple", "dict(good, strides=8)"),
    ("strides past the address space", "dict(good, strides=(2**63 - 8,))"),
    ("strides below address 0", "dict(good, strides=(-8192,))"),
    ("data past the address space", "dict(good, data=(2**64 - 8, False))"),
    ("null data with elements", "dict(good, data=(0, False))"),
    ("negative data", "dict(good, data=(-4096, False))"),
    ("data not a tuple", "dict(good, data=4096)"),
    ("data of one entry", "dict(good, data=(4096,))"),
    ("a read-only flag that is not a bool", "dict(good, data=(4096, 'no'))"),
    ("no version", "{k: v for k, v in good.items() if k != 'version'}"),
    ("version 4", "dict(good, version=4)"),
    ("version -1", "dict(good, version=-1)"),
    ("version a str", "dict(good, version='3')"),
    ("a mask", "dict(good, mask=good)"),
    ("stream 0", "dict(good, stream=0)"),
    ("a negative stream", "dict(good, stream=-5)"),
    ("a stream past 64 bits", "dict(good, stream=2**70)"),
    ("not a dict", "[('shape', (3,))]"),
]


@pytest.mark.parametrize("what, interface", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_cuda_array_interfaces_are_refused_by_name(what, interface):
    result = isolated(SETUP + f"""
plan.apply("values", Fake({interface}), numpy.zeros(plan.output_shape("values")))
""")
    assert result is not None, f"{what}: accepted"
    assert result["error"] in ("TypeError", "ValueError", "InvalidArgumentError"), result
    assert result["message"].startswith("u: __cuda_array_interface__"), result


def test_a_well_formed_interface_reaches_the_memory_check(rng):
    # The same fake with random valid fields: read, then refused by the CPU plan as device memory.
    shape = tuple(int(e) for e in rng.integers(0, 4, int(rng.integers(1, 4))))
    result = isolated(SETUP + f"""
plan.apply("values", Fake(dict(good, shape={shape}, stream={int(rng.integers(1, 1 << 40))})),
           numpy.zeros(plan.output_shape("values")))
""")
    assert result["error"] in ("ValueError", "TypeError") and result["message"].startswith("u: "), result
    assert "__cuda_array_interface__:" not in result["message"], result


@pytest.fixture
def line_plan():
    block = feinterp.BlockArrays(feinterp.ElementType("line", 1), numpy.array([[0, 1], [1, 2]], dtype=numpy.int32))
    return feinterp.Interpolator(block, 1, node_count=3)


def test_a_hand_made_dlpack_tensor_is_used_in_place(line_plan, rng):
    u = rng.standard_normal(3)
    expected = line_plan.apply("values", u)
    for tensor in (HandMadeDLPack(u), HandMadeDLPack(u, strides=(1,))):  # strides in elements: contiguous
        out = numpy.zeros_like(expected)
        line_plan.apply("values", tensor, HandMadeDLPack(out))
        assert numpy.array_equal(out, expected)


DLPACK_MALFORMED = [
    ("negative ndim", dict(ndim=-1)),
    ("too many dimensions", dict(ndim=1000)),
    ("null shape", dict(shape=None)),
    ("0 bits", dict(bits=0)),
    ("bits not whole bytes", dict(bits=12)),
    ("0 lanes", dict(lanes=0)),
    ("strides past 64 bits", dict(strides=(2**62,))),
    ("strides past the address space", dict(strides=(2**60 - 1,))),
    ("byte_offset past the address space", dict(byte_offset=2**64 - 8)),
    ("null data with elements", dict(data=None)),
    ("a device that is not a pair", dict(device="cpu")),
]


@pytest.mark.parametrize("what, fields", DLPACK_MALFORMED, ids=[m[0] for m in DLPACK_MALFORMED])
def test_malformed_dlpack_tensors_are_refused_by_name(what, fields):
    here = os.path.dirname(os.path.abspath(__file__))
    result = isolated(f"import sys; sys.path.insert(0, {here!r})\nfrom dlpack_tensors import HandMadeDLPack\n" + SETUP +
                      f"""
plan.apply("values", HandMadeDLPack(numpy.zeros(3), **{fields!r}), numpy.zeros(plan.output_shape("values")))
""")
    assert result is not None, f"{what}: accepted"
    assert result["error"] in ("TypeError", "ValueError", "InvalidArgumentError"), result
    assert result["message"].startswith("u: DLPack"), result


def test_unaligned_arrays_are_refused(line_plan, rng):
    offset = int(rng.integers(1, 8))
    buffer = bytearray(8 * 4)
    u = numpy.frombuffer(buffer, dtype=numpy.float64, count=3, offset=offset)
    assert not u.flags.aligned
    with pytest.raises(ValueError, match="^u: the array's data .* not aligned"):
        line_plan.apply("values", u)
