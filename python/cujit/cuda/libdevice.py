"""numba.cuda.libdevice: CUDA's libdevice functions, callable in kernels and device functions.

``libdevice.sinf(x)`` compiles to a call of libdevice's ``__nv_sinf``; a function with pointer
outputs returns them after its value (``s, c = libdevice.sincos(x)``, ``frac, exp =
libdevice.frexp(x)``). One function per entry of the compiler's table (libdevicefuncs). On the
simulator each runs a host implementation; the few without an exact one (erfinv, erfcinv,
normcdfinv, erfcx and their float variants) stop the simulated launch with an error.
From Python, outside compiled code, they raise (numba-cuda's return None).
"""

from .libdevicefuncs import create_signature as _create_signature, functions as _functions

_DOC = """libdevice's __nv_%s: %s -> %s.

See https://docs.nvidia.com/cuda/libdevice-users-guide/__nv_%s.html
"""


def _stub(name, retty, args):
    def stub(*a, **k):
        raise RuntimeError("libdevice.%s() can only be called inside a @cuda.jit kernel or device "
                           "function" % name)

    stub.__name__ = stub.__qualname__ = name
    stub.__module__ = __name__
    sig = _create_signature(retty, args)
    stub.__doc__ = _DOC % (name, ", ".join("%s %s" % (a.ty, a.name) for a in args if not a.is_ptr),
                           sig.return_type, name)
    return stub


for _libname, (_retty, _args) in _functions.items():
    globals()[_libname[5:]] = _stub(_libname[5:], _retty, _args)
del _libname, _retty, _args
