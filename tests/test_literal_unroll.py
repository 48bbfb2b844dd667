"""literal_unroll (issue 19): `for x in literal_unroll(t)` over a heterogeneous tuple compiles the
body once per item type, in kernels, device functions and @jit functions; the tuple may be a
global (numbers and arrays, NaN and inf included), a local tuple or built from arguments.
Expectations computed by Numba 0.68 (@njit) and numba-cuda 0.30's simulator on the same code."""
import math

import numpy as np
import pytest

from cujit import cuda, literal_unroll, njit
from cujit.cuda.misc.special import literal_unroll as cuda_literal_unroll

MIXED = (1, 2.5, np.float32(3), True)
ARRAYS = (np.float64([1.0, -0.0, np.inf, np.nan]), np.int32([[1, 2], [3, 4]]), np.float32([7.5]))


@njit
def sum_mixed_global():
    s = 0.0
    for x in literal_unroll(MIXED):
        s += x
    return s


@njit
def scaled_sum(t):
    s = 0.0
    for x in literal_unroll(t):
        s += x * 2
    return s


@njit
def scaled_sum_of(a, b, c):
    return scaled_sum((a, b, c))


@njit
def sizes(a, b):
    s = 0.0
    for x in literal_unroll((a, b)):
        s += x.size + x.ndim * 10
    return s


@njit
def count_with_continue():
    c = 0
    for x in literal_unroll((1, 2.5, 3)):
        if x == 2.5:
            continue
        c += 1
    return c


@njit
def count_with_break():
    c = 0
    for x in literal_unroll((1, 2.5, 3)):
        if x == 2.5:
            break
        c += 1
    else:
        c = 100
    return c


@njit
def last_item():
    for x in literal_unroll((1, 2.5)):
        pass
    return x  # the versions unify to float64, as in Numba


@njit
def uniform():
    s = 0
    for x in literal_unroll((1, 2, 3)):
        s += x
    return s


@njit
def local_array():
    z = np.arange(4.0)
    s = 0.0
    for x in literal_unroll(z):  # not a tuple: an ordinary loop, as in Numba
        s += x
    return s


def test_literal_unroll_in_jit_functions():
    assert sum_mixed_global() == 7.5
    assert scaled_sum_of(1, 2.5, np.int32(3)) == 13.0
    assert sizes(np.arange(3.0), np.ones((2, 2), np.int32)) == 37.0
    assert count_with_continue() == 2
    assert count_with_break() == 1
    r = last_item()
    assert r == 2.5 and isinstance(r, float)
    assert uniform() == 6
    assert local_array() == 6.0


@cuda.jit(device=True)
def describe(a):
    return a.size + a.shape[0] * 1000 + a.ndim * 100


@cuda.jit
def arrays_kernel(out):
    i = 0
    for case in literal_unroll(ARRAYS):
        out[i] = describe(case)
        i += 1
    for c in cuda_literal_unroll(ARRAYS):
        if i == 5:
            break
        out[i] = c.shape[0]
        i += 1
    a = ARRAYS[0]
    for j in range(4):
        out[5 + j] = a[j]
    b = ARRAYS[1]
    out[9] = b[1, 0]


@cuda.jit
def scalars_kernel(out, x, y):
    i = 0
    for v in literal_unroll((x, y, 3, MIXED[1])):
        out[i] = v / 2
        i += 1


def test_literal_unroll_in_kernels(target):
    out = np.zeros(10)
    arrays_kernel[1, 1](out)
    np.testing.assert_array_equal(out[:9], [4104.0, 2204.0, 1101.0, 4.0, 2.0, 1.0, -0.0, np.inf, np.nan])
    assert out[9] == 3.0
    assert math.copysign(1.0, out[6]) == -1.0  # -0.0 kept in the constant array
    out = np.zeros(4)
    scalars_kernel[1, 1](out, np.float32(3), np.int16(5))
    np.testing.assert_array_equal(out, [1.5, 2.5, 1.5, 1.25])


def test_global_array_with_nan_keeps_its_bits(target):
    weird = np.array([np.nan, -np.nan, np.inf, -np.inf, 1.5], dtype=np.float32)
    table = weird

    @cuda.jit
    def copy(out):
        for i in range(5):
            out[i] = table[i]

    out = np.zeros(5, np.float32)
    copy[1, 1](out)
    np.testing.assert_array_equal(out.view(np.uint32), weird.view(np.uint32))


@njit
def nested():
    s = 0.0
    for x in literal_unroll((1, 2.0)):
        for y in literal_unroll((3, 4.5)):
            s += x * y
    return s


@njit
def of_argument(a):
    for x in literal_unroll(a):
        pass
    return 0


def test_literal_unroll_refusals():
    from cujit.errors import UnsupportedError
    with pytest.raises(UnsupportedError, match="Nesting of literal_unroll is unsupported"):
        nested()
    with pytest.raises(UnsupportedError, match=r"Invalid use of literal_unroll with a function argument, "
                       r"only tuples are supported as function arguments, found array\(int64, 1d, C\)"):
        of_argument(np.arange(3))
