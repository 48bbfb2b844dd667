"""Compiled functions passed from Python as arguments (issue 19): a @jit function to a @jit
function, a device function to a kernel, as Numba types them (types.Dispatcher: the function's
identity is its type). Each function passed is its own specialisation: a call with another
function runs that one's code, never the first one's. The expectations were computed by Numba
0.68 / numba-cuda 0.30 (its simulator for the kernels) on the same code."""
import numpy as np
import pytest

from cujit import cuda, njit


@njit
def plus_one(x):
    return x + 1


@njit
def times_ten(x):
    return x * 10


@njit
def apply(f, x):
    return f(x)


@njit
def apply_twice(f, x):
    return f(f(x))


@njit
def pass_on(f, x):
    return apply(f, x) + 1  # the parameter passed on to another compiled function


def test_jit_function_as_argument():
    assert apply(plus_one, 3) == 4
    # Another function: another specialisation, never the first one's code.
    assert apply(times_ten, 3) == 30
    assert apply(plus_one, 2.5) == 3.5
    assert apply(plus_one, 3) == 4
    assert apply_twice(times_ten, 3) == 300
    assert pass_on(times_ten, 2) == 21
    assert pass_on(plus_one, 2) == 4
    # Numba's signatures: one per (function, argument types).
    assert len(apply.signatures) == 3


def make_adder(k):
    @njit
    def add_k(x):
        return x + k
    return add_k


def test_functions_of_one_name_are_told_apart():
    # Same __name__, same argument types: only the identity differs.
    a, b = make_adder(1), make_adder(100)
    assert apply(a, 5) == 6
    assert apply(b, 5) == 105
    assert apply(a, 5) == 6


def test_plain_python_function_is_refused():
    def plain(x):
        return x
    with pytest.raises(Exception, match="non-precise type pyobject"):
        apply(plain, 3)
    with pytest.raises(Exception, match="non-precise type pyobject"):
        apply(lambda v: v, 3)


@cuda.jit(device=True)
def dev_plus_one(x):
    return x + 1


@cuda.jit(device=True)
def dev_times_ten(x):
    return x * 10


@cuda.jit(device=True)
def dev_apply(f, x):
    return f(x)


@cuda.jit
def kernel_apply(f, out, x):
    out[0] = f(x)
    out[1] = dev_apply(f, x + 1)


def test_device_function_as_kernel_argument(target):
    out = np.zeros(2, np.int64)
    kernel_apply[1, 1](dev_plus_one, out, 3)
    np.testing.assert_array_equal(out, [4, 5])
    kernel_apply[1, 1](dev_times_ten, out, 3)
    np.testing.assert_array_equal(out, [30, 40])
    kernel_apply[1, 1](dev_plus_one, out, 7)
    np.testing.assert_array_equal(out, [8, 9])


def test_function_in_a_tuple_argument_is_refused():
    with pytest.raises(Exception, match="a tuple holding a function"):
        apply((plus_one,), 3)
