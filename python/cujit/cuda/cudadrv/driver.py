"""numba.cuda.cudadrv.driver: the public classes, errors and memory functions of numba-cuda's
driver module, on cujit's own runtime (src/runtime/).

``Device``, ``Context``, ``Stream``, ``Event`` and the errors are cujit's own. Device memory
objects are anything numba-cuda's functions take as such (``__cuda_memory__``): device arrays,
``MemoryPointer`` (``Context.memalloc``), mapped and managed host arrays; host memory is anything
with the buffer protocol (NumPy arrays, ctypes objects). The byte copies and memset below work on
both backends (on the simulator, "device" memory is host memory). The raw driver object
(``driver.cuXxx``) and the linker belong to Numba's Python binding of the CUDA driver, which
cujit does not have: those raise NotImplementedError when used. The memory-manager (EMM plugin)
classes are memmgr.py's.
"""
import ctypes
import weakref

import numpy as np

from ... import _core
from ...errors import CudaAPIError, CudaSupportError, CudaDriverError, LinkerError  # noqa: F401
from ..devices import Device, Context, MemoryInfo  # noqa: F401

Stream = _core.Stream
Event = _core.Event


def _raw(name):
    raise NotImplementedError("numba.cuda.cudadrv.driver.%s is part of Numba's Python binding of "
                              "the CUDA driver, which cujit does not have" % name)


class _RawDriver:
    """numba-cuda's ``driver`` object (the loaded CUDA driver library): ``get_device_count()``;
    its other members (the cuXxx functions) raise NotImplementedError."""

    def get_device_count(self):
        from ..devices import gpus
        return len(gpus)

    def cuMemGetInfo(self):
        """(free, total) bytes of the current device (the host's memory on the simulator)."""
        from ..devices import current_context
        return tuple(current_context().get_memory_info())

    def get_active_context(self):
        """numba-cuda's ``with driver.get_active_context() as ac:``: ``ac.context_handle`` is the
        thread's current CUcontext (an int; None when there is none, and on the simulator)."""
        return _ActiveContext()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        _raw("driver." + attr)

    def __repr__(self):
        return "<numba.cuda.cudadrv.driver.driver: cujit's runtime>"


class _ActiveContext:
    def __enter__(self):
        self.context_handle = None
        if not _core.simulator_enabled() and _core.gpu_available():
            self.context_handle = _core.current_cucontext() or None
        # numba-cuda's ac.devnum: the device of the active context (the thread's current device).
        self.devnum = _core.current_device_id() if self.context_handle is not None else None
        return self

    def __exit__(self, *exc):
        return False


driver = _RawDriver()


def launch_kernel(*args, **kwargs):
    _raw("launch_kernel")


def _have_nvjitlink():
    """Whether the CUDA toolkit's libnvJitLink can be loaded (next to the NVRTC cujit uses, or on
    the loader's path), as numba-cuda asks before LTO. cujit itself never links LTO-IR: lto=True
    kernels are compiled as every kernel is, the whole program in one NVRTC unit."""
    import ctypes
    import os
    names = ["libnvJitLink.so", "libnvJitLink.so.13", "libnvJitLink.so.12"]
    dirs = [""]
    try:
        from ... import _core
        path = _core.toolchain_info().get("nvrtc_path", "")
        if path:
            dirs.insert(0, os.path.dirname(path))
    except Exception:
        pass
    for d in dirs:
        for n in names:
            try:
                ctypes.CDLL(os.path.join(d, n) if d else n)
                return True
            except OSError:
                continue
    return False


class MemoryPointer:
    """numba-cuda's handle of device memory: ``Context.memalloc(n)`` gives one, and users may wrap
    a raw device address of their own (``MemoryPointer(context, pointer, size, finalizer=f)``;
    ``f`` runs when the object dies). ``size`` bytes from ``device_pointer``; ``view(start,
    stop)`` is a handle of part of it; ``memset(byte, count=None, stream=0)`` fills it."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        if isinstance(pointer, ctypes.c_void_p):
            pointer = pointer.value
        self.context = context
        self.size = self._cuda_memsize_ = int(size)
        self._ptr = int(pointer or 0)
        self.is_managed = finalizer is not None
        self.refct = 1
        self._owner = owner
        self._ary = None  # the uint8 device array of these bytes, made when first needed
        if finalizer is not None:
            self._finalizer = weakref.finalize(self, finalizer)

    @classmethod
    def _of(cls, context, ary, owner=None):
        """A handle of the bytes of the 1-d uint8 device array ``ary`` (which keeps them alive)."""
        mp = cls(context, ary._device_pointer if ary.size else 0, ary.size, owner=owner)
        mp._ary = ary
        return mp

    def _bytes(self):
        if self._ary is None:
            if self.size and _core.simulator_enabled():
                raise TypeError("a MemoryPointer made from a raw address cannot be used on the simulator, "
                                "whose device memory is host memory")
            from .. import from_cuda_array_interface
            self._ary = from_cuda_array_interface(
                {"shape": (self.size,), "typestr": "|u1", "data": (self._ptr, False), "strides": None,
                 "version": 3, "stream": None}, owner=self)
        return self._ary

    @property
    def owner(self):
        return self if self._owner is None else self._owner

    def own(self):
        return self

    def free(self):
        """Runs the finalizer now (memory from ``memalloc`` is freed when no object uses it)."""
        if self.is_managed:
            if not self._finalizer.alive:
                raise RuntimeError("Freeing dead memory")
            self._finalizer()

    def memset(self, byte, count=None, stream=0):
        device_memset(self, byte, self.size if count is None else count, stream=stream)

    def view(self, start, stop=None):
        size = self.size - start if stop is None else stop - start
        if size < 0:
            raise RuntimeError("size cannot be negative")
        if not 0 <= start <= start + size <= self.size:
            raise ValueError("view [%d, %d) is outside the %d bytes of this memory" % (start, start + size, self.size))
        owner = self.owner
        view = MemoryPointer._of(self.context, self._bytes()[start:start + size], owner=owner)
        # numba-cuda counts the views of an allocation on its owner (``refct``).
        owner.refct += 1
        weakref.finalize(view, MemoryPointer._deref, owner)
        return view

    @staticmethod
    def _deref(owner):
        owner.refct -= 1

    @property
    def handle(self):
        return self._ptr

    @property
    def device_pointer(self):
        return self._ptr

    @property
    def device_pointer_value(self):
        return self._ptr or None

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self._ptr)

    def __repr__(self):
        return "<MemoryPointer 0x%x, %d bytes>" % (self._ptr, self.size)


class AutoFreePointer(MemoryPointer):
    """numba-cuda's MemoryPointer whose finalizer runs when the object dies (what cujit's
    MemoryPointer with a finalizer does), as EMM plugins return from ``memalloc``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.refct -= 1


# ---- numba-cuda's functions on device and host memory ------------------------------------------

def is_device_memory(obj):
    """True for device memory objects (numba-cuda's ``__cuda_memory__`` attribute)."""
    try:
        return bool(obj.__cuda_memory__)
    except AttributeError:
        return False


def require_device_memory(obj):
    """numba-cuda's check (its message; a TypeError here, where numba-cuda raises Exception)."""
    if not is_device_memory(obj):
        raise TypeError("Not a CUDA memory object.")


def _device_bytes(obj):
    """The bytes of device memory object ``obj`` as a 1-d uint8 device array (same memory)."""
    from ..host_memory import _HostDeviceNDArray
    from .. import DeviceNDArray, as_cuda_array
    if isinstance(obj, (MemoryPointer, MappedMemory)):
        return obj._bytes()
    if isinstance(obj, DeviceNDArray):
        return obj._bytes()
    if isinstance(obj, _HostDeviceNDArray) and obj.__cuda_memory__:
        return obj._device_view()._bytes()
    if not isinstance(obj, np.ndarray) and hasattr(obj, "__cuda_array_interface__"):
        return as_cuda_array(obj)._bytes()
    require_device_memory(obj)
    raise TypeError("%s is device memory of a kind cujit cannot address" % type(obj).__name__)


_contiguous_msg = ("Array contains non-contiguous buffer and cannot be transferred as a single memory region. "
                   "Please ensure contiguous buffer with numpy .ascontiguousarray()")


def _host_bytes(obj, writable=False):
    """The host memory of ``obj`` (a NumPy array or any buffer) as a 1-d uint8 NumPy array."""
    if isinstance(obj, np.ndarray):
        if obj.dtype.char in "Mm":  # NumPy's buffer protocol refuses datetimes (numba-cuda's workaround)
            obj = obj.view(np.int64)
        if not (obj.flags.c_contiguous or obj.flags.f_contiguous):
            raise ValueError(_contiguous_msg)
        flat = obj.ravel(order="K").view(np.uint8)
    else:
        flat = np.frombuffer(memoryview(obj).cast("B"), dtype=np.uint8)
    if writable and not flat.flags.writeable:
        raise ValueError("the host memory to copy into is read-only")
    return flat


def _take(flat, size, what):
    size = int(size)
    if size < 0 or size > flat.size:
        raise ValueError("size %d is not within the %d bytes of the %s" % (size, flat.size, what))
    return flat[:size]


def host_to_device(dst, src, size, stream=0):
    """Copies ``size`` bytes from host memory ``src`` to device memory ``dst``."""
    _take(_device_bytes(dst), size, "destination").copy_to_device(_take(_host_bytes(src), size, "source"),
                                                                   stream=stream)


def device_to_host(dst, src, size, stream=0):
    """Copies ``size`` bytes from device memory ``src`` to host memory ``dst`` (asynchronously on
    ``stream`` when ``dst`` is pinned)."""
    _take(_device_bytes(src), size, "source").copy_to_host(_take(_host_bytes(dst, writable=True), size,
                                                                 "destination"), stream=stream)


def device_to_device(dst, src, size, stream=0):
    """Copies ``size`` bytes from device memory ``src`` to device memory ``dst``."""
    _take(_device_bytes(dst), size, "destination").copy_to_device(_take(_device_bytes(src), size, "source"),
                                                                   stream=stream)


def device_memset(dst, val, size, stream=0):
    """Sets ``size`` bytes of device memory ``dst`` to the byte ``val``."""
    _take(_device_bytes(dst), size, "destination")._memset(int(val), stream=stream)


def device_memory_size(devmem):
    """The bytes of device memory object ``devmem``."""
    sz = getattr(devmem, "_cuda_memsize_", None)
    if sz is None:
        sz = _device_bytes(devmem).size
    return sz


def device_extents(devmem):
    """(start, end) device addresses of the memory of ``devmem``."""
    b = _device_bytes(devmem)
    start = b._device_pointer if b.size else 0
    return start, start + b.size


def device_pointer(obj):
    "The device address of ``obj`` as an int."
    return device_ctypes_pointer(obj).value


def device_ctypes_pointer(obj):
    "The device address of ``obj`` as a ctypes object (c_void_p(0) for None)."
    if obj is None:
        return ctypes.c_void_p(0)
    require_device_memory(obj)
    return obj.device_ctypes_pointer


def get_devptr_for_active_ctx(ptr):
    """The device address of ``ptr`` in the current context: the same address (unified addressing)."""
    return int(ptr)


def host_pointer(obj, readonly=False):
    "The host address of ``obj`` (an int is taken as an address)."
    if isinstance(obj, int):
        return obj
    return host_memory_extents(obj)[0]


def host_memory_extents(obj):
    "(start, end) host addresses of the memory of ``obj`` (half open)."
    if isinstance(obj, np.ndarray):
        if obj.dtype.char in "Mm":
            obj = obj.view(np.int64)
        ptr = obj.__array_interface__["data"][0]
        lo, hi = 0, obj.itemsize
        for d, st in zip(obj.shape, obj.strides):
            if d == 0:
                return ptr, ptr
            if st < 0:
                lo += (d - 1) * st
            else:
                hi += (d - 1) * st
        return ptr + lo, ptr + hi
    flat = _host_bytes(obj)
    ptr = flat.__array_interface__["data"][0]
    return ptr, ptr + flat.size


def host_memory_size(obj):
    "The bytes of host memory ``obj`` spans."
    s, e = host_memory_extents(obj)
    return e - s


def memory_size_from_info(shape, strides, itemsize):
    """The bytes an array of this shape, strides and itemsize spans."""
    if any(d == 0 for d in shape):
        return 0
    lo, hi = 0, itemsize
    for d, st in zip(shape, strides):
        if st < 0:
            lo += (d - 1) * st
        else:
            hi += (d - 1) * st
    return hi - lo


def get_active_context():
    from ..devices import current_context
    return current_context()


class _RawClass:
    def __init__(self, *args, **kwargs):
        _raw(type(self).__name__)


class PinnedMemory:
    """Host memory page-locked by ``Context.mempin`` (numba-cuda's class): unlocked when this
    object dies. ``host_pointer``, ``size``, ``handle``, ``owned`` (the owner kept alive)."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        raise TypeError("cujit makes %s objects through Context.mempin only" % type(self).__name__)

    @classmethod
    def _make(cls, context, owner, buf, reg):
        self = object.__new__(cls)
        self.context = context
        self.owned = owner
        self.host_pointer = self.handle = buf.__array_interface__["data"][0]
        self.size = self._cuda_memsize_ = buf.size
        self._buf, self._reg = buf, reg
        return self

    def own(self):
        return self

    def free(self):
        """Unlocks the memory now."""
        self._reg.release()


class MappedMemory(PinnedMemory):
    """Host memory page-locked and mapped by ``Context.mempin(..., mapped=True)``: also device
    memory (``device_pointer``, ``device_ctypes_pointer``)."""

    __cuda_memory__ = True

    def _bytes(self):
        return _core.mapped_device_array(self._buf, self._reg)._bytes()

    @property
    def device_pointer(self):
        return self._reg.device_ptr

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self._reg.device_ptr)


def _pin(context, owner, pointer, size, mapped):
    size = int(size)
    if size < 0:
        raise ValueError("mempin: size must not be negative, got %d" % size)
    buf = np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(int(pointer))) if size else np.empty(0, np.uint8)
    reg = _core.host_register(buf, mapped=bool(mapped))
    return (MappedMemory if mapped else PinnedMemory)._make(context, owner, buf, reg)


class IpcHandle(_RawClass):
    pass


class Linker(_RawClass):
    pass


class _Linker(_RawClass):
    pass


from .memmgr import (BaseCUDAMemoryManager, HostOnlyCUDAMemoryManager, GetIpcHandleMixin,  # noqa: E402,F401
                     set_memory_manager, _PendingDeallocs, _SizeNotSet)
