"""Indexing NumPy arrays with arrays in @jit code (issue 20): a[idx] with an integer array and
a[mask] with a boolean one read into a new array; a[idx] = v and a[mask] = v write through, v a
number or an array. Results are Numba 0.68's for the same code, except where Numba reads or
writes past the array (no boundscheck) or ignores a short mask: cujit raises there."""
import numpy as np
import pytest

import cujit
from cujit import cuda, njit
from cujit.errors import TypingError, UnsupportedError


@njit
def get(a, i):
    return a[i]


@njit
def put(a, i, v):
    a[i] = v
    return a


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


def test_integer_array_index():
    a = np.arange(6.)
    same(get(a, np.array([3, 0, 5])), np.array([3., 0., 5.]))
    same(get(a, np.array([-1, -6])), np.array([5., 0.]))
    same(get(np.arange(6.).reshape(3, 2), np.array([2, 0])), np.array([[4., 5.], [0., 1.]]))
    same(get(a, np.array([[1, 2], [3, 4]])), np.array([[1., 2.], [3., 4.]]))
    same(get(a[::-1], np.array([0, 1], dtype=np.int32)), np.array([5., 4.]))
    r = get(a, np.array([1]))
    r[0] = 99.0
    assert a[1] == 1.0  # a copy


def test_boolean_mask():
    a = np.arange(6.)
    same(get(a, np.array([True, False] * 3)), np.array([0., 2., 4.]))
    same(get(np.arange(6.).reshape(3, 2), np.array([True, False, True])), np.array([[0., 1.], [4., 5.]]))
    same(get(np.arange(6.).reshape(2, 3), np.array([[True, False, True]] * 2)), np.array([0., 2., 3., 5.]))


def test_out_of_bounds_and_short_masks_raise():
    # Numba returns memory past the array (no boundscheck) and ignores the rest of a short mask.
    with pytest.raises(IndexError, match="index is out of bounds"):
        get(np.arange(6.), np.array([3, 7]))
    with pytest.raises(IndexError, match="boolean index did not match indexed array"):
        get(np.arange(6.), np.array([True, False]))
    with pytest.raises(IndexError, match="index is out of bounds"):
        put(np.arange(6.), np.array([0, 9]), 1.0)


def test_setitem_with_arrays():
    same(put(np.arange(6.), np.array([0, 2]), 9.), np.array([9., 1., 9., 3., 4., 5.]))
    same(put(np.arange(6.), np.array([0, 2]), np.array([7., 8.])), np.array([7., 1., 8., 3., 4., 5.]))
    same(put(np.arange(6.), np.array([True, False] * 3), 1.), np.array([1., 1., 1., 3., 1., 5.]))
    same(put(np.arange(6.), np.array([True, False] * 3), np.array([1., 2., 3.])), np.array([1., 1., 2., 3., 3., 5.]))
    same(put(np.arange(6.).reshape(3, 2), np.array([2, 0]), np.array([7., 8.])),
         np.array([[7., 8.], [2., 3.], [7., 8.]]))
    same(put(np.arange(6), np.array([0, 2]), 2.7), np.array([2, 1, 2, 3, 4, 5]))
    with pytest.raises(ValueError, match="cannot assign slice"):
        put(np.arange(6.), np.array([0, 2]), np.array([7., 8., 9.]))
    with pytest.raises(ValueError, match="cannot assign slice"):
        put(np.arange(6.), np.array([True, False] * 3), np.array([1., 2.]))


def test_refusals():
    with pytest.raises(TypingError, match="array indices must be integers or booleans"):
        get(np.arange(6.), np.array([1., 2.]))

    @njit
    def mixed(a, i):
        return a[i, 0]
    with pytest.raises(UnsupportedError, match="an array index mixed with other indices"):
        mixed(np.zeros((3, 2)), np.array([0, 1]))



def test_augmented_assignment_through_an_array_index():
    # a[idx] += v is getitem, add, setitem (Numba): a[idx] is a copy, so an in-place add into it
    # would be lost (it was, in silence, when whole-array expressions first met array indices).
    @njit
    def aug(a, i):
        a[i] += 1

    @njit
    def aug_mask(a, m, v):
        a[m] *= v

    a = np.zeros(3)
    aug(a, np.array([0, 1]))
    assert a.tolist() == [1.0, 1.0, 0.0]
    a = np.zeros(3)
    aug(a, np.array([0, 0]))  # a repeated index: one update, as Numba and NumPy
    assert a.tolist() == [1.0, 0.0, 0.0]
    b = np.arange(5.0)
    aug_mask(b, b > 2, 10.0)
    assert b.tolist() == [0.0, 1.0, 2.0, 30.0, 40.0]


# ---- a[...] = b where b does not broadcast to the slice's shape: Numba's ValueError ------------
# (Numba 0.68's messages; cujit's copy gave [[[5]], [[5]]] for the first case without a word.)
@njit
def _assign_slice_3d(a, b):
    a[:, :, :] = b
    return a


@njit
def _assign_rows(a, b):
    a[1:3] = b
    return a


@pytest.mark.parametrize("fn, a, b, message", [
    (_assign_slice_3d, np.zeros((2, 1, 1)), np.array([[5.0], [6.0]]),
     "cannot assign slice of shape (2, 1, 1) from input of shape (2, 1)"),
    (_assign_rows, np.zeros(5), np.ones(3), "cannot assign slice of shape (2,) from input of shape (3,)"),
    (_assign_rows, np.zeros((5, 2)), np.ones(3), "cannot assign slice of shape (2, 2) from input of shape (3,)"),
])
def test_slice_assignment_of_another_shape_raises(fn, a, b, message):
    with pytest.raises(ValueError) as e:
        fn(a, b)
    assert str(e.value) == message


def test_slice_assignment_that_broadcasts_still_works():
    np.testing.assert_array_equal(_assign_rows(np.zeros((5, 2)), np.ones(2))[1:3], np.ones((2, 2)))
    np.testing.assert_array_equal(_assign_rows(np.zeros((5, 2)), np.ones((2, 1)))[1:3], np.ones((2, 2)))
    np.testing.assert_array_equal(_assign_rows(np.zeros(5), np.ones(1)), [0, 1, 1, 0, 0])


def test_slice_assignment_of_another_shape_in_a_kernel(target):
    @cuda.jit
    def k(a, b, out):
        out[0] = 1
        a[0:2] = b
        out[1] = 1

    a, out = np.zeros(4), np.zeros(2, np.int64)
    if target == "sim":
        with pytest.raises(cujit.errors.SimulatorError,
                           match=r"ValueError: cannot assign slice of shape \(2,\) from input of shape \(3,\)"):
            k[1, 1](a, np.ones(3), out)
    else:  # the thread ends there, as numba-cuda's kernels end on an exception
        k[1, 1](a, np.ones(3), out)
        assert list(out) == [1, 0]
    assert list(a) == [0, 0, 0, 0]
