"""Device arrays through cujit._core directly: to_device / copy_to_host round trips of every
scalar type in every layout, device_array(_like), copy errors, repr and len, the
__cuda_array_interface__ import and export, backend mixing, and what happens without a GPU.
Everything runs on the simulator backend; tests marked gpu also run on a real GPU."""
import subprocess
import sys

import numpy as np
import pytest

import cujit._core as core
import cujit.errors

HAS_GPU = core.gpu_available()
gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")

# Every type of src/compiler/scalars.def.
DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64]
SHAPES = [(7,), (3, 5), (2, 3, 4)]


@pytest.fixture(autouse=True)
def simulator():
    previous = core.simulator_enabled()
    core.set_simulator(True)
    yield
    core.set_simulator(previous)


def sample(shape, dtype, order="C"):
    n = int(np.prod(shape))
    a = (np.arange(n) * 7 + 3) % 120
    if np.dtype(dtype) == np.bool_:
        a = a % 3 == 0
    return np.array(a.astype(dtype).reshape(shape), order=order)


class FakeCudaArray:
    """A stand-in for another library's GPU array: only __cuda_array_interface__."""

    def __init__(self, shape=(4,), typestr="<f4", ptr=0x7F0000000000, strides=None, stream=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3, "stream": stream}


# ---- round trips ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
def test_round_trip(dtype, shape, order):
    a = sample(shape, dtype, order)
    d = core.to_device(a)
    assert d.shape == shape
    assert d.dtype == np.dtype(dtype)
    assert d.strides == a.strides  # C stays C, F stays F
    assert d.is_c_contiguous() == a.flags.c_contiguous
    assert d.is_f_contiguous() == a.flags.f_contiguous
    h = d.copy_to_host()
    assert h.dtype == a.dtype
    np.testing.assert_array_equal(h, a)
    if order == "F" and len(shape) > 1:
        assert h.flags.f_contiguous


@pytest.mark.parametrize("make", [
    lambda a: a[::2],
    lambda a: a[:, ::-1],
    lambda a: a[1:, 1:3],
    lambda a: a.T[::2],
    lambda a: np.broadcast_to(a[0], (4, 6)),
], ids=["step", "reversed", "slice", "transposed-step", "broadcast"])
def test_non_contiguous_host_input_becomes_c(make):
    a = make(np.arange(24, dtype=np.float64).reshape(4, 6))
    d = core.to_device(a)
    assert d.is_c_contiguous()
    np.testing.assert_array_equal(d.copy_to_host(), a)


def test_transposed_host_input_stays_f():
    a = np.arange(12, dtype=np.int32).reshape(3, 4).T
    d = core.to_device(a)
    assert d.is_f_contiguous() and not d.is_c_contiguous()
    assert d.strides == a.strides
    np.testing.assert_array_equal(d.copy_to_host(), a)


def test_non_native_byte_order():
    a = np.arange(6, dtype=">i4")
    h = core.to_device(a).copy_to_host()
    assert h.dtype == np.int32
    np.testing.assert_array_equal(h, a)


@pytest.mark.parametrize("obj,dtype", [([1, 2, 3], np.int64), ([1.5, 2.0], np.float64),
                                       (np.float32(2.5), np.float32), (3, np.int64),
                                       ([[True, False]], np.bool_)])
def test_to_device_lists_and_scalars(obj, dtype):
    d = core.to_device(obj)
    assert d.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(d.copy_to_host(), np.asarray(obj))


def test_zero_d_and_empty():
    d = core.to_device(np.float32(4))
    assert d.shape == () and d.size == 1 and d.ndim == 0
    assert d.copy_to_host()[()] == 4
    with pytest.raises(TypeError):
        len(d)
    e = core.to_device(np.zeros((0, 3), np.int16))
    assert e.shape == (0, 3) and e.size == 0 and e.nbytes == 0 and len(e) == 0
    assert e.copy_to_host().shape == (0, 3)


def test_to_device_copy_false_and_to():
    d = core.to_device(np.ones((2, 3), np.uint8), copy=False)
    assert d.shape == (2, 3) and d.dtype == np.uint8
    t = core.device_array(4, np.float32)
    assert core.to_device(np.arange(4, dtype=np.float32), to=t) is t
    np.testing.assert_array_equal(t.copy_to_host(), np.arange(4))


def test_to_device_returns_device_arrays_as_they_are():
    d = core.to_device(np.arange(3))
    assert core.to_device(d) is d


def test_unsupported_dtypes():
    # (Structured dtypes are supported: tests/test_record_device_arrays.py; datetime64 and
    # timedelta64 too since they joined the type table.)
    for bad in (np.array(["a"]), np.array([object()])):
        with pytest.raises(TypeError):
            core.to_device(bad)
    with pytest.raises(TypeError):
        core.device_array(3, dtype="U2")


# ---- properties, repr, len --------------------------------------------------------------------

def test_properties():
    d = core.to_device(np.zeros((3, 5), np.float32))
    assert (d.shape, d.strides, d.size, d.ndim, d.nbytes, d.itemsize) == ((3, 5), (20, 4), 15, 2, 60, 4)
    assert isinstance(d.dtype, np.dtype) and d.dtype == np.float32
    assert isinstance(d._device_pointer, int) and d._device_pointer != 0
    assert len(d) == 3


def test_repr_does_not_copy():
    d = core.device_array(10, np.float32)
    assert repr(d) == "<cujit.cuda.DeviceNDArray shape=(10,) dtype=float32 on simulator>"
    assert repr(core.device_array((2, 3), np.int8)) == \
        "<cujit.cuda.DeviceNDArray shape=(2, 3) dtype=int8 on simulator>"


def test_simulator_arrays_have_no_cuda_array_interface():
    assert not hasattr(core.device_array(3), "__cuda_array_interface__")


# ---- copy_to_host / copy_to_device ------------------------------------------------------------

@pytest.mark.parametrize("out_order", ["C", "F", "strided"])
def test_copy_to_host_into_given_array(out_order):
    a = sample((4, 6), np.int32)
    d = core.to_device(a)
    if out_order == "strided":
        big = np.zeros((8, 6), np.int32)
        out = big[::2]
    else:
        out = np.zeros((4, 6), np.int32, order=out_order)
    r = d.copy_to_host(out)
    assert r is out
    np.testing.assert_array_equal(out, a)
    if out_order == "strided":
        assert not big[1::2].any()  # the rows between were left alone


def test_copy_to_host_mismatches():
    d = core.to_device(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        d.copy_to_host(np.zeros((3, 2), np.float32))
    # numba-cuda's check_array_compatibility: TypeError for the dtype, in its words.
    with pytest.raises(TypeError, match=r"^incompatible dtype: float32 vs. float64$"):
        d.copy_to_host(np.zeros((2, 3), np.float64))
    with pytest.raises(ValueError, match=r"^incompatible shape: \(2, 3\) vs. \(3, 2\)$"):
        d.copy_to_host(np.zeros((3, 2), np.float32))
    # Shapes that differ only in dimensions of length 1 are compatible, as in numba-cuda.
    out = np.zeros((1, 2, 3), np.float32)
    assert d.copy_to_host(out) is out
    ro = np.zeros((2, 3), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        d.copy_to_host(ro)
    with pytest.raises(TypeError):
        d.copy_to_host([0, 0, 0])


@pytest.mark.parametrize("dev_order", ["C", "F"])
@pytest.mark.parametrize("host", ["C", "F", "reversed"])
def test_copy_to_device_any_layouts(dev_order, host):
    a = sample((3, 4), np.float64)
    src = {"C": a, "F": np.asfortranarray(a), "reversed": np.ascontiguousarray(a[::-1])[::-1]}[host]
    d = core.device_array((3, 4), np.float64, order=dev_order)
    d.copy_to_device(src)
    np.testing.assert_array_equal(d.copy_to_host(), a)


def test_strided_device_arrays():
    # A view that skips bytes (stride 2 items) and one with a negative stride: copy_to_device is
    # numba-cuda's memcpy, which refuses them in its words; assignment fills them.
    d = core.device_array((3, 4), np.int16, strides=(16, 4))
    assert not d.is_c_contiguous() and not d.is_f_contiguous()
    a = sample((3, 4), np.int16)
    with pytest.raises(ValueError, match="^Array contains non-contiguous buffer and cannot be transferred"):
        d.copy_to_device(a)
    d[...] = a
    np.testing.assert_array_equal(d.copy_to_host(), a)
    r = core.device_array((5,), np.float32, strides=(-4,))
    r[:] = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(r.copy_to_host(), np.arange(5))
    with pytest.raises(ValueError):
        core.device_array((3,), np.float32, strides=(2,))  # not a multiple of the itemsize
    with pytest.raises(ValueError):
        core.device_array((3, 2), np.float32, strides=(4,))


def test_copy_to_device_from_lists_and_device_arrays():
    d = core.device_array(3, np.float32)
    d.copy_to_device([1, 2, 3])
    np.testing.assert_array_equal(d.copy_to_host(), [1, 2, 3])
    e = core.device_array(3, np.float32)
    e.copy_to_device(d)
    np.testing.assert_array_equal(e.copy_to_host(), [1, 2, 3])
    s = core.device_array((3, 2), np.float32, strides=(4, 12))  # F: from a C device array, refused
    c = core.to_device(np.arange(6, dtype=np.float32).reshape(3, 2))
    with pytest.raises(ValueError, match=r"^incompatible strides: \(4, 12\) vs. \(8, 4\)$"):
        s.copy_to_device(c)
    s[...] = c  # assignment converts the layout
    np.testing.assert_array_equal(s.copy_to_host(), np.arange(6).reshape(3, 2))


def test_copy_to_device_mismatches():
    # numba-cuda's check_array_compatibility, word for word.
    d = core.device_array((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"^incompatible shape: \(2, 3\) vs. \(3, 2\)$"):
        d.copy_to_device(np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError, match="^incompatible dtype: float32 vs. int32$"):
        d.copy_to_device(np.zeros((2, 3), np.int32))
    with pytest.raises(TypeError, match="^incompatible dtype: float32 vs. int32$"):
        d.copy_to_device(core.device_array((2, 3), np.int32))
    with pytest.raises(ValueError, match=r"^incompatible shape: \(2, 3\) vs. \(3, 2\)$"):
        d.copy_to_device(core.device_array((3, 2), np.float32))
    # Dimensions of length 1 do not count, as in numba-cuda.
    d.copy_to_device(np.arange(6, dtype=np.float32).reshape(1, 2, 1, 3))
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(6).reshape(2, 3))


# ---- device_array / device_array_like ---------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES + ["f4", "int16", np.dtype("u8")], ids=str)
def test_device_array_dtypes(dtype):
    d = core.device_array((2, 3), dtype)
    assert d.dtype == np.dtype(dtype) and d.shape == (2, 3) and d.itemsize == np.dtype(dtype).itemsize


def test_device_array_shapes_and_orders():
    assert core.device_array(5).shape == (5,)
    assert core.device_array(5).dtype == np.float64
    assert core.device_array(np.int64(4)).shape == (4,)
    assert core.device_array(()).shape == ()
    assert core.device_array([2, 3]).shape == (2, 3)
    assert core.device_array((2, 3, 4), np.int8).strides == (12, 4, 1)
    assert core.device_array((2, 3, 4), np.int8, order="F").strides == (1, 2, 6)
    with pytest.raises(ValueError):
        core.device_array((2, -1))
    with pytest.raises(ValueError):
        core.device_array(3, order="K")
    with pytest.raises(TypeError):
        core.device_array("3")
    with pytest.raises(ValueError):
        core.device_array((1 << 62, 1 << 62))


def test_device_array_accepts_objects_with_a_dtype():
    class F32:
        dtype = np.dtype(np.float32)
    assert core.device_array(3, F32()).dtype == np.float32


def test_device_array_like():
    a = np.zeros((3, 4), np.uint16)
    like = core.device_array_like(a)
    assert (like.shape, like.dtype, like.strides) == ((3, 4), np.uint16, (8, 2))
    f = core.device_array_like(np.asfortranarray(a))
    assert f.is_f_contiguous() and not f.is_c_contiguous()
    d = core.device_array_like(core.to_device(np.zeros(5, np.float32)))
    assert (d.shape, d.dtype) == ((5,), np.float32)
    assert core.device_array_like(a[:, ::2]).is_c_contiguous()


# ---- __cuda_array_interface__, backends, no GPU -----------------------------------------------

def test_cuda_array_interface_import_makes_a_gpu_array():
    # Importing only reads the dict; nothing touches the driver.
    fake = FakeCudaArray(shape=(3, 4), typestr="<i2", strides=(16, 2))
    d = core.to_device(fake)
    assert d.shape == (3, 4) and d.dtype == np.int16 and d.strides == (16, 2)
    assert repr(d).endswith("on GPU>")
    cai = d.__cuda_array_interface__
    assert cai["shape"] == (3, 4) and cai["typestr"] == "<i2" and cai["version"] == 3
    assert cai["data"] == (0x7F0000000000, False) and cai["strides"] == (16, 2)
    # Exported on the legacy default stream, where cujit queues its work: consumers wait for it.
    assert cai["stream"] == 1
    c = core.to_device(FakeCudaArray(shape=(5,)))
    assert c.__cuda_array_interface__["strides"] is None and c._device_pointer == 0x7F0000000000
    with pytest.raises(TypeError):
        core.to_device(FakeCudaArray(typestr="<U1"))
    with pytest.raises(ValueError):
        core.to_device(FakeCudaArray(ptr=0))


def test_mixing_backends_is_an_error():
    sim = core.device_array(4, np.float32)
    gpu_view = core.to_device(FakeCudaArray(shape=(4,)))
    with pytest.raises(ValueError, match="simulator"):
        sim.copy_to_device(gpu_view)
    assert core.to_device(np.zeros(2)).copy_to_host().shape == (2,)


def test_simulator_switch():
    core.set_simulator(False)
    assert not core.simulator_enabled()
    core.set_simulator(True)
    assert core.simulator_enabled()


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a GPU")
def test_no_gpu():
    assert core.gpu_available() is False
    core.set_simulator(False)
    for use in (lambda: core.device_array(10), lambda: core.to_device(np.zeros(3)),
                lambda: core.device_info(), lambda: core.synchronize()):
        with pytest.raises(cujit.errors.CudaSupportError, match="CUJIT_ENABLE_CUDASIM"):
            use()
    core.set_simulator(True)
    # A GPU array imported from elsewhere cannot be read without the driver either.
    with pytest.raises(cujit.errors.CudaSupportError):
        core.to_device(FakeCudaArray()).copy_to_host()


def test_error_classes():
    e = cujit.errors
    assert issubclass(e.CompileSyntaxError, SyntaxError) and issubclass(e.CompileSyntaxError, e.CujitError)
    assert issubclass(e.NvrtcError, e.ToolchainError)
    x = e.CudaAPIError("cuMemAlloc failed: X (y)", "cuMemAlloc", 2, "CUDA_ERROR_OUT_OF_MEMORY")
    assert (x.call, x.code, x.name, str(x)) == ("cuMemAlloc", 2, "CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc failed: X (y)")
    s = e.CompileSyntaxError("bad\n\nf.py:3:\n    x\n    ^", "bad", "f.py", 3, 4)
    assert str(s).startswith("bad\n\nf.py:3:") and s.msg == "bad" and s.lineno == 3 and s.offset == 5


def test_shutdown_at_exit():
    # After _shutdown, simulator arrays still work, the GPU is refused, and exit is clean.
    code = (
        "import numpy as np, cujit._core as core, cujit.errors as E\n"
        "core.set_simulator(True)\n"
        "d = core.to_device(np.arange(3))\n"
        "core._shutdown()\n"
        "assert list(d.copy_to_host()) == [0, 1, 2]\n"
        "core.set_simulator(False)\n"
        "try:\n"
        "    core.device_array(3)\n"
        "except E.CudaSupportError:\n"
        "    print('refused')\n"
        "keep = d\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "refused" in r.stdout


# ---- on a GPU ---------------------------------------------------------------------------------

@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("order", ["C", "F"])
def test_gpu_round_trip(dtype, order):
    core.set_simulator(False)
    a = sample((3, 4, 5), dtype, order)
    d = core.to_device(a)
    assert repr(d).endswith("on GPU>")
    np.testing.assert_array_equal(d.copy_to_host(), a)
    np.testing.assert_array_equal(d.copy_to_host(np.zeros_like(a, order="C")), a)


@pytest.mark.gpu
@gpu
def test_gpu_strided_copies_and_interface():
    core.set_simulator(False)
    a = sample((6, 8), np.float32)
    s = core.device_array((6, 8), np.float32, strides=(64, 8))
    # numba-cuda's copy_to_device refuses a target that is not one block; assignment copies
    with pytest.raises(ValueError, match="non-contiguous buffer"):
        s.copy_to_device(a)
    s[...] = a
    np.testing.assert_array_equal(s.copy_to_host(), a)
    c = core.to_device(a)
    e = core.device_array_like(c)
    e.copy_to_device(c)
    np.testing.assert_array_equal(e.copy_to_host(), a)
    s[...] = 0
    s[...] = c  # device to device into a strided view
    np.testing.assert_array_equal(s.copy_to_host(), a)
    cai = c.__cuda_array_interface__
    assert cai["data"][0] == c._device_pointer and cai["strides"] is None
    again = core.to_device(c)
    assert again is c
    with pytest.raises(ValueError, match="simulator"):
        core.set_simulator(True)
        core.device_array((6, 8), np.float32).copy_to_device(c)


@pytest.mark.gpu
@gpu
def test_gpu_device_info_and_many_allocations():
    info = core.device_info()
    assert set(info) == {"id", "uuid", "name", "compute_capability", "total_memory", "multiprocessors",
                         "max_threads_per_block", "driver_version"}
    assert info["id"] == 0 and info["uuid"].startswith("GPU-")
    assert info["compute_capability"][0] >= 3 and info["total_memory"] > 0
    core.set_simulator(False)
    for _ in range(200):  # freed to the pool and reused
        d = core.device_array(1 << 20, np.float32)
    del d
    core.synchronize()
    with pytest.raises(cujit.errors.CudaAPIError) as err:
        core.device_array(1 << 50, np.uint8)
    assert err.value.name == "CUDA_ERROR_OUT_OF_MEMORY" and err.value.call == "cuMemAllocAsync"


# Shapes and indices go through operator.index, as NumPy's do: a float (also inside a 0-d array,
# whose __index__ refuses it) raises TypeError instead of passing as its integer part. (Found by
# numba-cuda's test_device_array_float; cujit made np.array(1.23) a shape of 1 in silence.)
@pytest.mark.parametrize("shape", [1.23, np.float64(1.23), np.array(1.23), [np.array(2.5)], (1, 2.0)])
def test_float_shapes_are_refused(shape):
    with pytest.raises(TypeError, match="shape must be an int or a tuple of ints"):
        core.device_array(shape, np.float32)


@pytest.mark.parametrize("shape, expected", [(np.array(3), (3,)), (np.int32(2), (2,)), ([np.int64(2), 3], (2, 3))])
def test_integer_like_shapes_are_taken(shape, expected):
    assert core.device_array(shape, np.float32).shape == expected


def test_float_slice_bounds_are_refused():
    d = core.to_device(np.arange(6.0))
    with pytest.raises(TypeError, match="slice indices must be integers or None or have an __index__ method"):
        d[1.5:3]
    with pytest.raises(TypeError):
        d[0:4:1.0]
    assert d[np.int64(1):np.int32(3)].copy_to_host().tolist() == [1.0, 2.0]
