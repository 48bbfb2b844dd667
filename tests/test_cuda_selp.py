"""cuda.selp(test, a, b): numba-cuda's select intrinsic (cudapy/test_intrinsics.py test_selp)."""
import numpy as np
import pytest

import cujit
from cujit import cuda


def branching_with_selps(a, b, c):
    i = cuda.grid(1)
    inner = cuda.selp(b % 2 == 0, c[i], 13)
    a[i] = cuda.selp(a[i] > 4, inner, 3)


def test_selp(target):
    k = cuda.jit("void(int64[:], int64, int64[:])")(branching_with_selps)
    c = np.full(32, 17, np.int64)
    expected = c.copy()
    expected[:5] = 3
    a = np.arange(32, dtype=np.int64)
    k[32, 1](a, 6, c)
    np.testing.assert_array_equal(a, expected)
    a = np.arange(32, dtype=np.int64)
    k[32, 1](a, 7, c)  # b odd: 13 where a[i] > 4
    expected[5:] = 13
    np.testing.assert_array_equal(a, expected)


@cuda.jit
def selp_floats(r, x, t):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = cuda.selp(x[i] > t, x[i], np.float32(0))


def test_selp_float32_keeps_type(target):
    x = np.array([-1.5, 2.5, 0.25, 7.0], np.float32)
    r = np.zeros_like(x)
    selp_floats[1, 4](r, x, 0.5)
    np.testing.assert_array_equal(r, [0, 2.5, 0, 7.0])


@pytest.mark.parametrize("sig", ["void(int32[:], int64)", "void(int8[:], int8)"])
def test_selp_needs_one_supported_type(target, sig):
    # numba-cuda's signature: both values of one type among float32/64 and (u)int16/32/64.
    def bad(a, v):
        a[0] = cuda.selp(v > 0, a[0], v)

    with pytest.raises(cujit.TypingError, match=r"cuda.selp\(\) needs two values of one type"):
        cuda.jit(sig)(bad)
