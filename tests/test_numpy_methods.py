"""Array methods and attributes in @jit code (issue 20): reshape (a tuple, *args, -1), ravel,
flatten, T, transpose, astype, fill, item, view, copy and the shape attributes. Every expected
value, dtype, sharing of memory and error is what Numba 0.68 gives for the same function."""
import numpy as np
import pytest

from cujit import njit

A2 = np.arange(12, dtype=np.int32).reshape(3, 4)


def same(got, want):
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


@njit
def reshapes(a):
    return a.reshape((4, 3)), a.reshape(4, 3), a.reshape(-1), a.reshape((2, -1)), a.reshape(2, 2, 3), np.reshape(a, (4, 3)), np.reshape(a, 12)


def test_reshape_forms():
    got = reshapes(A2)
    want = (A2.reshape(4, 3), A2.reshape(4, 3), A2.reshape(-1), A2.reshape(2, -1), A2.reshape(2, 2, 3), A2.reshape(4, 3), A2.reshape(12))
    for g, w in zip(got, want):
        same(g, w)


@njit
def reshape_writes(a):
    b = a.reshape(3, 2)
    b[0, 0] = 100
    return a


def test_reshape_is_a_view():
    a = np.arange(6).reshape(2, 3)
    same(reshape_writes(a), np.array([[100, 1, 2], [3, 4, 5]]))


@njit
def reshape_to(a, m, n):
    return a.reshape(m, n)


def test_reshape_errors():
    with pytest.raises(ValueError, match="total size of new array must be unchanged"):
        reshape_to(A2, 5, 3)
    with pytest.raises(ValueError, match="multiple negative shape values"):
        reshape_to(A2, -1, -1)
    with pytest.raises(NotImplementedError, match="incompatible shape for array"):
        reshape_to(A2.T, 2, 6)


@njit
def flat_forms(a):
    return a.ravel(), np.ravel(a), a.flatten(), a.T.ravel(), a.T.flatten()


def test_ravel_flatten():
    r, r2, f, tr, tf = flat_forms(A2)
    for g in (r, r2, f):
        same(g, A2.ravel())
    same(tr, A2.T.ravel())
    same(tf, A2.T.flatten())


@njit
def ravel_writes(a):
    b = a.ravel()
    b[0] = 100
    return a


@njit
def flatten_writes(a):
    b = a.flatten()
    b[0] = 100
    return a


def test_ravel_views_and_flatten_copies():
    same(ravel_writes(np.arange(6).reshape(2, 3)), np.array([[100, 1, 2], [3, 4, 5]]))
    same(flatten_writes(np.arange(6).reshape(2, 3)), np.arange(6).reshape(2, 3))


@njit
def transposes(a):
    return a.T, a.transpose(), a.transpose((1, 0)), a.transpose(1, 0), np.transpose(a), np.transpose(a, (1, 0)), a.T.shape, a.T.strides


def test_transpose_forms():
    got = transposes(A2)
    for g in got[:6]:
        same(g, A2.T)
    assert got[6] == (4, 3) and got[7] == (4, 16)


@njit
def transpose3(a):
    return a.transpose((2, 0, 1)), a.transpose(1, 2, 0), a.T, a.transpose((-1, 0, 1))


def test_transpose_3d():
    x = np.arange(24.0).reshape(2, 3, 4)
    got = transpose3(x)
    want = (x.transpose(2, 0, 1), x.transpose(1, 2, 0), x.T, x.transpose(-1, 0, 1))
    for g, w in zip(got, want):
        same(g, w)


@njit
def astypes(a):
    return a.astype(np.float32), a.astype('float32'), a.astype(np.bool_), a.astype(np.complex128), a.T.astype(np.int64)


def test_astype():
    got = astypes(A2)
    want = (A2.astype(np.float32), A2.astype(np.float32), A2.astype(np.bool_), A2.astype(np.complex128), A2.T.astype(np.int64))
    for g, w in zip(got, want):
        same(g, w)


@njit
def to_int8(a):
    return a.astype(np.int8)


def test_astype_float_to_int_truncates():
    same(to_int8(np.array([1.7, -2.5, 300.0])), np.array([1, -2, 44], dtype=np.int8))


@njit
def fill(a, v):
    a.fill(v)
    return a


def test_fill():
    same(fill(np.zeros(3, np.int32), 7), np.full(3, 7, np.int32))
    same(fill(np.zeros(3, np.int32), 2.5), np.full(3, 2, np.int32))
    x = np.zeros((3, 4))
    fill(x[:, ::2], 1.5)
    same(x, np.array([[1.5, 0, 1.5, 0]] * 3))


@njit
def item(a):
    return a.item()


def test_item():
    assert item(np.arange(1.0)) == 0.0
    assert item(np.array([[7]], dtype=np.int16)) == 7
    with pytest.raises(ValueError, match="item\\(\\): can only convert an array of size 1 to a Python scalar"):
        item(A2)


@njit
def views(a):
    return a.view(np.uint32), a.view(np.float32), a.view(np.int8).shape


@njit
def view64(a):
    return a.view(np.int64)


def test_view():
    u, f, s = views(A2)
    same(u, A2.view(np.uint32))
    same(f, A2.view(np.float32))
    assert s == (3, 16)
    same(view64(np.arange(6, dtype=np.int32)), np.arange(6, dtype=np.int32).view(np.int64))
    with pytest.raises(ValueError, match="To change to a dtype of a different size, the last axis must be contiguous"):
        view64(A2.T)


@njit
def attrs(a):
    return a.size, a.ndim, a.shape, a.strides, a.nbytes, a.itemsize, a[:, ::2].strides, a.T.strides


def test_attributes():
    assert attrs(A2) == (12, 2, (3, 4), (16, 4), 48, 4, (16, 8), (4, 16))
