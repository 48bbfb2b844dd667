"""@cuda.jit(device=True) functions as numba-cuda's device dispatcher offers them (its
cudapy/test_device_func.py, test_fastmath.py, test_serialize.py): compile_device, the PTX and the
generated code of the function compiled on its own, the refusals in numba-cuda's words, pickling
by reference; and cuda.nanosleep."""
import math
import pickle
import re

import numpy as np
import pytest

import cujit
from cujit import _core, cuda, types
from cujit.cuda import compiler as _compiler


@pytest.fixture
def ptx_target(monkeypatch):
    """The GPU's compile path (PTX) for the compute capability 9.0, with or without a GPU here."""
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    monkeypatch.setattr(_compiler, "_current_cc", lambda: (9, 0))
    try:
        yield
    finally:
        _core.set_simulator(previous)


@cuda.jit(device=True)
def foo(x, y):
    return x + y


def test_compile_device_and_inspect_asm(ptx_target):
    args = (types.int32, types.int32)
    cres = foo.compile_device(args)
    assert cres.signature.return_type == types.int64  # Numba's int32 + int32
    assert "foo" in cres.fndesc.mangled_name
    ptx = foo.inspect_asm(args)
    assert cres.fndesc.mangled_name in ptx and ".visible .func" in ptx
    assert "cujit has no LLVM IR" in foo.inspect_llvm(args)
    assert list(foo.inspect_asm()) == [args]
    with pytest.raises(KeyError, match="no compiled signature"):
        foo.inspect_asm((types.float64, types.float64))


def test_declared_signatures_and_fastmath_reach_the_ptx(ptx_target):
    def div(x, y):
        return x / y

    sig = (types.float32, types.float32)
    fast = cuda.jit(sig, device=True, fastmath=True)(div)
    precise = cuda.jit(sig, device=True)(div)
    assert "div.approx.ftz.f32 " in fast.inspect_asm(sig)
    assert "div.rn.f32" in precise.inspect_asm(sig) and "div.approx" not in precise.inspect_asm(sig)
    assert precise.signatures == [sig]

    def cos(x):
        return math.cos(x)

    typed = cuda.jit("float32(float32)", device=True, fastmath=True)(cos)
    assert typed.overloads[(types.float32,)].signature.return_type == types.float32
    assert "cos.approx.ftz.f32" in typed.inspect_asm((types.float32,))


def test_device_function_refusals_in_numba_cudas_words():
    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        foo.inspect_sass((types.int32, types.int32))
    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):
        foo[1, 1]()


def test_inspect_asm_on_the_simulator_says_why(target):
    if target != "sim":
        pytest.skip("the simulator's answer")
    foo.compile_device((types.int32, types.int32))
    with pytest.raises(AttributeError, match="simulator"):
        foo.inspect_asm((types.int32, types.int32))


@cuda.jit
def _uses_foo(r):
    r[0] = foo(2, 3)


def test_kernels_and_device_functions_pickle_by_value(target):
    # tests/test_pickle.py tests pickling at length; loading in the same process gives back the
    # object that was pickled, as Numba's dispatchers do.
    assert pickle.loads(pickle.dumps(foo)) is foo
    k = pickle.loads(pickle.dumps(_uses_foo))
    assert k is _uses_foo
    r = np.zeros(1, np.int64)
    k[1, 1](r)
    assert r[0] == 5

    @cuda.jit(device=True)
    def local(x):
        return x

    assert pickle.loads(pickle.dumps(local)) is local


def test_nanosleep(target):
    @cuda.jit
    def k(a, n):
        cuda.nanosleep(32)
        cuda.nanosleep(n)
        a[0] = 1

    a = np.zeros(1, np.int32)
    k[1, 1](a, np.uint32(100))
    assert a[0] == 1


def test_nanosleep_is_the_ptx_instruction():
    def use_nanosleep(x):
        cuda.nanosleep(32)
        cuda.nanosleep(x)

    ptx, _ = cuda.compile_ptx(use_nanosleep, (types.uint32,))
    assert sum("nanosleep.u32" in line for line in ptx.split("\n")) == 2


def _add(x, y):
    return x + y


def _calls(device_fn):
    @cuda.jit
    def f(r, x, y):
        r[0] = device_fn(x, y)
    return f


def test_declared_signatures_convert_the_call_as_numba_does(target):
    # numba-cuda's test_explicit_signatures_device(_unsafe): the call converts to the best
    # declared signature (1.5 + 2.5 as int64 is 3, not 4)
    f = _calls(cuda.jit(["(int64, int64)"], device=True)(_add))
    r = np.zeros(1, dtype=np.int64)
    f[1, 1](r, 1.5, 2.5)
    assert r[0] == 3
    f = _calls(cuda.jit(["(int64, int64)", "(float64, float64)"], device=True)(_add))
    r = np.zeros(1, dtype=np.float64)
    f[1, 1](r, np.int32(1), 2.5)
    assert r[0] == 3.5
    r = np.zeros(1, dtype=np.int64)
    f[1, 1](r, 1, 2)
    assert r[0] == 3


def test_declared_return_type_and_casts(target):
    # numba-cuda's test_device_casting: float32 channels are cast to the declared int32
    @cuda.jit("int32(int32, int32, int32, int32)", device=True)
    def rgba(r, g, b, a):
        return ((r & 0xFF) << 16) | ((g & 0xFF) << 8) | ((b & 0xFF) << 0) | ((a & 0xFF) << 24)

    @cuda.jit
    def rgba_caller(x, channels):
        x[0] = rgba(channels[0], channels[1], channels[2], channels[3])

    x = np.zeros(1, dtype=np.int32)
    rgba_caller[1, 1](x, np.asarray([1.0, 2.0, 3.0, 4.0], dtype=np.float32))
    assert x[0] == 0x04010203


def test_no_declared_signature_fits(target):
    f = _calls(cuda.jit(["(float64[::1], float64)"], device=True)(_add))
    with pytest.raises(cujit.errors.TypingError, match=r"No matching definition for argument type\(s\) "
                       r"float64, float64 of _add\(\); it was declared for:\n  \(array\(float64, 1d, C\), float64\)"):
        f[1, 1](np.zeros(1), 1.0, 2.0)
    # a tie takes the first declared, as Numba's typing of a call does (Numba's CPU gives 3.0)
    f = _calls(cuda.jit(["(float32, float64)", "(float64, float32)"], device=True)(_add))
    r = np.zeros(1)
    f[1, 1](r, 1.0, 2.0)
    assert r[0] == 3.0


def test_jit_function_declared_with_a_signature_converts_when_called_from_jit_code():
    # Numba: @jit('int64(int64, int64)') called with 1.5 and 2.5 from @jit code gives 3
    add = cujit.jit("int64(int64, int64)")(_add)

    @cujit.jit
    def g(x, y):
        return add(x, y)

    assert g(1.5, 2.5) == 3


_N = 10


def _lmem(ary):
    lm = cuda.local.array(_N, dtype=ary.dtype)
    for j in range(_N):
        lm[j] = j
    for j in range(_N):
        ary[j] = lm[j]


def test_array_dtype_is_a_type_value_in_kernels(target):
    # numba-cuda's test_dispatcher: cuda.local/shared.array(N, dtype=ary.dtype)
    for dt in (np.float32, np.int16):
        a = np.zeros(_N, dt)
        cuda.jit(_lmem)[1, 1](a)
        assert a.dtype == dt and list(a) == list(range(_N))
    ptx, _ = cuda.compile_ptx(_lmem, (types.float32[::1],))
    assert ".visible .entry" in ptx
