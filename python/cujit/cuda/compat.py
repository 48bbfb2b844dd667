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
    _refuse("the CUDA profiler API (cuda.profile_start)")


def profile_stop():
    _refuse("the CUDA profiler API (cuda.profile_stop)")


@contextlib.contextmanager
def profiling():
    _refuse("the CUDA profiler API (cuda.profiling)")
    yield


def set_memory_manager(mm_plugin):
    _refuse("external memory manager plugins (cuda.set_memory_manager)")


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
    timing-critical code. cujit's frees are ordered on the stream and never synchronize, so there
    is nothing to hold back: the block runs as is."""
    yield


class _ArgHint:
    """numba-cuda's In/Out/InOut kernel-argument wrappers (copy a host array one way only)."""

    def __init__(self, value):
        self.value = value
        raise NotImplementedError("cuda.%s(): cujit does not support kernel argument copy hints yet; "
                                  "pass the array itself (a host array is copied in and back) or a "
                                  "device array" % type(self).__name__)


class In(_ArgHint):
    pass


class Out(_ArgHint):
    pass


class InOut(_ArgHint):
    pass


class LinkableCode:
    """Code to link into kernels (numba-cuda's ``link=``): cujit does not link user code, so
    making one raises NotImplementedError."""

    kind = "linkable code"

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None):
        _refuse("linking %s into kernels (cuda.%s)" % (self.kind, type(self).__name__))

    @classmethod
    def from_path(cls, path):
        return cls(None, name=path)


class CUSource(LinkableCode):
    kind = "CUDA C++ source"


class PTXSource(LinkableCode):
    kind = "PTX"


class Cubin(LinkableCode):
    kind = "cubins"


class Fatbin(LinkableCode):
    kind = "fatbins"


class Object(LinkableCode):
    kind = "object files"


class Archive(LinkableCode):
    kind = "archives"


class LTOIR(LinkableCode):
    kind = "LTO-IR"


def is_float16_supported():
    """numba-cuda's answer on every device and on its simulator: True ("float16 is always
    supported"). Whether cujit's compiler takes a float16 operation, it says when compiling."""
    return True


def is_bfloat16_supported():
    return False


def is_fp8_supported():
    return False


def is_supported_version():
    return True
