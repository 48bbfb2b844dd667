"""cuda.compile / compile_ptx of device functions on their own: (PTX, return type), with an
extern "C" entry in relocatable PTX (numba-cuda's cudapy/test_compiler.py: the C ABI's name from
abi_info, the return type as Numba infers it). The PTX is cujit's; only its interface is pinned."""
import re

import pytest

from cujit import cuda, types


def add(x, y):
    return x + y


def f_module(x, y):
    return x + y


def test_compile_device_c_abi_named_by_abi_info():
    ptx, resty = cuda.compile(add, "float32(float32, float32)", abi_info={"abi_name": "my_add"})
    assert resty == types.float32
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) my_add\(", ptx)
    assert ".target sm_75" in ptx


def test_compile_ptx_device_infers_the_return_type_as_numba():
    ptx, resty = cuda.compile_ptx(add, (types.int32, types.int32), device=True, cc=(8, 0))
    assert resty == types.int64  # int32 + int32 is int64 in Numba
    assert ".target sm_80" in ptx
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) add\(", ptx)  # the status word


def test_compile_device_c_abi_default_name_is_the_python_name():
    ptx, resty = cuda.compile(f_module, "float64(float64, float64)")
    assert resty == types.float64
    assert re.search(r"\.visible \.func\s+\(\.param \.b64 func_retval0\) f_module\(", ptx)


def test_compile_kernel_returns_void():
    def k(a):
        a[0] = 1

    ptx, resty = cuda.compile(k, "void(float32[:])", device=False)
    assert resty == types.void and ".visible .entry" in ptx


def test_compile_refuses_what_it_cannot_do():
    with pytest.raises(NotImplementedError, match="PTX only"):
        cuda.compile(add, "float32(float32, float32)", output="ltoir")
    with pytest.raises(NotImplementedError, match="Unsupported ABI"):
        cuda.compile(add, "float32(float32, float32)", abi="fastcall")
    with pytest.raises(ValueError, match="C identifier"):
        cuda.compile(add, "float32(float32, float32)", abi_info={"abi_name": "no such"})
