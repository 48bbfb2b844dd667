"""math.pow, atan2, hypot, copysign with mixed argument types pick Numba's declared case by
Numba's overload resolution (builtins.h math_binary_case): fewest unsafe, then safe, then
promoting conversions. Before, any non-float32 argument made the call float64: math.hypot(int8,
float32) was computed in float64 where Numba computes it in float32, and math.pow(0.1, 7) called
pow() where Numba's CPU case (float64, int64) squares as `**` does (1.0000000000000007e-07, not
...04e-07). Values pinned from Numba 0.68 (njit)."""
import math

import numpy as np
import pytest

from cujit import cuda, njit

B, I8, F32, F64, I64, U16 = True, np.int8(3), np.float32(0.1), 0.1, 7, np.uint16(5)

NUMBA = [  # (function, x, y, Numba's result)
    ("hypot", B, F32, 1.0049875974655151), ("hypot", I8, F32, 3.001666307449341),
    ("hypot", F32, I8, 3.001666307449341), ("hypot", F32, U16, math.hypot(np.float64(F32), 5)),
    ("hypot", F32, I64, math.hypot(np.float64(F32), 7)), ("hypot", I8, I8, math.hypot(3, 3)),
    ("atan2", B, F32, 1.4711276292800903), ("atan2", I8, F32, 1.537475347518921),
    ("atan2", F32, B, 0.09966865181922913), ("atan2", F32, I8, 0.03332099691033363),
    ("pow", I8, F32, 1.1161231994628906), ("pow", F64, I64, 1.0000000000000007e-07),
    ("pow", F64, U16, 1.0000000000000006e-05), ("pow", F32, F32, 0.7943282127380371),
    ("copysign", I8, F32, 3.0),
]


@pytest.mark.parametrize("name,x,y,want", NUMBA)
def test_mixed_arguments_as_numba(name, x, y, want):
    f = njit(eval("lambda x, y: math.%s(x, y)" % name, {"math": math}))
    got = f(x, y)
    assert type(got) is float and got == want


def test_math_pow_of_an_int_exponent_raises_as_numba_on_zero():
    @njit
    def f(x, n):
        return math.pow(x, n)

    assert f(2.0, 10) == 1024.0
    with pytest.raises(ZeroDivisionError):  # Numba's `**`: 1 / 0.0 ** 1 (Python raises ValueError)
        f(0.0, -1)


def test_mixed_arguments_in_kernels(target):
    @cuda.jit
    def k(a, b32, b64, out):
        out[0] = math.hypot(a[0], b32[0])  # int8, float32: numba-cuda's (float32, float32) case
        out[1] = math.atan2(a[0], b32[0])
        out[2] = math.hypot(a[0], b64[0])  # int8, float64: float64

    out = np.zeros(3)
    k[1, 1](np.array([3], np.int8), np.array([0.1], np.float32), np.array([0.1]), out)
    f32 = lambda v: float(np.float32(v))
    assert out[0] == f32(out[0]) and abs(out[0] - 3.001666307449341) <= 3e-7
    assert out[1] == f32(out[1]) and abs(out[1] - 1.537475347518921) <= 3e-7
    assert out[2] == math.hypot(3, 0.1)
