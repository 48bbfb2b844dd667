"""`f(*expr)` where expr is a call or another expression, not a name (numba-cuda's
complex_usecases.polar_as_complex_usecase: `complex(*cmath.polar(x))`): the expression runs once,
before the call, where that keeps Python's order of effects; elsewhere it is refused. The
expectations were computed by Numba 0.68 (@njit) on the same code."""
import cmath

import numpy as np
import pytest

from cujit import cuda, njit
from cujit.errors import UnsupportedError


@njit
def pair(x):
    return x, x * 2.0


@njit
def add3(a, b, c):
    return a * 100.0 + b * 10.0 + c


@njit
def polar_as_complex(x):
    return complex(*cmath.polar(x))


@njit
def several(x):
    s = add3(1.0, *pair(x))
    s += add3(*pair(x), 3.0)
    if add3(*pair(x), 0.0) > 0:
        s += 1000.0
    for v in pair(add3(*pair(x), 1.0)):
        s += v
    return s


def test_jit_starred_call_results():
    assert polar_as_complex(1 + 2j) == complex(2.23606797749979, 1.1071487177940904)
    assert polar_as_complex(-3.5 + 0.25j) == complex(3.5089172119045497, 3.070285188804503)
    assert several(1.5) == 1844.0
    assert several(-2.0) == -878.0


def test_kernel_starred_call(target):
    @cuda.jit(device=True)
    def dpair(x):
        return x, x * 2.0

    @cuda.jit
    def k(a, out, z):
        i = cuda.grid(1)
        if i < a.size:
            r = complex(*cmath.polar(a[i])).real
            out[i] = r + complex(*dpair(z[i])).imag

    a = np.array([1 + 2j, -3.5 + 0.25j])
    z = np.array([1.5, -2.0])
    out = np.zeros(2)
    k[1, 2](a, out, z)
    # abs(z) is the GPU's hypot there (libdevice: within an ulp of the host libm's)
    np.testing.assert_allclose(out, [cmath.polar(a[0])[0] + 3.0, cmath.polar(a[1])[0] - 4.0], rtol=0, atol=1e-15)


def test_starred_expression_after_an_effect_refused():
    # add3(pair(x)[0], *pair(x)): pair(x) would run before its first call, against Python's order.
    @njit
    def f(x):
        return add3(pair(x)[0], *pair(x))

    with pytest.raises(UnsupportedError, match=r"argument unpacking \(\*\) of an expression is not supported"):
        f(1.0)
