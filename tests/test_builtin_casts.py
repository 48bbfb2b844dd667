"""float() and complex() of numbers, with Numba 0.68's result types (numba-cuda's typing is the
same; its test_casting::test_native_cast wants float(float32) stored as a float32)."""
import numpy as np
import pytest

import cujit
from cujit import cuda


def test_jit_float_and_complex_result_types():
    @cujit.njit
    def f(x, y):
        return float(x) * y

    @cujit.njit
    def g(x, y):
        return complex(x) * y

    # float(float32) is a float32, so the product is float32 arithmetic (Numba: 0.30000001192092896).
    assert f(np.float32(0.1), np.float32(3)) == 0.30000001192092896
    assert f(np.int32(1), np.float32(0.1)) == float(np.float32(0.1))  # float(int) is float64
    assert g(np.float32(0.1), np.complex64(3)) == complex(0.30000001192092896)
    # complex(complex64) is complex128 (Numba), so this product is not complex64 arithmetic.
    assert g(np.complex64(0.1), np.complex64(3)) == complex(0.30000000447034836)


@pytest.mark.parametrize("src", ["float(x)", "complex(x)", "complex(x, 1.0)"])
def test_jit_float_complex_of_bool_refused(src):
    f = cujit.njit(eval("lambda x: " + src))
    with pytest.raises(cujit.errors.TypingError, match="No implementation of function"):
        f(True)


def test_kernel_float_of_float32(target):
    @cuda.jit
    def k(x, y, out):
        out[0] = float(x[0]) * y[0]

    out = np.zeros(1)
    k[1, 1](np.array([0.1], np.float32), np.array([3], np.float32), out)
    assert out[0] == 0.30000001192092896
