"""Array methods in GPU code: a.copy() of a global array (into the thread's local memory) and
a.view(dtype) (the same bytes as another dtype, NumPy's rule), as numba-cuda's
test_array_methods.py uses them."""
import numpy as np
import pytest

import cujit
from cujit import cuda

REVERSED = np.array([1, 2, 3])[::-1]
TRANSPOSED = np.arange(6, dtype=np.float32).reshape(2, 3).T


@cuda.jit
def k_copy(out, out2):
    q = REVERSED.copy()
    q[0] += 10  # the copy is writable; the global is not touched
    for i in range(len(out)):
        out[i] = q[i]
    w = np.copy(TRANSPOSED)
    out2[0] = w[2, 1]
    out2[1] = w.shape[0]


def test_copy_of_global_arrays(target):
    out = np.zeros(3)
    out2 = np.zeros(2)
    k_copy[1, 1](out, out2)
    assert list(out) == [13, 2, 1]
    assert list(out2) == [5, 3]
    assert list(REVERSED) == [3, 2, 1]


@cuda.jit
def k_view(byte_arr, start, stop, output):
    output[0] = byte_arr[start:stop].view(np.int32)[0]


def test_view_reinterprets_bytes(target):
    b = np.arange(256, dtype=np.uint8)
    o = np.zeros(1, np.int32)
    for s in range(0, 256, 4):
        k_view[1, 1](b, s, s + 4, o)
        assert o[0] == b[s:s + 4].view(np.int32)[0]


@cuda.jit
def k_view_2d(a, out):
    v = a.view(np.uint16)
    out[0] = v.shape[1]
    out[1] = v[1, 3]
    f = a.view(np.float32)  # the same itemsize: the same shape
    out[2] = f.shape[1]


def test_view_changes_the_last_axis(target):
    a = np.arange(8, dtype=np.uint32).reshape(2, 4)
    out = np.zeros(3, np.int64)
    k_view_2d[1, 1](a, out)
    assert list(out) == [8, a.view(np.uint16)[1, 3], 4]


@pytest.mark.parametrize("start, stop, step", [(0, 3, 1), (0, 8, 2)])
def test_view_of_incompatible_bytes_stops_the_launch(target, start, stop, step):
    # NumPy: ValueError (3 bytes are no int32; a strided last axis cannot change its itemsize).
    if target != "sim":
        pytest.skip("the simulator reports the ValueError; the GPU thread ends")
    b = np.arange(16, dtype=np.uint8)
    with pytest.raises(cujit.errors.SimulatorError, match="ValueError: new type not compatible with array"):
        k_view[1, 1](b[::step], start, stop, np.zeros(1, np.int32))
