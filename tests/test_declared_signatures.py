"""Calls of functions compiled for declared signatures pick the overload as Numba does: the fewest
unsafe conversions, then safe ones, then promotions (numba/core/typeconv's rules: int64 -> float64
is safe, float64 -> int64 unsafe, ...); a tie at the best is "Ambiguous overloading". cujit took
the first signature that fitted, so `@njit(["int64(int64)", "float64(float64)"])` called with 1.5
ran the int64 version and returned 2 (issue 16). Expected values are Numba 0.68's."""
import numpy as np
import pytest

from cujit import cuda, njit


def test_float_argument_takes_the_float_overload():
    @njit(["int64(int64)", "float64(float64)"])
    def h(x):
        return x * 2

    assert repr(h(3)) == "6" and repr(h(1.5)) == "3.0"


def test_mixed_arguments_take_the_safe_conversion():
    @njit(["int64(int64, int64)", "float64(float64, float64)"])
    def a(x, y):
        return x + y

    assert repr(a(1, 2.5)) == "3.5" and repr(a(2.5, 1)) == "3.5" and repr(a(1, 2)) == "3"


def test_safe_beats_unsafe_and_exact_beats_promotion():
    @njit(["int32(int32)", "float64(float64)"])
    def c(x):
        return x

    @njit(["int64(int64)", "float64(float64)"])
    def b(x):
        return x

    @njit(["int32(int32)", "float32(float32)", "int64(int64)"])
    def h(x):
        return x * 2

    assert repr(c(3)) == "3.0"  # int64 -> float64 is safe, int64 -> int32 unsafe
    assert repr(b(np.uint64(3))) == "3.0"
    assert repr(h(3)) == "6" and repr(h(np.int32(3))) == "6"


@pytest.mark.parametrize("sigs, arg, types", [
    (["float32(float32)", "int8(int8)"], 3, "(int64,)"),
    (["uint8(uint8)", "int16(int16)"], -3, "(int64,)"),
    (["int32(int32)", "float32(float32)", "int64(int64)"], True, "(bool,)"),
])
def test_ties_are_ambiguous(sigs, arg, types):
    f = njit(sigs)(lambda x: x)
    with pytest.raises(TypeError, match=r"Ambiguous overloading for .* \%s" % types[:-1]):
        f(arg)


@cuda.jit(["void(int64[::1], int64)", "void(int64[::1], float64)"])
def store_twice(out, x):
    out[0] = x * 2


def test_kernel_overloads(target):
    out = np.zeros(1, np.int64)
    store_twice[1, 1](out, 1.75)  # the float64 overload: 3.5 stored as 3
    assert out[0] == 3
    store_twice[1, 1](out, 5)
    assert out[0] == 10
