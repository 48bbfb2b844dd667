"""NumPy arrays made, returned and reduced in @jit code (issue 5). Results are compared with NumPy
(types as numba 0.62 gives them: the same dtypes and shapes)."""
import gc

import numpy as np
import pytest

from cujit import njit


@njit
def constructors(n):
    return (np.arange(n), np.arange(1.0, n), np.full(3, 2), np.full(2, 1.5), np.zeros((2, n), np.int32),
            np.ones(n, dtype=np.float32), np.arange(0, n, 2, np.float32), np.empty(n).shape[0],
            np.arange(10, 0, -3), np.full((2, 2), 7, dtype=np.int16))


def test_constructors_match_numpy():
    got = constructors(4)
    want = (np.arange(4), np.arange(1.0, 4), np.full(3, 2), np.full(2, 1.5), np.zeros((2, 4), np.int32),
            np.ones(4, dtype=np.float32), np.arange(0, 4, 2, np.float32), 4, np.arange(10, 0, -3),
            np.full((2, 2), 7, dtype=np.int16))
    for g, w in zip(got, want):
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape and (g == w).all(), (g, w)
            assert g.flags.c_contiguous and g.flags.owndata is False and g.base is not None
        else:
            assert g == w


@njit
def likes(a):
    return np.empty_like(a).shape, np.zeros_like(a), np.ones_like(a, np.float32), np.full_like(a, 3), a.copy(), np.copy(a)


def test_like_constructors_and_copies():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)[:, ::2]  # strided input
    shape, z, o, f, c1, c2 = likes(a)
    assert shape == (2, 2)
    assert z.dtype == np.int32 and (z == 0).all()
    assert o.dtype == np.float32 and (o == 1).all()
    assert f.dtype == np.int32 and (f == 3).all()
    for c in (c1, c2):
        assert (c == a).all() and c.flags.c_contiguous
    c1[0, 0] = 99
    assert a[0, 0] == 0  # a copy, not a view


@njit
def reductions(a):
    return np.sum(a), a.sum(), np.mean(a), a.mean(), a.min(), a.max(), np.min(a), np.max(a)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64])
def test_reductions_match_numpy(dtype):
    a = (np.arange(24) % 7 + 1).astype(dtype).reshape(2, 3, 4)[:, ::2, 1:]
    s, s2, m, m2, lo, hi, lo2, hi2 = reductions(a)
    assert s == s2 == a.sum()
    assert m == pytest.approx(a.mean(), rel=1e-6) and m2 == m
    assert lo == lo2 == a.min() and hi == hi2 == a.max()


def test_max_propagates_nan():
    a = np.array([1.0, np.nan, 3.0])
    assert np.isnan(reductions(a)[5])


@njit
def elementwise(a):
    return np.sqrt(a), np.exp(a), np.sin(a)


def test_numpy_math_on_arrays_returns_new_arrays():
    a = np.linspace(0.0, 2.0, 12).reshape(3, 4)
    r = elementwise(a)
    np.testing.assert_allclose(r[0], np.sqrt(a))
    np.testing.assert_allclose(r[1], np.exp(a))
    np.testing.assert_allclose(r[2], np.sin(a))
    f32 = elementwise(a.astype(np.float32))
    assert all(x.dtype == np.float32 for x in f32)
    assert elementwise(np.arange(3)).__getitem__(0).dtype == np.float64


@njit
def window(a, k):
    return a[k:]


@njit
def first_row(m):
    return m[0]


def test_returned_views_of_arguments_share_memory():
    a = np.arange(10.0)
    w = window(a, 3)
    assert (w == a[3:]).all() and w.base is a
    w[0] = -1
    assert a[3] == -1
    m = np.arange(6).reshape(2, 3)
    r = first_row(m)
    assert (r == [0, 1, 2]).all() and np.shares_memory(r, m)


@njit
def two_views(n):
    a = np.arange(n)
    return a, a[1:], a.sum()


def test_views_of_a_new_array_share_its_block():
    a, b, s = two_views(5)
    assert s == 10 and (b == [1, 2, 3, 4]).all()
    assert np.shares_memory(a, b)
    del a
    gc.collect()
    assert (b == [1, 2, 3, 4]).all()  # the block lives while any array uses it


@njit
def temporaries(n):
    total = 0.0
    for i in range(n):
        t = np.ones(1000)  # freed when the call returns, not returned
        total += t.sum()
    return total


def test_temporaries_are_freed_with_the_call():
    for _ in range(3):
        assert temporaries(200) == 200000.0


@njit
def sizes(n):
    np.random.seed(n)
    return np.random.random((2, 3)), np.random.randint(0, 5, size=4), np.random.randn(3), np.random.normal(1.0, 2.0, (2, 2))


def test_random_arrays_match_numpy():
    got = sizes(3)
    rs = np.random.RandomState(3)
    want = (rs.random_sample((2, 3)), rs.randint(0, 5, size=4), rs.randn(3), rs.normal(1.0, 2.0, (2, 2)))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and (g == w).all()
