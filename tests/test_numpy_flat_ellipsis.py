"""a.flat and `...` (Ellipsis) in an index, in @jit code and kernels (issue 20). Results are
Numba 0.68's (numba-cuda 0.30's in kernels) for the same code, except a.flat[-1], where Numba
reads outside the array and cujit gives NumPy's answer, the last element."""
import numpy as np
import pytest

from cujit import cuda, njit
from cujit.errors import TypingError, UnsupportedError


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


@njit
def flat_sum(a):
    s = 0.0
    for x in a.flat:
        s += x
    return s


@njit
def flat_weighted(a):
    s = 0.0
    for i, x in enumerate(a.flat):
        s += i * x
    return s


@njit
def flat_zip(a, b):
    s = 0.0
    for x, y in zip(a.flat, b.flat):
        s += x * y
    return s


@njit
def flat_get(a, k):
    return a.flat[k]


@njit
def flat_put(a, k, v):
    a.flat[k] = v
    return a


@njit
def flat_inc(a, k):
    a.flat[k] += 5
    return a


@njit
def flat_len(a):
    return len(a.flat)


@njit
def flat_first_negative(a):
    for x in a.flat:
        if x < 0:
            return x
    return 0.0


def test_flat_iterates_in_c_order():
    a = np.arange(12.0).reshape(3, 4)
    assert flat_sum(a) == 66.0 and flat_sum(a.T) == 66.0
    assert flat_weighted(a) == 506.0
    assert flat_weighted(a.T) == float(sum(i * x for i, x in enumerate(a.T.flat)))  # 440.0
    assert flat_weighted(a[:, ::2]) == float(sum(i * x for i, x in enumerate(a[:, ::2].flat)))
    assert flat_zip(a, a.T) == 440.0
    assert flat_first_negative(np.array([[1.0, 2.0], [-3.0, -4.0]]).T) == -3.0
    assert flat_sum(np.zeros((0, 3))) == 0.0


def test_flat_index_and_store():
    a = np.arange(12.0).reshape(3, 4)
    assert flat_get(a.T, 3) == 1.0
    assert flat_get(a, 11) == 11.0
    assert flat_get(a, -1) == 11.0  # NumPy's; Numba 0.68 reads before the array
    assert flat_get(np.arange(8).reshape(2, 2, 2)[:, ::-1], 1) == 3
    same(flat_put(a.copy(), 2, 7.0), np.array([[0., 1., 7., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]))
    same(flat_put(a.copy().T, 2, 7.0), np.array([[0., 4., 7.], [1., 5., 9.], [2., 6., 10.], [3., 7., 11.]]))
    same(flat_put(np.zeros(3, np.int32), 1, 2.7), np.array([0, 2, 0], np.int32))
    same(flat_inc(a.copy(), 2), np.array([[0., 1., 7., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]))
    assert flat_get(np.array(5.0), 0) == 5.0
    assert flat_len(a) == 12 and flat_len(np.zeros((0, 4))) == 0


def test_flat_refusals():
    @njit
    def float_index(a):
        return a.flat[2.0]

    @njit
    def sliced(a):
        return a.flat[1:4]

    @njit
    def returned(a):
        return a.flat

    a = np.arange(4.0)
    with pytest.raises(TypingError, match="a.flat index must be an integer, not float64"):
        float_index(a)
    with pytest.raises(UnsupportedError, match="slices and tuples of a flat iterator are not supported"):
        sliced(a)
    with pytest.raises(UnsupportedError, match="returning flat"):
        returned(a)


@njit
def ell_last0(a):
    return a[..., 0]


@njit
def ell_all(a):
    return a[...]


@njit
def ell_first0(a):
    return a[0, ...]


@njit
def ell_mid(a):
    return a[1, ..., 1]


@njit
def ell_newaxis(a):
    return a[None, ..., 0]


@njit
def ell_store_col(a):
    a[..., 1] = 5.0
    return a


@njit
def ell_fill(a):
    a[...] = 2.0
    return a


@njit
def ell_copy_row(a, b):
    a[0, ...] = b
    return a


@njit
def ell_inc(a):
    a[..., 0] += 1.0
    return a


@njit
def ell_scalar(a):
    return a[..., 2]


def test_ellipsis_reads():
    a = np.arange(12.0).reshape(3, 4)
    b = np.arange(24.0).reshape(2, 3, 4)
    same(ell_last0(a), np.array([0., 4., 8.]))
    same(ell_last0(b), np.array([[0., 4., 8.], [12., 16., 20.]]))
    same(ell_last0(a.T), np.array([0., 1., 2., 3.]))
    same(ell_all(a), a)
    same(ell_first0(a), np.array([0., 1., 2., 3.]))
    same(ell_first0(b), b[0])
    same(ell_mid(b), np.array([13., 17., 21.]))
    same(ell_newaxis(a), np.array([[0., 4., 8.]]))
    assert ell_scalar(np.arange(5)) == 2


def test_ellipsis_writes():
    a = np.arange(12.0).reshape(3, 4)
    want = a.copy()
    want[..., 1] = 5.0
    same(ell_store_col(a.copy()), want)
    same(ell_fill(a.copy()), np.full((3, 4), 2.0))
    same(ell_copy_row(a.copy(), np.ones(4)), np.array([[1., 1., 1., 1.], [4., 5., 6., 7.], [8., 9., 10., 11.]]))
    same(ell_inc(a.copy()), np.array([[1., 1., 2., 3.], [5., 5., 6., 7.], [9., 9., 10., 11.]]))


def test_ellipsis_refusals():
    @njit
    def two(a):
        return a[..., 0, ...]

    @njit
    def of_tuple(t):
        return t[...]

    with pytest.raises(TypingError, match="an index can only have a single ellipsis"):
        two(np.zeros((2, 2)))
    with pytest.raises(TypingError, match="indexes arrays only"):
        of_tuple((1, 2))


def test_flat_and_ellipsis_in_kernels(target):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < out.size:
            s = 0.0
            for x in a.flat:
                s += x
            out.flat[i] = a.flat[i] + a[..., 0][0] + s
            out[...][i] += 1.0

    a = np.arange(12.0).reshape(3, 4).T
    out = np.zeros(12)
    k[1, 16](a, out)
    np.testing.assert_array_equal(out, np.array([0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.]) + 67.0)
