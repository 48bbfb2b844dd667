"""Pickling of cujit's compiled objects by value (kernels, device functions, ufuncs, gufuncs,
@jit dispatchers, reductions), so that they cross process boundaries (multiprocessing, Dask).

Each object pickles as (kind, identity, function, options): the Python function by value (its
code object marshalled, the globals it names, its closure values, defaults and its source text),
and the decorator's options. The reader builds the function again and decorates it again; the
compiled code is found in the disk cache, whose keys are the generated text (ARCHITECTURE.md,
"The disk cache"), so a worker compiles nothing the writer already compiled on that machine.

Why by value, as Numba does, rather than by module and name: a kernel defined in `__main__`, in a
notebook cell or inside a function has no name the reader could import. The values the function
names are pickled by the pickler in use (standard pickle, or cloudpickle, which Dask uses, and
which also pickles plain Python functions of `__main__` by value); modules travel as their names.

The source text travels with the code: cujit compiles source, and the reader may have no file
(a notebook, `python -c`, another machine). The text was checked against this very code object
when the writer decorated the function (decorators._read_source), and both travel in one pickle,
so the reader trusts the pair. The bytecode is CPython's own format: the reader must be the same
Python version (checked, with a clear error).

Within one process, loading gives back the object that was pickled (its compiled code and state
intact), as Numba's dispatchers do: each object carries an identity (a uuid) assigned at its
first pickling.
"""

import builtins
import importlib
import marshal
import pickle
import sys
import threading
import types
import uuid
import weakref

_PYTHON = "%d.%d" % sys.version_info[:2]

# identity -> the live object it names, in this process. Objects that take neither attributes
# nor weak references (numpy.ufunc) are kept in _IDS and _STRONG, which cpu_ufunc._MADE keeps
# alive anyway: id -> (object, identity), identity -> object.
_LIVE = weakref.WeakValueDictionary()
_IDS = {}
_STRONG = {}
_lock = threading.Lock()


def _store(obj, uid):
    try:
        _LIVE[uid] = obj
        obj._cujit_pickle_id = uid
    except (AttributeError, TypeError):
        _IDS[id(obj)] = (obj, uid)
        _STRONG[uid] = obj


def identity_of(obj):
    """The object's identity for pickling (assigned at its first pickling)."""
    with _lock:
        uid = getattr(obj, "_cujit_pickle_id", None)
        if uid is None:
            entry = _IDS.get(id(obj))
            if entry is not None and entry[0] is obj:
                return entry[1]
            uid = str(uuid.uuid4())
        _store(obj, uid)
        return uid


def _live(uid):
    with _lock:
        obj = _LIVE.get(uid)
        return obj if obj is not None else _STRONG.get(uid)


def _remember(obj, uid):
    with _lock:
        _store(obj, uid)


class _Module:
    """A module named by a function's globals: pickled as its name, imported by the reader."""

    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return (importlib.import_module, (self.name,))


def _names(code):
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _value(v, owner):
    if v is owner:
        return _SELF
    if isinstance(v, types.ModuleType):
        return _Module(v.__name__)
    return v


class _SelfMarker:
    """Stands for the object being pickled where its own function names it (recursion): the
    reader binds the rebuilt object there."""

    def __reduce__(self):
        return (_self_marker, ())


_SELF = _SelfMarker()


def _self_marker():
    return _SELF


def reduce_function(func, owner=None):
    """The state of a Python function that `rebuild_function` makes a function from."""
    from .decorators import _source_entry
    entry = _source_entry(func)  # raises SourceUnavailableError where cujit could not compile it
    code = func.__code__
    g = func.__globals__
    glob = {}
    for name in _names(code):
        if name in g:
            glob[name] = _value(g[name], owner)
    cells = None
    if func.__closure__:
        cells = []
        for cell in func.__closure__:
            try:
                cells.append((True, _value(cell.cell_contents, owner)))
            except ValueError:  # an empty cell: the variable is not assigned yet
                cells.append((False, None))
    return {"python": _PYTHON, "code": marshal.dumps(code), "globals": glob, "cells": cells,
            "name": func.__name__, "qualname": getattr(func, "__qualname__", func.__name__),
            "module": getattr(func, "__module__", None) or g.get("__name__"), "doc": func.__doc__,
            "defaults": tuple(_value(d, owner) for d in func.__defaults__) if func.__defaults__ else None,
            "kwdefaults": func.__kwdefaults__, "source": tuple(entry)}


def rebuild_function(state):
    """(function, names in its globals that stand for the object being rebuilt)."""
    from . import decorators
    if state["python"] != _PYTHON:
        raise pickle.UnpicklingError(
            "%s() was pickled by Python %s and this is Python %s: cujit pickles a function's "
            "bytecode, which only the same Python version reads; use the same Python in every "
            "process (as Dask requires)" % (state["name"], state["python"], _PYTHON))
    code = marshal.loads(state["code"])
    glob = {"__builtins__": builtins, "__name__": state["module"]}
    selfs = []
    for name, v in state["globals"].items():
        if v is _SELF:
            selfs.append(name)
        else:
            glob[name] = v
    closure = None
    if state["cells"] is not None:
        closure = tuple(types.CellType(v) if full and v is not _SELF else types.CellType()
                        for full, v in state["cells"])
    func = types.FunctionType(code, glob, state["name"], state["defaults"], closure)
    func.__qualname__ = state["qualname"]
    func.__module__ = state["module"]
    func.__doc__ = state["doc"]
    func.__kwdefaults__ = state["kwdefaults"]
    # The text that was checked against this code object where it was pickled (see the module
    # docstring): seeded, so that decorating the function does not look for a file.
    entry = tuple(state["source"])
    decorators._SOURCES[func] = entry
    decorators._remember_lines(entry)
    self_cells = [i for i, (full, v) in enumerate(state["cells"] or ()) if full and v is _SELF]
    return func, selfs, self_cells


def _bind_self(func, selfs, self_cells, obj):
    for name in selfs:
        func.__globals__[name] = obj
    for i in self_cells:
        func.__closure__[i].cell_contents = obj


def reduce(obj, kind, func, options):
    """What an object's __reduce__ returns: `kind` names the maker in _rebuild; `options` are
    the decorator's arguments (picklable values)."""
    return (_rebuild, (kind, identity_of(obj), reduce_function(func, obj), options))


def _make(kind, func, o):
    if kind == "kernel":
        from .cuda.dispatcher import Dispatcher
        return Dispatcher(func, o["signatures"], debug=o["debug"], lineinfo=o["lineinfo"],
                          link=o["link"], targetoptions=o["targetoptions"],
                          specialized=o["specialized"])
    if kind == "device":
        from .cuda.dispatcher import DeviceFunction
        return DeviceFunction(func, o["signatures"], targetoptions=o["targetoptions"])
    if kind == "jit":
        from .cpu import CPUDispatcher
        return CPUDispatcher(func, o["signatures"], **o["targetoptions"])
    if kind == "cuda_ufunc":
        from .ufunc import CUDAUFunc
        return CUDAUFunc(func, o["signatures"])
    if kind == "cuda_gufunc":
        from .gufunc import CUDAGUFunc
        return CUDAGUFunc(func, o["signatures"], o["layout"])
    if kind == "ufunc":
        from .cpu_ufunc import make_ufunc
        return make_ufunc(func, o["signatures"], o["target"], o["identity"])
    if kind == "gufunc":
        from .cpu_ufunc import make_gufunc
        return make_gufunc(func, o["signatures"], o["layout"], o["target"])
    if kind == "dufunc":
        from .cpu_ufunc import DUFunc
        return DUFunc(func, o["target"], o["identity"])
    if kind == "lazy_gufunc":
        from .cpu_ufunc import GUFunc
        return GUFunc(func, o["layout"], o["target"])
    if kind == "reduce":
        from .cuda.reduce import Reduce
        return Reduce(func)
    raise pickle.UnpicklingError("unknown cujit object kind %r (pickled by another cujit "
                                 "version?)" % (kind,))


def _rebuild(kind, uid, fstate, options):
    obj = _live(uid)
    if obj is not None:
        return obj
    func, selfs, self_cells = rebuild_function(fstate)
    obj = _make(kind, func, options)
    _bind_self(func, selfs, self_cells, obj)
    _remember(obj, uid)
    return obj


def reduce_reduction(obj, functor):
    """cuda.reduce(f): by its device function where it was given one, else by its function."""
    from .cuda.dispatcher import DeviceFunction
    if isinstance(functor, DeviceFunction):
        return (_rebuild_reduction, (identity_of(obj), functor))
    return reduce(obj, "reduce", functor, {})


def _rebuild_reduction(uid, device):
    obj = _live(uid)
    if obj is not None:
        return obj
    from .cuda.reduce import Reduce
    obj = Reduce(device)
    _remember(obj, uid)
    return obj
