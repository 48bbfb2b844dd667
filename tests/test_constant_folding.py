"""Python folds arithmetic on number literals before Numba sees the bytecode, so Numba computes
`10 ** -3` as the float 0.001 (an int64 ** int64 at run time would give the int 0),
`(-8.0) ** (1 / 3)` as a complex and `7.5 // -2` with Python's float floor division. cujit reads
the source, so it folds the same expressions the same way. Each expected value is Python's own
(checked against Numba 0.68, which returns exactly these)."""
import numpy as np
import pytest

from cujit import cuda, njit


@njit
def folded_floats():
    return 2 ** -1, 10 ** -3, (-2) ** -3, 1 / 3, 7 // 2 / 4, 2 ** -1 * 3


@njit
def folded_float_division():
    return 7.5 // -2, 7.5 % -2, -7.5 // 2, -7.5 % 2, 5.0 % 5, -0.0 // 1, 2.0 ** 0.5


@njit
def folded_complex_power():
    return (-8.0) ** (1 / 3)


@njit
def not_folded(x):
    return x ** -1  # int64 ** int64 at run time: an int, as Numba


def test_int_to_negative_power_is_a_float_as_python_folds_it():
    got = folded_floats()
    want = (2 ** -1, 10 ** -3, (-2) ** -3, 1 / 3, 7 // 2 / 4, 2 ** -1 * 3)
    assert got == want
    assert all(type(g) is float for g in got)
    assert not_folded(2) == 0 and type(not_folded(2)) is int


def test_float_floor_division_and_modulo_folded_as_python():
    got = folded_float_division()
    want = (7.5 // -2, 7.5 % -2, -7.5 // 2, -7.5 % 2, 5.0 % 5, -0.0 // 1, 2.0 ** 0.5)
    assert got == want
    assert [np.signbit(g) for g in got] == [np.signbit(w) for w in want]


def test_negative_base_fractional_power_is_complex():
    got = folded_complex_power()
    assert got == (-8.0) ** (1 / 3) and type(got) is complex


def test_division_by_zero_is_left_for_run_time():
    @njit
    def f():
        return 1 // 0

    with pytest.raises(ZeroDivisionError):
        f()


def test_kernel_folds_as_python(target):
    @cuda.jit
    def k(out):
        out[0] = 10 ** -3
        out[1] = 2 ** -2 * 8
        out[2] = 7.5 // -2

    out = cuda.to_device(np.zeros(3))
    k[1, 1](out)
    assert out.copy_to_host().tolist() == [10 ** -3, 2 ** -2 * 8, 7.5 // -2]
