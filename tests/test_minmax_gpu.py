"""max/min of two floats in GPU code are numba-cuda's: libdevice's fmax/fmin (PTX max.f32 /
max.f64, ...), which drop a NaN operand; @jit code keeps Python's (numba-cuda's
cudapy/test_minmax.py checks the PTX; the NaN results are numba-cuda's on the H100)."""
import numpy as np
import pytest

from cujit import cuda, float64, jit, types


def builtin_max(A, B, C):
    i = cuda.grid(1)
    if i >= len(C):
        return
    C[i] = float64(max(A[i], B[i]))


def builtin_min(A, B, C):
    i = cuda.grid(1)
    if i >= len(C):
        return
    C[i] = float64(min(A[i], B[i]))


@pytest.mark.parametrize("kernel, name", [(builtin_max, "max"), (builtin_min, "min")])
@pytest.mark.parametrize("left, right, width", [
    (types.float32, types.float32, "f32"), (types.float32, types.float64, "f64"),
    (types.float64, types.float32, "f64"), (types.float64, types.float64, "f64")])
def test_the_ptx_instruction(kernel, name, left, right, width):
    ptx, _ = cuda.compile_ptx(kernel, (left[:], right[:], float64[:]), cc=(9, 0))
    assert "%s.%s" % (name, width) in ptx


def test_nan_operands_are_dropped_in_gpu_code(target):
    a = np.array([np.nan, 1.0, 3.0, np.nan])
    b = np.array([1.0, np.nan, 2.0, np.nan])
    c = np.zeros(4)
    cuda.jit(builtin_max)[1, 4](a, b, c)
    np.testing.assert_equal(c, [1.0, 1.0, 3.0, np.nan])
    cuda.jit(builtin_min)[1, 4](a, b, c)
    np.testing.assert_equal(c, [1.0, 1.0, 2.0, np.nan])


def test_jit_code_keeps_pythons_max():
    @jit
    def f(x, y):
        return max(x, y)

    assert np.isnan(f(np.nan, 1.0)) and f(1.0, np.nan) == 1.0
