"""Optional results in GPU code, as numba-cuda types them: a device function that returns a value
on one path and None on another (or falls off its end) returns Optional[T]; the caller tests it
with `is None` / `is not None`, and a variable may hold one (`y = None; if c: y = x`). A None used
as a value raises TypeError, reported after the launch on the simulator (and with debug=True on
the GPU), as numba-cuda's simulator raises one. Expected values from numba-cuda 0.30's simulator
(its test_compiler's maybe_none and test_recursion's optional-return case, without recursion)."""
import numpy as np
import pytest

from cujit import cuda


@cuda.jit(device=True)
def maybe_none(x):
    if x > 0:
        return x + 1
    else:
        return


@cuda.jit(device=True)
def above_five(x):
    if x > 5:
        return x - 1
    return None


@cuda.jit(device=True)
def times7(x):
    if x > 0:
        return x * 7


@cuda.jit
def defaulted(r, x):
    i = cuda.grid(1)
    if i < x.size:
        res = maybe_none(x[i])
        if res is None:
            res = 999
        r[i] = res


@cuda.jit
def branch_on_none(r, x):
    i = cuda.grid(1)
    if i < x.size:
        out = above_five(x[i])
        if out is not None:
            r[i] = out * 2
        else:
            r[i] = -1


@cuda.jit
def unwrapped(r, x):
    i = cuda.grid(1)
    if i < x.size:
        r[i] = times7(x[i]) + 1


@cuda.jit
def variable(out, x):
    y = None
    if x > 0:
        y = x
    out[0] = y


X = np.array([-3, 0, 4, 10], dtype=np.int64)


def test_optional_result_defaulted(target):
    r = np.zeros_like(X)
    defaulted[1, 4](r, X)
    np.testing.assert_array_equal(r, [999, 999, 5, 11])


def test_optional_result_tested(target):
    r = np.zeros_like(X)
    branch_on_none[1, 4](r, X)
    np.testing.assert_array_equal(r, [-1, -1, -1, 18])


def test_optional_unwrapped_when_a_value(target):
    r = np.zeros(2, dtype=np.int64)
    unwrapped[1, 2](r, np.array([1, 3], dtype=np.int64))
    np.testing.assert_array_equal(r, [8, 22])
    out = np.zeros(1, dtype=np.int64)
    variable[1, 1](out, 3)
    assert out[0] == 3


def test_none_used_as_value_raises_on_the_simulator(target):
    if target != "sim":
        pytest.skip("without debug=True numba-cuda's GPU code does not report the exception")
    r = np.zeros(2, dtype=np.int64)
    with pytest.raises(TypeError, match="expected int64, got None"):
        unwrapped[1, 2](r, np.array([1, -3], dtype=np.int64))
    with pytest.raises(TypeError):
        variable[1, 1](np.zeros(1, dtype=np.int64), -1)
