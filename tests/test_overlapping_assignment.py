"""Assignments whose source shares memory with their target, as Numba runs them (each
expectation checked on Numba 0.68). `a[1:] = a[:-1]` reads the whole source before writing
(Numba's setslice copies a source that overlaps); `a[1:] += 2 * a[:-1]` computes the right side
first (Numba makes it a new array); a bare view on the right of `+=` is read in order, as
Numba's in-place loop reads it. cujit copied in order and shifted the first element everywhere
(wrong in silence) before."""
import numpy as np
import pytest

from cujit import cuda, njit


@njit
def shift_right(a):
    a[1:] = a[:-1]
    return a


@njit
def shift_left(a):
    a[:-1] = a[1:]
    return a


@njit
def reverse(a):
    a[:] = a[::-1]
    return a


@njit
def transpose_into(a):
    a[:] = a.T
    return a


@njit
def rows_down(a):
    a[1:, :] = a[:-1, :]
    return a


@njit
def column_from_row(a):
    a[:, 0] = a[0, :]
    return a


@njit
def add_expression_in_place(a):
    a[1:] += 1 * a[:-1]
    return a


@njit
def add_view_in_place(a):
    a[1:] -= a[:-1]
    return a


@njit
def in_place_broadcast_row(a):
    a += 2 * a[0]
    return a


@njit
def in_place_same_view(a):
    a += a * 2
    return a


def ar(n=6):
    return np.arange(float(n))


def sq():
    return np.arange(9.0).reshape(3, 3)


@pytest.mark.parametrize("fn, arg, want", [
    (shift_right, ar(), [0., 0., 1., 2., 3., 4.]),
    (shift_left, ar(), [1., 2., 3., 4., 5., 5.]),
    (reverse, ar(), [5., 4., 3., 2., 1., 0.]),
    (transpose_into, sq(), [[0., 3., 6.], [1., 4., 7.], [2., 5., 8.]]),
    (rows_down, sq(), [[0., 1., 2.], [0., 1., 2.], [3., 4., 5.]]),
    (column_from_row, sq(), [[0., 1., 2.], [1., 4., 5.], [2., 7., 8.]]),
    (add_expression_in_place, ar(), [0., 1., 3., 5., 7., 9.]),
    (add_view_in_place, ar(), [0., 1., 1., 2., 2., 3.]),
    (in_place_broadcast_row, sq(), [[0., 3., 6.], [3., 6., 9.], [6., 9., 12.]]),
    (in_place_same_view, ar(), [0., 3., 6., 9., 12., 15.]),
])
def test_overlapping_sources_as_numba(fn, arg, want):
    assert fn(arg).tolist() == want


def test_read_only_overlapping_source():
    a = ar()
    b = a.view()
    b.flags.writeable = False

    @njit
    def f(a, b):
        a[1:] += 2 * b[:-1]
        return a

    assert f(a, b).tolist() == [0., 1., 4., 7., 10., 13.]
    assert f(ar(), np.ones(6)).tolist() == [0., 3., 4., 5., 6., 7.]


def test_kernel_slice_assignment_reads_the_source_first(target):
    @cuda.jit
    def k(a, m):
        if cuda.grid(1) == 0:
            a[1:] = a[:-1]
            m[1:, :] = m[:-1, :]

    a = cuda.to_device(ar())
    m = cuda.to_device(sq())
    k[1, 1](a, m)
    assert a.copy_to_host().tolist() == [0., 0., 1., 2., 3., 4.]
    assert m.copy_to_host().tolist() == [[0., 1., 2.], [0., 1., 2.], [3., 4., 5.]]


def test_kernel_transpose_view(target):
    # a.T in a kernel is a view with the axes reversed, as numba-cuda's (checked on the GPU).
    @cuda.jit
    def k(a, out, m):
        b = a.T
        for i in range(3):
            for j in range(3):
                out[i, j] = b[i, j]
        m[:] = m.T

    out = cuda.to_device(np.zeros((3, 3)))
    m = cuda.to_device(sq())
    k[1, 1](cuda.to_device(sq()), out, m)
    assert out.copy_to_host().tolist() == sq().T.tolist()
    assert m.copy_to_host().tolist() == sq().T.tolist()
