"""np.round / np.around in @jit code, and arithmetic and ufuncs of 0-d arrays (issue 20's
adversarial pass against Numba 0.68: each expected value is Numba's for the same code)."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


@njit
def round2(a):
    return np.round(a, 2)


@njit
def round0(a):
    return np.round(a)


@njit
def around_neg(a):
    return np.around(a, -1)


@njit
def round_out(a, o):
    return np.round(a, 1, o)


@njit
def round_kw(a):
    return np.round(a, decimals=1)


A = np.array([0.125, 2.5, -3.5, 1.005, np.nan, np.inf, 12345.678])


def test_round_arrays():
    same(round2(A), np.array([0.12, 2.5, -3.5, 1.0, np.nan, np.inf, 12345.68]))
    same(round0(A), np.array([0.0, 2.0, -4.0, 1.0, np.nan, np.inf, 12346.0]))
    same(around_neg(A * 10), np.array([0.0, 20.0, -40.0, 10.0, np.nan, np.inf, 123460.0]))
    same(round2(A.astype(np.float32)), np.array([0.12, 2.5, -3.5, 1.0, np.nan, np.inf, 12345.68], np.float32))
    same(round2(np.array([15, 25, -35])), np.array([15, 25, -35]))
    same(around_neg(np.array([15, 25, -35], dtype=np.int32)), np.array([20, 20, -40], np.int32))
    same(round2(A[:3] * (1 + 1j)), np.array([0.12 + 0.12j, 2.5 + 2.5j, -3.5 - 3.5j]))
    same(round_kw(A[::2]), np.array([0.1, -3.5, np.nan, 12345.7]))
    same(round0(np.asfortranarray(np.arange(6.0).reshape(2, 3) / 4)), np.array([[0., 0., 0.], [1., 1., 1.]]))


def test_round_out():
    o = np.zeros(7)
    assert round_out(A, o) is not None
    same(o, np.array([0.1, 2.5, -3.5, 1.0, np.nan, np.inf, 12345.7]))
    same(round_out(A[:3], np.zeros(3, np.int64)), np.array([0, 2, -3]))
    with pytest.raises(ValueError, match="invalid output shape"):
        round_out(A, np.zeros(3))


def test_round_numbers():
    @njit
    def r1(x):
        return np.round(x, 1)

    @njit
    def r0(x):
        return np.round(x)

    assert r1(2.25) == 2.2 and type(r1(2.25)) is float
    assert r1(25) == 25 and type(r1(25)) is int
    assert r0(2.5) == 2.0 and r0(np.int32(7)) == 7
    assert r1(2.25 + 1.35j) == 2.2 + 1.4j
    assert r0(np.float32(3.5)) == 4.0


def test_round_refusals():
    with pytest.raises(TypingError, match="No implementation of function numpy.round"):
        round0(np.array([True]))


@njit
def plus1(a):
    return a + 1


@njit
def root(a):
    return np.sqrt(a)


@njit
def square(a):
    return a * a


@njit
def add2(a, b):
    return a + b


def test_zero_d_arithmetic_gives_numbers():
    # Numba: an operator or ufunc whose array inputs are all 0-d gives a number, not a 0-d array.
    r = plus1(np.array(4.0))
    assert r == 5.0 and type(r) is float
    r = root(np.array(4.0))
    assert r == 2.0 and type(r) is float
    r = square(np.array(4))
    assert r == 16 and type(r) is int
    same(add2(np.array(4.0), np.arange(2.0)), np.array([4.0, 5.0]))
