"""@jit and @njit: Python functions compiled for the CPU.

The dispatcher is the C++ _core.CpuFunction: it types each call's arguments as Numba does,
compiles one specialisation per argument-type fingerprint with the host C++ compiler (the same
generated code as the simulator's, through the disk cache) and calls it. There is no object mode:
what cannot be compiled raises cujit.errors.TypingError.
"""

import inspect
import sys

from . import _core
from . import config
from . import types as _t
from .decorators import snapshot, source
from .types import signature_string
from . import _lapack

_lapack.register(_core)


class _TypeName(_t.Type):
    """A type as the dispatcher names it ('float64', 'array(float32, 1d, C)')."""

    def __init__(self, name):
        self.name = name


class _Overload:
    """One compiled specialisation: its argument types and its generated C++ (``source``)."""

    def __init__(self, dispatcher, index, arg_types):
        self.signature = tuple(_TypeName(t) for t in arg_types)
        self._dispatcher = dispatcher
        self._index = index

    @property
    def source(self):
        return self._dispatcher._source_at(self._index)

    def __repr__(self):
        return "<compiled %s%r>" % (self._dispatcher.__name__, self.signature)


def _boundscheck(option):
    """Whether indices are checked: CUJIT_BOUNDSCHECK / NUMBA_BOUNDSCHECK when set (0 or 1)
    override the decorator's option, as NUMBA_BOUNDSCHECK does in Numba; off by default."""
    return config.BOUNDSCHECK if config.BOUNDSCHECK is not None else bool(option)


def _needs_folding(func):
    """Whether a positional call of `func` still needs folding: it has defaults or *args."""
    code = func.__code__
    return bool(func.__defaults__) or bool(code.co_flags & inspect.CO_VARARGS)


def fold_arguments(func, args, kwargs):
    """`args` and `kwargs` of a call of `func` as one tuple in parameter order."""
    sig = inspect.signature(func)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError("%s(): %s" % (func.__name__, e)) from None
    bound.apply_defaults()
    out = []
    for p in sig.parameters.values():
        v = bound.arguments[p.name]
        out.append(tuple(v) if p.kind == p.VAR_POSITIONAL else v)
    return tuple(out)


class CPUDispatcher(_core.CpuFunction):
    """What ``@jit`` returns. Call it like the Python function; ``py_func`` is the original."""

    def __init__(self, func, signatures=(), **options):
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.targetoptions = dict(options)
        # Declared signatures: a call from other compiled code converts to one, as Numba does.
        self._declared_sigs = [signature_string(s) for s in signatures]
        # The text now; the globals when a specialisation compiles (here for declared signatures,
        # else at the first call with new argument types), as Numba reads them.
        super().__init__(source(func), [signature_string(s) for s in signatures],
                         parallel=bool(options.get("parallel")), fastmath=bool(options.get("fastmath")),
                         python_errors=options.get("error_model", "python") != "numpy",
                         boundscheck=_boundscheck(options.get("boundscheck")),
                         snapshot=snapshot(func, self_sigs=self._declared_sigs), folds=_needs_folding(func))

    def __reduce__(self):
        """By value (cujit/_pickle.py): the function, its declared signatures and options."""
        from . import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("jit", self.py_func, {
            "signatures": self._declared_sigs, "targetoptions": self.targetoptions})

    def _fold(self, *args, **kwargs):
        """A call's arguments in parameter order (keywords placed, defaults filled in, the extra
        positional ones as a tuple for *args), with Python's TypeError for a call that does not
        fit, as Numba folds them (a default is typed as the value's own type)."""
        return fold_arguments(self.py_func, args, kwargs)

    @property
    def signatures(self):
        """The argument types of each compiled specialisation, as strings: ``['(int64, int64)']``."""
        return ["(" + ", ".join(t) + ("," if len(t) == 1 else "") + ")" for t in self._signatures]

    @property
    def overloads(self):
        """The compiled specialisations: argument-type tuple -> its generated C++ source. Keys
        compare equal to tuples of cujit types: ``(cujit.float64, cujit.float64) in f.overloads``."""
        return {tuple(_TypeName(t) for t in sig): _Overload(self, i, sig) for i, sig in enumerate(self._signatures)}

    def inspect_types(self, file=None, signature=None, pretty=False):
        """Print each specialisation's source annotated with the types inference gave its
        variables, calls and results (Numba prints its IR there; the types are the same)."""
        if pretty:
            raise NotImplementedError("inspect_types(pretty=True) needs Jupyter's HTML output, which cujit "
                                      "does not produce; call inspect_types() for the text listing")
        texts = self._annotations()
        if signature is not None:
            args = signature.args if hasattr(signature, "args") else signature
            # cujit.float64[::1] prints as 'float64[::1]'; the compiled list spells Numba's names.
            want = tuple(_core.parse_signature("(%s)" % ", ".join(str(t) for t in args))[1])
            texts = [t for s, t in zip(self._signatures, texts) if tuple(s) == want]
        out = file if file is not None else sys.stdout
        for t in texts:
            print(t, file=out)

    def __repr__(self):
        name = getattr(self, "__name__", "?")
        try:
            sigs = self.signatures
        except TypeError:  # its __init__ raised: no core object behind it
            return "<cujit CPUDispatcher %s (not initialised)>" % name
        return "<cujit CPUDispatcher %s, %s>" % (
            name, "compiled for " + ", ".join(sigs) if sigs else "not compiled yet")


def jit(signature_or_function=None, locals=None, cache=False, pipeline_class=None, boundscheck=None,
        nopython=True, forceobj=False, fastmath=False, error_model="python", parallel=False, **options):
    """Compile a function for the CPU, as ``numba.jit``.

    Forms: ``@jit``, ``@jit(nopython=True)``, ``@jit('float64(float64, float64)')``,
    ``@jit(['int64(int64)', ...])``. ``cache`` is accepted (the disk cache is always on).
    ``parallel=True`` runs the outermost ``prange`` loops on all cores (OpenMP), with reductions
    of ``+=``-style updates; ``fastmath=True`` compiles with -ffast-math. ``boundscheck=True``
    makes an index out of bounds raise IndexError (``CUJIT_BOUNDSCHECK``/``NUMBA_BOUNDSCHECK``
    override it); ``error_model='numpy'`` makes division by zero give 0, inf or nan.
    ``forceobj=True`` asks for object mode, which cujit does not have.
    """
    if forceobj:
        raise NotImplementedError("cujit has no object mode: @jit(forceobj=True) cannot be honoured")
    options = dict(options, fastmath=fastmath, boundscheck=boundscheck, error_model=error_model,
                   parallel=parallel)
    sigs = ()
    if isinstance(signature_or_function, (list, tuple)):
        from .cuda.dispatcher import _signature_list  # a tuple is one signature, as in Numba
        sigs, signature_or_function = _signature_list(signature_or_function), None
    elif signature_or_function is not None and not callable(signature_or_function):
        sigs, signature_or_function = [signature_or_function], None
    elif hasattr(signature_or_function, "args") and not hasattr(signature_or_function, "__code__"):
        sigs, signature_or_function = [signature_or_function], None  # a Signature object

    def wrap(func):
        if config.DISABLE_JIT:  # NUMBA_DISABLE_JIT=1: the Python function itself, as in Numba
            return func
        return CPUDispatcher(func, sigs, **options)

    if signature_or_function is not None:
        return wrap(signature_or_function)
    return wrap


def njit(*args, **kws):
    """``jit(nopython=True)``: the same as ``jit`` here, since every cujit function is nopython."""
    kws["nopython"] = True
    return jit(*args, **kws)


def prange(*args):
    """``range`` that ``@jit(parallel=True)`` runs in parallel (elsewhere, and in Python, a range)."""
    return range(*args)


def get_num_threads():
    """Threads that parallel CPU code (prange loops, target='parallel' ufuncs) uses."""
    return _core.get_num_threads()


def set_num_threads(n):
    """Use ``n`` threads in parallel CPU code from now on: 1 <= n <= NUMBA_NUM_THREADS (which
    defaults to the machine's hardware threads). One setting for the whole process (Numba keeps
    one per calling thread)."""
    limit = _core.max_threads()
    if not isinstance(n, (int, __import__("numpy").integer)) or isinstance(n, bool):
        raise TypeError("The number of threads specified must be an integer")
    if not 1 <= n <= limit:
        raise ValueError("The number of threads must be between 1 and %d" % limit)
    _core.set_num_threads(int(n))


def get_thread_id():
    """The OpenMP thread running the current prange iteration; 0 in Python (the main thread)."""
    return 0
