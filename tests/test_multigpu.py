"""Several devices in one process (python/cujit/cuda/devices.py, src/runtime/driver.h): a current
device per thread (select_device, `with cuda.gpus[i]:`), device arrays, streams and events that
remember their device, kernels and ufuncs that refuse another device's arrays, copies between
devices, and CUDA's stream/event rules across devices.

The simulator pretends to have CUJIT_SIM_DEVICES devices, so every rule is tested here without
GPUs. On the GPU the same tests run where the machine has two GPUs; with one GPU they are skipped
and the one-GPU tests at the end check device 0 and the refusals for device 1.

Expected behaviour is numba-cuda 0.30's where it has one (the current device per thread, the
`with` block putting the previous device back, copy_to_device from another device's array, a
launch on another device's stream failing with CUDA_ERROR_INVALID_HANDLE), and CUDA's documented
rules otherwise; where numba-cuda would pass another device's pointer to a kernel (which faults),
cujit refuses with ValueError."""
import threading

import numpy as np
import pytest

from cujit import _core, cuda, errors


@pytest.fixture
def devices(target, monkeypatch):
    """Two devices: simulated ones on the simulator, the machine's GPUs on the GPU (the test is
    skipped with fewer than two). The thread is back on device 0 afterwards."""
    monkeypatch.setenv("CUJIT_SIM_DEVICES", "2")
    if target == "sim":
        assert len(cuda.gpus) == 2
    elif len(cuda.gpus) < 2:
        pytest.skip("needs two GPUs")
    try:
        yield cuda.gpus
    finally:
        cuda.close()


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


def _launch(a):
    add_one[1, 32](a)


def test_the_device_list(devices):
    assert len(cuda.gpus) == 2
    ids = [d.id for d in cuda.gpus]
    assert ids == [0, 1]
    assert cuda.gpus[1].id == 1 and cuda.gpus[-1].id == 1
    assert [d.id for d in cuda.gpus[0:2]] == [0, 1]
    assert cuda.gpus[np.int64(1)].id == 1
    with pytest.raises(IndexError):
        cuda.gpus[2]
    assert cuda.gpus[0].uuid != cuda.gpus[1].uuid
    assert cuda.gpus.current.id == 0
    assert len(cuda.list_devices()) == 2


def test_with_gpus_makes_a_device_current_and_puts_the_previous_back(devices):
    assert cuda.get_current_device().id == 0
    with cuda.gpus[1]:
        assert cuda.get_current_device().id == 1
        assert cuda.gpus.current.id == 1
        assert cuda.current_context().device.id == 1
        with cuda.gpus[0]:
            assert cuda.get_current_device().id == 0
        assert cuda.get_current_device().id == 1
    assert cuda.get_current_device().id == 0
    with pytest.raises(RuntimeError):
        with cuda.gpus[1]:
            raise RuntimeError("inside")
    assert cuda.get_current_device().id == 0
    # numba-cuda's test_accepted_context_switch
    def switch():
        with cuda.gpus[1]:
            return cuda.current_context().device.id
    with cuda.gpus[0]:
        assert switch() == 1
        assert cuda.get_current_device().id == 0


def test_select_device_is_per_thread(devices):
    assert cuda.select_device(1).id == 1
    assert cuda.get_current_device().id == 1
    seen = []

    def worker():
        seen.append(cuda.get_current_device().id)  # a new thread starts on device 0, as numba-cuda's
        cuda.select_device(1)
        seen.append(cuda.get_current_device().id)
        cuda.select_device(0)
        seen.append(cuda.get_current_device().id)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [0, 1, 0]
    assert cuda.get_current_device().id == 1  # the worker's choices did not change this thread's
    cuda.close()
    assert cuda.get_current_device().id == 0  # close(): back to device 0


def test_arrays_remember_their_device_and_kernels_refuse_another_devices(devices):
    a0 = cuda.to_device(np.arange(4.0))
    with cuda.gpus[1]:
        a1 = cuda.to_device(np.arange(4.0))
        e1 = cuda.device_array(3)
        _launch(a1)
        _launch(a1)  # the fast path
        with pytest.raises(ValueError) as info:
            _launch(a0)
        msg = str(info.value)
        assert "a device array argument is on" in msg and "device 0" in msg and "runs on device 1" in msg
        assert "with cuda.gpus[0]:" in msg
    assert (a0._device_id, a1._device_id, e1._device_id) == (0, 1, 1)
    _launch(a0)
    _launch(a0)  # the fast path, planned on device 0
    with pytest.raises(ValueError, match="is on .*device 1, but the launch of kernel add_one runs on device 0"):
        _launch(a1)  # an array of another device never reaches the fast path's launch
    np.testing.assert_array_equal(a0.copy_to_host(), np.arange(4.0) + 2)
    np.testing.assert_array_equal(a1.copy_to_host(), np.arange(4.0) + 2)  # read from another device: a copy
    # Host arrays go to the current device and back.
    h = np.zeros(4)
    with cuda.gpus[1]:
        _launch(h)
    np.testing.assert_array_equal(h, np.ones(4))


def test_copies_between_devices(devices):
    host = np.arange(10, dtype=np.float32)
    with cuda.gpus[0]:
        src = cuda.to_device(host)
    with cuda.gpus[1]:
        dst = cuda.to_device(np.zeros_like(host))
    with cuda.gpus[0]:
        dst.copy_to_device(src)  # numba-cuda's test_with_context_peer_copy
        np.testing.assert_array_equal(dst.copy_to_host(), host)
    with cuda.gpus[1]:
        back = cuda.device_array_like(src)
        back.copy_to_device(dst)
        assert back._device_id == 1
    np.testing.assert_array_equal(back.copy_to_host(), host)
    # Assignment across devices: the same dtype (a copy) and a conversion (the destination's loop).
    with cuda.gpus[1]:
        f64 = cuda.device_array(10, dtype=np.float64)
        f64[:] = src
        strided = cuda.device_array(20, dtype=np.float32)
        strided[::2] = src
    np.testing.assert_array_equal(f64.copy_to_host(), host.astype(np.float64))
    np.testing.assert_array_equal(strided.copy_to_host()[::2], host)
    full = cuda.device_array_like(src)
    full[:] = dst
    np.testing.assert_array_equal(full.copy_to_host(), host)


def test_ufuncs_refuse_another_devices_arrays(devices):
    @cuda.vectorize(["float64(float64)"])
    def twice(x):
        return 2 * x

    with cuda.gpus[1]:
        a1 = cuda.to_device(np.arange(5.0))
        np.testing.assert_array_equal(twice(a1).copy_to_host(), np.arange(5.0) * 2)
        out1 = cuda.device_array(5)
    with pytest.raises(ValueError, match="is on .*device 1, but the CUDA ufunc runs on device 0"):
        twice(a1)
    with pytest.raises(ValueError, match="the out= device array is on"):
        twice(np.arange(5.0), out=out1)
    with cuda.gpus[1]:
        s1 = cuda.stream()
    with pytest.raises(errors.CudaAPIError, match="CUDA_ERROR_INVALID_HANDLE.*stream belongs to device 1"):
        twice(np.arange(5.0), stream=s1)
    np.testing.assert_array_equal(twice(np.arange(5.0)), np.arange(5.0) * 2)


def test_streams_and_events_across_devices(devices):
    with cuda.gpus[1]:
        s1 = cuda.stream()
        e1 = cuda.event()
        a1 = cuda.to_device(np.arange(4.0))
        e1.record(s1)
    assert (s1._device_id, e1._device_id) == (1, 1)
    a0 = cuda.to_device(np.arange(4.0))
    # CUDA: a kernel launch on another device's stream fails (numba-cuda gets the driver's error).
    with pytest.raises(errors.CudaAPIError) as info:
        add_one[1, 4, s1](a0)
    assert info.value.name == "CUDA_ERROR_INVALID_HANDLE"
    assert "stream belongs to device 1 and the current device is 0" in str(info.value)
    # A copy on another device's stream works.
    host = a0.copy_to_host(stream=s1)
    s1.synchronize()
    np.testing.assert_array_equal(host, np.arange(4.0))
    a0.copy_to_device(np.ones(4), stream=s1)
    s1.synchronize()
    np.testing.assert_array_equal(a0.copy_to_host(), np.ones(4))
    # Synchronising or querying another device's stream and event works.
    assert s1.query() is True
    e1.synchronize()
    assert e1.query() is True
    # Recording an event on another device's stream fails, and so does timing two devices' events.
    e0 = cuda.event()
    with pytest.raises(errors.CudaAPIError, match="CUDA_ERROR_INVALID_HANDLE.*event belongs to device 1"):
        e1.record()  # the default stream is the current device's
    with pytest.raises(errors.CudaAPIError, match="event belongs to device 0 and the stream to device 1"):
        e0.record(s1)
    e0.record()
    with pytest.raises(errors.CudaAPIError, match="two devices"):
        cuda.event_elapsed_time(e0, e1)
    # A stream may wait for another device's event.
    e1.wait(cuda.stream())
    with cuda.gpus[1]:
        add_one[1, 4, s1](a1)
        s1.synchronize()
    np.testing.assert_array_equal(a1.copy_to_host(), np.arange(4.0) + 1)
    # A context's create_stream makes the stream on its own device.
    with cuda.gpus[1]:
        ctx1 = cuda.current_context()
    assert ctx1.create_stream()._device_id == 1 and ctx1.create_event()._device_id == 1
    assert cuda.get_current_device().id == 0


def test_a_contexts_memory_is_on_its_device(devices):
    with cuda.gpus[1]:
        ctx1 = cuda.current_context()
    ctx0 = cuda.current_context()
    assert ctx0 is not ctx1 and ctx1.device.id == 1
    mem = ctx1.memalloc(64)
    assert cuda.get_current_device().id == 0
    assert ctx1.get_memory_info().total > 0
    ctx1.synchronize()
    assert isinstance(ctx0.can_access_peer(1), bool)
    with pytest.raises(ValueError, match="device 2 does not exist"):
        ctx0.can_access_peer(2)
    del mem


def test_close_keeps_other_devices_arrays(devices):
    with cuda.gpus[1]:
        a1 = cuda.to_device(np.arange(3))
        cuda.close()  # back to device 0, even inside the block
        assert cuda.get_current_device().id == 0
    assert cuda.get_current_device().id == 0
    np.testing.assert_array_equal(a1.copy_to_host(), np.arange(3))


def test_the_simulator_has_one_device_unless_told(monkeypatch):
    monkeypatch.delenv("CUJIT_SIM_DEVICES", raising=False)
    was = cuda.simulator_enabled()
    cuda.enable_simulator()
    try:
        assert len(cuda.gpus) == 1  # numba-cuda's simulator: one device
        with pytest.raises(IndexError):
            cuda.gpus[1]
        with pytest.raises(ValueError, match="simulated CUDA device 1 does not exist.*CUJIT_SIM_DEVICES"):
            cuda.select_device(1)
        monkeypatch.setenv("CUJIT_SIM_DEVICES", "3")
        assert len(cuda.gpus) == 3 and cuda.select_device(2).id == 2
        monkeypatch.setenv("CUJIT_SIM_DEVICES", "bad")
        assert len(cuda.gpus) == 1
    finally:
        cuda.close()
        cuda.enable_simulator(was)


# ---- one GPU: device 0 works, device 1 is refused (the H100 run) ----------------------------------

@pytest.mark.gpu
def test_one_gpu_device_zero_and_refusals_for_device_one():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        n = len(cuda.gpus)
        with cuda.gpus[0]:
            a = cuda.to_device(np.arange(4.0))
            _launch(a)
            assert a._device_id == 0
            assert a.__dlpack_device__() == (2, 0)
            ctx = cuda.current_context()
            assert ctx.handle == _core.current_cucontext() != 0
            assert isinstance(ctx.can_access_peer(0), bool)
        np.testing.assert_array_equal(a.copy_to_host(), np.arange(4.0) + 1)
        assert cuda.select_device(0).id == 0
        if n == 1:
            with pytest.raises(ValueError, match="CUDA device 1 does not exist"):
                cuda.select_device(1)
            with pytest.raises(IndexError):
                cuda.gpus[1]
            with pytest.raises(ValueError):
                ctx.can_access_peer(1)
        assert cuda.get_current_device().id == 0
    finally:
        cuda.close()
        _core.set_simulator(previous)
