"""NumPy's index-finding, shifting, comparing and binning functions in @jit code (issue 20):
np.nonzero, a.nonzero(), np.where(cond), np.argwhere, np.roll, np.cross, np.interp, np.isclose,
np.allclose, np.histogram. Every expected value, dtype and error below is what Numba 0.68 gives
for the same code."""
import numpy as np
import pytest

import cujit
from cujit import njit
from cujit.errors import TypingError


def same(got, want):
    assert isinstance(got, np.ndarray), got
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


def same_tuple(got, want):
    assert isinstance(got, tuple) and len(got) == len(want), got
    for g, w in zip(got, want):
        same(g, w)


A2 = np.array([[0, 1, 2], [3, 0, 5]])
A1 = np.array([0., 1.5, 0., 2.])
I = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731


@njit
def nonzero_fn(a):
    return np.nonzero(a)


@njit
def nonzero_method(a):
    return a.nonzero()


@njit
def where1(a):
    return np.where(a)


@njit
def where1_expr(a):
    return np.where(a > 1)


@njit
def argwhere(a):
    return np.argwhere(a)


def test_nonzero():
    same_tuple(nonzero_fn(A2), (I(0, 0, 1, 1), I(1, 2, 0, 2)))
    same_tuple(nonzero_fn(A1), (I(1, 3),))
    same_tuple(nonzero_fn(np.array([True, False, True])), (I(0, 2),))
    same_tuple(nonzero_fn(np.array([1 + 0j, 0j])), (I(0),))
    same_tuple(nonzero_fn(np.zeros((2, 2, 2))), (I(), I(), I()))
    same_tuple(nonzero_fn(A2.T), (I(0, 1, 2, 2), I(1, 0, 0, 1)))  # C order of the view
    same_tuple(nonzero_method(A2), (I(0, 0, 1, 1), I(1, 2, 0, 2)))


def test_where_one_argument():
    same_tuple(where1(A2), (I(0, 0, 1, 1), I(1, 2, 0, 2)))
    same_tuple(where1_expr(A1), (I(1, 3),))


def test_argwhere():
    same(argwhere(A2), np.array([[0, 1], [0, 2], [1, 0], [1, 2]], dtype=np.int64))
    same(argwhere(A1), np.array([[1], [3]], dtype=np.int64))
    same(argwhere(np.zeros((2, 0))), np.zeros((0, 2), dtype=np.int64))


def test_nonzero_refuses_scalars_and_0d():
    with pytest.raises(TypingError, match=r"No implementation of function numpy.nonzero found for signature: nonzero\(int64\)"):
        nonzero_fn(3)
    with pytest.raises(TypingError, match="No implementation of function numpy.nonzero"):
        nonzero_fn(np.array(3.0))
    with pytest.raises(TypingError, match="No implementation of function numpy.argwhere"):
        argwhere(np.array(3.0))


@njit
def roll(a, s):
    return np.roll(a, s)


@njit
def roll_kw(a, s):
    return np.roll(a, shift=s)


def test_roll():
    a1 = np.arange(5.)
    same(roll(a1, 2), np.array([3., 4., 0., 1., 2.]))
    same(roll(a1, -7), np.array([2., 3., 4., 0., 1.]))
    same(roll(np.arange(6).reshape(2, 3), 1), np.array([[5, 0, 1], [2, 3, 4]]))
    same(roll(np.arange(6).reshape(2, 3).T, 1), np.array([[5, 0], [3, 1], [4, 2]]))
    same(roll(np.arange(0), 3), np.arange(0))
    same(roll(np.arange(4), True), np.array([3, 0, 1, 2]))
    same(roll(np.arange(4), np.int8(-1)), np.array([1, 2, 3, 0]))
    same(roll_kw(a1, 1), np.array([4., 0., 1., 2., 3.]))
    with pytest.raises(TypingError, match="No implementation of function numpy.roll"):
        roll(a1, 1.5)


@njit
def cross(a, b):
    return np.cross(a, b)


def test_cross():
    same(cross(np.array([1., 2, 3]), np.array([4., 5, 6])), np.array([-3., 6., -3.]))
    same(cross(np.array([1, 2, 3]), np.array([4, 5, 6])), np.array([-3, 6, -3]))
    same(cross(np.array([[1., 2, 3], [1, 0, 0]]), np.array([4., 5, 6])), np.array([[-3., 6., -3.], [0., -6., 5.]]))
    same(cross(np.array([1., 2, 3]), np.array([4., 5])), np.array([-15., 12., -3.]))
    same(cross(np.array([1, 2, 3], dtype=np.int32), np.array([4., 5, 6], dtype=np.float32)), np.array([-3., 6., -3.]))
    same(cross(np.array([1 + 1j, 2, 3]), np.array([4., 5, 6])), np.array([-3. + 0.j, 6. - 6.j, -3. + 5.j]))
    same(cross(np.ones((3, 2)), np.ones(3)), np.array([[1., -1., 0.]] * 3))
    same(cross(np.ones((2, 1, 3)), np.ones((4, 3))), np.zeros((2, 4, 3)))
    with pytest.raises(ValueError, match="Dimensions for both inputs is 2"):
        cross(np.array([1., 2]), np.array([4., 5]))
    with pytest.raises(ValueError, match="Incompatible dimensions for cross product"):
        cross(np.array([1., 2, 3, 4]), np.array([4., 5, 6, 7]))
    with pytest.raises(ValueError, match="unable to broadcast argument 1 to output array"):
        cross(np.ones((2, 3)), np.ones((4, 3)))


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def test_interp():
    xp, fp = np.array([1., 2, 3]), np.array([3., 2, 0])
    assert interp(2.5, xp, fp) == 1.0
    same(interp(np.array([0., 1, 1.5, 2.72, 3.14]), xp, fp), np.array([3., 3., 2.5, 0.5599999999999996, 0.]))
    same(interp(np.array([0, 1, 2]), np.array([0, 2]), np.array([0, 10])), np.array([0., 5., 10.]))
    assert interp(1.5, xp, np.array([1 + 1j, 2, 3])) == 1.5 + 0.5j
    assert np.isnan(interp(np.nan, xp, fp))
    assert interp(1, np.array([1, 2, 3]), np.array([1, 2, 3])) == 1.0
    same(interp(np.array([[1.5, 2.5]]), xp, fp), np.array([[2.5, 1.]]))
    same(interp(np.array([0.5, 1.0, 1.25, 2.0, 2.5]), np.array([1.]), np.array([7.])), np.full(5, 7.))
    same(interp(np.array([np.nan, 1.0]), np.array([1.]), np.array([7.])), np.array([7., 7.]))
    same(interp(np.array([1.0, 1.5, 2.0, 3.0]), xp, np.array([0., np.inf, 1])), np.array([0., np.inf, np.inf, 1.]))
    same(interp(np.array([1.0, 1.5, 2.0]), np.array([1., 2, 2, 3]), np.array([0., 1, 5, 1])), np.array([0., 0.5, 5.]))
    same(interp(np.array([1.5], dtype=np.float32), np.array([1, 2], dtype=np.float32), np.array([1, 2], dtype=np.float32)),
         np.array([1.5]))
    with pytest.raises(ValueError, match="fp and xp are not of the same size."):
        interp(1.5, xp, np.array([1., 2]))
    with pytest.raises(ValueError, match="array of sample points is empty"):
        interp(1.5, np.array([]), np.array([]))
    with pytest.raises(TypingError, match="No implementation of function numpy.interp"):
        interp(1.5, np.array([[1., 2]]), np.array([1., 2]))
    with pytest.raises(TypingError, match="No implementation of function numpy.interp"):
        interp(1 + 1j, np.array([1., 2]), np.array([1., 2]))


X = np.array([1.0, 1e-9, np.nan, np.inf, -np.inf, 2.0])
Y = np.array([1.0 + 1e-6, 0.0, np.nan, np.inf, np.inf, 2.1])


@njit
def isclose(a, b):
    return np.isclose(a, b)


@njit
def isclose_pos(a, b):
    return np.isclose(a, b, 1e-3, 1e-2, True)


@njit
def isclose_kw(a, b):
    return np.isclose(a, b, rtol=1e-3, atol=0.0, equal_nan=True)


@njit
def isclose_nan(a, b):
    return np.isclose(a, b, equal_nan=True)


@njit
def allclose(a, b):
    return np.allclose(a, b)


@njit
def allclose_nan(a, b):
    return np.allclose(a, b, equal_nan=True)


def test_isclose():
    B = lambda *v: np.array(v, dtype=bool)  # noqa: E731
    same(isclose(X, Y), B(1, 1, 0, 1, 0, 0))
    same(isclose_pos(X, Y), B(1, 1, 1, 1, 0, 0))
    same(isclose_kw(X, Y), B(1, 0, 1, 1, 0, 0))
    same(isclose_nan(X, Y), B(1, 1, 1, 1, 0, 0))
    assert isclose(1.0, 1.0 + 1e-9) is True
    same(isclose(X, 1.0), B(1, 0, 0, 0, 0, 0))
    # NumPy's answer; Numba 0.68 gives [[True, False], [True, False]] here, a wrong answer.
    same(isclose(np.array([[1, 2], [3, 4]]), np.array([1, 3])), np.array([[True, False], [False, False]]))
    with pytest.raises(ValueError, match="shape mismatch: objects cannot be broadcast to a single shape"):
        isclose(np.array([1, 2]), np.array([1, 2, 3]))
    with pytest.raises(TypingError, match="No implementation of function numpy.isclose"):
        isclose(np.array([1 + 1j, 2]), np.array([1 + 1j, 2.0001]))


def test_allclose():
    assert allclose(X, Y) is False
    assert allclose(X, X) is False
    assert allclose_nan(X, X) is True
    assert allclose(1.0, 1.0) is True
    assert allclose(np.array([1.0, 2.0]), np.array([[1.0, 2.0 + 1e-9]])) is True
    with pytest.raises(ValueError, match="shape mismatch: objects cannot be broadcast to a single shape"):
        allclose(np.array([1, 2]), np.array([1, 2, 3]))


D = np.array([1., 2, 2, 3, 5, 8, 9.5, -1])


@njit
def hist(a):
    return np.histogram(a)


@njit
def hist_n(a, n):
    return np.histogram(a, n)


@njit
def hist_range(a, n, lo, hi):
    return np.histogram(a, n, (lo, hi))


@njit
def hist_kw(a):
    return np.histogram(a, range=(1, 4))


@njit
def hist_kw2(a):
    return np.histogram(a, bins=3, range=(1, 4))


def test_histogram_int_bins():
    same_tuple(hist(D), (I(1, 1, 2, 1, 0, 1, 0, 0, 1, 1),
                         np.array([-1.0, 0.050000000000000044, 1.1, 2.1500000000000004, 3.2, 4.25, 5.300000000000001,
                                   6.3500000000000005, 7.4, 8.450000000000001, 9.5])))
    same_tuple(hist_n(D, 4), (I(2, 3, 1, 2), np.array([-1., 1.625, 4.25, 6.875, 9.5])))
    same_tuple(hist_range(D, 4, 0.0, 10.0), (I(3, 1, 1, 2), np.array([0., 2.5, 5., 7.5, 10.])))
    same_tuple(hist_kw2(D), (I(1, 2, 1), np.array([1., 2., 3., 4.])))
    same_tuple(hist_kw(D), (I(1, 0, 0, 2, 0, 0, 1, 0, 0, 0), np.array([1.0, 1.3, 1.6, 1.9, 2.2, 2.5, 2.8, 3.1, 3.4, 3.6999999999999997, 4.0])))
    same_tuple(hist_n(np.array([1, 2, 3, 4, 5]), 4), (I(1, 1, 1, 2), np.array([1., 2., 3., 4., 5.])))
    same_tuple(hist_n(np.array([3., 3, 3]), 4), (I(0, 0, 0, 0), np.array([3., 3., 3., 3., 3.])))
    same_tuple(hist_n(np.array([[1., 2], [3, 4]]), 4), (I(1, 1, 1, 1), np.array([1., 1.75, 2.5, 3.25, 4.])))
    same_tuple(hist_n(np.array([1., np.nan]), 4), (I(0, 0, 0, 0), np.array([1., 1., 1., 1., 1.])))
    same_tuple(hist_range(D, 3, 1, 1), (I(0, 0, 0), np.array([1., 1., 1., 1.])))
    with pytest.raises(ValueError, match="histogram\\(\\): max must be larger than min in range parameter"):
        hist(np.array([]))
    with pytest.raises(ValueError, match="histogram\\(\\): `bins` should be a positive integer"):
        hist_n(D, 0)
    with pytest.raises(ValueError, match="histogram\\(\\): `bins` should be a positive integer"):
        hist_n(D, -1)
    with pytest.raises(ValueError, match="histogram\\(\\): max must be larger than min in range parameter"):
        hist_range(D, 3, 5.0, 1.0)


def test_histogram_array_bins():
    same_tuple(hist_n(D, np.array([0., 1, 5, 10])), (I(0, 4, 3), np.array([0., 1., 5., 10.])))
    same_tuple(hist_n(D, np.array([0, 1, 5, 10])), (I(0, 4, 3), I(0, 1, 5, 10)))
    with pytest.raises(ValueError, match="histogram\\(\\): bins must increase monotonically"):
        hist_n(D, np.array([3., 1, 5]))
    with pytest.raises(TypingError, match="No implementation of function numpy.histogram"):
        hist_n(D, 2.5)


C = np.array([1 + 2j, 3 - 1j, -2 + 0.5j, 0.25j])


@njit
def csum(a):
    return np.sum(a), a.sum()


@njit
def cprod(a):
    return np.prod(a), a.prod()


@njit
def cmean(a):
    return np.mean(a), a.mean()


@njit
def cvar(a):
    return np.var(a), a.var(), np.std(a), a.std()


def test_complex_reductions():
    for a in (C, C.astype(np.complex64), C.reshape(2, 2), C.reshape(2, 2).T):
        assert csum(a) == (2 + 1.75j, 2 + 1.75j)
        assert cprod(a) == (1.875 - 3.125j, 1.875 - 3.125j)
        assert cmean(a) == (0.5 + 0.4375j, 0.5 + 0.4375j)
        assert cvar(a) == (4.38671875, 4.38671875, 2.094449510014505, 2.094449510014505)
    # complex64 stays complex64 for sum/prod/mean (Numba's types), var/std are float64.
    s, _ = csum(C.astype(np.complex64))
    assert type(s) is complex
    m = cmean(np.array([], dtype=np.complex128))[0]
    assert np.isnan(m.real) and np.isnan(m.imag)
    assert cprod(np.array([], dtype=np.complex128)) == (1 + 0j, 1 + 0j)
    assert cvar(np.array([1e200 + 1e200j, -1e200j]))[0] == np.inf
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        cvar(np.array([], dtype=np.complex128))


@cujit.cuda.jit
def k_complex_reductions(a, out, outr):
    out[0] = a.sum()
    out[1] = np.prod(a)
    out[2] = a.mean()
    outr[0] = np.var(a)
    outr[1] = a.std()


def test_complex_reductions_in_kernels(target):
    out, outr = np.zeros(3, dtype=np.complex128), np.zeros(2)
    k_complex_reductions[1, 1](C, out, outr)
    assert out.tolist() == [2 + 1.75j, 1.875 - 3.125j, 0.5 + 0.4375j]
    assert outr.tolist() == [4.38671875, 2.094449510014505]


A3 = np.arange(3.)
A23 = np.arange(6.).reshape(2, 3)


@njit
def newaxis_views(a1, a2):
    return (a1[np.newaxis, :], a1[:, None], a2[None], a2[1, None], a2[None, 1:, None], a2[None, 0, None, 1],
            a1[:, None] * a1[None, :])


def test_newaxis_indexing():
    got = newaxis_views(A3, A23)
    want = (np.array([[0., 1., 2.]]), np.array([[0.], [1.], [2.]]), A23.reshape(1, 2, 3), np.array([[3., 4., 5.]]),
            np.array([[[[3., 4., 5.]]]]), np.array([[1.]]),
            np.array([[0., 0., 0.], [0., 1., 2.], [0., 2., 4.]]))
    same_tuple(got, want)


@njit
def newaxis_value():
    return np.newaxis


def test_newaxis_is_none():
    assert newaxis_value() is None


@cujit.cuda.jit
def k_newaxis(a, out):
    v = a[None, :]
    w = a[1:, None]
    out[0] = v[0, 2]
    out[1] = v.shape[0]
    out[2] = w[1, 0]
    out[3] = w.shape[1]


def test_newaxis_in_kernels(target):
    out = np.zeros(4)
    k_newaxis[1, 1](np.array([1., 2., 3.]), out)
    assert out.tolist() == [3.0, 1.0, 3.0, 1.0]
