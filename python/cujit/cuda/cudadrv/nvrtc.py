"""numba.cuda.cudadrv.nvrtc: the questions numba-cuda's tests ask of NVRTC (its version, the
compute capabilities it compiles for, the closest one to a device's), answered by the NVRTC cujit
loads. numba-cuda's other names here (its NVRTC wrapper class, compile) are Numba's internals:
cujit drives NVRTC from C++ (src/toolchain/nvrtc.cpp), and those names say so when used."""
from ... import _core
from ...errors import CudaSupportError


class CCSupportError(CudaSupportError):
    """A device older than anything the loaded NVRTC compiles for."""


def _get_nvrtc_version():
    """(major, minor) of the loaded NVRTC."""
    major, minor = _core.toolchain_info()["nvrtc_version"].split(".")[:2]
    return int(major), int(minor)


def get_supported_ccs():
    """The compute capabilities the loaded NVRTC compiles for, ascending: [(7, 5), (8, 0), ...]."""
    return [(a // 10, a % 10) for a in _core.nvrtc_supported_archs()]


def find_closest_arch(cc):
    """The compute capability to compile for on a device of ``cc``: ``cc`` itself when NVRTC
    supports it, else the highest supported one below it (the highest of all for a device newer
    than NVRTC). CCSupportError for a device older than all of them."""
    cc = tuple(cc)
    supported = get_supported_ccs()
    below = [c for c in supported if c <= cc]
    if not below:
        raise CCSupportError("GPU compute capability %d.%d is not supported(requires >=%d.%d)"
                             % (cc + supported[0]))
    return below[-1]


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    from ...internals import _missing
    return _missing(__name__, name)
