"""Exceptions held in variables (issue 19), as Numba 0.68 allows them: `e = ValueError("msg", x)`
assigned once and raised later (`raise e`), the class itself in a variable (`e = ValueError`).
cujit makes the exception where it is raised, so its arguments must be literals or names the
function never assigns (tests/errors/raise_variable_argument_changes.py); a variable assigned
two exceptions is refused as Numba refuses it (tests/errors/raise_variable.py). The expected
exceptions and arguments were computed by Numba 0.68 (numba-cuda 0.30's simulator for the
kernel) on the same code."""
import numpy as np
import pytest

from cujit import cuda, njit


class MyErr(Exception):
    pass


@njit
def made_then_raised(x):
    err = ValueError("x", x)
    if x > 0:
        raise err
    return 1


@njit
def class_in_variable(x):
    err = ValueError
    raise err


@njit
def class_in_variable_called(x):
    e = ValueError
    raise e("cls var", x)


@njit
def user_class(x):
    e = MyErr("m", x)
    raise e


@njit
def made_not_raised(x):
    e = ValueError("m")  # noqa: F841 (Numba compiles it; nothing happens)
    return 1


def test_exception_in_a_variable():
    with pytest.raises(ValueError) as info:
        made_then_raised(3)
    assert info.value.args == ("x", 3)
    assert made_then_raised(-3) == 1
    with pytest.raises(ValueError) as info:
        class_in_variable(3)
    assert info.value.args == ()
    with pytest.raises(ValueError) as info:
        class_in_variable_called(3)
    assert info.value.args == ("cls var", 3)
    with pytest.raises(MyErr) as info:
        user_class(3)
    assert info.value.args == ("m", 3)
    assert made_not_raised(0) == 1


def test_exception_in_a_variable_in_a_kernel(target):
    @cuda.jit(debug=True, opt=False)
    def k(a):
        e = ValueError("stop")
        i = cuda.grid(1)
        if i == 3:
            raise e
        a[i] = i

    a = np.zeros(8)
    with pytest.raises(ValueError) as info:
        k[1, 8](a)
    assert str(info.value).endswith("ctaid=[0, 0, 0]: stop") and "tid=" in str(info.value)
