"""Nested functions (issue 19): `def` inside kernels, device functions and @jit functions, called
directly (closures over any enclosing variable, read when called), lambdas bound to a name, or passed as values to other
compiled functions (closures over constants only, as Numba requires). Expectations computed by
Numba 0.68 (@njit) and numba-cuda 0.30's simulator on the same code; the refusals are in
tests/errors/closure_*.py."""
import numpy as np

from cujit import cuda, njit


@njit
def consumer(f, x):
    return f(x)


@njit
def closure_over_arguments(a, x):
    def inner(i):
        return a[i] * x
    s = 0.0
    for i in range(a.shape[0]):
        s += inner(i)
    return s


@njit
def escaping_constant(x):
    y = 10

    def inner(z):
        return y + z
    return consumer(inner, x)


@njit
def calls_a_sibling(x):
    def inner(v):
        return v * 2

    def outer(v):
        return inner(v) + 1
    return outer(x)


@njit
def late_binding(x):
    def inner():
        return x
    x = x + 1
    return inner()


@njit
def nested_twice(x):
    k = 3

    def middle(v):
        def innermost(w):
            return w * k
        return innermost(v) + 1
    return middle(x)


@njit
def lambda_bound_to_a_name(x):
    f = lambda v: v * 3  # noqa: E731
    return f(x) + consumer(f, x)


def test_nested_functions_in_jit_code():
    assert closure_over_arguments(np.arange(4.0), 2.0) == 12.0
    assert escaping_constant(5) == 15
    assert calls_a_sibling(5) == 11
    assert late_binding(5) == 6
    assert nested_twice(4) == 13
    assert lambda_bound_to_a_name(5) == 30


@cuda.jit(device=True)
def apply(f, x):
    return f(x)


@cuda.jit(device=True)
def scaled_sum(a, s):
    def term(i):
        return a[i] * s
    t = 0.0
    for i in range(a.shape[0]):
        t += term(i)
    return t


@cuda.jit
def nested_kernel(out, a, s):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    offset = 100

    def shifted(v):
        return v + offset

    def times_index(v):
        return v * i
    half = lambda v: v / 2  # noqa: E731
    out[i] = apply(shifted, i) + times_index(a[i]) + scaled_sum(a, s) + apply(half, 4)


def test_nested_functions_in_kernels(target):
    a = np.arange(4.0)
    out = np.zeros(4)
    nested_kernel[1, 4](out, a, 2.0)
    np.testing.assert_array_equal(out, [114.0, 116.0, 120.0, 126.0])
