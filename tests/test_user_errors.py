"""Odd values from users get clear Python errors, never pybind11's "Unable to cast Python instance
of type ... to C++ type '?'", a crash or a wrong result (issue 16). Expected classes and messages
are numba-cuda 0.30's where it has them (its simulator: griddim/blockdim TypeErrors; the driver's
CUDA_ERROR_INVALID_VALUE as CudaAPIError for launches past the GPU's limits), else NumPy's."""
import numpy as np
import pytest

from cujit import cuda
from cujit.errors import CudaAPIError


@cuda.jit
def noop(a):
    pass


LAUNCHES = [
    # (griddim, blockdim, extra), expected class, message part
    ((1.0, 8), TypeError, "griddim must be a sequence of integers, got [1.0]"),
    (("1", 8), TypeError, "griddim must be a sequence of integers, got ['1']"),
    ((1, 8.0), TypeError, "blockdim must be a sequence of integers, got [8.0]"),
    ((np.float64(2), 4), TypeError, "griddim must be a sequence of integers"),
    (((1, 2, 3, 4), 1), ValueError, "griddim must be a sequence of 1, 2 or 3 integers, got [1, 2, 3, 4]"),
    ((None, 1), ValueError, "needs both a grid and a block size"),
    ((2**64, 1), CudaAPIError, "is >= 2**63 in x, above the GPU's limit of 2147483647 blocks"),
    ((2**31, 1), CudaAPIError, "is 2147483648 in x, above the GPU's limit of 2147483647 blocks"),
    (((1, 65536), 1), CudaAPIError, "is 65536 in y, above the GPU's limit of 65535 blocks"),
    (((1, 1, 65536), 1), CudaAPIError, "is 65536 in z, above the GPU's limit of 65535 blocks"),
    ((1, 1025), CudaAPIError, "is 1025 in x, above the GPU's limit of 1024 threads"),
    ((1, (1, 1025)), CudaAPIError, "is 1025 in y, above the GPU's limit of 1024 threads"),
    ((1, (1, 1, 65)), CudaAPIError, "is 65 in z, above the GPU's limit of 64 threads"),
    ((1, (32, 32, 2)), CudaAPIError, "the block has 2048 threads (32 x 32 x 2), above the GPU's limit of 1024"),
    ((0, 1), ValueError, "sizes must be positive, got 0"),
    ((1, -1), ValueError, "sizes must be positive, got -1"),
    ((1, 1, -1), ValueError, "stream must be 0, None, a cujit stream or a CUstream handle, got -1"),
    ((1, 1, 2**64), ValueError, "stream must be 0, None, a cujit stream or a CUstream handle"),
    ((1, 1, 0, 1.5), TypeError, "sharedmem must be an integer (bytes), got 1.5"),
    ((1, 1, 0, -1), ValueError, "sharedmem must be >= 0"),
    ((1, 1, 0, 2**70), Exception, "dynamic shared memory"),
]


@pytest.mark.parametrize("config,cls,message", LAUNCHES, ids=[repr(c[0]) for c in LAUNCHES])
def test_launch_configuration(target, config, cls, message):
    d = cuda.to_device(np.zeros(4))
    with pytest.raises(cls) as e:
        noop[config](d)
    assert message in str(e.value)
    assert "Unable to cast" not in str(e.value)


def test_launch_limit_error_is_the_drivers(target):
    with pytest.raises(CudaAPIError) as e:
        noop[1, 2048](cuda.to_device(np.zeros(4)))
    assert (e.value.code, e.value.name, e.value.call) == (1, "CUDA_ERROR_INVALID_VALUE", "cuLaunchKernel")


def test_float_grid_after_an_equal_int_one(target):
    """(2.0, 4) == (2, 4): the cached configuration of the int launch must not serve the float."""
    d = cuda.to_device(np.zeros(4))
    noop[2, 4](d)
    with pytest.raises(TypeError, match="griddim must be a sequence of integers"):
        noop[2.0, 4](d)
    noop[np.int64(2), np.int32(4)](d)  # NumPy ints are integers (numbers.Integral)
    noop[[2], (4,)](d)


ARRAY_CASES = [
    # (what, function of the device array d = arange(10.0), expected class or a checker)
    ("d[2**62:2**63]", lambda d: d[2**62:2**63].shape, (0,)),
    ("d[-2**63:2**63]", lambda d: d[-2**63:2**63].shape, (10,)),
    ("d[::2**63]", lambda d: d[::2**63].shape, (1,)),
    ("d[::-2**64]", lambda d: d[::-2**64].copy_to_host().tolist(), [9.0]),
    ("d[2**64]", lambda d: d[2**64], IndexError),
    ("d[-2**64]", lambda d: d[-2**64], IndexError),
    ("d[np.uint64(2**63)]", lambda d: d[np.uint64(2**63)], IndexError),
    ("d[2**64] = 1", lambda d: d.__setitem__(2**64, 1.0), IndexError),
    ("d[1.5]", lambda d: d[1.5], IndexError),
    ("d['1']", lambda d: d["1"], IndexError),
    ("d[1.5:3]", lambda d: d[1.5:3], TypeError),  # not truncated to d[1:3]
    ("d[::1.5]", lambda d: d[::1.5], TypeError),
    ("d['a':]", lambda d: d["a":], TypeError),
    ("d[::0]", lambda d: d[::0], ValueError),
    ("d[np.int64(3)]", lambda d: float(d[np.int64(3)]), 3.0),
    ("d[np.int32(1):np.int64(3)]", lambda d: d[np.int32(1):np.int64(3)].copy_to_host().tolist(), [1.0, 2.0]),
    ("d.reshape(2**64)", lambda d: d.reshape(2**64), ValueError),
    ("d.reshape(1.5)", lambda d: d.reshape(1.5), TypeError),
    ("d.transpose(2**64)", lambda d: d.transpose(2**64), ValueError),
    ("device_array(2**64)", lambda d: cuda.device_array(2**64), ValueError),
    ("device_array(-2**64)", lambda d: cuda.device_array(-2**64), ValueError),
    ("device_array(1.5)", lambda d: cuda.device_array(1.5), TypeError),
    ("device_array('3')", lambda d: cuda.device_array("3"), TypeError),
    ("device_array(3, dtype='nope')", lambda d: cuda.device_array(3, dtype="nope"), TypeError),
    ("device_array(3, dtype=object)", lambda d: cuda.device_array(3, dtype=object), TypeError),
    ("copy_to_host(stream=-1)", lambda d: d.copy_to_host(stream=-1), ValueError),
    ("copy_to_host(stream=2**64)", lambda d: d.copy_to_host(stream=2**64), ValueError),
    ("copy_to_host(stream='s')", lambda d: d.copy_to_host(stream="s"), TypeError),
    ("to_device('abc')", lambda d: cuda.to_device("abc"), TypeError),
    ("to_device(None)", lambda d: cuda.to_device(None), TypeError),
    ("d.split(1.5)", lambda d: d.split(1.5), TypeError),  # not split(1)
    ("d.split(0)", lambda d: d.split(0), ValueError),
    ("d.split(np.int64(4))", lambda d: [p.shape for p in d.split(np.int64(4))], [(4,), (4,), (2,)]),
    ("d.ravel(order=None)", lambda d: d.ravel(order=None).shape, (10,)),  # NumPy's 'C'
    ("d.ravel(order=1)", lambda d: d.ravel(order=1), TypeError),
    ("event.elapsed_time(1)", lambda d: cuda.event().elapsed_time(1), TypeError),
]


@pytest.mark.parametrize("what,call,expected", ARRAY_CASES, ids=[c[0] for c in ARRAY_CASES])
def test_device_array_odd_values(target, what, call, expected):
    d = cuda.to_device(np.arange(10.0))
    if isinstance(expected, type) and issubclass(expected, BaseException):
        with pytest.raises(expected) as e:
            call(d)
        assert "Unable to cast" not in str(e.value) and "C++ type" not in str(e.value)
        assert "incompatible function arguments" not in str(e.value)  # pybind11's overload list
    else:
        assert call(d) == expected


class ForeignArray:
    """An object exporting a (malformed) __cuda_array_interface__."""

    def __init__(self, **fields):
        self.__cuda_array_interface__ = {**dict(shape=(4,), typestr="<f8", data=(0, False), version=3), **fields}


CAI_CASES = [
    (dict(shape=(2**64,)), "'shape' holds 18446744073709551616, not a 64-bit integer"),
    (dict(shape=(1.5,)), "'shape' holds 1.5, not a 64-bit integer"),
    (dict(strides=("a",)), "'strides' holds 'a', not a 64-bit integer"),
    (dict(data=(2**65, False)), "'data' holds 36893488147419103232, not an address"),
    (dict(data=(-1, False)), "'data' holds -1, not an address"),
    (dict(data=(1234, False), stream=2**70), "'stream' holds 1180591620717411303424, not an address"),
]


@pytest.mark.parametrize("fields,message", CAI_CASES, ids=[repr(c[0]) for c in CAI_CASES])
def test_foreign_cuda_array_interface(target, fields, message):
    obj = ForeignArray(**fields)
    with pytest.raises(ValueError) as e:
        cuda.as_cuda_array(obj)
    assert message in str(e.value)
