"""The rest of `math` that Numba supports (exp2, nextafter, remainder, frexp, ldexp, gcd), the
methods of numbers (bit_count, conjugate), round(x, n) of float32 in kernels and math.floor's type
in GPU code. Expected values are Numba 0.68's and numba-cuda 0.30's results on the same programs."""
import math

import numpy as np
import pytest

from cujit import cuda, njit


# ---- kernels (simulator and GPU) ----------------------------------------------------------------

@cuda.jit
def k_unary_binary(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = math.exp2(x[i])
        out[i, 1] = math.nextafter(x[i], y[i])
        out[i, 2] = math.remainder(x[i], y[i])
        out[i, 3] = math.ldexp(x[i], 3)
        m, e = math.frexp(x[i])
        out[i, 4] = m
        out[i, 5] = e


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exp2_nextafter_remainder_frexp_ldexp_in_kernels(target, dtype):
    x = np.array([0.5, 3.0, -7.25, 1e-3, 100.0], dtype=dtype)
    y = np.array([2.0, 2.0, 3.0, -1.0, 7.0], dtype=dtype)
    out = np.zeros((5, 6), dtype=dtype)
    k_unary_binary[1, 32](x, y, out)
    for i in range(5):
        xi, yi = x[i], y[i]
        assert out[i, 0] == pytest.approx(dtype(2.0) ** xi, rel=1e-6)
        assert out[i, 1] == np.nextafter(xi, yi)  # the next value of x's own type
        assert out[i, 2] == dtype(math.remainder(float(xi), float(yi)))
        assert out[i, 3] == dtype(math.ldexp(float(xi), 3))
        assert (out[i, 4], out[i, 5]) == math.frexp(float(xi))


@cuda.jit
def k_types(x32, x64, out32, out64, outi):
    out32[0] = math.nextafter(x32[0], x32[1])       # float32 in, float32 out (numba-cuda)
    out64[0] = math.nextafter(x32[0], x64[0])       # mixed: float64
    m, e = math.frexp(x32[0])
    out32[1] = m
    outi[0] = e
    out32[2] = math.ldexp(x32[0], 200)              # float32: overflows to inf
    out64[1] = math.ldexp(x64[0], 2 ** 40)          # a huge exponent: inf, never a wrapped one
    out64[2] = math.ldexp(x64[0], -(2 ** 40))
    out64[3] = math.floor(x64[1])                   # nan stays nan in GPU code (a float result)
    out64[4] = math.ceil(x64[2])
    out64[5] = math.trunc(x64[2])


def test_float32_results_and_extremes_in_kernels(target):
    x32 = np.array([1.0, 2.0], dtype=np.float32)
    x64 = np.array([1.5, np.nan, 1e300])
    out32 = np.zeros(3, np.float32)
    out64 = np.zeros(6)
    outi = np.zeros(1, np.int32)
    k_types[1, 1](x32, x64, out32, out64, outi)
    assert out32[0] == np.nextafter(np.float32(1), np.float32(2))
    assert out64[0] == np.nextafter(1.0, 1.5)
    assert (out32[1], outi[0]) == (0.5, 1)
    assert out32[2] == np.inf
    assert out64[1] == np.inf and out64[2] == 0.0
    assert np.isnan(out64[3])
    assert out64[4] == 1e300 and out64[5] == 1e300


@cuda.jit
def k_frexp_special(x, m, e):
    i = cuda.grid(1)
    if i < x.size:
        m[i], e[i] = math.frexp(x[i])


def test_frexp_of_inf_nan_zero(target):
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 5e-324])
    m = np.zeros_like(x)
    e = np.zeros(x.size, np.int32)
    k_frexp_special[1, 32](x, m, e)
    for i, v in enumerate(x):
        want = math.frexp(v)
        assert (m[i] == want[0] or (np.isnan(m[i]) and np.isnan(want[0]))) and e[i] == want[1]


@cuda.jit
def k_bit_count(a, b, c, out):
    out[0] = a[0].bit_count()
    out[1] = b[0].bit_count()
    out[2] = c[0].bit_count()
    out[3] = a[0].conjugate() + c[0].conjugate()


def test_bit_count_and_conjugate_in_kernels(target):
    out = np.zeros(4, np.int64)
    k_bit_count[1, 1](np.array([0xFF], np.uint8), np.array([2 ** 64 - 1], np.uint64),
                      np.array([-5], np.int16), out)
    # int16 -5 counts its own 16 bits (0xFFFB: 15), as numba-cuda's GPU code does (popc; its
    # simulator runs Python's int.bit_count instead, 2); @jit keeps Python's (test below).
    assert list(out) == [8, 64, 15, 255 - 5]


@cuda.jit("void(float32[:], float32, int32)")
def k_round_to(ary, c, ndigits):
    ary[0] = round(c, ndigits)


def test_round_float32_halfway_in_kernels(target):
    # numba-cuda rounds 0.3425 * 1000 in float64 (342.50000119...): 0.343. Rounding the float32
    # product (342.5, a tie) gave 0.342.
    ary = np.zeros(1, np.float32)
    k_round_to[1, 1](ary, 0.3425, 3)
    assert ary[0] == np.float32(0.343)
    k_round_to[1, 1](ary, 2.5, 0)
    assert ary[0] == 2.0
    k_round_to[1, 1](ary, 1250.0, -2)
    assert ary[0] == 1200.0


# ---- @jit (Numba's CPU rules) --------------------------------------------------------------------

@njit
def j_math(x, y):
    return (math.exp2(x), math.nextafter(x, y), math.ldexp(x, 4), math.frexp(x), math.gcd(12, -18),
            math.floor(x), math.trunc(-x))


def test_math_in_jit():
    r = j_math(2.5, 3.0)
    assert r == (2.0 ** 2.5, math.nextafter(2.5, 3.0), 40.0, (0.625, 2), 6, 2, -2)
    assert isinstance(r[5], int)  # CPU code: floor returns an int, as in Python


@njit
def j_types(x):
    return math.frexp(x), math.ldexp(x, 1), round(x, 3), x.conjugate()


def test_float32_in_jit():
    # Numba's CPU code rounds the scaled float32 in float32: 0.342 (the GPU gives 0.343).
    (m, e), l, r, c = j_types(np.float32(0.3425))
    assert (m, e) == math.frexp(float(np.float32(0.3425)))
    assert l == float(np.float32(0.3425)) * 2
    assert r == float(np.float32(0.342))
    assert c == float(np.float32(0.3425))


@njit
def j_gcd(a, b):
    return math.gcd(a, b)


def test_gcd_in_jit():
    assert j_gcd(np.uint8(12), np.int32(8)) == 4
    assert j_gcd(-(2 ** 63), 6) == 2
    assert j_gcd(0, 0) == 0
    assert j_gcd(np.uint64(2 ** 64 - 2), np.uint64(2 ** 63 - 1)) == math.gcd(2 ** 64 - 2, 2 ** 63 - 1)


@njit
def j_bits(x):
    return x.bit_count()


def test_bit_count_in_jit():
    assert j_bits(np.uint8(7)) == 3
    assert j_bits(-5) == 2
    assert j_bits(np.int64(-(2 ** 63))) == 1
