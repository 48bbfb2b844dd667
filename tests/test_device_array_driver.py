"""numba-cuda's device-array and driver surface (issue 17): DeviceNDArray.stream / bind /
alloc_size / device_ctypes_pointer / pickling, copy_to_device's memcpy rules and messages,
cuda.managed_array, Context.memalloc / memhostalloc / memallocmanaged, the byte copies and
memset of numba.cuda.cudadrv.driver, and the simulator's answers (external_stream,
is_float16_supported, driver.get_device_count). The expected messages are numba-cuda 0.30's,
checked against it (its simulator, and its source for the GPU)."""
import ctypes
import pickle
import threading

import numpy as np
import pytest

from cujit import _core, cuda
from cujit.cuda.cudadrv import devicearray, driver


# ---- DeviceNDArray attributes ------------------------------------------------------------------

def test_stream_and_bind(target):
    s = cuda.stream()
    d = cuda.device_array((3, 3), np.float64, stream=s)
    assert d.stream is s
    assert d[1:].stream is s  # views keep it
    assert d.T.stream is s and d.reshape(9).stream is s
    b = d.bind(0)
    assert b.stream == 0 and d.stream is s
    assert b._device_pointer == d._device_pointer  # the same memory
    t = cuda.stream()
    assert d.bind(t).stream is t and d.getitem(slice(0, 2), stream=t).stream is t
    assert cuda.device_array(3).stream == 0
    assert cuda.to_device(np.arange(3), stream=s).stream is s
    assert cuda.device_array_like(d, stream=t).stream is t
    # Copies without a stream use the bound one; the data is right either way.
    a = np.arange(9.0).reshape(3, 3)
    d.copy_to_device(a)
    s.synchronize()
    np.testing.assert_array_equal(d.copy_to_host(), a)
    d[0] = 7
    s.synchronize()
    assert d[0, 2] == 7
    with pytest.raises(TypeError):
        d.bind("no stream")


def test_alloc_size_nbytes_and_pointer(target):
    d = cuda.device_array((4, 5), np.float32)
    assert d.nbytes == 80 and d.alloc_size == 80
    v = d[:, ::2]
    # numba-cuda's alloc_size is the bytes the view spans; nbytes those of its elements.
    assert v.nbytes == 4 * 3 * 4 and v.alloc_size == 3 * 20 + 2 * 8 + 4
    assert cuda.device_array(0).alloc_size == 0
    p = d.device_ctypes_pointer
    assert isinstance(p, ctypes.c_size_t) and p.value == d._device_pointer
    assert d.is_c_contiguous() and not d.is_f_contiguous() and d.T.is_f_contiguous()
    assert d.__cuda_memory__ and driver.is_device_memory(d)
    assert driver.device_pointer(d) == d._device_pointer
    assert driver.device_ctypes_pointer(None).value is None


def test_shape_given_as_an_array(target):
    assert cuda.device_array(shape=np.array([10, 10]), dtype=np.bool_).shape == (10, 10)
    assert cuda.device_array(shape=[2, 3]).shape == (2, 3)
    assert cuda.device_array(np.array([4], np.int32)).shape == (4,)
    with pytest.raises(TypeError):
        cuda.device_array(shape=(1.1, 2.2))
    with pytest.raises(TypeError):
        cuda.device_array(shape=np.array([1.5, 2.0]))


def test_view_changes_dtype_by_numba_cudas_rules(target):
    d = cuda.to_device(np.arange(12, dtype=np.int32).reshape(3, 4))
    v = d.view(np.int16)
    assert v.shape == (3, 8) and v.strides == (16, 2)
    np.testing.assert_array_equal(v.copy_to_host(), np.arange(12, dtype=np.int32).reshape(3, 4).view(np.int16))
    assert d.view(np.int64).shape == (3, 2)
    with pytest.raises(ValueError, match="^To change to a dtype of a different size, the array must be C-contiguous$"):
        d.T.view(np.int16)
    with pytest.raises(ValueError, match="^When changing to a larger dtype, its size must be a divisor"):
        d[:1, :3].view(np.int64)


def test_copy_shares_and_deepcopy_copies(target):
    import copy
    s = cuda.stream()
    d = cuda.to_device(np.arange(4), stream=s)
    c = copy.copy(d)
    assert c._device_pointer == d._device_pointer and c.stream is s
    e = copy.deepcopy(d)
    assert e._device_pointer != d._device_pointer
    np.testing.assert_array_equal(e.copy_to_host(), np.arange(4))


@pytest.mark.parametrize("make", ["C", "F", "perm", "reversed", "0d", "empty", "bool"])
def test_pickle_goes_through_the_host(target, make):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    d = {"C": lambda: cuda.to_device(a),
         "F": lambda: cuda.to_device(np.asfortranarray(a)),
         "perm": lambda: cuda.to_device(a).transpose(1, 2, 0),
         "reversed": lambda: cuda.to_device(a)[:, ::-1],
         "0d": lambda: cuda.to_device(np.array(5, np.int16)),
         "empty": lambda: cuda.device_array((0, 3), np.int8),
         "bool": lambda: cuda.to_device(np.array([True, False, True]))}[make]()
    e = pickle.loads(pickle.dumps(d))
    assert isinstance(e, cuda.DeviceNDArray) and e._device_pointer != d._device_pointer or d.size == 0
    assert e.shape == d.shape and e.dtype == d.dtype
    order = lambda x: sorted(range(x.ndim), key=lambda i: -abs(x.strides[i]))  # noqa: E731
    assert order(e) == order(d)
    assert e.is_c_contiguous() == d.is_c_contiguous() or make == "reversed"
    np.testing.assert_array_equal(e.copy_to_host(), d.copy_to_host())


# ---- copy_to_device / copy_to_host: numba-cuda's memcpy and its checks -------------------------

def test_copy_to_device_contiguity(target):
    msg = devicearray.errmsg_contiguous_buffer
    a = np.arange(25).reshape(5, 5, order="F")
    d = cuda.to_device(a)
    with pytest.raises(ValueError) as e:
        d[2].copy_to_device(np.full(5, 5))  # a row of an F array: not one block
    assert str(e.value) == msg
    d = cuda.to_device(np.arange(20))
    with pytest.raises(ValueError) as e:
        d.copy_to_device(cuda.to_device(np.arange(20))[::2])  # a strided device source
    assert str(e.value) == msg
    # A strided host source is made contiguous first, as numba-cuda does.
    d = cuda.to_device(np.arange(10))
    d.copy_to_device(np.arange(20)[::2])
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(20)[::2])
    # Device to device: the same layout only.
    a_c = np.arange(125).reshape(5, 5, 5)
    a_f = np.asfortranarray(a_c)
    d = cuda.to_device(a_c)
    with pytest.raises(ValueError) as e:
        d.copy_to_device(cuda.to_device(a_f))
    assert str(e.value) == "incompatible strides: %s vs. %s" % (a_c.strides, a_f.strides)
    d.copy_to_device(cuda.to_device(a_c * 2))
    np.testing.assert_array_equal(d.copy_to_host(), a_c * 2)
    # Host to device: any layout of the host array.
    for src in (a_f, a_c[::-1][::-1]):
        d = cuda.to_device(np.zeros_like(a_c))
        d.copy_to_device(src)
        np.testing.assert_array_equal(d.copy_to_host(), a_c)


def test_copy_to_host_checks(target):
    d = cuda.to_device(np.arange(6, dtype=np.int32).reshape(2, 3))
    with pytest.raises(TypeError, match="^incompatible dtype: int32 vs. int64$"):
        d.copy_to_host(np.zeros((2, 3), np.int64))
    with pytest.raises(ValueError, match=r"^incompatible shape: \(2, 3\) vs. \(6,\)$"):
        d.copy_to_host(np.zeros(6, np.int32))
    out = np.zeros((2, 1, 3), np.int32)
    d.copy_to_host(out)
    np.testing.assert_array_equal(out[:, 0], np.arange(6).reshape(2, 3))


def test_setitem_messages(target):
    d = cuda.device_array(35, np.float64)
    with pytest.raises(ValueError) as e:
        d[:] = np.zeros((1, 2, 3))
    assert str(e.value) == "Can't assign 3-D array to 1-D self"
    d = cuda.device_array(5, np.float64)
    with pytest.raises(ValueError) as e:
        d[:] = [1, 2]
    assert str(e.value) == "Can't copy sequence with size 2 to array axis 0 with dimension 5"
    with pytest.raises(ValueError) as e:
        d.setitem(slice(None), np.ones(3))
    assert str(e.value) == "Can't copy sequence with size 3 to array axis 0 with dimension 5"


def test_transpose_messages(target):
    d = cuda.to_device(np.arange(12).reshape(3, 4))
    for axes in [(0, 2), (0, 0), (1,), (0, 1, 2)]:
        with pytest.raises(ValueError) as e:
            np.transpose(d, axes=axes)
        assert str(e.value) == "invalid axes list %r" % (axes,)
    np.testing.assert_array_equal(np.transpose(d, axes=(1, 0)).copy_to_host(), np.arange(12).reshape(3, 4).T)


# ---- managed memory ----------------------------------------------------------------------------

def test_managed_array(target):
    m = cuda.managed_array((4, 5), dtype=np.float32)
    assert isinstance(m, cuda.ManagedNDArray) and isinstance(m, np.ndarray)
    assert m.shape == (4, 5) and m.dtype == np.float32 and m.flags.c_contiguous
    assert cuda.managed_array(6, order="F", dtype=np.int16).dtype == np.int16
    assert cuda.managed_array((2, 3), order="F").flags.f_contiguous
    m[:] = np.arange(20, dtype=np.float32).reshape(4, 5)

    @cuda.jit
    def double(a):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] *= 2

    double[(1, 1), (4, 5)](m)
    cuda.synchronize()
    np.testing.assert_array_equal(m, np.arange(20).reshape(4, 5) * 2)
    # The device side, as numba.cuda.cudadrv.driver's functions see it.
    assert driver.is_device_memory(m) and driver.device_memory_size(m) == 80
    driver.device_memset(m, 0, 8)
    assert (m[0, :2] == 0).all() and m[0, 2] == 4
    np.testing.assert_array_equal(m.copy_to_host(), m)
    assert m.bind(0).stream == 0
    with pytest.raises(ValueError):
        cuda.managed_array(-1)
    h = cuda.current_context().memallocmanaged(16, attach_global=False)
    assert isinstance(h, cuda.ManagedNDArray) and h.nbytes == 16


# ---- numba.cuda.cudadrv.driver memory functions and Context allocation -------------------------

def test_memalloc_copies_and_memset(target):
    ctx = cuda.current_context()
    hst = np.arange(100, dtype=np.uint32)
    hst2 = np.zeros_like(hst)
    sz = hst.nbytes
    dev1, dev2 = ctx.memalloc(sz), ctx.memalloc(sz)
    assert driver.is_device_memory(dev1) and dev1.size == sz
    assert isinstance(dev1.device_ctypes_pointer, ctypes.c_size_t)
    driver.host_to_device(dev1, hst, sz)
    driver.device_to_device(dev2, dev1, sz)
    driver.device_to_host(hst2, dev2, sz)
    np.testing.assert_array_equal(hst, hst2)
    driver.device_memset(dev1, 0xAB, 40)
    out = np.zeros(100, np.uint32)
    driver.device_to_host(out, dev1, sz)
    assert (out[:10] == 0xABABABAB).all() and (out[10:] == hst[10:]).all()
    v = dev1.view(8, 16)
    assert v.size == 8 and v.device_pointer == dev1.device_pointer + 8
    v.memset(0)
    driver.device_to_host(out, dev1, sz)
    assert (out[2:4] == 0).all() and out[1] == 0xABABABAB and out[4] == 0xABABABAB
    # Partial copies, streams, and refusals instead of writing past the end.
    s = cuda.stream()
    driver.host_to_device(dev2, np.full(4, 7, np.uint32), 16, stream=s)
    s.synchronize()
    driver.device_to_host(out, dev2, 16)
    assert (out[:4] == 7).all()
    with pytest.raises(ValueError, match="not within"):
        driver.host_to_device(dev1, hst, sz + 4)
    with pytest.raises(ValueError):
        driver.device_memset(dev1, 256, 4)
    with pytest.raises(ValueError, match="non-contiguous"):
        cuda.device_array(8, np.uint8)[::2]._memset(0)
    big = ctx.memallocmanaged(3 << 20)  # a memset, not a host buffer of the size copied over
    driver.device_memset(big, 0x5A, big.nbytes)
    cuda.synchronize()
    assert (big == 0x5A).all()
    free, total = driver.driver.cuMemGetInfo()
    assert 0 < free <= total
    with pytest.raises(TypeError, match="Not a CUDA memory object"):
        driver.device_to_host(out, np.zeros(4), 4)
    ro = np.zeros(100, np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        driver.device_to_host(ro, dev1, 4)


def test_device_arrays_and_mapped_memory_as_driver_memory(target):
    ary = cuda.pinned_array(10, dtype=np.uint32)
    ary.fill(123)
    devary = cuda.to_device(ary)
    assert driver.device_memory_size(devary) == 40
    driver.device_memset(devary, 0, driver.device_memory_size(devary))
    assert (ary == 123).all()
    devary.copy_to_host(ary)
    assert (ary == 0).all()
    m = cuda.mapped_array(10, dtype=np.uint32)
    m.fill(123)
    driver.device_memset(m, 0, driver.device_memory_size(m))
    assert (m == 0).all()
    mem = cuda.current_context().memhostalloc(32, mapped=True)
    view = np.ndarray(shape=32, dtype=np.uint8, buffer=mem)
    driver.device_memset(mem, 0xAB, 32)
    assert (view == 0xAB).all()
    view.fill(32)
    recv = np.empty_like(view)
    driver.device_to_host(recv, mem, 32)
    assert (recv == 32).all()
    assert driver.is_device_memory(m[2:]) and not driver.is_device_memory(m + 1)  # computed: host memory
    with pytest.raises(TypeError, match="Not a CUDA memory object"):
        driver.device_memset(m + 1, 0, 4)
    pinned = cuda.current_context().memhostalloc(16)
    assert isinstance(pinned, np.ndarray) and pinned.nbytes == 16 and not driver.is_device_memory(pinned)


def test_mempin(target):
    ctx = cuda.current_context()
    # Whole pages of its own: the driver locks whole pages and refuses a page locked twice.
    raw = np.zeros(3 * 4096, np.uint8)
    start = -raw.ctypes.data % 4096
    ary = raw[start:start + 8192].view(np.int64)
    ary[:] = np.arange(1024)
    m = ctx.mempin(ary, ary.ctypes.data, ary.nbytes, mapped=True)
    assert isinstance(m, driver.MappedMemory) and driver.is_device_memory(m) and m.owned is ary
    assert isinstance(m.device_ctypes_pointer, ctypes.c_size_t) and m.size == ary.nbytes
    driver.device_memset(m, 0, 16)
    cuda.synchronize()
    assert (ary[:2] == 0).all() and ary[2] == 2
    m.free()
    p = ctx.mempin(ary, ary.ctypes.data, ary.nbytes)
    assert isinstance(p, driver.PinnedMemory) and not driver.is_device_memory(p)
    p.free()
    with pytest.raises(TypeError):
        driver.PinnedMemory(ctx, 0, 8)


def test_host_memory_extents():
    a = np.arange(100)
    s, e = driver.host_memory_extents(a)
    assert s == a.ctypes.data and e - s == a.nbytes == driver.host_memory_size(a)
    f = np.asfortranarray(np.arange(100).reshape(2, 50))
    assert driver.host_memory_extents(f)[0] == f.ctypes.data and driver.host_memory_size(f) == f.nbytes
    assert driver.host_memory_size(np.asarray(np.uint32(1234))) == 4

    class S(ctypes.Structure):
        _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]

    assert driver.host_memory_size(S(x=1, y=2)) == ctypes.sizeof(S)
    assert driver.host_memory_size(ctypes.c_double(1.5)) == 8
    assert driver.memory_size_from_info((3, 4), (32, 8), 8) == 3 * 32 - 32 + 4 * 8


def test_memory_pointer_of_a_raw_address_on_the_simulator():
    previous = _core.simulator_enabled()
    _core.set_simulator(True)
    try:
        called = []
        p = driver.MemoryPointer(context=cuda.current_context(), pointer=ctypes.c_void_p(0xDEADBEEF), size=40,
                                 finalizer=lambda: called.append(1))
        assert p.device_pointer == 0xDEADBEEF and p.device_ctypes_pointer.value == 0xDEADBEEF
        with pytest.raises(TypeError, match="simulator"):
            driver.device_memset(p, 0, 4)  # never a write to a made-up host address
        del p
        assert called == [1]
    finally:
        _core.set_simulator(previous)


# ---- devices, contexts, the simulator's answers ------------------------------------------------

def test_close_and_select_again_from_a_thread(target):
    errors = []

    def worker():
        try:
            for _ in range(2):
                for d in range(driver.driver.get_device_count()):
                    cuda.select_device(d)
                    cuda.close()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert errors == []
    cuda.current_context().reset()
    np.testing.assert_array_equal(cuda.to_device(np.arange(3)).copy_to_host(), np.arange(3))


def test_float16_supported_as_numba_cuda_answers(target):
    assert cuda.is_float16_supported() is True


def test_external_stream_on_the_simulator():
    previous = _core.simulator_enabled()
    _core.set_simulator(True)
    try:
        with pytest.raises(RuntimeError) as e:
            cuda.external_stream(0)
        assert str(e.value) == "External streams are unsupported in the simulator"
    finally:
        _core.set_simulator(previous)


@pytest.mark.gpu
@pytest.mark.skipif(not _core.gpu_available(), reason="needs a CUDA GPU")
def test_gpu_external_stream_and_bound_interface():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        s = cuda.stream()
        x = cuda.external_stream(s.handle)
        assert x.handle == s.handle and repr(x) == "<External CUDA stream %d>" % s.handle
        d = cuda.to_device(np.arange(4.0), stream=x)
        x.synchronize()
        np.testing.assert_array_equal(d.copy_to_host(), np.arange(4.0))
        assert d.__cuda_array_interface__["stream"] == s.handle
        assert cuda.device_array(3).__cuda_array_interface__["stream"] == 1  # unbound: the legacy stream
        with pytest.raises(TypeError, match="^ptr for external stream must be an int$"):
            cuda.external_stream(1.5)
        del x
        s.synchronize()  # the external wrapper did not destroy the stream
        # Managed memory: the same address on both sides.
        m = cuda.managed_array(8, np.int32)
        m[:] = 3
        assert m.__cuda_array_interface__["data"][0] == m.ctypes.data
        np.testing.assert_array_equal(cuda.as_cuda_array(m).copy_to_host(), np.full(8, 3))
    finally:
        _core.set_simulator(previous)


def test_devicearray_module_helpers(target):
    d = devicearray.from_array_like(np.zeros((3, 4)).T)
    assert isinstance(d, devicearray.DeviceNDArrayBase) and d.shape == (4, 3) and d.strides == (8, 32)
    devicearray.sentry_contiguous(d)
    with pytest.raises(ValueError) as e:
        devicearray.sentry_contiguous(d[::2])
    assert str(e.value) == devicearray.errmsg_contiguous_buffer
    with pytest.raises(TypeError, match="^incompatible dtype: float64 vs. float32$"):
        devicearray.check_array_compatibility(d, cuda.device_array((4, 3), np.float32))
    with pytest.raises(ValueError, match="^require an cuda ndarray object$"):
        devicearray.require_cuda_ndarray(np.zeros(3))
    with pytest.raises(NotImplementedError, match="gpu_data"):
        devicearray.from_array_like(np.zeros(3), gpu_data=object())
