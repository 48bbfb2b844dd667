"""Python exceptions from compiled CPU code (issue 5): @jit's default error_model='python' raises
ZeroDivisionError with Numba's messages; error_model='numpy' (and GPU code, and CPU ufuncs) give
0, inf or nan instead. Array constructors raise NumPy's ValueError for negative sizes."""
import numpy as np
import pytest

from cujit import njit, prange


@njit
def floordiv(a, b):
    return a // b


@njit
def mod(a, b):
    return a % b


@njit
def truediv(a, b):
    return a / b


@njit(error_model="numpy")
def numpy_floordiv(a, b):
    return a // b


@njit(error_model="numpy")
def numpy_truediv(a, b):
    return a / b


@njit
def make(n):
    return np.empty(n)


@njit
def inner(a, b):
    return a // b


@njit
def outer(a, b):
    return inner(a, b) + 1  # raised two calls deep


# Messages as numba 0.68 gives them.
@pytest.mark.parametrize("fn, args, msg", [
    (floordiv, (1, 0), "integer division by zero"),
    (floordiv, (np.uint64(1), np.uint64(0)), "integer division by zero"),
    (floordiv, (1.0, 0.0), "division by zero"),
    (mod, (1, 0), "integer modulo by zero"),
    (mod, (1.0, 0.0), "modulo by zero"),
    (truediv, (1, 0), "division by zero"),
    (truediv, (1.0, 0.0), "division by zero"),
    (truediv, (np.float32(1), np.float32(0)), "division by zero"),
    (outer, (7, 0), "integer division by zero"),
])
def test_zero_division_raises(fn, args, msg):
    with pytest.raises(ZeroDivisionError) as info:
        fn(*args)
    assert str(info.value) == msg
    assert fn(*[a if i == 0 else a + 2 for i, a in enumerate(args)]) == fn.py_func(*[a if i == 0 else a + 2 for i, a in enumerate(args)])


def test_numpy_error_model_does_not_raise():
    assert numpy_floordiv(1, 0) == 0
    assert numpy_truediv(1.0, 0.0) == np.inf


def test_negative_dimensions():
    with pytest.raises(ValueError, match="negative dimensions not allowed"):
        make(-1)
    assert make(0).shape == (0,)


@njit(parallel=True)
def parallel_quotients(a):
    s = 0
    for i in prange(a.size):
        s += 100 // a[i]
    return s


def test_exception_in_a_parallel_loop():
    with pytest.raises(ZeroDivisionError, match="integer division by zero"):
        parallel_quotients(np.arange(1000) - 500)
    a = np.arange(1, 1000)
    assert parallel_quotients(a) == parallel_quotients.py_func(a)
