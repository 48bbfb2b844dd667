"""numba.cuda.cudadrv.driver: the public classes and errors of numba-cuda's driver module.

``Device``, ``Context``, ``Stream``, ``Event`` and the errors are cujit's own. The raw driver
(``driver``, ``cuMem*``, memory pointers, host_to_device on raw memory, the linker) belongs to
Numba's Python binding of the CUDA driver, which cujit does not have: those names exist and raise
NotImplementedError when used.
"""
from ... import _core
from ...errors import CudaAPIError, CudaSupportError, CudaDriverError, LinkerError  # noqa: F401
from ..devices import Device, Context, MemoryInfo  # noqa: F401

Stream = _core.Stream
Event = _core.Event


def _raw(name):
    raise NotImplementedError("numba.cuda.cudadrv.driver.%s is part of Numba's Python binding of "
                              "the CUDA driver, which cujit does not have" % name)


class _RawDriver:
    """numba-cuda's ``driver`` object (the loaded CUDA driver library)."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        _raw("driver." + attr)

    def __repr__(self):
        return "<numba.cuda.cudadrv.driver.driver: not available in cujit>"


driver = _RawDriver()


def _make(name):
    def f(*args, **kwargs):
        _raw(name)
    f.__name__ = name
    return f


for _n in ("host_to_device", "device_to_host", "device_to_device", "device_memset", "host_memory_size",
           "host_memory_extents", "device_memory_size", "device_pointer", "device_ctypes_pointer",
           "is_device_memory", "require_device_memory", "get_devptr_for_active_ctx", "memory_size_from_info",
           "get_active_context", "launch_kernel"):
    globals()[_n] = _make(_n)
del _n


def _have_nvjitlink():
    """Whether nvJitLink can link LTO-IR into kernels: cujit does not link user code."""
    return False


class _RawClass:
    def __init__(self, *args, **kwargs):
        _raw(type(self).__name__)


class MemoryPointer(_RawClass):
    pass


class MappedMemory(_RawClass):
    pass


class PinnedMemory(_RawClass):
    pass


class IpcHandle(_RawClass):
    pass


class Linker(_RawClass):
    pass


class _Linker(_RawClass):
    pass


class BaseCUDAMemoryManager(_RawClass):
    pass


class HostOnlyCUDAMemoryManager(BaseCUDAMemoryManager):
    pass


class GetIpcHandleMixin:
    pass
