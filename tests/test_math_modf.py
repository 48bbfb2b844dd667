"""math.modf (issue 19, the rest of math): numba-cuda types it (float32 -> (float32, float32),
float64 and integers -> (float64, float64)); CPU Numba 0.68 has no implementation, cujit's @jit
gives Python's values. Expectations from Python's math.modf, which numba-cuda's simulator runs."""
import math

import numpy as np

from cujit import cuda, njit

VALUES = [3.5, -2.25, 0.0, -0.0, 7.0, 1e30, math.inf, -math.inf, 2.5e-8]


@cuda.jit
def modf_kernel(x, frac, whole, frac32, whole32):
    i = cuda.grid(1)
    if i < x.size:
        f, w = math.modf(x[i])
        frac[i] = f
        whole[i] = w
        f32, w32 = math.modf(np.float32(x[i]))
        frac32[i] = f32
        whole32[i] = w32


def test_modf_in_kernels(target):
    x = np.array(VALUES + [math.nan])
    frac, whole = np.empty_like(x), np.empty_like(x)
    frac32, whole32 = np.empty(x.size, np.float32), np.empty(x.size, np.float32)
    modf_kernel[1, 32](x, frac, whole, frac32, whole32)
    for i, v in enumerate(VALUES):
        f, w = math.modf(v)
        assert (frac[i], whole[i]) == (f, w) and math.copysign(1, frac[i]) == math.copysign(1, f)
        f32, w32 = math.modf(float(np.float32(v)))
        assert frac32[i] == np.float32(f32) and whole32[i] == np.float32(w32)
    assert math.isnan(frac[-1]) and math.isnan(whole[-1])


@njit
def modf_cpu(x):
    return math.modf(x)


def test_modf_on_the_cpu():
    for v in VALUES:
        assert modf_cpu(v) == math.modf(v)
    assert modf_cpu(7) == (0.0, 7.0)
    f, w = modf_cpu(np.float32(2.75))
    assert (f, w) == (0.75, 2.0)
