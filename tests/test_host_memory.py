"""Pinned and mapped host memory (src/runtime/host_memory.h, python/cujit/cuda/host_memory.py),
and the copy paths of src/runtime/memory.cpp that depend on the kind of host memory: pinned memory
DMA'd directly, pageable memory above 1 MiB staged in chunks (on the simulator: a parallel
memcpy).

On the simulator, pinned and mapped arrays are ordinary aligned host memory and copies are done
when they return; the tests check the same results on both backends."""
import gc

import numpy as np
import pytest

import cujit

from cujit import _core, cuda


PAGE = 4096


def page_aligned(n, dtype):
    """A zeroed 1-d array whose bytes start on a page and fill whole pages. The driver locks whole
    pages, and two arrays sharing a page (likely for heap allocations side by side) could not
    both be registered."""
    dtype = np.dtype(dtype)
    nbytes = -(-n * dtype.itemsize // PAGE) * PAGE
    raw = np.zeros(nbytes + PAGE, np.uint8)
    start = -raw.ctypes.data % PAGE
    return raw[start:start + nbytes].view(dtype)[:n]


@cuda.jit
def double(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] *= 2


def test_pinned_array_is_an_ndarray(target):
    a = cuda.pinned_array((3, 4), dtype=np.float32)
    assert type(a) is np.ndarray
    assert a.shape == (3, 4) and a.dtype == np.float32 and a.flags.c_contiguous and a.flags.writeable
    assert isinstance(a.base, _core.HostAllocation) and a.base.nbytes == 48 and not a.base.mapped
    assert a.base.backend == ("GPU" if target == "gpu" else "simulator")
    a[...] = np.arange(12).reshape(3, 4)
    assert a.sum() == 66
    f = cuda.pinned_array((3, 4), dtype=np.int16, order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    s = cuda.pinned_array(5, dtype=np.int32, strides=(8,))
    assert s.shape == (5,) and s.strides == (8,) and s.base.nbytes == 36
    assert cuda.pinned_array(0).shape == (0,)
    assert cuda.pinned_array((2, 3), cuda.float32 if hasattr(cuda, "float32") else np.float32).dtype == np.float32


def test_pinned_memory_lives_while_a_view_does(target):
    a = cuda.pinned_array(1000, dtype=np.int64)
    a[:] = np.arange(1000)
    view = a[500:]
    del a
    gc.collect()
    np.testing.assert_array_equal(view, np.arange(500, 1000))


def test_pinned_array_like(target):
    for src in (np.zeros((4, 6), np.float64), np.zeros((4, 6), np.float32, order="F"),
                np.zeros((4, 6, 2), np.int8)[:, ::2, :].transpose(2, 0, 1)):
        p = cuda.pinned_array_like(src)
        assert p.shape == src.shape and p.dtype == src.dtype
        # Dense, with the dimensions in the source's stride order (Numba's rule).
        assert isinstance(p.base, _core.HostAllocation) and p.base.nbytes == p.nbytes
        assert np.argsort(np.abs(p.strides), kind="stable").tolist() == \
            np.argsort(np.abs(src.strides), kind="stable").tolist()
    assert cuda.pinned_array_like(np.zeros((4, 6), order="F")).flags.f_contiguous


def test_bad_arguments(target):
    with pytest.raises(ValueError, match="negative"):
        cuda.pinned_array((2, -1))
    with pytest.raises(ValueError, match="order"):
        cuda.mapped_array(3, order="K")
    with pytest.raises(TypeError, match="NumPy"):
        with cuda.pinned([1, 2, 3]):
            pass
    with pytest.raises(TypeError, match="stream"):
        with cuda.mapped(np.zeros(3), foo=1):
            pass
    with pytest.raises(ValueError, match="released"):
        cuda.pinned_array(4).base.release()


def test_copies_through_pinned_memory_on_a_stream(target):
    s = cuda.stream()
    host = cuda.pinned_array(1 << 20, dtype=np.float32)
    host[:] = np.arange(host.size, dtype=np.float32)
    d = cuda.to_device(host, stream=s)
    double[(host.size + 255) // 256, 256, s](d)
    out = cuda.pinned_array_like(host)
    d.copy_to_host(out, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, np.arange(host.size, dtype=np.float32) * 2)


@pytest.mark.parametrize("nbytes", [(1 << 20) - 1, (40 << 20) + 12345])
def test_large_pageable_copies(target, nbytes):
    # Above 1 MiB on the GPU this is the staged path: chunks of 2, 4, 8, 16, 16, ... MiB through
    # four pinned buffers; the odd size leaves a short last chunk.
    rng = np.random.default_rng(nbytes)
    host = rng.integers(0, 255, nbytes, dtype=np.uint8)
    s = cuda.stream()
    d = cuda.to_device(host, stream=s)
    back = np.empty_like(host)
    d.copy_to_host(back, stream=s)  # pageable: complete on return, no sync needed
    np.testing.assert_array_equal(back, host)
    # A source that starts at an odd address, on the default stream.
    part = cuda.to_device(host[3:]).copy_to_host()
    np.testing.assert_array_equal(part, host[3:])
    # Device to device, then back into an offset slice of a pageable array.
    e = cuda.device_array_like(d)
    e.copy_to_device(d)
    big = np.zeros(nbytes + 7, np.uint8)
    e.copy_to_host(big[7:])
    np.testing.assert_array_equal(big[7:], host)


def test_pinned_context_manager(target):
    x = page_aligned(3 << 18, np.float64)  # 6 MiB: pageable before, pinned inside
    x[:] = np.arange(x.size)
    y = page_aligned(x.size, np.float64)
    s = cuda.stream()
    with cuda.pinned(x, y) as nothing:
        assert nothing is None
        d = cuda.to_device(x, stream=s)
        double[(x.size + 255) // 256, 256, s](d)
        d.copy_to_host(y, stream=s)
        s.synchronize()
    np.testing.assert_array_equal(y, 2 * x)
    # Already-pinned memory may be passed too (nothing is registered twice), and unpinned memory
    # still copies correctly afterwards.
    p = cuda.pinned_array(100)
    p[:] = 1.5
    with cuda.pinned(p):
        np.testing.assert_array_equal(cuda.to_device(p).copy_to_host(), p)
    np.testing.assert_array_equal(cuda.to_device(x).copy_to_host(), x)


@cujit.vectorize(["int32(int32, int32)"], target="cuda")
def add_i32(a, b):
    return a + b


def test_mapped_array(target):
    m = cuda.mapped_array(1000, dtype=np.int32)
    assert isinstance(m, cuda.MappedNDArray) and isinstance(m, np.ndarray)
    assert m.shape == (1000,) and m.dtype == np.int32 and m.stream == 0
    m[:] = np.arange(1000)
    if target == "gpu":
        cai = m.__cuda_array_interface__
        assert cai["shape"] == (1000,) and cai["typestr"] == np.dtype(np.int32).str and cai["version"] == 3
        assert cai["data"][0] != 0 and cai["data"][1] is False
        sub = m[10:]
        assert sub.__cuda_array_interface__["data"][0] == cai["data"][0] + 40
    else:
        # Simulator memory is host memory: no GPU interface; the array is used in place.
        assert not hasattr(m, "__cuda_array_interface__")
    # A computed array is not in mapped memory.
    assert not hasattr(m + 1, "__cuda_array_interface__")
    double[4, 256](m)
    cuda.synchronize()
    np.testing.assert_array_equal(m, np.arange(1000) * 2)
    # On the GPU a mapped array is device memory to the dispatchers (no copy in or back), so a
    # ufunc of it returns a device array; on the simulator it is a host array like any other.
    r = add_i32(m, m)
    if target == "gpu":
        assert isinstance(r, cuda.DeviceNDArray)
        r = r.copy_to_host()
    else:
        assert type(r) is np.ndarray
    np.testing.assert_array_equal(r, np.arange(1000) * 4)


def test_mapped_array_options_and_like(target):
    m = cuda.mapped_array((4, 5), dtype=np.float32, order="F", stream=0, portable=True, wc=True)
    assert m.flags.f_contiguous and m.shape == (4, 5)
    m[...] = 3.0  # write-combined memory is written by the host, read by the device
    like = cuda.mapped_array_like(np.zeros((2, 3), np.int16))
    assert isinstance(like, cuda.MappedNDArray) and like.shape == (2, 3) and like.dtype == np.int16
    np.testing.assert_array_equal(cuda.to_device(m).copy_to_host(), np.full((4, 5), 3.0, np.float32))


def test_mapped_context_manager(target):
    n = 1 << 16
    a = page_aligned(n, np.float64)
    a[:] = np.arange(n)
    b = page_aligned(n, np.int64)
    b[:] = np.arange(n)
    with cuda.mapped(a) as da:
        assert isinstance(da, cuda.DeviceNDArray) and da.shape == a.shape
        double[n // 256, 256](da)
        cuda.synchronize()
    np.testing.assert_array_equal(a, np.arange(n) * 2.0)
    with cuda.mapped(a, b, stream=0) as devs:
        assert isinstance(devs, list) and len(devs) == 2
        double[n // 256, 256](devs[1])
        cuda.synchronize()
        np.testing.assert_array_equal(devs[0].copy_to_host(), a)
    np.testing.assert_array_equal(b, np.arange(n) * 2)
    # A strided view maps too: the device array sees the same elements.
    c = page_aligned(n, np.float64)
    c[:] = np.arange(n)
    with cuda.mapped(c[::2]) as dc:
        np.testing.assert_array_equal(dc.copy_to_host(), c[::2])


@pytest.mark.gpu
def test_async_copies_ordered_by_events():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        s = cuda.stream()
        n = 1 << 22
        src = cuda.pinned_array(n, dtype=np.float32)
        src[:] = 1.0
        d = cuda.to_device(src, stream=s)
        for _ in range(3):
            double[(n + 255) // 256, 256, s](d)
        done = cuda.event()
        dst = cuda.pinned_array(n, dtype=np.float32)
        d.copy_to_host(dst, stream=s)
        done.record(s)
        done.synchronize()
        assert (dst == 8.0).all()
        # A second stream ordered after the first by an event sees its writes.
        s2 = cuda.stream()
        done.wait(s2)
        double[(n + 255) // 256, 256, s2](d)
        d.copy_to_host(dst, stream=s2)
        s2.synchronize()
        assert (dst == 16.0).all()
    finally:
        _core.set_simulator(previous)


@pytest.mark.gpu
def test_mapped_memory_is_pinned_for_copies():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        m = cuda.mapped_array(1 << 20, dtype=np.float64)
        m[:] = 2.0
        d = cuda.to_device(m)
        np.testing.assert_array_equal(d.copy_to_host(), m)
        host_ptr = m.__array_interface__["data"][0]
        assert m.base.mapped and m.base.ptr == host_ptr and m.base.device_ptr != 0
    finally:
        _core.set_simulator(previous)


# Shapes and strides through operator.index, as NumPy's: int() made a float dimension its
# integer part in silence.
@pytest.mark.parametrize("make", [cuda.pinned_array, cuda.mapped_array])
@pytest.mark.parametrize("shape", [2.5, (2.5,), (np.array(2.7),), (2, 1.0)])
def test_float_dimensions_are_refused(make, shape):
    with pytest.raises(TypeError, match="shape must be an int or a sequence of ints"):
        make(shape)


def test_float_strides_are_refused_and_integer_likes_taken(target):
    with pytest.raises(TypeError, match="strides must be an int or a sequence of ints"):
        cuda.pinned_array(2, strides=(8.5,))
    assert cuda.pinned_array(np.int32(3)).shape == (3,)
    assert cuda.pinned_array((np.int64(2), 3), dtype=np.float32).shape == (2, 3)
