"""float16: scalars and arrays in kernels, device functions and @jit code, its conversions,
arithmetic with numba-cuda's typing rules, math, cuda.fp16's intrinsics, local/shared arrays and
CUDA ufuncs. Expected values are NumPy's float16 results (what numba-cuda's simulator computes)
or literals pinned from numba-cuda 0.30 (typing) where the rule is numba-cuda's own."""
import math

import numpy as np
import pytest

from cujit import cuda, jit, vectorize
from cujit.cuda import float16

# Values that exercise rounding: ties, subnormals, overflow to inf, signed zeros, nan.
EDGE = np.array([0.0, -0.0, 1.0, -2.5, 0.1, 1 / 3, 65504.0, 65519.99, 65520.0, 1e6, -1e6,
                 2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * 1.0000001, 3 * 2.0 ** -25, 2.0 ** -14,
                 2.0 ** -14 - 2.0 ** -25, 1.00048828125, 1.000732421875, 2049.0, 2051.0,
                 np.inf, -np.inf, np.nan, 5e-8, 6e-5, 12.3, -12.3], dtype=np.float64)


def bits(a):
    with np.errstate(all="ignore"):
        return np.asarray(a, dtype=np.float16).view(np.uint16)


def f16(a):
    with np.errstate(all="ignore"):
        return np.asarray(a).astype(np.float16)


def test_convert_from_float64_float32_and_back(target):
    @cuda.jit
    def k(x64, x32, o64, o32, back64, back32):
        i = cuda.grid(1)
        if i < x64.size:
            o64[i] = np.float16(x64[i])
            o32[i] = float16(x32[i])
            back64[i] = o64[i]
            back32[i] = o32[i]

    with np.errstate(all="ignore"):
        x32 = EDGE.astype(np.float32)
    o64 = np.zeros(EDGE.size, np.float16)
    o32 = np.zeros(EDGE.size, np.float16)
    b64 = np.zeros(EDGE.size, np.float64)
    b32 = np.zeros(EDGE.size, np.float32)
    k[1, 64](EDGE, x32, o64, o32, b64, b32)
    # Rounded once, straight from float64 (not through float32: 65519.99 must not become inf).
    # A NaN stays a NaN; its payload is the hardware's (the GPU's cvt gives 0x7fff, NumPy 0x7e00).
    nan = np.isnan(EDGE)
    assert np.isnan(o64[nan]).all() and np.isnan(o32[nan]).all()
    np.testing.assert_array_equal(bits(o64[~nan]), bits(f16(EDGE)[~nan]))
    np.testing.assert_array_equal(bits(o32[~nan]), bits(f16(x32)[~nan]))
    np.testing.assert_array_equal(b64, f16(EDGE).astype(np.float64))
    np.testing.assert_array_equal(b32, f16(x32).astype(np.float32))
    assert bits(o64)[EDGE.tolist().index(65519.99)] == 0x7bff  # 65504, not inf


def test_convert_to_and_from_integers(target):
    @cuda.jit
    def k(h, i8, i16, i32, i64, u8, u16, u32, u64, back):
        i = cuda.grid(1)
        if i < h.size:
            i8[i] = np.int8(h[i])
            i16[i] = np.int16(h[i])
            i32[i] = np.int32(h[i])
            i64[i] = np.int64(h[i])
            u8[i] = np.uint8(h[i])
            u16[i] = np.uint16(h[i])
            u32[i] = np.uint32(h[i])
            u64[i] = np.uint64(h[i])
            back[i] = np.float16(i64[i])

    h = np.array([0.0, 1.0, 12.3, 12.7, 100.5, 126.9, 2.5, 3.5, 0.999], dtype=np.float16)
    outs = [np.zeros(h.size, t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                          np.uint32, np.uint64)]
    back = np.zeros(h.size, np.float16)
    k[1, 32](h, *outs, back)
    for o in outs:  # truncation toward zero, as NumPy and Python's int()
        np.testing.assert_array_equal(o, h.astype(o.dtype))
    np.testing.assert_array_equal(outs[3], [0, 1, 12, 12, 100, 126, 2, 3, 0])
    np.testing.assert_array_equal(back, outs[3].astype(np.float16))
    # Negative values to signed integers.
    hn = -h
    outs = [np.zeros(h.size, t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                          np.uint32, np.uint64)]
    k[1, 32](hn, *outs, back)
    np.testing.assert_array_equal(outs[3], [0, -1, -12, -12, -100, -126, -2, -3, 0])
    np.testing.assert_array_equal(outs[0], hn.astype(np.int8))


def test_large_integers_to_float16(target):
    @cuda.jit
    def k(a, o):
        i = cuda.grid(1)
        if i < a.size:
            o[i] = np.float16(a[i])

    a = np.array([2049, 2051, 65504, 65519, 65520, 10 ** 12, -(2 ** 62), 4097], dtype=np.int64)
    o = np.zeros(a.size, np.float16)
    k[1, 32](a, o)
    np.testing.assert_array_equal(bits(o), bits(f16(a)))
    assert o[0] == 2048 and o[1] == 2052 and np.isinf(o[4])


def test_arithmetic_is_numpys(target):
    @cuda.jit
    def k(a, b, add, sub, mul, div, neg, ab):
        i = cuda.grid(1)
        if i < a.size:
            add[i] = a[i] + b[i]
            sub[i] = a[i] - b[i]
            mul[i] = a[i] * b[i]
            div[i] = a[i] / b[i]
            neg[i] = -a[i]
            ab[i] = abs(b[i])

    rng = np.random.default_rng(7)
    a = f16(np.concatenate([rng.standard_normal(200) * 100, EDGE]))
    b = f16(np.concatenate([rng.standard_normal(200) * 0.01, EDGE[::-1]]))
    outs = [np.zeros(a.size, np.float16) for _ in range(6)]
    with np.errstate(all="ignore"):
        k[4, 64](a, b, *outs)
        want = [a + b, a - b, a * b, a / b, -a, np.abs(b)]
    for o, w in zip(outs, want):
        nan = np.isnan(w)  # NaN results: any NaN (the GPU's payload is 0x7fff, NumPy's 0x7e00)
        assert np.isnan(o[nan]).all()
        np.testing.assert_array_equal(bits(o[~nan]), bits(w[~nan]))


def test_typing_follows_numba_cuda(target):
    # float16 + int8 stays float16 (2048 + 1 rounds to 2048); + int16 or uint8 is float32 and
    # + int32 float64 (2049 exactly); // % and ** compute in float32 (numba-cuda's rules).
    @cuda.jit
    def k(h, i8, i16, u8, i32, o):
        o[0] = h[0] + i8[0]
        o[1] = h[0] + i16[0]
        o[2] = h[0] + u8[0]
        o[3] = h[0] + i32[0]
        o[4] = h[0] + 1          # an int64 literal: float64
        o[5] = h[0] + np.float16(1)
        o[6] = h[1] * np.float32(1.0001)
        o[7] = h[2] // np.float16(0.1)
        o[8] = h[2] ** 2

    h = np.array([2048, 3, 3.5], dtype=np.float16)
    o = np.zeros(9, np.float64)
    k[1, 1](h, np.array([1], np.int8), np.array([1], np.int16), np.array([1], np.uint8),
            np.array([1], np.int32), o)
    assert o[0] == 2048 and o[1] == 2049 and o[2] == 2049 and o[3] == 2049 and o[4] == 2049
    assert o[5] == 2048
    assert o[6] == np.float64(np.float32(3) * np.float32(1.0001))  # float32, not rounded to half
    assert o[7] == np.float32(3.5) // np.float32(np.float16(0.1))  # 35.0 in float32
    assert o[8] == 12.25


def test_comparisons_and_scalar_arguments(target):
    @cuda.jit
    def k(x, y, o):
        o[0] = x < y
        o[1] = x <= y
        o[2] = x > y
        o[3] = x >= y
        o[4] = x == y
        o[5] = x != y
        o[6] = x < 1
        o[7] = x == 0.1  # float64 compare: the half nearest 0.1 is not 0.1

    o = np.zeros(8, np.bool_)
    k[1, 1](np.float16(0.1), np.float16(0.2), o)
    assert o.tolist() == [True, True, False, False, False, True, True, False]
    k[1, 1](np.float16(np.nan), np.float16(0.2), o)
    assert o.tolist() == [False, False, False, False, False, True, False, False]
    # A Python float passed for a float16 parameter of a declared signature is rounded once.
    sig = cuda.jit("void(float16, float16, boolean[:])")(k.py_func)
    sig[1, 1](0.1, 0.1, o)
    assert o[4] and not o[7]


def test_device_function_and_math(target):
    @cuda.jit(device=True)
    def f(x, y):
        return x * y + x

    @cuda.jit
    def k(a, o, m):
        i = cuda.grid(1)
        if i < a.size:
            o[i] = f(a[i], a[i])
            m[i, 0] = math.sin(a[i])
            m[i, 1] = math.sqrt(a[i])
            m[i, 2] = math.exp(a[i])
            m[i, 3] = math.log(a[i])
            m[i, 4] = math.floor(a[i])
            m[i, 5] = math.fabs(a[i])

    a = np.array([0.5, 1.0, 2.0, 3.14, 10.0], dtype=np.float16)
    o = np.zeros(a.size, np.float16)
    m = np.zeros((a.size, 6), np.float16)
    k[1, 32](a, o, m)
    np.testing.assert_array_equal(o, a * a + a)
    f32 = a.astype(np.float32)
    for j, fn in enumerate([np.sin, np.sqrt, np.exp, np.log, np.floor, np.fabs]):
        np.testing.assert_array_equal(bits(m[:, j]), bits(fn(f32).astype(np.float16)))


def test_fp16_intrinsics(target):
    from cujit.cuda import fp16

    @cuda.jit
    def k(a, b, c, o, cmp):
        i = cuda.grid(1)
        if i < a.size:
            o[i, 0] = cuda.fp16.hadd(a[i], b[i])
            o[i, 1] = cuda.fp16.hsub(a[i], b[i])
            o[i, 2] = cuda.fp16.hmul(a[i], b[i])
            o[i, 3] = cuda.fp16.hdiv(a[i], b[i])
            o[i, 4] = cuda.fp16.hfma(a[i], b[i], c[i])
            o[i, 5] = cuda.fp16.hneg(a[i])
            o[i, 6] = cuda.fp16.habs(a[i])
            o[i, 7] = cuda.fp16.hmax(a[i], b[i])
            o[i, 8] = fp16.hmin(a[i], b[i])
            o[i, 9] = cuda.fp16.hsqrt(b[i])
            o[i, 10] = cuda.fp16.hfloor(a[i])
            o[i, 11] = cuda.fp16.hceil(a[i])
            o[i, 12] = cuda.fp16.htrunc(a[i])
            o[i, 13] = cuda.fp16.hrint(a[i])
            o[i, 14] = cuda.fp16.hrcp(b[i])
            o[i, 15] = cuda.fp16.hmul(a[i], 2.5)  # a literal converts to float16
            cmp[i, 0] = cuda.fp16.heq(a[i], b[i])
            cmp[i, 1] = cuda.fp16.hne(a[i], b[i])
            cmp[i, 2] = cuda.fp16.hgt(a[i], b[i])
            cmp[i, 3] = cuda.fp16.hge(a[i], b[i])
            cmp[i, 4] = cuda.fp16.hlt(a[i], b[i])
            cmp[i, 5] = cuda.fp16.hle(a[i], b[i])

    a = np.array([1.5, -2.25, 3.0, 2.5, -0.5, 100.0], dtype=np.float16)
    b = np.array([0.75, 4.0, 3.0, 0.1, 9.0, 0.001], dtype=np.float16)
    c = np.array([1.0, -1.0, 0.5, 0.25, 2.0, 1.0], dtype=np.float16)
    o = np.zeros((a.size, 16), np.float16)
    cmp = np.zeros((a.size, 6), np.bool_)
    k[1, 32](a, b, c, o, cmp)
    exact_fma = f16(a.astype(np.float64) * b + c)  # one rounding, as fma.rn.f16
    with np.errstate(all="ignore"):
        want = [a + b, a - b, a * b, a / b, exact_fma, -a, np.abs(a), np.maximum(a, b), np.minimum(a, b),
                np.sqrt(b), np.floor(a), np.ceil(a), np.trunc(a), np.rint(a), np.float16(1) / b,
                a * np.float16(2.5)]
    for j, w in enumerate(want):
        np.testing.assert_array_equal(bits(o[:, j]), bits(w), err_msg=str(j))
    assert cmp.tolist() == np.stack([a == b, a != b, a > b, a >= b, a < b, a <= b], axis=1).tolist()


def test_local_and_shared_arrays(target):
    @cuda.jit
    def k(a, o):
        loc = cuda.local.array(4, np.float16)
        sh = cuda.shared.array(32, float16)
        t = cuda.threadIdx.x
        sh[t] = a[t] * np.float16(2)
        cuda.syncthreads()
        for j in range(4):
            loc[j] = sh[(t + j) % 32]
        s = np.float16(0)
        for j in range(4):
            s += loc[j]
        o[t] = s

    a = np.arange(32, dtype=np.float16) / np.float16(8)
    o = np.zeros(32, np.float16)
    k[1, 32](a, o)
    d = a * np.float16(2)
    want = np.zeros(32, np.float16)
    for t in range(32):
        s = np.float16(0)
        for j in range(4):
            s = np.float16(s + d[(t + j) % 32])
        want[t] = s
    np.testing.assert_array_equal(o, want)


def test_device_arrays_of_float16(target):
    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * np.float16(0.5)

    h = np.array([1, 3, 5, 7], dtype=np.float16)
    d = cuda.to_device(h)
    assert d.dtype == np.float16
    k[1, 4](d)
    np.testing.assert_array_equal(d.copy_to_host(), h * np.float16(0.5))
    e = cuda.device_array(3, dtype=np.float16)
    assert e.dtype == np.float16 and e.copy_to_host().dtype == np.float16


def test_cuda_ufunc_float16(target):
    @vectorize(["float16(float16, float16)"], target="cuda")
    def add(x, y):
        return x + y

    a = np.array([1, 2.5, 65504, 0.1], dtype=np.float16)
    b = np.array([2049, 0.25, 65504, 0.2], dtype=np.float16)
    r = add(a, b)
    assert r.dtype == np.float16
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(bits(r), bits(a + b))


def test_jit_float16():
    @jit(nopython=True)
    def f(a, x):
        s = np.float16(0)
        for i in range(a.size):
            a[i] = a[i] * x
            s += a[i]
        return s

    a = np.array([1, 2, 3, 0.1], dtype=np.float16)
    r = f(a, np.float16(1.5))
    want_a = np.array([1, 2, 3, 0.1], dtype=np.float16) * np.float16(1.5)
    np.testing.assert_array_equal(a, want_a)
    s = np.float16(0)
    for v in want_a:
        s = np.float16(s + v)
    assert r == float(s) and isinstance(r, float)

    @jit(nopython=True)
    def g(x, y):
        return x + y, x // y, x > y, int(x)

    assert g(np.float16(7.5), np.float16(2)) == (9.5, 3.0, True, 7)


def test_global_float16_constants(target):
    H = np.float16(0.1)
    T = np.array([0.5, np.inf, 65504, 0.1], dtype=np.float16)

    @cuda.jit
    def k(o):
        o[0] = H
        for i in range(4):
            o[i + 1] = T[i]

    o = np.zeros(5, np.float16)
    k[1, 1](o)
    np.testing.assert_array_equal(bits(o), bits([0.1, 0.5, np.inf, 65504, 0.1]))


def test_is_float16_supported():
    assert cuda.is_float16_supported() is True


def test_fma_and_other_math_widen_to_float32(target):
    # numba-cuda has float32 and float64 signatures only for these: a float16 computes in float32.
    @cuda.jit
    def k(a, o):
        o[0] = cuda.fma(a[0], a[1], a[2])
        o[1] = math.tan(a[0])
        o[2] = math.pow(a[0], a[1])
        o[3] = a[0] ** 2

    a = np.array([1.5, 2.25, 0.1], dtype=np.float16)
    o = np.zeros(4, np.float64)
    k[1, 1](a, o)
    x, y, z = a.astype(np.float32)
    assert o[0] == np.float32(x * y + z)
    assert o[1] == np.float32(np.tan(x)) or abs(o[1] - np.tan(x)) < 1e-6
    assert abs(o[2] - np.float32(x) ** np.float32(y)) < 1e-6 and o[3] == 2.25


def test_bfloat16_and_fp8_names_import_and_refuse():
    from cujit.cuda import bf16
    from cujit.cuda._internal import cuda_bf16, cuda_fp8, cuda_fp16
    assert cuda.is_bfloat16_supported() is False
    with pytest.raises(NotImplementedError, match="cujit does not support bfloat16 yet"):
        bf16.hadd(1, 2)
    with pytest.raises(NotImplementedError, match="fp8"):
        cuda_fp8.fp8_e5m2(1.0)
    with pytest.raises(NotImplementedError):
        cuda_bf16.nv_bfloat16(1.0)
    assert cuda_fp16.__hadd is cuda.fp16.hadd
