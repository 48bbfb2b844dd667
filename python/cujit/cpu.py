"""@jit and @njit: Python functions compiled for the CPU.

The dispatcher is the C++ _core.CpuFunction: it types each call's arguments as Numba does,
compiles one specialisation per argument-type fingerprint with the host C++ compiler (the same
generated code as the simulator's, through the disk cache) and calls it. There is no object mode:
what cannot be compiled raises cujit.errors.TypingError.
"""

from . import _core
from .decorators import capture
from .types import signature_string


class CPUDispatcher(_core.CpuFunction):
    """What ``@jit`` returns. Call it like the Python function; ``py_func`` is the original."""

    def __init__(self, func, signatures=(), **options):
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.targetoptions = dict(options)
        super().__init__(capture(func), [signature_string(s) for s in signatures])

    @property
    def signatures(self):
        """The argument types of each compiled specialisation, as strings: ``['(int64, int64)']``."""
        return list(self._signatures)

    def __repr__(self):
        return "CPUDispatcher(%r)" % (self.py_func,)


def jit(signature_or_function=None, locals=None, cache=False, pipeline_class=None, boundscheck=None,
        nopython=True, forceobj=False, fastmath=False, error_model="python", parallel=False, **options):
    """Compile a function for the CPU, as ``numba.jit``.

    Forms: ``@jit``, ``@jit(nopython=True)``, ``@jit('float64(float64, float64)')``,
    ``@jit(['int64(int64)', ...])``. ``cache`` is accepted (the disk cache is always on);
    ``fastmath``, ``boundscheck``, ``error_model`` and ``parallel`` are accepted and recorded.
    ``forceobj=True`` asks for object mode, which cujit does not have.
    """
    if forceobj:
        raise NotImplementedError("cujit has no object mode: @jit(forceobj=True) cannot be honoured")
    options = dict(options, fastmath=fastmath, boundscheck=boundscheck, error_model=error_model,
                   parallel=parallel)
    sigs = ()
    if isinstance(signature_or_function, (list, tuple)):
        sigs, signature_or_function = signature_or_function, None
    elif signature_or_function is not None and not callable(signature_or_function):
        sigs, signature_or_function = [signature_or_function], None
    elif hasattr(signature_or_function, "args") and not hasattr(signature_or_function, "__code__"):
        sigs, signature_or_function = [signature_or_function], None  # a Signature object

    def wrap(func):
        return CPUDispatcher(func, sigs, **options)

    if signature_or_function is not None:
        return wrap(signature_or_function)
    return wrap


def njit(*args, **kws):
    """``jit(nopython=True)``: the same as ``jit`` here, since every cujit function is nopython."""
    kws["nopython"] = True
    return jit(*args, **kws)
