"""Devices and contexts, as in ``numba.cuda``: ``detect``, ``list_devices``, ``gpus``,
``select_device``, ``get_current_device``, ``current_context``, ``close``.

cujit uses one GPU per process, through its primary context (src/runtime/driver.h): any device may
be selected before the GPU is first used, the one in use may be selected again, and selecting
another afterwards raises CudaSupportError. On the simulator there is one simulated device, named
"SIMULATOR", with Numba's simulator's compute capability (5, 2); its memory info is the host's.
"""

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
            self.uuid = _SIMULATOR_UUID
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
        select_device(self.id)
        return self

    def __exit__(self, *exc):
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
    numba-cuda's ``memory_manager`` (an EMM plugin, or cujit's own: driver.py) and
    ``deallocations`` (its pending-deallocation queue)."""

    def __new__(cls, device):
        key = (device.id, device._simulator)
        ctx = _contexts.get(key)
        if ctx is None:
            ctx = _contexts[key] = super().__new__(cls)
            ctx.device = device
            from .cudadrv.memmgr import _PendingDeallocs, _new_memory_manager
            ctx.deallocations = _PendingDeallocs()
            ctx.memory_manager = _new_memory_manager(ctx)
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
        return 0 if self.device._simulator else _core.context_handle()

    def get_memory_info(self):
        """``(free, total)`` bytes, from the memory manager (an EMM plugin may answer)."""
        return self.memory_manager.get_memory_info()

    def _cujit_memory_info(self):
        return _MemoryInfo(*_core.memory_info(self.device._simulator))

    def synchronize(self):
        if not self.device._simulator:
            _core.synchronize()

    # numba-cuda's allocation methods (numba.cuda.cudadrv.driver.Context): through the memory
    # manager, as there. cujit's own manager (driver.py) calls the _cujit_ methods below.
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
        return _core.stream()

    def create_event(self, timing=True):
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
        """numba-cuda frees what the context holds; cujit keeps one primary context for the
        process and its arrays stay valid, so this resets the memory manager (an EMM plugin's
        ``reset()``), flushes the pending deallocations and does what ``cuda.close()`` does:
        waits for pending work and gives the memory pool's cached memory back to the device."""
        self.memory_manager.reset()
        self.deallocations.clear()
        if not self.device._simulator and _core.gpu_available():
            _core.release_cached_memory()

    def __repr__(self):
        return "<CUDA context of %r>" % (self.device,)


_contexts = {}  # (device id, simulator): its Context


class _DeviceList:
    """``cuda.gpus``: the devices of the current backend (len, index, iterate). On the GPU, a
    CudaSupportError is raised when no GPU is usable."""

    def __len__(self):
        return 1 if _simulating() else _core.device_count()

    def __getitem__(self, i):
        n = len(self)
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError("device indices must be integers, not %s" % type(i).__name__)
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
    """Makes ``device_id`` the device cujit uses and returns it. On the GPU, choosing a device
    other than the one already in use raises CudaSupportError (one device per process), and a
    device that does not exist ValueError. The simulator has device 0 only."""
    if isinstance(device_id, bool) or not isinstance(device_id, int):
        raise TypeError("device_id must be an int, not %s" % type(device_id).__name__)
    if _simulating():
        if device_id != 0:
            raise ValueError("the simulator has one device (0), not %d" % device_id)
        return Device(0, True)
    _core.select_device(device_id)
    return Device(device_id, False)


def get_current_device():
    "The device cujit uses (the simulated one on the simulator)."
    if _simulating():
        return Device(0, True)
    return Device(_core.current_device_id(), False)


def current_context():
    "The context of the current device (its memory manager initialised)."
    return Context(get_current_device())._prepare()


def close():
    """cujit keeps one primary context for the life of the process, so this does not destroy it:
    it waits for the GPU's pending work and gives the memory pool's cached memory back to the
    device. Arrays stay valid. A no-op on the simulator."""
    if not _simulating() and _core.gpu_available():
        _core.release_cached_memory()


def detect():
    """Prints the devices found, as Numba does, and returns True if any is supported. On the
    simulator, reports the simulated device."""
    if _simulating():
        devs = [Device(0, True)]
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
