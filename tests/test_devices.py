"""Devices, contexts and out-of-memory errors (python/cujit/cuda/devices.py, src/bindings/runtime.cpp,
src/runtime/memory.cpp): detect, list_devices, gpus, select_device, get_current_device and its
attributes, current_context().get_memory_info(), close, and CudaOutOfMemoryError.

On the simulator the device is Numba's simulated one (name "SIMULATOR", compute capability 5.2),
with the limits the simulator enforces and the host's memory as its memory."""
import pickle
import re

import numpy as np
import pytest

from cujit import _core, cuda, errors


def test_current_device(target):
    dev = cuda.get_current_device()
    assert isinstance(dev, cuda.Device)
    assert dev.id == 0
    assert isinstance(dev.name, str) and dev.name
    cc = dev.compute_capability
    assert isinstance(cc, tuple) and len(cc) == 2 and all(isinstance(v, int) for v in cc)
    assert re.fullmatch(r"GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", dev.uuid)
    assert repr(dev) == "<CUDA device 0 '%s'>" % dev.name
    assert dev.MAX_THREADS_PER_BLOCK == 1024
    assert dev.WARP_SIZE == 32
    assert dev.MULTIPROCESSOR_COUNT >= 1
    assert dev.MAX_SHARED_MEMORY_PER_BLOCK >= 48 * 1024
    assert dev.MAX_BLOCK_DIM_X == 1024 and dev.MAX_GRID_DIM_X == 2 ** 31 - 1
    assert (dev.COMPUTE_CAPABILITY_MAJOR, dev.COMPUTE_CAPABILITY_MINOR) == cc
    with pytest.raises(AttributeError):
        dev.NOT_AN_ATTRIBUTE
    with pytest.raises(AttributeError):
        dev.not_an_attribute
    if target == "sim":
        assert dev.name == "SIMULATOR" and cc == (5, 2)
        assert dev.uuid == "GPU-00000000-0000-0000-0000-000000000000"
    else:
        assert cc >= (3, 5) and dev.name != "SIMULATOR"
    assert dev == cuda.get_current_device() and hash(dev) == hash(cuda.get_current_device())


def test_device_list(target):
    gpus = cuda.gpus
    assert cuda.list_devices() is gpus
    assert len(gpus) >= 1
    assert len(list(gpus)) == len(gpus)
    assert gpus[0] == cuda.get_current_device() and gpus[-1] == list(gpus)[-1]
    assert gpus.current == cuda.get_current_device()
    with pytest.raises(IndexError):
        gpus[len(gpus)]
    with pytest.raises(TypeError):
        gpus["0"]
    assert "CUDA device 0" in repr(gpus)
    with cuda.gpus[0] as dev:
        assert dev.id == 0
        assert np.array_equal(cuda.to_device(np.arange(3)).copy_to_host(), np.arange(3))


def test_select_device(target):
    dev = cuda.select_device(0)
    assert dev.id == 0 and dev == cuda.get_current_device()
    assert cuda.select_device(0) == dev  # the device in use may be selected again
    with pytest.raises(TypeError):
        cuda.select_device("0")
    with pytest.raises(ValueError):
        cuda.select_device(len(cuda.gpus) + 5)
    with pytest.raises(ValueError):
        cuda.select_device(-1)


def test_memory_info(target):
    ctx = cuda.current_context()
    assert ctx.device == cuda.get_current_device()
    info = ctx.get_memory_info()
    assert info._fields == ("free", "total")
    free, total = info
    assert isinstance(free, int) and isinstance(total, int)
    assert 0 < free <= total
    ctx.synchronize()
    assert cuda.synchronize() is None


def test_detect(target, capsys):
    assert cuda.detect() is True
    out = capsys.readouterr().out
    assert "Found %d CUDA devices" % len(cuda.gpus) in out
    assert "[SUPPORTED]" in out and "Compute Capability: %d.%d" % cuda.get_current_device().compute_capability in out
    assert "Summary:" in out and "%d/%d devices are supported" % (len(cuda.gpus), len(cuda.gpus)) in out
    if target == "sim":
        assert "SIMULATOR" in out


def test_close_keeps_arrays_valid(target):
    d = cuda.to_device(np.arange(10))
    assert cuda.close() is None
    assert np.array_equal(d.copy_to_host(), np.arange(10))
    assert np.array_equal(cuda.to_device(np.ones(3)).copy_to_host(), np.ones(3))


def test_out_of_memory(target):
    # 1 PiB: more than any GPU has, and past the host's address space on the simulator.
    request = 1 << 50
    with pytest.raises(cuda.CudaOutOfMemoryError) as info:
        cuda.device_array(request, dtype=np.uint8)
    e = info.value
    assert isinstance(e, errors.CudaAPIError) and isinstance(e, MemoryError)
    assert errors.CudaOutOfMemoryError is cuda.CudaOutOfMemoryError
    assert e.name == "CUDA_ERROR_OUT_OF_MEMORY" and e.code == 2
    assert e.requested == request and 0 <= e.free <= e.total and e.total > 0
    msg = str(e)
    assert "cannot allocate 1125899906842624 bytes (1.00 PiB)" in msg
    assert re.search(r"\d+\.\d\d [KMGT]iB free of \d+\.\d\d [KMGT]iB", msg), msg
    assert ("on the GPU" in msg) == (target == "gpu")
    copy = pickle.loads(pickle.dumps(e))
    assert type(copy) is type(e) and str(copy) == msg and copy.requested == request
    # The pool was trimmed; a normal allocation works right after.
    d = cuda.to_device(np.arange(1000))
    assert np.array_equal(d.copy_to_host(), np.arange(1000))


@pytest.mark.gpu
def test_selecting_another_gpu_after_use():
    # Each thread has a current device (numba-cuda's context stack): another one may be selected
    # after the first is in use; one that does not exist is refused.
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        cuda.to_device(np.zeros(1))  # the context of the device in use now exists
        if len(cuda.gpus) < 2:
            with pytest.raises(ValueError, match="does not exist"):
                cuda.select_device(1)
        else:
            other = 1 if cuda.get_current_device().id == 0 else 0
            assert cuda.select_device(other).id == other == cuda.get_current_device().id
            assert cuda.gpus[other].name
    finally:
        cuda.close()
        _core.set_simulator(previous)


def test_enable_simulator_switches_backends():
    from cujit import cuda
    was = cuda.simulator_enabled()
    try:
        cuda.enable_simulator()
        assert cuda.simulator_enabled()

        @cuda.jit
        def fill(a):
            a[cuda.grid(1)] = 7

        d = cuda.device_array(8, np.int32)
        fill[1, 8](d)
        assert (d.copy_to_host() == 7).all()
        if _core.gpu_available():  # (cuda.is_available() is True on the simulator, as in numba-cuda)
            cuda.enable_simulator(False)
            assert not cuda.simulator_enabled()
    finally:
        cuda.enable_simulator(was)
