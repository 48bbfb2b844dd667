"""Cache-hinted loads and stores (cuda.ldca/ldcg/ldcs/ldlu/ldcv, cuda.stcg/stcs/stwb/stwt), as in
numba-cuda's cudapy/test_cache_hints.py: the element's value on both targets (on the GPU, CUDA's
__ldcg... intrinsics, proven to build by NVRTC), and numba-cuda's typing messages."""
import numpy as np
import pytest

import cujit
from cujit import cuda

DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float32, np.float64)


@cuda.jit
def loads(r, x):
    for i in range(len(r)):
        r[i] = cuda.ldca(x, i) + cuda.ldcg(x, i) + cuda.ldcs(x, i) - cuda.ldlu(x, i) - cuda.ldcv(x, i)


@cuda.jit
def stores(r, x):
    for i in range(len(r)):
        cuda.stcg(r, i, x[i])
        cuda.stcs(r, i, cuda.ldcs(r, i) + 1)
        cuda.stwb(r, i, cuda.ldcs(r, i) + 1)
        cuda.stwt(r, i, cuda.ldcs(r, i) + 1)


@cuda.jit
def loads_2d(r, x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            cuda.stwt(r, (i, j), cuda.ldcg(x, (i, j)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_loads_and_stores(target, dtype):
    x = np.arange(5).astype(dtype)
    r = np.zeros_like(x)
    loads[1, 1](r, x)
    np.testing.assert_array_equal(r, x)
    r = np.zeros_like(x)
    stores[1, 1](r, x)
    np.testing.assert_array_equal(r, x + 3)
    x2 = np.arange(12).astype(dtype).reshape(3, 4)
    r2 = np.zeros_like(x2)
    loads_2d[1, 1](r2, x2)
    np.testing.assert_array_equal(r2, x2)


def ld_float_index(x):
    cuda.ldcs(x, 1.0)


def ld_long_index(x):
    cuda.ldcs(x, (1, 2))


def ld_scalar_index(x):
    cuda.ldcs(x, 1)


def ld_short_index(x):
    cuda.ldcs(x, (1,))


def st_bool(x):
    cuda.stcg(x, 0, True)


@pytest.mark.parametrize("func, sig, msg", [
    (ld_float_index, "void(float32[::1])", "float64 is not a valid index"),
    (ld_long_index, "void(float32[::1])", "Expected 1 indices, got 2"),
    (ld_scalar_index, "void(float32[:, ::1])", "Expected 2 indices, got a scalar"),
    (ld_short_index, "void(float32[:, ::1])", "Expected 2 indices, got 1"),
    (st_bool, "void(boolean[::1])", "stcg requires array of integer or float type, got bool"),
])
def test_typing_errors(target, func, sig, msg):
    with pytest.raises(cujit.TypingError, match=msg):
        cuda.jit(sig)(func)
