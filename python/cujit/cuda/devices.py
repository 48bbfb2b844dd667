"""Devices and contexts, as in ``numba.cuda``: ``detect``, ``list_devices``, ``gpus``,
``select_device``, ``get_current_device``, ``current_context``, ``close``.

Each thread has a current device, as numba-cuda's per-thread context stack gives it: device 0
until the thread selects another (``select_device(i)``), or for the length of a ``with
cuda.gpus[i]:`` block, which puts the previous one back at its end. cujit uses each device's
primary context (src/runtime/driver.h). Device arrays, streams and events remember the device they
were made on: kernels and ufuncs refuse arrays of another device (ValueError), copies between
devices work (peer copies), and a stream or an event follows CUDA's rules across devices
(runtime/stream.h).

The simulator has one device, named "SIMULATOR", with Numba's simulator's compute capability
(5, 2), or ``CUJIT_SIM_DEVICES`` of them, so code written for several GPUs is tested without
them: simulated devices keep the same rules (an array of device 1 refused by a launch on device 0,
...). Their memory info is the host's.
"""

import threading
from collections import namedtuple

from .. import _core

# Numba's name and fields (numba.cuda.cudadrv.driver._MemoryInfo).
_MemoryInfo = namedtuple("_MemoryInfo", "free,total")
MemoryInfo = _MemoryInfo

_SIMULATOR_CC = (5, 2)
_SIMULATOR_UUID = "GPU-00000000-0000-0000-0000-000000000000"


def _simulating():
    return _core.simulator_enabled()


class Device:
    """A CUDA device (or the simulated one). ``id``, ``name`` (a str), ``compute_capability`` (a
    tuple), ``uuid`` ("GPU-..."), and the CU_DEVICE_ATTRIBUTE_* values by their names
    (``MAX_THREADS_PER_BLOCK``, ``MULTIPROCESSOR_COUNT``, ``WARP_SIZE``, ...), read on first use.
    ``with device:`` selects it."""

    def __init__(self, ordinal, simulator):
        self.id = ordinal
        self._simulator = simulator
        if simulator:
            self.name = "SIMULATOR"
            self.compute_capability = _SIMULATOR_CC
            # Numba's simulator's uuid for device 0; another simulated device ends in its number.
            self.uuid = _SIMULATOR_UUID[:-len(str(ordinal))] + str(ordinal) if ordinal else _SIMULATOR_UUID
        else:
            props = _core.gpu_properties(ordinal)
            self.name = props["name"]
            self.compute_capability = tuple(props["compute_capability"])
            self.uuid = props["uuid"]

    def __getattr__(self, attr):
        # Only called for names not set in __init__: device attributes, by Numba's upper-case names.
        if not attr.isupper():
            raise AttributeError("%r object has no attribute %r" % (type(self).__name__, attr))
        value = _core.device_attribute(attr, -1 if self._simulator else self.id)
        setattr(self, attr, value)  # attributes never change for a device
        return value

    @property
    def supports_float16(self):
        return self.compute_capability >= (5, 3) or self._simulator

    @property
    def supports_bfloat16(self):
        return False  # cujit has no bfloat16 yet (cuda.is_bfloat16_supported says why)

    def get_primary_context(self):
        return Context(self)

    def __enter__(self):
        """``with cuda.gpus[i]:`` makes device i current on this thread until the block ends, then
        puts the previous device back (numba-cuda pushes and pops the device's context)."""
        prev = _core.current_device_id()
        select_device(self.id)
        _stack().append(prev)
        return self

    def __exit__(self, *exc):
        stack = _stack()
        if stack:  # empty after a cuda.close() inside the block
            _core._set_thread_device(stack.pop())
        return False

    def __repr__(self):
        return "<CUDA device %d '%s'>" % (self.id, self.name)

    def __eq__(self, other):
        return isinstance(other, Device) and (self.id, self._simulator) == (other.id, other._simulator)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.id, self._simulator))


class Context:
    """The context of a device (cujit uses the device's primary context, one ``Context`` object
    per device: state set on it stays). ``device``, ``handle`` (the CUcontext, an int; 0 on the
    simulator), ``get_memory_info()`` -> ``(free, total)`` bytes, ``synchronize()``, and
    numba-cuda's ``memory_manager`` (an EMM plugin, or cujit's own: cudadrv/memmgr.py) and
    ``deallocations`` (its pending-deallocation queue)."""

    def __new__(cls, device):
        key = (device.id, device._simulator)
        ctx = _contexts.get(key)
        if ctx is None:
            with _contexts_lock:  # two threads asking first get the same object
                ctx = _contexts.get(key)
                if ctx is None:
                    from .cudadrv.memmgr import _PendingDeallocs, _new_memory_manager
                    ctx = super().__new__(cls)
                    ctx.device = device
                    ctx.deallocations = _PendingDeallocs()
                    ctx.memory_manager = _new_memory_manager(ctx)
                    _contexts[key] = ctx
        return ctx

    @property
    def memory_manager(self):
        return self._memory_manager

    @memory_manager.setter
    def memory_manager(self, mm):
        from .cudadrv.memmgr import _note_manager
        _note_manager(mm)
        self._memory_manager = mm

    def __init__(self, device):
        pass

    def _prepare(self):
        """numba-cuda initialises a context's memory manager before the context is used (also
        one a user assigned to ``memory_manager``)."""
        mm = self.memory_manager
        if getattr(mm, "_cujit_initialized", None) is not mm:
            mm.initialize()
            try:
                mm._cujit_initialized = mm
            except AttributeError:  # a plugin with __slots__: initialised on every use then
                pass
        return self

    @property
    def handle(self):
        return 0 if self.device._simulator else _core.context_handle(self.device.id)

    def get_memory_info(self):
        """``(free, total)`` bytes, from the memory manager (an EMM plugin may answer)."""
        return self.memory_manager.get_memory_info()

    def _cujit_memory_info(self):
        with self.device:
            return _MemoryInfo(*_core.memory_info(self.device._simulator))

    def synchronize(self):
        _core._fusion_flush()  # deferred CUDA ufunc calls run first, on the simulator too
        if not self.device._simulator:
            with self.device:
                _core.synchronize()

    def can_access_peer(self, peer_device):
        """numba-cuda's question: whether the hardware lets this context's device read device
        ``peer_device``'s memory directly (cuDeviceCanAccessPeer; simulated devices share the
        host's memory: True). cujit itself never enables peer access: kernels refuse another
        device's arrays, and copies between devices work either way. A device that does not
        exist raises ValueError."""
        peer = int(peer_device)
        if self.device._simulator:
            n = len(gpus)
            if not 0 <= peer < n:
                raise ValueError("simulated CUDA device %d does not exist (%d device(s))" % (peer, n))
            return True
        return _core.can_access_peer(self.device.id, peer)

    # numba-cuda's allocation methods (numba.cuda.cudadrv.driver.Context): through the memory
    # manager, as there. cujit's own manager (cudadrv/memmgr.py) calls the _cujit_ methods below.
    def memalloc(self, bytesize):
        """``bytesize`` bytes of device memory, as a ``driver.MemoryPointer`` (the memory manager's)."""
        return self._prepare().memory_manager.memalloc(bytesize)

    def memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        return self._prepare().memory_manager.memhostalloc(bytesize, mapped=mapped, portable=portable, wc=wc)

    def memallocmanaged(self, bytesize, attach_global=True):
        return self._prepare().memory_manager.memallocmanaged(bytesize, attach_global=attach_global)

    def mempin(self, owner, pointer, size, mapped=False):
        return self._prepare().memory_manager.mempin(owner, pointer, size, mapped=mapped)

    def get_ipc_handle(self, memory):
        return self._prepare().memory_manager.get_ipc_handle(memory)

    # cujit's own allocations (what cujit's memory manager does).
    def _cujit_memalloc(self, bytesize):
        """``bytesize`` bytes of device memory, as a ``driver.MemoryPointer``."""
        import numpy as np
        from .cudadrv.driver import MemoryPointer
        with self.device:  # on this context's device, whichever is current
            return MemoryPointer._of(self, _core.device_array(int(bytesize), np.uint8))

    def _cujit_memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        """``bytesize`` bytes of page-locked host memory: a uint8 NumPy array (a buffer, as
        numba-cuda's PinnedMemory), which with ``mapped=True`` is also device memory (a
        ``MappedNDArray`` that numba.cuda.cudadrv.driver's functions and kernels take)."""
        import numpy as np
        from .host_memory import mapped_array, pinned_array
        if mapped:
            return mapped_array(int(bytesize), np.uint8, portable=portable, wc=wc)
        if portable or wc:
            # Only mapped_array passes these flags to the allocation; pinned memory rarely needs them.
            return mapped_array(int(bytesize), np.uint8, portable=portable, wc=wc).view(np.ndarray)
        return pinned_array(int(bytesize), np.uint8)

    def _cujit_memallocmanaged(self, bytesize, attach_global=True):
        """``bytesize`` bytes of managed memory: a uint8 ``ManagedNDArray``."""
        import numpy as np
        from .host_memory import managed_array
        return managed_array(int(bytesize), np.uint8, attach_global=attach_global)

    def _cujit_mempin(self, owner, pointer, size, mapped=False):
        """Page-locks the ``size`` host bytes at address ``pointer`` (memory ``owner`` keeps alive)
        until the returned ``driver.PinnedMemory`` (``driver.MappedMemory`` with ``mapped=True``,
        also device memory) dies."""
        from .cudadrv.driver import _pin
        return _pin(self, owner, pointer, size, mapped)

    def create_stream(self):
        with self.device:  # a stream belongs to this context's device
            return _core.stream()

    def create_event(self, timing=True):
        with self.device:
            return _core.event(timing)

    def get_default_stream(self):
        return _core.default_stream()

    def get_legacy_default_stream(self):
        return _core.legacy_default_stream()

    def get_per_thread_default_stream(self):
        return _core.per_thread_default_stream()

    def defer_cleanup(self):
        """numba-cuda's ``Context.defer_cleanup()``: the memory manager's context manager."""
        return self.memory_manager.defer_cleanup()

    def create_external_stream(self, ptr):
        from .compat import external_stream
        return external_stream(ptr)

    def reset(self):
        """numba-cuda frees what the context holds; cujit keeps each device's primary context for
        the process and its arrays stay valid, so this resets the memory manager (an EMM plugin's
        ``reset()``), flushes the pending deallocations, waits for pending work and gives the
        memory pools' cached memory back to the devices."""
        self.memory_manager.reset()
        self.deallocations.clear()
        if not self.device._simulator and _core.gpu_available():
            _core.release_cached_memory()

    def __repr__(self):
        return "<CUDA context of %r>" % (self.device,)


_contexts = {}  # (device id, simulator): its Context
_contexts_lock = threading.Lock()
_tls = threading.local()  # .stack: the devices that `with cuda.gpus[i]:` blocks put back at their end


def _stack():
    try:
        return _tls.stack
    except AttributeError:
        _tls.stack = []
        return _tls.stack


def _count():
    return _core.sim_device_count() if _simulating() else _core.device_count()


class _DeviceList:
    """``cuda.gpus``: the devices of the current backend (len, index, iterate). On the GPU, a
    CudaSupportError is raised when no GPU is usable."""

    def __len__(self):
        return _count()

    def __getitem__(self, i):
        n = len(self)
        if isinstance(i, slice):
            return [self[j] for j in range(n)[i]]
        if isinstance(i, bool) or not hasattr(i, "__index__"):
            raise TypeError("device indices must be integers, not %s" % type(i).__name__)
        i = i.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("device index out of range (%d device(s))" % n)
        return Device(i, _simulating())

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    @property
    def current(self):
        return get_current_device()

    def __repr__(self):
        return "[%s]" % ", ".join(repr(d) for d in self)


gpus = _DeviceList()


def list_devices():
    "All the devices of the current backend (``cuda.gpus``)."
    return gpus


def select_device(device_id):
    """Makes ``device_id`` the calling thread's current device (its primary context is made on
    the GPU) and returns it; other threads keep theirs. A device that does not exist raises
    ValueError. The simulator has ``CUJIT_SIM_DEVICES`` devices (default 1)."""
    if isinstance(device_id, bool) or not hasattr(device_id, "__index__"):
        raise TypeError("device_id must be an int, not %s" % type(device_id).__name__)
    device_id = device_id.__index__()
    if _simulating():
        _core.select_sim_device(device_id)
        return Device(device_id, True)
    _core.select_device(device_id)
    return Device(device_id, False)


def get_current_device():
    "The calling thread's current device (a simulated one on the simulator)."
    return Device(_core.current_device_id(), _simulating())


def current_context():
    "The context of the current device (its memory manager initialised)."
    return Context(get_current_device())._prepare()


def close():
    """numba-cuda's ``cuda.close()`` pops the thread's contexts (and on the main thread destroys
    them): here the thread goes back to device 0, as a thread that never selected one, and
    ``with cuda.gpus[i]:`` blocks still open put nothing back. cujit keeps each device's primary
    context for the life of the process, so arrays stay valid: it waits for the GPUs' pending
    work and gives the memory pools' cached memory back to the devices."""
    _stack().clear()
    _core._set_thread_device(0)
    if not _simulating() and _core.gpu_available():
        _core.release_cached_memory()


def detect():
    """Prints the devices found, as Numba does, and returns True if any is supported. On the
    simulator, reports the simulated device."""
    if _simulating():
        devs = list(gpus)
    else:
        if not _core.gpu_available():
            try:
                _core.device_count()  # raises CudaSupportError, whose message says why
            except Exception as e:  # noqa: BLE001 - shown to the user, not handled
                print("No CUDA GPU found: %s" % e)
            return False
        devs = list(gpus)
    print("Found %d CUDA devices" % len(devs))
    supported = 0
    for dev in devs:
        cc = dev.compute_capability
        if cc < (3, 5):
            support = "[NOT SUPPORTED: CC < 3.5]"
        else:
            support = "[SUPPORTED]"
            supported += 1
        print("id %d    %20s %40s" % (dev.id, dev.name, support))
        attrs = [("Compute Capability", "%d.%d" % cc)]
        if not dev._simulator:
            attrs += [("PCI Device ID", dev.PCI_DEVICE_ID), ("PCI Bus ID", dev.PCI_BUS_ID)]
        attrs += [("UUID", dev.uuid), ("Watchdog", "Enabled" if dev.KERNEL_EXEC_TIMEOUT else "Disabled"),
                  ("FP32/FP64 Performance Ratio", dev.SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO)]
        for key, val in attrs:
            print("%40s: %s" % (key, val))
    print("Summary:")
    print("\t%d/%d devices are supported" % (supported, len(devs)))
    return supported > 0
