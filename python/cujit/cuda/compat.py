"""The rest of numba-cuda's public ``numba.cuda`` names: what cujit can do is done here; what it
cannot exists and raises NotImplementedError naming the feature when used (never something
else in its place).
"""
import contextlib

import numpy as np

from .. import _core

# numba-cuda says whether the CPU Numba is installed beside it; cujit has @jit/@njit itself.
HAS_NUMBA = True


def literal_unroll(container):
    """In compiled code, Numba unrolls a loop over a heterogeneous tuple with it; called from
    Python it returns its argument, as Numba's does. (cujit's compiler says whether it knows it.)"""
    return container


def _refuse(feature):
    raise NotImplementedError("cujit does not support %s yet" % feature)


def external_stream(ptr):
    """A cujit stream for a CUstream handle made by another library (the caller keeps it alive).
    The simulator has none: RuntimeError, as numba-cuda's simulator."""
    if _core.simulator_enabled():
        raise RuntimeError("External streams are unsupported in the simulator")
    return _core.external_stream(ptr)


def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    _refuse("CUDA IPC (cuda.open_ipc_array)")


def profile_start():
    """Starts profile collection in the current context (cuProfilerStart: what a profiler such
    as Nsight Systems started with capture on cudaProfilerApi collects). The simulator has no
    profiler: nothing happens there."""
    if not _core.simulator_enabled():
        _core.profile(True)


def profile_stop():
    """Stops profile collection in the current context (cuProfilerStop)."""
    if not _core.simulator_enabled():
        _core.profile(False)


@contextlib.contextmanager
def profiling():
    """Profiles the block: ``profile_start()`` on entry, ``profile_stop()`` on exit."""
    profile_start()
    yield
    profile_stop()


def cuda_error():
    """None when the CUDA driver initialised (or on the simulator), else a string saying why it
    did not (numba-cuda's)."""
    if _core.simulator_enabled() or _core.gpu_available():
        return None
    try:
        _core.device_count()
    except Exception as e:  # noqa: BLE001 - the reason is the answer
        return str(e)
    return None


def set_memory_manager(mm_plugin):
    """numba-cuda's EMM plugin hook (cudadrv/memmgr.py says what a plugin allocates)."""
    from .cudadrv.memmgr import set_memory_manager as _set
    _set(mm_plugin)


class _InterfaceHolder:
    def __init__(self, desc, owner):
        self.__cuda_array_interface__ = desc
        self.owner = owner


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A device array viewing the memory a ``__cuda_array_interface__`` dict describes (no copy);
    ``owner`` is kept alive with it."""
    return _core.as_cuda_array(_InterfaceHolder(desc, owner), sync=sync)


@contextlib.contextmanager
def defer_cleanup():
    """numba-cuda holds back device frees inside this block so that they cannot synchronize in
    timing-critical code. cujit's own frees are ordered on the stream and never synchronize, so
    they are not held back; the pending-deallocation queues (the context's and its memory
    manager's, which an EMM plugin may use) are, as in numba-cuda."""
    from .devices import current_context
    from ..errors import CudaSupportError
    try:
        ctx = current_context()
    except CudaSupportError:  # no GPU (and not simulating): no context, so nothing is queued
        yield
        return
    with ctx.deallocations.disable(), ctx.memory_manager.defer_cleanup():
        yield


# numba-cuda's In/Out/InOut kernel-argument wrappers (copy a host array one way only).
from .args import In, Out, InOut  # noqa: E402,F401


class LinkableCode:
    """Code to link into kernels (numba-cuda's ``link=``), given as its bytes (or text) and a name
    for messages. cujit puts CUDA C++ sources into the kernel's own program (GPU and simulator);
    the other kinds are linked by the driver's linker on the GPU only."""

    kind = "linkable code"
    kind_key = None

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None):
        if setup_callback is not None or teardown_callback is not None:
            _refuse("setup and teardown callbacks of linkable code")
        if isinstance(data, str):
            data = data.encode()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("%s takes the code as bytes or str, got %r" % (type(self).__name__, type(data).__name__))
        self.data = bytes(data)
        self._name = name

    @property
    def name(self):
        return self._name or "<unnamed-%s>" % self.kind_key

    @classmethod
    def from_path(cls, path):
        with open(path, "rb") as f:
            return cls(f.read(), name=path)


class CUSource(LinkableCode):
    kind = "CUDA C++ source"
    kind_key = "cu"


class PTXSource(LinkableCode):
    kind = "PTX"
    kind_key = "ptx"


class Cubin(LinkableCode):
    kind = "cubins"
    kind_key = "cubin"


class Fatbin(LinkableCode):
    kind = "fatbins"
    kind_key = "fatbin"


class Object(LinkableCode):
    kind = "object files"
    kind_key = "object"


class Archive(LinkableCode):
    kind = "archives"
    kind_key = "archive"


class LTOIR(LinkableCode):
    kind = "LTO-IR"
    kind_key = "ltoir"


def is_float16_supported():
    """True, as numba-cuda answers on every device and on its simulator: cujit compiles float16
    (cuda.fp16, float16 scalars and arrays) for the GPU (sm_53 and newer), the simulator and the
    CPU."""
    return True


def is_bfloat16_supported():
    """False: cujit has no bfloat16 yet (numba.cuda.bf16's names import and refuse when used), so
    code that asks, as numba-cuda's tests do, takes its other path."""
    return False


def is_fp8_supported():
    return False


def is_supported_version():
    return True
