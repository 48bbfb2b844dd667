"""NumPy's sorting, searching and counting in @jit code (issue 20): np.sort, a.sort(), np.argsort,
a.argsort(), np.unique, np.searchsorted, np.diff, np.bincount, np.flip/fliplr/flipud, np.trace,
np.outer. Every expected value, dtype and error below is what Numba 0.68 gives for the same code."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError


def same(got, want):
    assert isinstance(got, np.ndarray), got
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


@njit
def sort_fn(a):
    return np.sort(a)


@njit
def sort_method(a):
    a.sort()


@njit
def argsort_fn(a):
    return np.argsort(a)


@njit
def argsort_merge(a):
    return np.argsort(a, kind='mergesort')


@njit
def argsort_method(a):
    return a.argsort()


def test_sort_puts_nan_last():
    a = np.array([3., np.nan, 1., 2., np.nan, -1.])
    same(sort_fn(a), np.array([-1., 1., 2., 3., np.nan, np.nan]))
    same(argsort_fn(a), np.array([5, 2, 3, 0, 1, 4]))
    same(argsort_merge(a), np.array([5, 2, 3, 0, 1, 4]))
    same(argsort_method(a), np.array([5, 2, 3, 0, 1, 4]))
    b = a.copy()
    assert sort_method(b) is None
    same(b, np.array([-1., 1., 2., 3., np.nan, np.nan]))
    assert np.isnan(a[1])  # np.sort copies


def test_sort_2d_along_last_axis_and_dtypes():
    same(sort_fn(np.array([[3, 1, 2], [9, 7, 8]])), np.array([[1, 2, 3], [7, 8, 9]]))
    same(sort_fn(np.array([3, 1, 2], dtype=np.int16)), np.array([1, 2, 3], dtype=np.int16))
    same(sort_fn(np.array([True, False])), np.array([False, True]))
    same(sort_fn(np.array([1 + 2j, 1 + 1j, np.nan, 0j])), np.array([0j, 1 + 1j, 1 + 2j, complex(np.nan, 0)]))
    same(argsort_fn(np.array([1 + 2j, 1 + 1j, 0j])), np.array([2, 1, 0]))
    b = np.array([[3, 1, 2], [9, 7, 8]])
    sort_method(b)
    same(b, np.array([[1, 2, 3], [7, 8, 9]]))
    w = np.array([9., 1., 7., 3., 5., 0.])
    sort_method(w[::2])  # a strided view, sorted in place
    same(w, np.array([5., 1., 7., 3., 9., 0.]))


def test_argsort_ties_are_stable():
    c = np.array([2, 1, 2, 1, 2, 1, 2])
    same(argsort_fn(c), np.array([1, 3, 5, 0, 2, 4, 6]))
    same(argsort_merge(c), np.array([1, 3, 5, 0, 2, 4, 6]))


def test_argsort_refusals():
    with pytest.raises(TypingError, match="argsort"):
        argsort_fn(np.zeros((2, 2)))  # Numba: 1-d only

    @njit
    def heap(a):
        return np.argsort(a, kind='heapsort')
    with pytest.raises(TypingError, match="heapsort"):
        heap(np.arange(3))


def test_unique():
    @njit
    def u(a):
        return np.unique(a)
    same(u(np.array([3, 1, 2, 3, 1])), np.array([1, 2, 3]))
    same(u(np.array([[3., 1.], [np.nan, np.nan]])), np.array([1., 3., np.nan]))
    same(u(np.array([True, False, True])), np.array([False, True]))


def test_searchsorted():
    @njit
    def left(a, v):
        return np.searchsorted(a, v)

    @njit
    def right(a, v):
        return np.searchsorted(a, v, side='right')
    assert left(np.array([1, 2, 2, 3]), 2) == 1
    assert right(np.array([1, 2, 2, 3]), 2) == 3
    same(left(np.array([1, 2, 2, 3]), np.array([0, 2, 5])), np.array([0, 1, 4]))
    assert left(np.array([1., 2.]), 1) == 0
    same(left(np.array([1., 2., np.nan]), np.array([[np.nan, 1.5], [3., 0.]])), np.array([[2, 1], [2, 0]]))

    @njit
    def middle(a, v):
        return np.searchsorted(a, v, side='middle')
    with pytest.raises(TypingError, match="side"):
        middle(np.array([1., 2.]), 1.0)


def test_diff():
    @njit
    def d1(a):
        return np.diff(a)

    @njit
    def dn(a, n):
        return np.diff(a, n)
    same(d1(np.array([1, 4, 9, 16])), np.array([3, 5, 7]))
    same(dn(np.array([[1, 4, 9], [2, 3, 5]]), 2), np.array([[2], [1]]))
    same(d1(np.array([True, False, False])), np.array([True, False]))
    same(dn(np.array([1, 2, 3]), 5), np.array([], dtype=np.int64))
    same(d1(np.array([1, 2, 3], dtype=np.uint8)), np.array([1, 1], dtype=np.uint8))
    with pytest.raises(ValueError, match=r"diff\(\): order must be non-negative"):
        dn(np.array([1, 2, 3]), -1)


def test_bincount():
    @njit
    def b1(a):
        return np.bincount(a)

    @njit
    def bw(a, w):
        return np.bincount(a, w)

    @njit
    def bm(a, m):
        return np.bincount(a, minlength=m)
    same(b1(np.array([0, 1, 1, 3])), np.array([1, 2, 0, 1]))
    same(b1(np.array([0, 2], dtype=np.int32)), np.array([1, 0, 1]))
    same(bw(np.array([0, 1, 1, 3]), np.array([.5, 1., 2., 3.])), np.array([0.5, 3., 0., 3.]))
    same(bw(np.array([0, 2]), np.array([1., 2.], dtype=np.float32)), np.array([1., 0., 2.]))
    same(bw(np.array([0, 2]), np.array([1, 2])), np.array([1., 0., 2.]))
    same(bm(np.array([0, 1]), 5), np.array([1, 1, 0, 0, 0]))
    with pytest.raises(ValueError, match=r"bincount\(\): first argument must be non-negative"):
        b1(np.array([0, -1]))
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        bm(np.array([0, 2]), -1)
    with pytest.raises(ValueError, match="weights and list don't have the same length"):
        bw(np.array([0, 2]), np.array([1., 2., 3.]))
    with pytest.raises(TypingError):
        b1(np.array([0., 2.]))


def test_flip_views():
    a = np.arange(6.).reshape(2, 3)

    @njit
    def flips(a):
        return np.flip(a), np.fliplr(a), np.flipud(a)
    f, lr, ud = flips(a)
    same(f, a[::-1, ::-1])
    same(lr, a[:, ::-1])
    same(ud, a[::-1])
    assert not f.flags.c_contiguous

    @njit
    def lr1(a):
        return np.fliplr(a)
    with pytest.raises(TypingError, match="Input must be >= 2-d"):
        lr1(np.arange(6.))


def test_trace_and_outer():
    @njit
    def tr(a):
        return np.trace(a)
    assert tr(np.arange(6.).reshape(2, 3)) == 4.0
    r = tr(np.arange(9, dtype=np.float32).reshape(3, 3))
    assert r == 12.0
    with pytest.raises(TypingError, match="only supported on float and complex arrays"):
        tr(np.arange(9).reshape(3, 3))  # Numba's trace refuses integer matrices
    with pytest.raises(TypingError, match="only supported on 2-D arrays"):
        tr(np.arange(6.))

    @njit
    def outer(a, b):
        return np.outer(a, b)
    same(outer(np.arange(3), np.arange(2.)), np.array([[0., 0.], [0., 1.], [0., 2.]]))
    same(outer(np.arange(4).reshape(2, 2), np.array([1, 2], dtype=np.int32)),
         np.array([[0, 0], [1, 2], [2, 4], [3, 6]]))
