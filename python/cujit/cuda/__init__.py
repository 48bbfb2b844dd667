"""The ``cuda`` namespace, as in ``from numba import cuda``.

Names used inside kernels (grid, threadIdx, syncthreads, ...) are compiled by the C++ core; the
Python objects here only let the globals snapshot recognise them, and say so if called from
ordinary Python.
"""

from .. import _core
from ..errors import CudaSupportError, CudaAPIError, CudaOutOfMemoryError, CudaContextLostError, KernelIndexError
from .dispatcher import jit, Dispatcher, DeviceFunction
from .devices import (detect, list_devices, gpus, select_device, get_current_device, current_context,
                      close, Device, Context)
from .host_memory import (pinned_array, pinned_array_like, mapped_array, mapped_array_like, pinned, mapped,
                          MappedNDArray, ManagedNDArray, managed_array)
from . import random
from .reduce import Reduce, reduce
from .. import types, config
from ..types import (void, boolean, bool_, b1, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                     float16, float32, float64, f2, f4, f8, i1, i2, i4, i8, u1, u2, u4, u8, intp, uintp,
                     intc, uintc, int_, byte, char, uchar, short, ushort, uint, long_, ulong, longlong,
                     ulonglong, size_t, ssize_t, double, bfloat16, complex64, complex128, c8, c16,
                     from_dtype)
from .compiler import (compile, compile_all, compile_ptx, compile_for_current_device, compile_ptx_for_current_device,
                       declare_device)
from .compat import (HAS_NUMBA, external_stream, from_cuda_array_interface, defer_cleanup,
                     open_ipc_array, profile_start, profile_stop, cuda_error, profiling, set_memory_manager,
                     In, Out, InOut, LinkableCode, CUSource, PTXSource, Cubin, Fatbin, Object, Archive, LTOIR,
                     is_float16_supported, is_bfloat16_supported, is_fp8_supported, is_supported_version,
                     literal_unroll)
from . import compiler, cudadrv, kernels, core, np, typing, misc, utils, args, launchconfig, vector_types
from .cudadrv import driver, devicearray
from .cudadrv.devices import require_context

DeviceNDArray = _core.DeviceNDArray


def _get_ipc_handle(self):
    """numba-cuda's IPC handle of the array's memory, for another process."""
    raise NotImplementedError("cujit does not support CUDA IPC (DeviceNDArray.get_ipc_handle) yet")


DeviceNDArray.get_ipc_handle = _get_ipc_handle
from .cudadrv.memmgr import (BaseCUDAMemoryManager, HostOnlyCUDAMemoryManager, GetIpcHandleMixin,  # noqa: E402
                             plugin_in_use as _plugin_in_use, plugin_device_array as _plugin_device_array)
from .devices import MemoryInfo  # noqa: E402
from .cudadrv.driver import MemoryPointer  # noqa: E402,F401


# With an EMM plugin as the current context's memory manager (cudadrv/memmgr.py), new device
# arrays take their memory from it; otherwise these are cujit's own functions.
def to_device(obj, stream=0, copy=True, to=None):
    """Copies a NumPy array (or anything np.asarray accepts) to a new device array on the current
    backend, keeping C or F order. A device array is returned as it is; with to=, copies into it."""
    if to is not None or _plugin_in_use() is None or isinstance(obj, DeviceNDArray):
        return _core.to_device(obj, stream=stream, copy=copy, to=to)
    import numpy as _np
    host = _np.asarray(obj)
    order = "F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C"
    ary = _plugin_device_array(host.shape, host.dtype, None, order, stream)
    if copy:
        ary.copy_to_device(host, stream=stream)
    return ary


def device_array(shape, dtype=float, strides=None, order="C", stream=0):
    """A new, uninitialised device array on the current backend."""
    if _plugin_in_use() is None:
        return _core.device_array(shape, dtype=dtype, strides=strides, order=order, stream=stream)
    return _plugin_device_array(shape, dtype, strides, order, stream)


def device_array_like(ary, stream=0):
    """A new, uninitialised device array of ary's shape, dtype and order."""
    if _plugin_in_use() is None:
        return _core.device_array_like(ary, stream=stream)
    order = "F" if ary.flags["F_CONTIGUOUS"] and not ary.flags["C_CONTIGUOUS"] else "C"
    return _plugin_device_array(ary.shape, ary.dtype, None, order, stream)


as_cuda_array = _core.as_cuda_array
from_dlpack = _core.from_dlpack

# Streams and events (src/runtime/stream.h): made on the backend current at the call.
Stream = _core.Stream
Event = _core.Event
stream = _core.stream
default_stream = _core.default_stream
legacy_default_stream = _core.legacy_default_stream
per_thread_default_stream = _core.per_thread_default_stream
event = _core.event
event_elapsed_time = _core.event_elapsed_time


def is_available():
    """True when kernels can run: on the simulator (as numba-cuda's simulator answers), or when
    a CUDA GPU and driver can be used. ``simulator_enabled()`` tells the two apart."""
    return _core.simulator_enabled() or _core.gpu_available()


def vectorize(ftylist_or_function=(), target="cuda", **kws):
    """numba-cuda's ``cuda.vectorize``: ``vectorize`` with the CUDA target."""
    from ..ufunc import vectorize as _vectorize
    if target != "cuda":
        raise ValueError("cuda.vectorize compiles for the 'cuda' target only, not %r" % (target,))
    if callable(ftylist_or_function):
        raise TypeError("cuda.vectorize needs explicit signatures, as in "
                        "@cuda.vectorize(['float32(float32, float32)'])")
    sigs = ftylist_or_function
    # One signature (a string or a type object) is a list of one: list() of a string made each
    # character a signature ("bad type signature 'i'").
    sigs = [sigs] if isinstance(sigs, str) or not isinstance(sigs, (list, tuple)) else list(sigs)
    return _vectorize(sigs or None, target="cuda", **kws)


def guvectorize(*args, **kwargs):
    """numba-cuda's ``cuda.guvectorize``: ``guvectorize`` with the CUDA target."""
    from ..gufunc import guvectorize as _guvectorize
    if kwargs.setdefault("target", "cuda") != "cuda":
        raise ValueError("cuda.guvectorize compiles for the 'cuda' target only, not %r"
                         % (kwargs["target"],))
    return _guvectorize(*args, **kwargs)


def simulator_enabled():
    """True when kernels and ufuncs run on the CPU simulator (CUJIT_ENABLE_CUDASIM=1)."""
    return _core.simulator_enabled()


def enable_simulator(on=True):
    """Run kernels and CUDA ufuncs on the CPU simulator from now on (or, with False, on the GPU):
    what CUJIT_ENABLE_CUDASIM=1 does at import, for a notebook that finds no GPU. Device arrays
    made before belong to the backend they were made on."""
    _core.set_simulator(bool(on))


def synchronize():
    """Waits for all work on the GPU to finish."""
    _core._fusion_flush()  # deferred CUDA ufunc calls run first, on the simulator too
    if not _core.simulator_enabled():
        _core.synchronize()


def is_cuda_array(obj):
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


class _KernelOnly:
    """A name that exists only inside compiled GPU code."""

    def __init__(self, name):
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError("cuda.%s() can only be used inside a @cuda.jit kernel or device "
                           "function" % self.__name__)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise RuntimeError("cuda.%s.%s can only be used inside a @cuda.jit kernel or device "
                           "function" % (self.__name__, attr))

    def __repr__(self):
        return "<cuda.%s (GPU code only)>" % self.__name__


class _KernelNamespace(_KernelOnly):
    """cuda.atomic, cuda.local, ...: their functions exist at module level as values (numba-cuda's
    stubs), so `op = cuda.atomic.add` can be bound there and passed to GPU code; calling one from
    Python raises."""

    def __init__(self, name, members):
        super().__init__(name)
        self._members = {m: _KernelOnly(name + "." + m) for m in members}

    def __getattr__(self, attr):
        if attr.startswith("__") or attr == "_members":
            raise AttributeError(attr)
        if attr in self._members:
            return self._members[attr]
        raise AttributeError("module 'cuda.%s' has no attribute '%s'" % (self.__name__, attr))


grid = _KernelOnly("grid")
gridsize = _KernelOnly("gridsize")
syncthreads = _KernelOnly("syncthreads")
threadIdx = _KernelOnly("threadIdx")
blockIdx = _KernelOnly("blockIdx")
blockDim = _KernelOnly("blockDim")
gridDim = _KernelOnly("gridDim")
laneid = _KernelOnly("laneid")
warpsize = 32
syncthreads_count = _KernelOnly("syncthreads_count")
syncthreads_and = _KernelOnly("syncthreads_and")
syncthreads_or = _KernelOnly("syncthreads_or")
syncwarp = _KernelOnly("syncwarp")
threadfence = _KernelOnly("threadfence")
threadfence_block = _KernelOnly("threadfence_block")
threadfence_system = _KernelOnly("threadfence_system")
shfl_sync = _KernelOnly("shfl_sync")
shfl_up_sync = _KernelOnly("shfl_up_sync")
shfl_down_sync = _KernelOnly("shfl_down_sync")
shfl_xor_sync = _KernelOnly("shfl_xor_sync")
all_sync = _KernelOnly("all_sync")
any_sync = _KernelOnly("any_sync")
eq_sync = _KernelOnly("eq_sync")
ballot_sync = _KernelOnly("ballot_sync")
match_any_sync = _KernelOnly("match_any_sync")
activemask = _KernelOnly("activemask")
lanemask_lt = _KernelOnly("lanemask_lt")
popc = _KernelOnly("popc")
brev = _KernelOnly("brev")
clz = _KernelOnly("clz")
ffs = _KernelOnly("ffs")
fma = _KernelOnly("fma")
cbrt = _KernelOnly("cbrt")
const = _KernelNamespace("const", ["array_like"])
local = _KernelNamespace("local", ["array"])
shared = _KernelNamespace("shared", ["array"])
atomic = _KernelNamespace("atomic", ["add", "sub", "max", "min", "nanmax", "nanmin", "inc", "dec", "and_",
                                     "or_", "xor", "exch", "cas", "compare_and_swap"])
# numba.cuda.libdevice: a module of functions (its own placeholders, which raise from Python).
from . import libdevice, libdevicefuncs  # noqa: E402,F401
# Also GPU code only; whether cujit's compiler knows them is its business (it names the ones it
# does not when a kernel uses them).
cg = _KernelOnly("cg")
from . import fp16  # noqa: E402,F401  (cuda.fp16.hadd & co.: GPU code only)
from . import bf16  # noqa: E402,F401  (names only: bfloat16 is not supported yet)
match_all_sync = _KernelOnly("match_all_sync")
selp = _KernelOnly("selp")
nanosleep = _KernelOnly("nanosleep")
# The cache-hint loads and stores (numba-cuda 0.30).
ldca = _KernelOnly("ldca")
ldcg = _KernelOnly("ldcg")
ldcs = _KernelOnly("ldcs")
ldlu = _KernelOnly("ldlu")
ldcv = _KernelOnly("ldcv")
stcg = _KernelOnly("stcg")
stcs = _KernelOnly("stcs")
stwb = _KernelOnly("stwb")
stwt = _KernelOnly("stwt")
