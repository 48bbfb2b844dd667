"""numba-cuda's External Memory Management (EMM) plugin interface, on cujit's runtime.

Each context has a memory manager (``Context.memory_manager``). cujit's own (``_CujitMemoryManager``)
allocates from cujit's stream-ordered pool and frees device memory as soon as the last array
using it dies (the free is queued on the allocation's stream, so it never waits): its
``deallocations`` queue is numba-cuda's object, and stays empty for cujit's own memory.

A plugin (``cuda.set_memory_manager(cls)``, or an instance assigned to ``Context.memory_manager``)
is asked for device memory by ``Context.memalloc``, ``cuda.device_array``,
``cuda.device_array_like`` and ``cuda.to_device`` on the GPU; its ``get_memory_info()`` answers
``Context.get_memory_info()`` and its ``reset()`` is called by ``Context.reset()``. cujit's own
temporaries (host arrays passed to kernels and ufuncs, ufunc results) still come from cujit's
pool, and the simulator's device memory is host memory, so the simulator never asks a plugin.
"""
import contextlib
from abc import ABCMeta, abstractmethod
from collections import deque

from ... import _core, config
from ..devices import MemoryInfo

_SUPPORTED_EMM_INTERFACE_VERSION = 1


class _SizeNotSet(int):
    """numba-cuda's marker of a pending deallocation of unknown size."""

    def __new__(cls, *args, **kwargs):
        return super().__new__(cls, 0)

    def __str__(self):
        return "?"


_SizeNotSet = _SizeNotSet()


class _PendingDeallocs:
    """numba-cuda's queue of pending deallocations (``Context.deallocations``,
    ``memory_manager.deallocations``): ``add_item(dtor, handle, size)`` queues ``dtor(handle)``,
    run by ``clear()`` (unless inside ``disable()``, which ``cuda.defer_cleanup()`` enters) or
    when more than ``config.CUDA_DEALLOCS_COUNT`` items or ``CUDA_DEALLOCS_RATIO`` of the
    memory capacity are pending."""

    def __init__(self, capacity=_SizeNotSet):
        self._cons = deque()
        self._disable_count = 0
        self._size = 0
        self.memory_capacity = capacity

    @property
    def _max_pending_bytes(self):
        return int(self.memory_capacity * config.CUDA_DEALLOCS_RATIO)

    def add_item(self, dtor, handle, size=_SizeNotSet):
        self._cons.append((dtor, handle, size))
        self._size += int(size)
        if len(self._cons) > config.CUDA_DEALLOCS_COUNT or self._size > self._max_pending_bytes:
            self.clear()

    def clear(self):
        if not self.is_disabled:
            while self._cons:
                dtor, handle, _ = self._cons.popleft()
                dtor(handle)
            self._size = 0

    @contextlib.contextmanager
    def disable(self):
        self._disable_count += 1
        try:
            yield
        finally:
            self._disable_count -= 1
            assert self._disable_count >= 0

    @property
    def is_disabled(self):
        return self._disable_count > 0

    def __len__(self):
        return len(self._cons)


class BaseCUDAMemoryManager(metaclass=ABCMeta):
    """numba-cuda's abstract base class of EMM plugins: made with ``context=`` (the Context)."""

    def __init__(self, *args, **kwargs):
        if "context" not in kwargs:
            raise RuntimeError("Memory manager requires a context")
        self.context = kwargs.pop("context")

    @abstractmethod
    def memalloc(self, size):
        """``size`` bytes of device memory: a ``MemoryPointer`` that owns them."""

    @abstractmethod
    def memhostalloc(self, size, mapped, portable, wc):
        """``size`` bytes of page-locked host memory."""

    @abstractmethod
    def mempin(self, owner, pointer, size, mapped):
        """Page-locks existing host memory."""

    @abstractmethod
    def initialize(self):
        """Called before the context first uses the manager."""

    @abstractmethod
    def get_ipc_handle(self, memory):
        """An IPC handle of a device allocation."""

    @abstractmethod
    def get_memory_info(self):
        """``(free, total)`` bytes, a ``MemoryInfo``."""

    @abstractmethod
    def reset(self):
        """Frees everything allocated in the context."""

    @abstractmethod
    def defer_cleanup(self):
        """A context manager that holds back cleanup while it is active."""

    @property
    @abstractmethod
    def interface_version(self):
        """The EMM interface version the plugin implements (1)."""


class HostOnlyCUDAMemoryManager(BaseCUDAMemoryManager):
    """numba-cuda's base class of plugins that allocate device memory only: host memory (pinned,
    mapped, managed, ``mempin``) comes from cujit. ``reset`` and ``defer_cleanup`` manage the
    ``deallocations`` queue; plugins overriding them call ``super()``'s."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.allocations = {}
        self.deallocations = _PendingDeallocs()

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        return self.context._cujit_memhostalloc(size, mapped=mapped, portable=portable, wc=wc)

    def mempin(self, owner, pointer, size, mapped=False):
        return self.context._cujit_mempin(owner, pointer, size, mapped=mapped)

    def memallocmanaged(self, size, attach_global=True):
        return self.context._cujit_memallocmanaged(size, attach_global=attach_global)

    def reset(self):
        self.allocations.clear()
        self.deallocations.clear()

    @contextlib.contextmanager
    def defer_cleanup(self):
        with self.deallocations.disable():
            yield


class GetIpcHandleMixin:
    """numba-cuda's default ``get_ipc_handle``: cujit has no CUDA IPC, so it raises."""

    def get_ipc_handle(self, memory):
        raise NotImplementedError("cujit does not support CUDA IPC (get_ipc_handle) yet")


class _CujitMemoryManager(GetIpcHandleMixin, HostOnlyCUDAMemoryManager):
    """cujit's own memory manager (numba-cuda's NumbaCUDAMemoryManager): device memory from
    cujit's pool, freed when its last user dies."""

    def initialize(self):
        if self.deallocations.memory_capacity == _SizeNotSet:
            self.deallocations.memory_capacity = self.get_memory_info().total

    def memalloc(self, size):
        return self.context._cujit_memalloc(size)

    def get_memory_info(self):
        return self.context._cujit_memory_info()

    @property
    def interface_version(self):
        return _SUPPORTED_EMM_INTERFACE_VERSION


_memory_manager = _CujitMemoryManager


def set_memory_manager(mm_plugin):
    """Makes contexts use the EMM plugin class ``mm_plugin`` (numba-cuda's check of its
    interface version: RuntimeError). Contexts already made keep their manager, as in
    numba-cuda, whose contexts are made once per process: set the plugin before using the GPU."""
    global _memory_manager
    dummy = mm_plugin(context=None)
    iv = dummy.interface_version
    if iv != _SUPPORTED_EMM_INTERFACE_VERSION:
        raise RuntimeError("EMM Plugin interface has version %d - version %d required"
                           % (iv, _SUPPORTED_EMM_INTERFACE_VERSION))
    _memory_manager = mm_plugin


_plugin_seen = False  # whether any context ever had a plugin: until then device arrays skip the check


def _new_memory_manager(context):
    return _memory_manager(context=context)


def _note_manager(mm):
    global _plugin_seen
    if type(mm) is not _CujitMemoryManager:
        _plugin_seen = True


def plugin_in_use():
    """The current context's memory manager when it is a plugin and device memory is the GPU's
    (device arrays are then allocated by it), else None."""
    if not _plugin_seen or _core.simulator_enabled():
        return None
    from ..devices import current_context
    mm = current_context().memory_manager
    return None if type(mm) is _CujitMemoryManager else mm


def _strides(shape, itemsize, order):
    strides, step = [0] * len(shape), itemsize
    dims = range(len(shape)) if order == "F" else reversed(range(len(shape)))
    for k in dims:
        strides[k] = step
        step *= max(shape[k], 1)
    return tuple(strides)


def plugin_device_array(shape, dtype, strides=None, order="C", stream=0):
    """A device array in memory the current context's memory manager allocates (its
    ``memalloc``; the memory is released, and the plugin's finalizer runs, when the array dies)."""
    import numbers
    import numpy as np
    from .driver import memory_size_from_info
    from ..compat import from_cuda_array_interface
    dtype = np.dtype(dtype)
    shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(int(d) for d in shape)
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F', got %r" % (order,))
    strides = _strides(shape, dtype.itemsize, order) if strides is None else tuple(int(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError("strides and shape differ in length")
    from ..devices import current_context
    mem = current_context().memalloc(memory_size_from_info(shape, strides, dtype.itemsize))
    ptr = mem.device_pointer_value or 0
    desc = {"shape": shape, "strides": strides, "typestr": dtype.str, "data": (ptr, False), "version": 3,
            "stream": None}
    ary = from_cuda_array_interface(desc, owner=mem, sync=False)
    return ary.bind(stream) if stream else ary
