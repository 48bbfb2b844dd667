"""NumPy array creation in @jit code (issue 20): linspace, eye, identity, tri/tril/triu, diag,
array/asarray, concatenate/stack/hstack/vstack/column_stack/dstack, and the lifetime of arrays
made in compiled code (returned ones go to NumPy, the rest are freed; no leak over many calls).
Every expected value, dtype and error is what Numba 0.68 gives for the same function."""
import gc

import numpy as np
import pytest

from cujit import njit
from memory_probe import held_bytes

A2 = np.arange(12, dtype=np.int32).reshape(3, 4)


def same(got, want):
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


@njit
def spaces(n):
    return np.linspace(0, 1, n), np.linspace(0.0, 1.0), np.linspace(2, 3, 1), np.linspace(2, 3, 0)


def test_linspace():
    a, b, c, d = spaces(5)
    same(a, np.array([0., 0.25, 0.5, 0.75, 1.]))
    same(b, np.linspace(0.0, 1.0))
    assert b[-1] == 1.0
    same(c, np.array([2.0]))
    same(d, np.zeros(0))


@njit
def eyes(n):
    return np.eye(n), np.eye(n, 4), np.eye(n, 4, 1), np.eye(n, dtype=np.int32), np.eye(n, k=-1), np.identity(n), np.identity(2, np.int64)


def test_eye_identity():
    got = eyes(3)
    want = (np.eye(3), np.eye(3, 4), np.eye(3, 4, 1), np.eye(3, dtype=np.int32), np.eye(3, k=-1), np.identity(3),
            np.identity(2, np.int64))
    for g, w in zip(got, want):
        same(g, w)


@njit
def triangles(a):
    return np.tri(3), np.tri(3, 4, 1), np.tril(a), np.triu(a, 1), np.tril(a, -1)


def test_tri_tril_triu():
    got = triangles(A2)
    want = (np.tri(3), np.tri(3, 4, 1), np.tril(A2), np.triu(A2, 1), np.tril(A2, -1))
    for g, w in zip(got, want):
        same(g, w)
    same(triangles(A2[:, ::2])[2], np.tril(A2[:, ::2]))


@njit
def diags(v, m):
    return np.diag(v), np.diag(v, -1), np.diag(m), np.diag(m, 1), np.diag(m, k=-2)


def test_diag():
    v = np.arange(3.0)
    got = diags(v, A2)
    want = (np.diag(v), np.diag(v, -1), np.diag(A2), np.diag(A2, 1), np.diag(A2, k=-2))
    for g, w in zip(got, want):
        same(g, w)


@njit
def from_sequences(x):
    return (np.array([1, 2, 3]), np.array([1.0, 2, 3]), np.array([[1, 2], [3, 4]]), np.array((1, 2, 3)),
            np.array([1, 2, 3], dtype=np.float32), np.array((1, 2.5)), np.asarray([1, 2]), np.array([x, x]))


def test_array_from_lists_and_tuples():
    got = from_sequences(7)
    want = (np.array([1, 2, 3]), np.array([1.0, 2, 3]), np.array([[1, 2], [3, 4]]), np.array((1, 2, 3)),
            np.array([1, 2, 3], dtype=np.float32), np.array([1.0, 2.5]), np.array([1, 2]), np.array([7, 7]))
    for g, w in zip(got, want):
        same(g, w)


@njit
def of_arrays(a):
    return np.array(a), np.asarray(a), np.asarray(a, dtype=np.float64), np.asarray(a, dtype=np.int32)


def test_array_and_asarray_of_an_array():
    c, same_a, f, i = of_arrays(A2)
    same(c, A2)
    assert not np.shares_memory(c, A2)  # np.array copies
    assert np.shares_memory(same_a, A2)  # np.asarray of the same dtype does not
    assert np.shares_memory(i, A2)
    same(f, A2.astype(np.float64))
    s = A2[:, ::2]
    c2 = of_arrays(s)[0]
    same(c2, s)
    assert c2.flags.c_contiguous


@njit
def joins(a):
    return (np.concatenate((a, a)), np.concatenate((a, a), axis=1), np.concatenate((a, a.astype(np.float64))),
            np.stack((a, a)), np.stack((a, a), axis=1), np.stack((a, a), axis=2), np.hstack((a, a)), np.vstack((a, a)),
            np.dstack((a, a)), np.concatenate((a, a[:2])), np.concatenate((a, a), axis=-1))


def test_concatenate_stack_2d():
    a = A2
    got = joins(a)
    want = (np.concatenate((a, a)), np.concatenate((a, a), axis=1), np.concatenate((a, a.astype(np.float64))),
            np.stack((a, a)), np.stack((a, a), axis=1), np.stack((a, a), axis=2), np.hstack((a, a)), np.vstack((a, a)),
            np.dstack((a, a)), np.concatenate((a, a[:2])), np.concatenate((a, a), axis=-1))
    for g, w in zip(got, want):
        same(g, w)


@njit
def joins1(a, b):
    return np.column_stack((a, a)), np.hstack((a, b)), np.vstack((a, b)), np.stack((a, b)), np.column_stack((a, b))


def test_concatenate_stack_1d():
    a, b = np.arange(3.0), np.arange(3, dtype=np.int16)[::-1]
    got = joins1(a, b)
    want = (np.column_stack((a, a)), np.hstack((a, b)), np.vstack((a, b)), np.stack((a, b)), np.column_stack((a, b)))
    for g, w in zip(got, want):
        same(g, w)


@njit
def bad_join(a):
    return np.concatenate((a, a[:, :2]))


@njit
def bad_stack(a):
    return np.stack((a, a[:2]))


def test_concatenate_shape_errors():
    with pytest.raises(ValueError, match=r"np.concatenate\(\): input sizes over dimension 1 do not match"):
        bad_join(A2)
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        bad_stack(A2)


@njit
def negative(n):
    return np.zeros((2, n))


def test_negative_dimensions():
    with pytest.raises(ValueError, match="negative dimensions not allowed"):
        negative(-1)


# ---- lifetime: arrays made in compiled code, returned or dropped, do not leak --------------------

@njit
def make(n):
    return np.ones(n)


@njit
def make_and_drop(n):
    a = np.ones(n)
    b = np.cumsum(a)
    return b[n - 1]


def test_returned_arrays_own_their_block_and_outlive_the_call():
    a = make(5)
    same(a, np.ones(5))
    # As Numba's: not owndata, but a base object that keeps the memory alive.
    assert a.base is not None
    b = a.base
    del a
    gc.collect()
    assert b is not None


@pytest.mark.parametrize("fn", [make, make_and_drop])
def test_no_leak_over_10000_calls(fn):
    n = 2000  # 16 KB per array: a leak would grow RSS by 160 MB or more
    for _ in range(500):
        fn(n)
    gc.collect()
    before = held_bytes()
    for _ in range(10_000):
        fn(n)
    gc.collect()
    grown = held_bytes() - before
    assert grown < 16 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB over 10,000 calls"
