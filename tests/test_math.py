"""Every function of `math` the issue lists, on float32 and float64, against Python's math on
the simulator and the GPU (generated once by hand from a list; each ufunc is plain source)."""
import math

import numpy as np
import pytest

from cujit import vectorize

@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_sqrt(x):
    return math.sqrt(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_exp(x):
    return math.exp(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_expm1(x):
    return math.expm1(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_log(x):
    return math.log(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_log1p(x):
    return math.log1p(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_log2(x):
    return math.log2(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_log10(x):
    return math.log10(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_sin(x):
    return math.sin(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_cos(x):
    return math.cos(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_tan(x):
    return math.tan(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_asin(x):
    return math.asin(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_acos(x):
    return math.acos(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_atan(x):
    return math.atan(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_sinh(x):
    return math.sinh(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_cosh(x):
    return math.cosh(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_tanh(x):
    return math.tanh(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_asinh(x):
    return math.asinh(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_acosh(x):
    return math.acosh(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_atanh(x):
    return math.atanh(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_erf(x):
    return math.erf(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_erfc(x):
    return math.erfc(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_gamma(x):
    return math.gamma(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_lgamma(x):
    return math.lgamma(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_fabs(x):
    return math.fabs(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_degrees(x):
    return math.degrees(x)


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def u_radians(x):
    return math.radians(x)


@vectorize(['int64(float32)', 'int64(float64)'], target='cuda')
def u_floor(x):
    return math.floor(x)


@vectorize(['int64(float32)', 'int64(float64)'], target='cuda')
def u_ceil(x):
    return math.ceil(x)


@vectorize(['int64(float32)', 'int64(float64)'], target='cuda')
def u_trunc(x):
    return math.trunc(x)


@vectorize(['boolean(float32)', 'boolean(float64)'], target='cuda')
def u_isnan(x):
    return math.isnan(x)


@vectorize(['boolean(float32)', 'boolean(float64)'], target='cuda')
def u_isinf(x):
    return math.isinf(x)


@vectorize(['boolean(float32)', 'boolean(float64)'], target='cuda')
def u_isfinite(x):
    return math.isfinite(x)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def u_pow(x, y):
    return math.pow(x, y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def u_atan2(x, y):
    return math.atan2(x, y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def u_hypot(x, y):
    return math.hypot(x, y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def u_copysign(x, y):
    return math.copysign(x, y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def u_fmod(x, y):
    return math.fmod(x, y)


CASES = [
    (u_sqrt, math.sqrt, 1, 0, 5),
    (u_exp, math.exp, 1, -5, 5),
    (u_expm1, math.expm1, 1, -5, 5),
    (u_log, math.log, 1, 0.1, 5),
    (u_log1p, math.log1p, 1, 0.1, 5),
    (u_log2, math.log2, 1, 0.1, 5),
    (u_log10, math.log10, 1, 0.1, 5),
    (u_sin, math.sin, 1, -3, 3),
    (u_cos, math.cos, 1, -3, 3),
    (u_tan, math.tan, 1, -3, 3),
    (u_asin, math.asin, 1, -0.9, 0.9),
    (u_acos, math.acos, 1, -0.9, 0.9),
    (u_atan, math.atan, 1, -3, 3),
    (u_sinh, math.sinh, 1, -5, 5),
    (u_cosh, math.cosh, 1, -5, 5),
    (u_tanh, math.tanh, 1, -3, 3),
    (u_asinh, math.asinh, 1, -3, 3),
    (u_acosh, math.acosh, 1, 1.1, 5),
    (u_atanh, math.atanh, 1, -0.9, 0.9),
    (u_erf, math.erf, 1, -3, 3),
    (u_erfc, math.erfc, 1, -3, 3),
    (u_gamma, math.gamma, 1, 0.5, 5),
    (u_lgamma, math.lgamma, 1, 0.5, 5),
    (u_fabs, math.fabs, 1, -3, 3),
    (u_degrees, math.degrees, 1, -3, 3),
    (u_radians, math.radians, 1, -3, 3),
    (u_floor, math.floor, 1, -3, 3),
    (u_ceil, math.ceil, 1, -3, 3),
    (u_trunc, math.trunc, 1, -3, 3),
    (u_isnan, math.isnan, 1, -3, 3),
    (u_isinf, math.isinf, 1, -3, 3),
    (u_isfinite, math.isfinite, 1, -3, 3),
    (u_pow, math.pow, 2, 0.5, 3),
    (u_atan2, math.atan2, 2, -3, 3),
    (u_hypot, math.hypot, 2, -3, 3),
    (u_copysign, math.copysign, 2, -3, 3),
    (u_fmod, math.fmod, 2, -3, 3),
]


@pytest.mark.parametrize("ufunc,ref,nargs,lo,hi", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_math_function(ufunc, ref, nargs, lo, hi, dtype, target):
    rng = np.random.default_rng(3)
    args = [rng.uniform(lo, hi, 257).astype(dtype) for _ in range(nargs)]
    if ufunc.__name__ in ("u_isnan", "u_isinf", "u_isfinite"):
        args[0][:3] = [np.nan, np.inf, -np.inf]
    got = ufunc(*args)
    want = np.array([ref(*(float(a[i]) for a in args)) for i in range(257)])
    if want.dtype == np.bool_ or ufunc.__name__ in ("u_floor", "u_ceil", "u_trunc"):
        np.testing.assert_array_equal(got, want)
    else:
        assert got.dtype == dtype
        tol = 2e-6 if dtype == np.float32 else 1e-13
        np.testing.assert_allclose(got, want.astype(dtype), rtol=tol, atol=tol)


@vectorize(['float64(float64)'], target='cuda')
def constants(x):
    return x * 0 + math.pi + math.e + math.tau


@vectorize(['boolean(float64)'], target='cuda')
def inf_nan(x):
    return math.isinf(math.inf) and math.isnan(math.nan) and x < math.inf


def test_math_constants(target):
    np.testing.assert_allclose(constants(np.zeros(3)), math.pi + math.e + math.tau, rtol=1e-15)
    assert inf_nan(np.zeros(3)).all()
