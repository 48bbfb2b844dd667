"""@cuda.jit: kernels (launched as f[blocks, threads](...)) and device functions.

A kernel's dispatcher is the C++ _core.Kernel: it fingerprints argument types, compiles on a miss
and launches, with no Python on the way. Device functions are only compiled as part of the
kernels and ufuncs that call them.
"""

import warnings

from .. import _core
from .. import config
from ..errors import NumbaInvalidConfigWarning
from ..decorators import snapshot, source
from ..types import signature_string


class DeviceFunction:
    """A ``@cuda.jit(device=True)`` function: callable from kernels, ufuncs and other device
    functions. It is typed at each call site for the argument types found there."""

    def __init__(self, func):
        self.py_func = func
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        # The text now (a file edited later is refused, not compiled); the globals are read with
        # the compile of each kernel or ufunc that calls it.
        source(func)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s() is a CUDA device function: call it from a kernel, a CUDA ufunc or "
                           "another device function, or call %s.py_func(...) for the Python "
                           "version" % (self.__name__, self.__name__))

    def __repr__(self):
        return "<cujit CUDA device function %s (compiled into each kernel or ufunc that calls it)>" % (
            self.__name__)


class Dispatcher(_core.Kernel):
    """A ``@cuda.jit`` kernel. Launch it as ``kernel[blocks, threads](args...)`` or
    ``kernel[blocks, threads, stream, sharedmem](args...)``."""

    def __init__(self, func, signatures=(), debug=False, lineinfo=False):
        self.py_func = func
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.debug = bool(debug)
        # CUJIT_BOUNDSCHECK=1 / NUMBA_BOUNDSCHECK=1 check the GPU's indices as debug=True does (the
        # simulator always checks), where numba-cuda's kernels would end the thread without a word.
        checks = self.debug or config.BOUNDSCHECK is True
        # The text now; the globals when a specialisation compiles (here for declared signatures,
        # else at the first launch with new argument types), as Numba reads them.
        super().__init__(source(func), [signature_string(s) for s in signatures], checks,
                         snapshot=snapshot(func))

    def __call__(self, *args, **kwargs):
        # A ValueError, as numba-cuda raises for a kernel called like a function.
        raise ValueError("Kernel launch configuration was not specified for %s(). Use the syntax:\n\n"
                         "    %s[blockspergrid, threadsperblock](arg0, arg1, ..., argn)\n"
                         % (self.__name__, self.__name__))

    def __repr__(self):
        name = getattr(self, "__name__", "?")
        try:
            sigs = self.signatures
        except TypeError:  # its __init__ raised: no core object behind it
            return "<cujit CUDA kernel %s (not initialised)>" % name
        return "<cujit CUDA kernel %s, %s>" % (
            name, "compiled for " + ", ".join(sigs) if sigs else "not compiled yet")


def _debug_and_opt(debug, opt, lineinfo):
    """numba-cuda's defaults for cuda.jit's debug and opt (config.CUDA_DEBUGINFO_DEFAULT, and
    config.OPT != 0), and its NumbaInvalidConfigWarnings for the combinations it refuses to trust."""
    debug = config.CUDA_DEBUGINFO_DEFAULT if debug is None else debug
    opt = (config.OPT != 0) if opt is None else opt
    if debug and opt:
        warnings.warn(NumbaInvalidConfigWarning(
            "debug=True with opt=True is not supported by CUDA. This may result in a crash - set "
            "debug=False or opt=False."), stacklevel=3)
    if debug and lineinfo:
        warnings.warn(NumbaInvalidConfigWarning(
            "debug and lineinfo are mutually exclusive. Use debug to get full debug info (this "
            "disables some optimizations), or lineinfo for line info only with code generation "
            "unaffected."), stacklevel=3)
    return debug, opt


def _signature_list(sig_or_sigs):
    """Numba's reading of a decorator's first argument: a list holds signatures, while a tuple is one
    signature, its argument types (``cuda.jit((float32[::1], int32))``). A tuple of signature
    strings, which Numba refuses, is taken as a list."""
    if isinstance(sig_or_sigs, list):
        return sig_or_sigs
    if isinstance(sig_or_sigs, tuple) and not (sig_or_sigs and all(isinstance(s, str) for s in sig_or_sigs)):
        return [sig_or_sigs]
    if isinstance(sig_or_sigs, tuple):
        return list(sig_or_sigs)
    return [sig_or_sigs]


def jit(func_or_sig=None, device=False, debug=None, lineinfo=False, inline=False, fastmath=False,
        opt=None, cache=False, **options):
    """Compile a kernel (or, with ``device=True``, a device function) for the GPU.

    Forms: ``@cuda.jit``, ``@cuda.jit(device=True)``, ``@cuda.jit('void(float32[:])')``,
    ``@cuda.jit(void(float32[:]))``, ``@cuda.jit(['void(float32[:])', ...])``.
    """
    debug, opt = _debug_and_opt(debug, opt, lineinfo)
    if options.get("lto"):
        # numba-cuda's refusal where nvJitLink is missing: cujit never links LTO-IR (it compiles
        # the whole kernel with NVRTC), so lto=True cannot be honoured on either target.
        raise RuntimeError("LTO requires nvjitlink, which is not available or not sufficiently "
                           "recent (>=12.3)")
    if options.get("boundscheck"):  # numba-cuda's refusal, word for word
        raise NotImplementedError("bounds checking is not supported for CUDA")
    sigs = ()
    if func_or_sig is not None and not callable(func_or_sig) or isinstance(func_or_sig, (list, tuple)):
        sigs = _signature_list(func_or_sig)
        func_or_sig = None

    def wrap(func):
        if device:
            return DeviceFunction(func)
        return Dispatcher(func, sigs, debug=debug, lineinfo=lineinfo)

    if func_or_sig is not None:
        return wrap(func_or_sig)
    return wrap
