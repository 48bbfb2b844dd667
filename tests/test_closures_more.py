"""Inner functions and closures against Numba (issue 19): a closure reading a loop variable sees
its value at each call, a closure of a closure reads both enclosing functions, a variable
reassigned after the def is read at the call (late binding), an inner function bound to another
name, closures in a kernel. A closure returned is refused with Numba's TypingError; a nested
function calling itself with Numba's "Unsupported use of cell variable"
(tests/errors/nested_function_recursive.py). Expectations computed by Numba 0.68 (numba-cuda
0.30's simulator for the kernel) on the same code."""
import numpy as np
import pytest

from cujit import cuda, njit
from cujit.errors import TypingError


@njit
def loop_variable(n):
    s = 0
    for i in range(n):
        def g(x):
            return x + i
        s += g(1)
    return s


@njit
def nested_closure(n):
    def outer(x):
        def inner(y):
            return x + y + n
        return inner(1)
    return outer(10)


@njit
def late_binding(n):
    k = 2
    def g(x):
        return x * k
    k = 3
    return g(n)


@njit
def alias(n):
    def g(x):
        return x + 1
    h = g
    return h(n)


@njit
def no_arguments(n):
    t = 0
    def g():
        return n * 2
    for i in range(3):
        t += g()
    return t


@njit
def lambda_capture(n):
    f = lambda x: x * n  # noqa: E731
    return f(3)


@njit
def returned(n):
    def g(x):
        return x + n
    return g


def test_closures():
    assert loop_variable(4) == 10
    assert nested_closure(5) == 16
    assert late_binding(5) == 15
    assert alias(5) == 6
    assert no_arguments(5) == 30
    assert lambda_capture(5) == 15


def test_closure_returned_is_refused():
    with pytest.raises(TypingError, match="Cannot capture the non-constant value associated with variable 'n'"):
        returned(5)


@cuda.jit
def kernel_closures(out, n):
    i = cuda.grid(1)
    def scale(x):
        return x * n + i
    s = 0
    for j in range(3):
        def add_j(x):
            return x + j
        s += add_j(scale(1))
    out[i] = s


def test_closures_in_a_kernel(target):
    out = np.zeros(4, np.int64)
    kernel_closures[1, 4](out, 10)
    np.testing.assert_array_equal(out, [33, 36, 39, 42])
