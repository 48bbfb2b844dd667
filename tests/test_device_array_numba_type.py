"""DeviceNDArray._numba_type_: the Numba array type of a device array, by numba-cuda's layout rules
(cudadrv/test_cuda_ndarray.py test_devicearray_typing_order_*)."""
import numpy as np
import pytest

from cujit import cuda, types


@pytest.mark.parametrize("make, layout", [
    (lambda: np.zeros(10, order="C"), "C"),
    (lambda: np.zeros(10, order="F"), "C"),          # both C and F: 'C' is preferred
    (lambda: np.zeros((2, 10), order="C"), "C"),
    (lambda: np.zeros((2, 10), order="F"), "F"),
])
def test_layout_of_copies(target, make, layout):
    d = cuda.to_device(make())
    t = d._numba_type_
    assert (t.layout, t.ndim, t.dtype) == (layout, d.ndim, types.float64)
    assert t == types.Array(types.float64, d.ndim, layout)


def test_layout_of_views(target):
    c = cuda.to_device(np.zeros((5, 5), order="C"))
    f = cuda.to_device(np.zeros((5, 5), order="F"))
    assert c[:, 2]._numba_type_.layout == "A"
    assert f[2, :]._numba_type_.layout == "A"
    assert c[2, :]._numba_type_.layout == "C"
    assert f[:, 2]._numba_type_.layout == "C"
    assert cuda.to_device(np.zeros(4, np.int32))._numba_type_ == types.int32[::1]
    with pytest.raises(AttributeError):
        c._numba_type_ = None  # read-only


def test_scalar_bitwidth(target):
    # Numba's Integer/Float/Complex.bitwidth (cudapy/test_cache_hints.py reads it); booleans have none.
    assert [t.bitwidth for t in (types.int8, types.uint16, types.int32, types.uint64, types.float32,
                                 types.float64, types.complex64)] == [8, 16, 32, 64, 32, 64, 64]
    assert cuda.to_device(np.zeros(3, np.int16))._numba_type_.dtype.bitwidth == 16
    with pytest.raises(AttributeError):
        types.boolean.bitwidth
