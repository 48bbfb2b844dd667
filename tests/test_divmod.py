"""divmod(a, b) as Numba 0.68 (@jit) and numba-cuda 0.30 (kernels, device functions): Python's
floor quotient and remainder (the remainder takes the divisor's sign), Numba's result types
(int64 or uint64 for integers, float64 for int64 with uint64, the floats' promotion otherwise),
ZeroDivisionError with Numba's messages in @jit code, and NumPy's error model in kernels ((0, 0)
for integers, (inf, nan) for floats). Expected values pinned from real Numba."""
import contextlib
import io
import math
import re

import numpy as np
import pytest

from cujit import cuda, njit


@njit
def dm(a, b):
    return divmod(a, b)


@pytest.mark.parametrize("a,b,want", [
    (-7, 2, (-4, 1)), (7, -2, (-4, -1)), (5, -3, (-2, -1)), (-7, -2, (3, -1)), (0, 5, (0, 0)),
    (np.int64(-2**63), np.int64(-1), (0, 0)),  # Numba's answer to the overflow (not a trap)
    (np.int32(-2**31), np.int32(-1), (2147483648, 0)),  # computed in int64
    (True, 2, (0, 1)),
])
def test_divmod_int(a, b, want):
    got = dm(a, b)
    assert got == want and all(type(x) is int for x in got)


@pytest.mark.parametrize("a,b,want", [
    (-7.5, 2.0, (-4.0, 0.5)), (-7, 2.5, (-3.0, 0.5)), (5.5, -2.0, (-3.0, -0.5)),
    (-0.0, 3.0, (-0.0, 0.0)), (7.0, math.inf, (0.0, 7.0)),
    (np.float32(-7.5), np.float32(2), (-4.0, 0.5)),
])
def test_divmod_float(a, b, want):
    got = dm(a, b)
    assert got == want and all(type(x) is float for x in got)
    assert [math.copysign(1, x) for x in got] == [math.copysign(1, x) for x in want]


def test_divmod_float_inf_numerator():
    q, r = dm(math.inf, 2.0)
    assert math.isnan(q) and math.isnan(r)


def test_divmod_uint64_with_int64_is_float():
    assert dm(np.uint64(7), np.int64(2)) == (3.0, 1.0)
    assert type(dm(np.uint64(7), np.int64(2))[0]) is float


def test_divmod_result_types():
    # Numba's DivMod signatures (int64, uint64, float32, float64 pairs): a few of the 81 pinned.
    @njit
    def f(a, b):
        return divmod(a, b)

    want = {
        ("int32", "int32"): "int64", ("uint8", "uint8"): "uint64", ("uint8", "int8"): "int64",
        ("uint64", "int8"): "float64", ("uint32", "int64"): "int64", ("bool", "uint32"): "uint64",
        ("bool", "bool"): "int64", ("float32", "int8"): "float32", ("float32", "int32"): "float64",
        ("float32", "uint8"): "float32", ("float32", "float32"): "float32", ("bool", "float32"): "float32",
    }
    for (x, y) in want:
        f(getattr(np, x if x != "bool" else "bool_")(1), getattr(np, y if y != "bool" else "bool_")(1))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        f.inspect_types()
    got = {(m[1], m[2]): m[3] for m in re.finditer(r"divmod\((\w+), (\w+)\)  :: UniTuple\((\w+) x 2\)", buf.getvalue())}
    assert got == want


@pytest.mark.parametrize("a,b,msg", [
    (7, 0, "integer divmod by zero"), (7.0, 0.0, "modulo by zero"), (0.0, 0.0, "modulo by zero"),
    (True, False, "integer divmod by zero"),
])
def test_divmod_by_zero_raises(a, b, msg):
    with pytest.raises(ZeroDivisionError, match=f"^{msg}$"):
        dm(a, b)


def test_divmod_operands_evaluated_once():
    @njit
    def f(a):
        n = 0
        q, r = divmod(a[n], a[1])
        return q * 10 + r

    assert f(np.array([17, 5])) == 32


def test_floordiv_int64_min_by_minus_one():
    # Numba's // and % (int_divmod_signed): INT64_MIN // -1 is 0, not a wrapped INT64_MIN.
    @njit
    def f(a, b):
        return a // b, a % b

    assert f(np.int64(-2**63), np.int64(-1)) == (0, 0)
    assert f(np.int64(-7), np.int64(-1)) == (7, 0)


@cuda.jit
def divmod_kernel(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i], r[i] = divmod(a[i], b[i])


@cuda.jit(device=True)
def divmod_device(x, y):
    return divmod(x, y)


@cuda.jit
def divmod_via_device(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        t = divmod_device(a[i], b[i])
        q[i] = t[0]
        r[i] = t[1]


@pytest.mark.parametrize("kernel", [divmod_kernel, divmod_via_device])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float64])
def test_divmod_in_kernels(target, kernel, dtype):
    a = np.array([-7, 7, 7, -7, 5, 0], dtype=dtype)
    b = np.array([2, -2, 3, -3, 0, 0], dtype=dtype)
    q = np.zeros(6, dtype=dtype)
    r = np.zeros(6, dtype=dtype)
    kernel[1, 8](a, b, q, r)
    # numba-cuda's NumPy error model for the zero divisors (no exception without debug=True)
    if dtype == np.float64:
        np.testing.assert_array_equal(q, [-4, -4, 2, 2, np.inf, np.nan])
        np.testing.assert_array_equal(r, [1, -1, 1, -1, np.nan, np.nan])
    else:
        np.testing.assert_array_equal(q, [-4, -4, 2, 2, 0, 0])
        np.testing.assert_array_equal(r, [1, -1, 1, -1, 0, 0])
