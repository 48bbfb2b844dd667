"""Pickling of cujit's compiled objects by value (kernels, device functions, ufuncs, gufuncs,
@jit dispatchers, reductions), so that they cross process boundaries (multiprocessing, Dask).

Each object pickles as (identity, kind, function, options): the Python function by value (its
code object marshalled, the globals it names, its closure values, defaults and its source text),
and the decorator's options (each class's `_pickle_spec` gives kind, function and options). Objects
that name each other (mutually recursive functions) pickle as one group, in which each names the
others by identity (_Ref). The reader builds the function again and decorates it again; the
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


class _Ref:
    """Stands for a compiled object of the same pickled group where a function names it: the
    object itself (a recursive @jit function) or another that names it back (mutual recursion),
    which pickle could not write by value without going round forever. The reader binds the
    object it built there."""

    def __init__(self, uid):
        self.uid = uid

    def __reduce__(self):
        return (_Ref, (self.uid,))


def spec_of(obj):
    """(kind, function, options) of a compiled object that pickles by value, else None."""
    spec = getattr(type(obj), "_pickle_spec", None)
    if spec is not None:
        return spec(obj)
    import numpy as np
    if isinstance(obj, np.ufunc):
        from .cpu_ufunc import made_by_cujit
        return made_by_cujit(obj)
    return None


def _values(func):
    """What a function names: the globals its code reads, its closure values, its defaults."""
    g = func.__globals__
    out = [g[n] for n in _names(func.__code__) if n in g]
    for cell in func.__closure__ or ():
        try:
            out.append(cell.cell_contents)
        except ValueError:
            pass
    return out + list(func.__defaults__ or ())


def _neighbours(obj):
    spec = spec_of(obj)
    if spec is None:
        return []
    func = spec[1]
    if func is None:  # a reduction of a device function: the device function
        return [v for v in spec[2].values() if spec_of(v) is not None]
    func = getattr(func, "py_func", func)
    out = []
    for v in _values(func):
        try:
            if spec_of(v) is not None:
                out.append(v)
        except Exception:  # an object whose attribute lookup fails is no compiled object
            pass
    return out


def _reach(obj):
    seen = {id(obj): obj}
    todo = [obj]
    while todo:
        for v in _neighbours(todo.pop()):
            if id(v) not in seen:
                seen[id(v)] = v
                todo.append(v)
    return seen


def _group(obj):
    """The compiled objects that obj names, directly or through others, and that name obj back
    (its strongly connected component), obj first."""
    members = [obj]
    for key, v in _reach(obj).items():
        if v is not obj and id(obj) in _reach(v):
            members.append(v)
    return members


def _value(v, refs):
    r = refs.get(id(v))
    if r is not None:
        return _Ref(r)
    if isinstance(v, types.ModuleType):
        return _Module(v.__name__)
    return v


def reduce_function(func, refs=None):
    """The state of a Python function that `rebuild_function` makes a function from. `refs`:
    id -> identity of the objects of the group being pickled (written as _Ref)."""
    from .decorators import _source_entry
    refs = refs or {}
    entry = _source_entry(func)  # raises SourceUnavailableError where cujit could not compile it
    code = func.__code__
    g = func.__globals__
    glob = {name: _value(g[name], refs) for name in _names(code) if name in g}
    cells = None
    if func.__closure__:
        cells = []
        for cell in func.__closure__:
            try:
                cells.append((True, _value(cell.cell_contents, refs)))
            except ValueError:  # an empty cell: the variable is not assigned yet
                cells.append((False, None))
    return {"python": _PYTHON, "code": marshal.dumps(code), "globals": glob, "cells": cells,
            "name": func.__name__, "qualname": getattr(func, "__qualname__", func.__name__),
            "module": getattr(func, "__module__", None) or g.get("__name__"), "doc": func.__doc__,
            "defaults": tuple(_value(d, refs) for d in func.__defaults__) if func.__defaults__ else None,
            "kwdefaults": func.__kwdefaults__, "source": tuple(entry)}


def rebuild_function(state):
    """(function, [(where, key, identity)] of the _Refs it holds, to bind once built)."""
    from . import decorators
    if state["python"] != _PYTHON:
        raise pickle.UnpicklingError(
            "%s() was pickled by Python %s and this is Python %s: cujit pickles a function's "
            "bytecode, which only the same Python version reads; use the same Python in every "
            "process (as Dask requires)" % (state["name"], state["python"], _PYTHON))
    code = marshal.loads(state["code"])
    glob = {"__builtins__": builtins, "__name__": state["module"]}
    pending = []
    for name, v in state["globals"].items():
        if isinstance(v, _Ref):
            pending.append(("global", name, v.uid))
        else:
            glob[name] = v
    closure = None
    if state["cells"] is not None:
        cells = []
        for i, (full, v) in enumerate(state["cells"]):
            if full and isinstance(v, _Ref):
                pending.append(("cell", i, v.uid))
            cells.append(types.CellType(v) if full and not isinstance(v, _Ref) else types.CellType())
        closure = tuple(cells)
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
    return func, pending


def _bind(func, pending, built):
    for where, key, uid in pending:
        if where == "global":
            func.__globals__[key] = built[uid]
        else:
            func.__closure__[key].cell_contents = built[uid]


def reduce(obj):
    """What a compiled object's __reduce__ returns: its group (obj, and the objects that name
    it back), each as (identity, kind, function state, options); `options` are the decorator's
    arguments (picklable values)."""
    group = _group(obj)
    refs = {id(o): identity_of(o) for o in group}
    members = []
    for o in group:
        kind, func, options = spec_of(o)
        members.append((refs[id(o)], kind, None if func is None else reduce_function(func, refs), options))
    return (_rebuild, (members,))


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
    if kind == "reduce_device":
        from .cuda.reduce import Reduce
        return Reduce(o["device"])
    raise pickle.UnpicklingError("unknown cujit object kind %r (pickled by another cujit "
                                 "version?)" % (kind,))


def _rebuild(members):
    """The first member of a pickled group, built (with the others) unless it is alive here."""
    built = {uid: _live(uid) for uid, _, _, _ in members}
    if built[members[0][0]] is not None:
        return built[members[0][0]]
    todo = []
    for uid, kind, fstate, options in members:
        if built[uid] is None:
            func, pending = (None, []) if fstate is None else rebuild_function(fstate)
            # Decorated before the others of its group are bound: a decorator that compiles at
            # once (declared signatures) sees them only if they were built before it.
            _bind(func, [p for p in pending if built.get(p[2]) is not None], built)
            built[uid] = _make(kind, func, options)
            _remember(built[uid], uid)
            todo.append((func, pending))
    for func, pending in todo:
        _bind(func, pending, built)
    return built[members[0][0]]


def configured(kernel, griddim, blockdim, stream, sharedmem):
    """A configured launch, `kernel[griddim, blockdim, stream, sharedmem]`, loaded (its
    __reduce__ is in src/bindings/kernel.cpp)."""
    return kernel.configure(griddim, blockdim, stream, sharedmem)
