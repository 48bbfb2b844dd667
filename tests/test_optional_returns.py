"""A function that can reach its end without a return returns None, as in Python: Numba types its
result as OptionalType and so does cujit in @jit code (None reaches Python; a None used as a value
raises TypeError, as in Numba). GPU code holds optionals as numba-cuda does (tests/test_gpu_optional.py);
a ufunc refuses such a function at its line (tests/errors/vectorize_falls_off_end.py). Types and
values checked against Numba 0.68."""
import numpy as np
import pytest

from cujit import _core, cuda, njit
from cujit.decorators import capture


def falls_off(x):
    if x > 0:
        return x * 7


def both_branches(x):
    if x > 0:
        return 1
    else:
        return 2


def nested_branches(x):
    if x > 0:
        if x > 5:
            return 1
        elif x > 2:
            return 2
        else:
            return 3
    else:
        return 4


def while_true(x):
    while True:
        if x > 10:
            return x
        x += 1


def while_true_with_break(x):
    while True:
        if x > 10:
            break
        x += 1
        if x == 5:
            return x


def while_one(x):
    while 1:
        return x


def for_loop(x):
    for i in range(x):
        if i > 3:
            return i


def for_else(x):
    for i in range(x):
        if i > 3:
            return i
    else:
        return -1


def for_else_break(x):
    for i in range(x):
        if i > 3:
            break
    else:
        return -1


def if_true(x):
    if True:
        return x


def explicit_none(x):
    if x > 0:
        return x
    return None


def bare_return(x):
    if x > 0:
        return
    return x


def unified_optional(x):
    if x > 0:
        return x
    elif x < -5:
        return 2.5


def optional_tuple(x):
    if x > 0:
        return (x, 1.5)


def only_none(x):
    if x > 0:
        return None


def variable_may_be_none(x):
    y = None
    if x > 0:
        y = x
    return y


def conditional_none(x):
    return x if x > 0 else None


def returns_optional_variable(x):
    y = jfalls_off(x)
    if y is None:
        return -1
    return y


CASES = [
    (falls_off, "OptionalType(int64)"),
    (both_branches, "int64"),
    (nested_branches, "int64"),
    (while_true, "int64"),
    (while_true_with_break, "OptionalType(int64)"),
    (while_one, "int64"),
    (for_loop, "OptionalType(int64)"),
    (for_else, "int64"),
    (for_else_break, "OptionalType(int64)"),
    (if_true, "int64"),
    (explicit_none, "OptionalType(int64)"),
    (bare_return, "OptionalType(int64)"),
    (unified_optional, "OptionalType(float64)"),
    (optional_tuple, "OptionalType(Tuple(int64, float64))"),
    (returns_optional_variable, "OptionalType(int64)"),
    (variable_may_be_none, "OptionalType(int64)"),
    (conditional_none, "OptionalType(int64)"),
]


@pytest.mark.parametrize("func,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_result_type(func, expected):
    ret, _ = _core.infer_types(capture(func), ["int64"])
    assert ret == expected


jfalls_off = njit(falls_off)


@njit
def use_value(x):
    return jfalls_off(x) + 1


@njit
def compare_value(x):
    return jfalls_off(x) > 3


@njit
def check_none(x):
    y = jfalls_off(x)
    if y is None:
        return -1
    return y


@njit
def check_not_none(x):
    y = jfalls_off(x)
    return y is not None


@njit
def store(a, x):
    a[0] = jfalls_off(x)


def test_values():
    assert jfalls_off(3) == 21 and jfalls_off(-3) is None
    assert njit(while_true)(3) == 11
    assert njit(for_loop)(10) == 4 and njit(for_loop)(2) is None
    assert njit(for_else)(2) == -1 and njit(for_else_break)(10) is None
    assert njit(explicit_none)(2) == 2 and njit(explicit_none)(-2) is None
    assert njit(bare_return)(2) is None and njit(bare_return)(-2) == -2
    assert njit(unified_optional)(2) == 2.0 and njit(unified_optional)(-7) == 2.5
    assert njit(unified_optional)(0) is None
    assert njit(optional_tuple)(1) == (1, 1.5) and njit(optional_tuple)(-1) is None
    assert njit(only_none)(1) is None
    assert njit(variable_may_be_none)(2) == 2 and njit(variable_may_be_none)(-2) is None
    assert njit(conditional_none)(2) == 2 and njit(conditional_none)(-2) is None
    assert check_none(3) == 21 and check_none(-3) == -1
    assert check_not_none(3) is True and check_not_none(-3) is False


def test_none_used_as_a_value_raises_type_error():
    assert use_value(3) == 22 and compare_value(1) is True
    with pytest.raises(TypeError, match="expected int64, got None"):
        use_value(-3)
    with pytest.raises(TypeError, match="expected int64, got None"):
        compare_value(-1)
    a = np.zeros(1, np.int64)
    store(a, 2)
    assert a[0] == 14
    with pytest.raises(TypeError, match="expected int64, got None"):
        store(a, -2)


@cuda.jit(device=True)
def sign_class(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


@cuda.jit(device=True)
def first_above(x):
    for i in range(100):
        if i * i > x:
            return i
    else:
        return -1


@cuda.jit
def every_path_kernel(xs, out):
    i = cuda.grid(1)
    if i < xs.size:
        out[i] = sign_class(xs[i]) * 1000 + first_above(xs[i])


def test_device_functions_returning_on_every_path(target):
    # Typed int64 (no path reaches the end), so GPU code takes them; their C++ ends with a dead
    # return, which NVRTC and the host compiler (-Werror=return-type) both accept.
    xs = np.array([-5, 0, 7, 20000], dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    every_path_kernel[1, 32](xs, out)
    assert out.tolist() == [-1000, 1, 1003, 999]
