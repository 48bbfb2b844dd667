"""numba-cuda's driver-level API (issue 17): one Context per device with its memory manager and
pending-deallocation queue, EMM plugins (cuda.set_memory_manager, HostOnlyCUDAMemoryManager),
streams given through the CUDA stream protocol (__cuda_stream__, cuda.core's streams and graph
builders), and device memory allocated on another library's stream outliving that stream (it
used to crash the driver when the garbage collector freed the stream first). Expected messages
are numba-cuda 0.30's."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cujit import _core, config, cuda
from cujit.cuda.cudadrv import driver, memmgr


@cuda.jit
def _fill(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i


# ---- contexts ----------------------------------------------------------------------------------

def test_one_context_per_device_keeps_its_state(target):
    ctx = cuda.current_context()
    assert cuda.current_context() is ctx and ctx.device == cuda.get_current_device()
    assert isinstance(ctx.memory_manager, memmgr._CujitMemoryManager)
    assert ctx.memory_manager.interface_version == 1
    ctx.extra_state = 1
    assert cuda.current_context().extra_state == 1
    assert isinstance(ctx.handle, int) and (ctx.handle != 0) == (target == "gpu")
    # Two queries of the device's free memory: other processes on the GPU (the test suite may run
    # in parallel groups) can allocate between them, so only the total is exact.
    a, b = ctx.get_memory_info(), ctx.memory_manager.get_memory_info()
    assert a.total == b.total and 0 < a.free <= a.total and 0 < b.free <= b.total
    # cujit frees its own memory when the last user dies: nothing is ever pending.
    deallocs = ctx.memory_manager.deallocations
    deallocs.clear()
    d = cuda.to_device(np.arange(5))
    del d
    assert len(deallocs) == 0 and len(ctx.deallocations) == 0


def test_context_streams_and_events(target):
    ctx = cuda.current_context()
    gpu = target == "gpu"
    assert int(ctx.get_legacy_default_stream()) == (1 if gpu else 0)
    assert int(ctx.get_per_thread_default_stream()) == (2 if gpu else 0)
    assert "Legacy default CUDA stream" in repr(ctx.get_legacy_default_stream())
    assert "Per-thread default CUDA stream" in repr(ctx.get_per_thread_default_stream())
    for s in (ctx.get_default_stream(), ctx.get_legacy_default_stream(), ctx.create_stream()):
        assert s.external is False and bool(s) is True
    assert ctx.get_default_stream().__cuda_stream__() == (0, 0)
    e = ctx.create_event()
    e.record()
    e.synchronize()
    assert ctx.create_event(timing=False).timing is False


def test_pending_deallocations_as_numba_cuda_queues_them(target):
    deallocs = cuda.current_context().memory_manager.deallocations
    assert deallocs.memory_capacity == cuda.current_context().get_memory_info().total
    deallocs.clear()
    done = []
    deallocs.add_item(done.append, "a", 8)
    assert len(deallocs) == 1 and done == []
    with cuda.defer_cleanup():
        with cuda.defer_cleanup():
            deallocs.add_item(done.append, "b")
            deallocs.clear()
            assert len(deallocs) == 2 and done == []
        deallocs.clear()
        assert len(deallocs) == 2
    deallocs.clear()
    assert len(deallocs) == 0 and done == ["a", "b"]
    # More than CUDA_DEALLOCS_COUNT pending flushes the queue.
    for i in range(config.CUDA_DEALLOCS_COUNT):
        deallocs.add_item(done.append, i)
    assert len(deallocs) == config.CUDA_DEALLOCS_COUNT
    deallocs.add_item(done.append, "last")
    assert len(deallocs) == 0 and done[-1] == "last"
    # Flushing is held back after an exception inside the block too, until it ends.
    with pytest.raises(KeyError):
        with cuda.defer_cleanup():
            deallocs.add_item(done.append, "c")
            deallocs.clear()
            raise KeyError
    assert len(deallocs) == 1
    deallocs.clear()
    assert len(deallocs) == 0


# ---- EMM plugins ---------------------------------------------------------------------------------

class _CountingPlugin(cuda.HostOnlyCUDAMemoryManager):
    """Gives cujit's own memory, counting calls (a plugin as numba-cuda's tests write them)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.initialized = self.reset_called = False
        self.sizes = []

    def initialize(self):
        self.initialized = True

    def memalloc(self, size):
        if not self.initialized:
            raise RuntimeError("memalloc called before initialize")
        self.sizes.append(size)
        return self.context._cujit_memalloc(size)

    def get_memory_info(self):
        return cuda.MemoryInfo(free=32, total=64)

    def get_ipc_handle(self, memory):
        return "ipc"

    def reset(self):
        super().reset()
        self.reset_called = True

    @property
    def interface_version(self):
        return 1


class _BadVersionPlugin(_CountingPlugin):
    @property
    def interface_version(self):
        return 2


@pytest.fixture
def plugin(target):
    ctx = cuda.current_context()
    old = ctx.memory_manager
    ctx.memory_manager = mm = _CountingPlugin(context=ctx)
    try:
        yield mm
    finally:
        ctx.memory_manager = old


def test_plugin_serves_the_context(plugin, target):
    ctx = cuda.current_context()
    assert ctx.memory_manager is plugin and plugin.initialized
    assert ctx.get_memory_info() == (32, 64) and ctx.get_memory_info().total == 64
    mem = ctx.memalloc(24)
    assert plugin.sizes == [24] and driver.device_memory_size(mem) == 24
    ctx.reset()
    assert plugin.reset_called
    with cuda.defer_cleanup():
        assert plugin.deallocations.is_disabled
    assert not plugin.deallocations.is_disabled


def test_set_memory_manager_checks_the_version():
    with pytest.raises(RuntimeError) as e:
        cuda.set_memory_manager(_BadVersionPlugin)
    assert str(e.value) == "EMM Plugin interface has version 2 - version 1 required"
    with pytest.raises(RuntimeError, match="^Memory manager requires a context$"):
        _CountingPlugin()
    old = memmgr._memory_manager
    try:
        cuda.set_memory_manager(_CountingPlugin)
        assert memmgr._memory_manager is _CountingPlugin
    finally:
        memmgr._memory_manager = old


def test_simulator_device_arrays_do_not_ask_a_plugin(plugin, target):
    if target != "sim":
        pytest.skip("the simulator's rule")
    cuda.device_array(4)
    cuda.to_device(np.arange(3))
    assert plugin.sizes == []


@pytest.mark.gpu
@pytest.mark.skipif(not _core.gpu_available(), reason="needs a CUDA GPU")
def test_gpu_device_arrays_come_from_the_plugin():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    ctx = cuda.current_context()
    old = ctx.memory_manager
    freed = []

    class Plugin(_CountingPlugin):
        def memalloc(self, size):
            mem = super().memalloc(size)
            return driver.AutoFreePointer(ctx, mem.device_pointer, size, finalizer=lambda: freed.append(mem))

    ctx.memory_manager = mm = Plugin(context=ctx)
    try:
        x = np.arange(10, dtype=np.int64)
        d = cuda.to_device(x)
        e = cuda.device_array_like(np.zeros((3, 4), order="F"))
        f = cuda.device_array((2, 3), dtype=np.float32)
        assert mm.sizes == [80, 96, 24]
        assert e.strides == (8, 24) and f.dtype == np.float32
        _fill[1, 32](d)
        np.testing.assert_array_equal(d.copy_to_host(), x)
        del d
        assert len(freed) == 1
        del e, f
        assert len(freed) == 3
    finally:
        ctx.memory_manager = old
        _core.set_simulator(previous)


# ---- streams through the CUDA stream protocol ----------------------------------------------------

class _ProtocolStream:
    """A stream of another library: only the CUDA stream protocol."""

    def __init__(self, handle):
        self._handle = handle

    def __cuda_stream__(self):
        return (0, self._handle)


class _GraphBuilder:
    """cuda.core's GraphBuilder shape: work launched on it goes to its stream."""

    def __init__(self, stream):
        self.stream = stream

    def begin_building(self):
        pass


def test_streams_given_by_the_stream_protocol(target):
    s = _ProtocolStream(int(cuda.default_stream()))
    for stream in (s, _GraphBuilder(s)):
        d = cuda.to_device(np.zeros(8, np.int64), stream=stream)
        _fill[1, 8, stream](d)
        np.testing.assert_array_equal(d.copy_to_host(stream=stream), np.arange(8))
    with pytest.raises(TypeError) as e:
        cuda.to_device(np.zeros(3), stream=object())
    assert str(e.value).startswith("stream must be 0, None, a cujit stream or an object with __cuda_stream__, got ")


_FOREIGN_STREAM_PROGRAM = textwrap.dedent("""
    import ctypes, gc
    import numpy as np
    from cujit import cuda
    cu = ctypes.CDLL("libcuda.so.1")
    cuda.to_device(np.zeros(1))  # makes cujit's context current
    def new_stream():
        h = ctypes.c_void_p()
        assert cu.cuStreamCreate(ctypes.byref(h), 1) == 0  # CU_STREAM_NON_BLOCKING, as cuda.core's
        return h
    class Foreign:
        def __init__(self):
            self.h = new_stream()
        def __cuda_stream__(self):
            return (0, self.h.value)
        def __del__(self):
            cu.cuStreamDestroy_v2(self.h)
    arrays = []
    for i in range(20):
        f = Foreign()
        a = cuda.to_device(np.arange(1000.0) + i, stream=f)
        x = cuda.external_stream(new_stream().value)
        b = cuda.device_array(1000, stream=x)
        b.copy_to_device(a, stream=x)
        x.synchronize()
        assert (b.copy_to_host() == np.arange(1000.0) + i).all()
        cu.cuStreamDestroy_v2(ctypes.c_void_p(x.handle))
        f.cycle = f  # freed by the garbage collector, in no particular order with the arrays
        f.arrays = (a, b)
        del f, a, b, x
    gc.collect()
    cuda.synchronize()
    print("ok")
""")


@pytest.mark.gpu
@pytest.mark.skipif(not _core.gpu_available(), reason="needs a CUDA GPU")
def test_gpu_arrays_on_another_librarys_stream_outlive_it():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", _FOREIGN_STREAM_PROGRAM], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "ok"


# ---- profiler and initialisation -----------------------------------------------------------------

def test_profiling_and_cuda_error(target):
    # On the GPU, cuProfilerStart/Stop in cujit's context; the simulator has no profiler.
    with cuda.profiling():
        a = cuda.device_array(10)
        del a
    cuda.profile_start()
    cuda.profile_stop()
    assert cuda.cuda_error() is None


# ---- the CUDA array interface, as numba-cuda consumes and copies ---------------------------------

def test_masked_interface_is_refused_as_numba_cuda_does(target):
    desc = {"shape": (4,), "typestr": "<f8", "data": (1 << 20, False), "strides": None, "version": 3,
            "stream": None, "mask": object()}
    with pytest.raises(NotImplementedError, match="^Masked arrays are not supported$"):
        cuda.from_cuda_array_interface(desc)


def test_negative_strided_copy_to_host(target):
    # numba-cuda's GPU raises NotImplementedError here; its simulator copies them, and cujit
    # copies them on both (a capability kept on purpose).
    d = cuda.to_device(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(d[:, ::-1].copy_to_host(), np.arange(6.0).reshape(2, 3)[:, ::-1])
    # A length-1 dimension's stride is never used, so such views copy on both.
    np.testing.assert_array_equal(d[::-5, ::-1][:, :1].copy_to_host(), [[5.0]])
    np.testing.assert_array_equal(cuda.to_device(np.arange(4.0))[::-8].copy_to_host(), [3.0])


class _Foreign:
    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


@pytest.mark.gpu
@pytest.mark.skipif(not _core.gpu_available(), reason="needs a CUDA GPU")
def test_gpu_consumed_array_is_bound_to_the_exporters_stream():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        s = cuda.stream()
        c = cuda.as_cuda_array(_Foreign(cuda.device_array(10, stream=s)))
        assert c.stream.external and int(c.stream) == s.handle
        assert cuda.as_cuda_array(_Foreign(cuda.device_array(10))).stream == 0
        import pickle
        r = cuda.to_device(np.arange(5.0))[::-1]
        np.testing.assert_array_equal(pickle.loads(pickle.dumps(r)).copy_to_host(), np.arange(5.0)[::-1])
    finally:
        _core.set_simulator(previous)


@pytest.mark.gpu
@pytest.mark.skipif(not _core.gpu_available(), reason="needs a CUDA GPU")
def test_gpu_fork_after_cuda_is_refused_as_numba_cuda_does():
    import concurrent.futures
    import multiprocessing as mp
    from cujit.errors import CudaDriverError
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        cuda.to_device(np.arange(1))  # CUDA is initialised in this process
        with concurrent.futures.ProcessPoolExecutor(mp_context=mp.get_context("fork")) as exe:
            future = exe.submit(cuda.to_device, np.arange(1))
        with pytest.raises(CudaDriverError, match="^CUDA initialized before forking$"):
            future.result()
    finally:
        _core.set_simulator(previous)


def test_memory_pointer_views_count_on_their_owner(target):
    m = cuda.current_context().memalloc(1024)
    for offset in (0, 1):
        v1 = m.view(offset)
        assert v1.owner is m and m.refct == 2 and int(v1.handle) - offset == int(m.handle)
        v2 = v1.view(offset)
        assert v2.owner is m and m.refct == 3 and int(v2.handle) - 2 * offset == int(m.handle)
        del v2
        assert m.refct == 2
        del v1
        assert m.refct == 1


def test_active_context_and_ipc_say_what_they_are(target):
    with driver.driver.get_active_context() as ac:
        if target == "sim":
            assert ac.context_handle is None
        else:
            assert ac.context_handle == cuda.current_context().handle
    with pytest.raises(NotImplementedError, match=r"^cujit does not support CUDA IPC \(DeviceNDArray.get_ipc_handle\) yet$"):
        cuda.device_array(2).get_ipc_handle()


@pytest.mark.gpu
@pytest.mark.skipif(not _core.gpu_available(), reason="needs a CUDA GPU")
def test_gpu_ufunc_out_of_another_library_returns_a_device_array():
    from cujit import vectorize
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        @vectorize(["f8(f8, f8)"], target="cuda")
        def vadd(a, b):
            return a + b

        h = np.arange(10.0)
        out = _Foreign(cuda.device_array(10))
        returned = vadd(h, 6.0, out=out)
        assert isinstance(returned, cuda.DeviceNDArray)
        np.testing.assert_array_equal(returned.copy_to_host(), h + 6)
        np.testing.assert_array_equal(cuda.as_cuda_array(out).copy_to_host(), h + 6)
    finally:
        _core.set_simulator(previous)
