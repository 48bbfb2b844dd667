"""Calls of compiled functions as Python binds them (issue 19): default values (None ones whose
`is None` tests are pruned, Numba's Omitted), keyword arguments from Python and between compiled
functions, `*args` parameters (a tuple: Numba's StarArgTuple) and `f(*t)`; and recursion, direct
and mutual, typed from the returns that do not recurse or from a declared signature. The
expectations were computed by Numba 0.68 (@njit) and numba-cuda 0.30 on the same code; the
refusals are in tests/errors/recursion_*.py."""
import numpy as np
import pytest

from cujit import cuda, njit

SCALE = np.float32(0.5)


@njit
def add_default(x, y=2):
    return x + y


@njit
def maybe_add(x, y=None):
    if y is None:
        return x
    return x + y


@njit
def scaled(x, s=SCALE):  # a NumPy scalar default keeps its type
    return x * s


@njit
def total(a, *rest):
    s = a
    for x in rest:
        s += x
    return s


def test_defaults_and_keywords_from_python():
    assert add_default(1) == 3
    assert add_default(1, 3.5) == 4.5
    assert add_default(1, y=5) == 6
    assert add_default(y=5, x=1) == 6
    assert maybe_add(1) == 1
    assert maybe_add(1, 2.5) == 3.5
    assert maybe_add(1, None) == 1
    assert scaled(np.float32(3.0)) == 1.5
    assert total(1, 2, 3) == 6
    assert total(1.5, 2) == 3.5


def test_call_that_does_not_fit_raises_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        add_default(1, z=3)
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        add_default()


@njit
def calls_with_keywords(a):
    return add_default(a, y=10) + add_default(y=1, x=a) + add_default(a)


@njit
def calls_with_none(a):
    return maybe_add(a) + maybe_add(a, 0.5) + maybe_add(a, None) + maybe_add(a, y=2)


@njit
def calls_star(t):
    return add_default(*t) + total(*t) + total(1, 2, 3, 4) + total(5, 0)


@njit
def calls_scaled(x):
    return scaled(x)


def test_defaults_and_keywords_between_compiled_functions():
    assert calls_with_keywords(1) == 11 + 2 + 3
    assert calls_with_none(1) == 1 + 1.5 + 1 + 3
    assert calls_star((1, 2)) == 3 + 3 + 10 + 5
    assert calls_scaled(np.float32(4.0)) == 2.0


@njit
def nested_defaults(x):
    def inner(a, b=3, c=None):
        if c is None:
            return a * b
        return a * b + c
    f = lambda v, w=2: v - w  # noqa: E731
    return inner(x) + inner(x, c=1) + inner(x, 2) + f(x) + f(x, w=5)


def test_nested_functions_with_defaults():
    # Python's values. Numba 0.68 gives 12 + 12 + 11 + 2 + 2 here: its closure inlining binds
    # inner functions' defaults over the arguments passed (a wrong answer cujit does not copy).
    assert nested_defaults(4) == 12 + 13 + 8 + 2 + (-1)


@cuda.jit(device=True)
def dev_axpy(x, y, a=2.0):
    return a * x + y


@cuda.jit(device=True)
def dev_opt(x, bias=None):
    if bias is None:
        return x
    return x + bias


@cuda.jit
def kernel_keywords(out, x):
    out[0] = dev_axpy(x[0], x[1])
    out[1] = dev_axpy(x[0], x[1], 3.0)
    out[2] = dev_axpy(y=x[1], x=x[0], a=0.5)
    out[3] = dev_opt(x[0])
    out[4] = dev_opt(x[0], bias=x[1])


def test_device_function_defaults_and_keywords(target):
    out = np.zeros(5)
    kernel_keywords[1, 1](out, np.array([2.0, 1.0]))
    np.testing.assert_array_equal(out, [5.0, 7.0, 2.0, 2.0, 3.0])


# ---- recursion -----------------------------------------------------------------------------


@njit
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@njit
def base_last(n):  # the return that does not recurse comes after the recursive one
    if n > 0:
        return base_last(n - 1) + 1
    return 0


@njit
def is_even(n):
    if n > 0:
        return is_odd(n - 1)
    return True


@njit
def is_odd(n):
    if n > 0:
        return is_even(n - 1)
    return False


@njit
def type_change(x, y):  # int64 first, float64 in the recursive calls: two instances
    if x > 1 and y > 0:
        return x + type_change(x - y, y)
    return y


@njit("int64(int64)")
def fib_declared(n):
    if n < 2:
        return n
    return fib_declared(n - 1) + fib_declared(n - 2)


def test_recursion_on_the_cpu():
    assert fact(5) == 120
    assert fib(10) == 55
    assert base_last(10) == 10
    assert is_even(10) is True and is_odd(10) is False and is_even(7) is False
    assert type_change(13, 0.125) == 678.125
    assert fib_declared(12) == 144


@cuda.jit("int64(int64)", device=True)
def dev_fib_declared(n):
    if n < 2:
        return n
    return dev_fib_declared(n - 1) + dev_fib_declared(n - 2)


@cuda.jit(device=True)
def dev_fib(n):
    if n < 2:
        return n
    return dev_fib(n - 1) + dev_fib(n - 2)


@cuda.jit(device=True)
def dev_even(n):
    if n == 0:
        return True
    return dev_odd(n - 1)


@cuda.jit(device=True)
def dev_odd(n):
    if n == 0:
        return False
    return dev_even(n - 1)


@cuda.jit
def recursive_kernel(r, x):
    r[0] = dev_fib(x[0])
    r[1] = dev_fib_declared(x[0])
    r[2] = dev_even(x[0])
    r[3] = dev_odd(x[0])


def test_recursion_in_device_functions(target):
    r = np.zeros(4, np.int64)
    recursive_kernel[1, 1](r, np.array([10], np.int64))
    np.testing.assert_array_equal(r, [55, 55, 1, 0])
