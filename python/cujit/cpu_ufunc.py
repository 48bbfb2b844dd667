"""@vectorize and @guvectorize for the CPU ('cpu' and 'parallel' targets): real NumPy ufuncs.

The C++ core (_core.NumpyLoops, src/bindings/cpu_ufunc.cpp) compiles one NumPy inner loop per
signature with the host C++ compiler and builds a numpy.ufunc from them with NumPy's C API, so a
call is NumPy's own: loop selection and casting, broadcasting, out=, reduce, accumulate, outer.

Without signatures the result is lazy, like Numba's DUFunc (and GUFunc for guvectorize): a call
first goes to the current numpy.ufunc, so NumPy's casting may pick a loop already compiled; when
NumPy finds none, a loop is compiled for the arguments' types, a new numpy.ufunc holding every loop
so far replaces the old one, and the call is made again.
"""

import copyreg
import inspect

import numpy as np

from . import _core
from .decorators import snapshot, source
from .types import from_dtype, signature_string


def _identity_name(identity):
    """vectorize's identity= as the core spells it (Numba's rule: None, 0, 1 or 'reorderable')."""
    if identity is None:
        return "none"
    if isinstance(identity, str):
        if identity == "reorderable":
            return "reorderable"
    elif identity == 0:
        return "zero"
    elif identity == 1:
        return "one"
    raise ValueError("Invalid identity value %r" % (identity,))


def _nparams(func):
    return len(inspect.signature(func).parameters)


def _type_name(value):
    """The cujit type of a call argument, by Numba's rules for a ufunc: an array is its dtype, a
    Python int int64, a float float64, a bool boolean, a NumPy scalar its dtype."""
    if isinstance(value, (np.ndarray, np.generic)):
        dtype = value.dtype
    elif isinstance(value, bool):
        dtype = np.dtype(np.bool_)
    elif isinstance(value, int):
        dtype = np.dtype(np.int64)
    elif isinstance(value, float):
        dtype = np.dtype(np.float64)
    else:
        dtype = np.asarray(value).dtype
    return str(from_dtype(dtype))


def make_ufunc(func, signatures, target, identity):
    """@vectorize(signatures) on the CPU: a numpy.ufunc with one loop per signature, in order."""
    spellings = [signature_string(s) for s in signatures]
    if any(_record_operands(s)[0] for s in spellings):
        return RecordUFunc(func, spellings, target, identity=identity)
    loops = _core.NumpyLoops(source(func), target == "parallel", _nparams(func), [], snapshot(func))
    loops.add(spellings)
    u = loops.make(func.__name__, func.__doc__ or "", _nparams(func), 1, _identity_name(identity), "")
    return _by_value(u, "ufunc", func, {"signatures": spellings, "target": target, "identity": identity})


# numpy.ufunc objects that cujit made -> how to make them again: id -> (ufunc, kind, function,
# options). A numpy.ufunc takes neither attributes nor weak references, so they are kept here,
# alive (one entry per decoration, a few hundred bytes).
_MADE = {}


def _by_value(u, kind, func, options):
    """Registers a numpy.ufunc made by cujit, so that pickle takes it by value (see _reduce_ufunc)."""
    _MADE[id(u)] = (u, kind, func, options)
    return u


def _reduce_ufunc(u):
    """copyreg's reducer of numpy.ufunc: cujit's own ufuncs by value (cujit/_pickle.py), where
    NumPy pickles a ufunc by module and name, which a function of `__main__`, of a notebook or of
    another function does not have; any other ufunc as NumPy does."""
    if made_by_cujit(u) is None:
        return _numpy_reduce_ufunc(u) if _numpy_reduce_ufunc is not None else u.__name__
    from . import _pickle
    return _pickle.reduce(u)


def made_by_cujit(u):
    """(kind, function, options) of a numpy.ufunc that cujit made, else None."""
    entry = _MADE.get(id(u))
    return entry[1:] if entry is not None and entry[0] is u else None


_numpy_reduce_ufunc = copyreg.dispatch_table.get(np.ufunc)
copyreg.pickle(np.ufunc, _reduce_ufunc)


class _Lazy:
    """What DUFunc and GUFunc share: the loops, the current numpy.ufunc, and the retry."""

    def __init__(self, func, loops, nin, nout, identity, layout):
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self._loops = loops
        self._nin, self._nout = nin, nout
        self._identity = _identity_name(identity)
        self._layout = layout
        self.ufunc = self._make()

    def _make(self):
        return self._loops.make(self.__name__, self.py_func.__doc__ or "", self._nin, self._nout,
                                self._identity, self._layout or "")

    def _add(self, signatures):
        """Compiles loops for `signatures` (strings); a new numpy.ufunc if any was new."""
        if self._loops.add(signatures):
            self.ufunc = self._make()

    nin = property(lambda self: self._nin)
    nout = property(lambda self: self._nout)
    nargs = property(lambda self: self._nin + self._nout)
    types = property(lambda self: self.ufunc.types)
    ntypes = property(lambda self: self.ufunc.ntypes)
    identity = property(lambda self: self.ufunc.identity)
    signature = property(lambda self: self.ufunc.signature)

    def inspect_sources(self):
        """The generated C++ (prelude included) of each library compiled so far."""
        return list(self._loops.sources)

    # Reductions and the other methods use the loops there are (as Numba's DUFunc does).
    def reduce(self, *args, **kwargs):
        return self.ufunc.reduce(*args, **kwargs)

    def accumulate(self, *args, **kwargs):
        return self.ufunc.accumulate(*args, **kwargs)

    def reduceat(self, *args, **kwargs):
        return self.ufunc.reduceat(*args, **kwargs)

    def outer(self, *args, **kwargs):
        return self.ufunc.outer(*args, **kwargs)

    def at(self, *args, **kwargs):
        return self.ufunc.at(*args, **kwargs)


class DUFunc(_Lazy):
    """A CPU @vectorize without signatures: compiles a loop for each new combination of argument
    types, as Numba's DUFunc does. ``.ufunc`` is the current numpy.ufunc."""

    def __init__(self, func, target="cpu", identity=None):
        nin = _nparams(func)
        # The globals are read by each compile of a loop (a call with new types), as in Numba.
        loops = _core.NumpyLoops(source(func), target == "parallel", nin, [], snapshot(func))
        super().__init__(func, loops, nin, 1, identity, None)
        self._options = {"target": target, "identity": identity}  # for pickling

    def __reduce__(self):
        """By value (cujit/_pickle.py): the function and options; loops compile again as calls
        need them (from the disk cache)."""
        from . import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("dufunc", self.py_func, self._options)

    def add(self, sig):
        """Compiles the loop for one signature ('float64(float64)', or argument types only)."""
        spelling = signature_string(sig)
        if _record_operands(spelling)[0]:
            _refuse_lazy_records(self, None)
        self._add([spelling])

    def __call__(self, *args, **kwargs):
        try:
            return self.ufunc(*args, **kwargs)
        except TypeError as e:
            # NumPy found no loop for these types (or the call itself is wrong).
            if len(args) not in (self._nin, self._nin + 1):
                raise
            no_loop = e
        # Compiled outside the except block, so that a TypingError is not shown as raised
        # "during handling" of NumPy's error.
        _refuse_lazy_records(self, args)
        sig = "(%s)" % ", ".join(_type_name(a) for a in args[:self._nin])
        if not self._loops.add([sig]):
            raise no_loop
        self.ufunc = self._make()
        return self.ufunc(*args, **kwargs)

    def __repr__(self):
        return "<cujit DUFunc %s, types %s>" % (self.__name__, self.types)


# ---------------------------------------------------------------------------------------------
# guvectorize

def _core_dims(inputs, outputs):
    """NumPy's dimensions-array index of each operand's core dimensions: 1 + the dimension's
    number in order of first appearance in the layout (NumPy numbers them so)."""
    number = {}
    result = []
    for group in inputs + outputs:
        for name in group:
            number.setdefault(name, len(number))
        result.append([1 + number[n] for n in group])
    return result


def _check_arity(func, layout, inputs, outputs):
    nargs = len(inputs) + len(outputs)
    if _nparams(func) != nargs:
        raise TypeError("%s() must take exactly %d arguments (the layout %r has %d input(s) and "
                        "%d output(s)), but it takes %d"
                        % (func.__name__, nargs, layout, len(inputs), len(outputs), _nparams(func)))


def make_gufunc(func, signatures, layout, target):
    """@guvectorize(signatures, layout) on the CPU: a NumPy gufunc with one loop per signature."""
    from .gufunc import _Variant, parse_layout
    inputs, outputs = parse_layout(layout)
    spellings = [signature_string(s) for s in signatures]
    if any(_record_operands(s)[0] for s in spellings):
        _check_arity(func, layout, inputs, outputs)
        return RecordUFunc(func, spellings, target, layout=layout)
    for i, s in enumerate(spellings):
        _Variant(i, s, inputs, outputs, func.__name__)  # checks each operand against the layout
    _check_arity(func, layout, inputs, outputs)
    loops = _core.NumpyLoops(source(func), target == "parallel", len(inputs),
                             _core_dims(inputs, outputs), snapshot(func))
    loops.add(spellings)
    u = loops.make(func.__name__, func.__doc__ or "", len(inputs), len(outputs), "none", layout)
    return _by_value(u, "gufunc", func, {"signatures": spellings, "layout": layout, "target": target})


class GUFunc(_Lazy):
    """A CPU @guvectorize given only a layout: compiles a loop for the types of each call, as
    Numba's dynamic GUFunc does. Its types come from the arguments, so every output must be
    passed: ``g(a, b, out)``."""

    def __init__(self, func, layout, target="cpu"):
        from .gufunc import parse_layout
        self._inputs, self._outputs = parse_layout(layout)
        nin, nout = len(self._inputs), len(self._outputs)
        _check_arity(func, layout, self._inputs, self._outputs)
        loops = _core.NumpyLoops(source(func), target == "parallel", nin,
                                 _core_dims(self._inputs, self._outputs), snapshot(func))
        super().__init__(func, loops, nin, nout, None, layout)
        self._options = {"layout": layout, "target": target}  # for pickling

    def __reduce__(self):
        """By value (cujit/_pickle.py), as DUFunc."""
        from . import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("lazy_gufunc", self.py_func, self._options)

    def _signature_for(self, args):
        parts = []
        for i, (a, core) in enumerate(zip(args, self._inputs + self._outputs)):
            name = _type_name(a)
            if core:
                parts.append("%s[%s]" % (name, ", ".join([":"] * len(core))))
            elif i >= self._nin:
                parts.append("%s[:]" % name)  # a '()' output is written as res[0]
            else:
                parts.append(name)
        return "(%s)" % ", ".join(parts)

    def __call__(self, *args, **kwargs):
        try:
            return self.ufunc(*args, **kwargs)
        except TypeError as e:
            if len(args) != self.nargs or kwargs:
                raise TypeError("%s() was given only a layout, so it compiles for the types of "
                                "its arguments and every output must be passed: call it as "
                                "%s(%s)" % (self.__name__, self.__name__, ", ".join(
                                    ["in%d" % i for i in range(self._nin)]
                                    + ["out%d" % i for i in range(self._nout)]))) from None
            no_loop = e
        _refuse_lazy_records(self, args)
        if not self._loops.add([self._signature_for(args)]):
            raise no_loop
        self.ufunc = self._make()
        return self.ufunc(*args, **kwargs)

    def __repr__(self):
        return "<cujit GUFunc %s%s, types %s>" % (self.__name__, self._layout, self.types)


# ---------------------------------------------------------------------------------------------
# Records

def _record_operands(spelling):
    """({operand index: record dtype}, number of operands) of a signature string; the return
    type, when there is one, is the last operand (a ufunc's output)."""
    from .types import _RECORD_DTYPES
    if "Record(" not in spelling:
        return {}, 0
    s = spelling.strip()
    depth, start = 0, None
    for j in range(len(s) - 1, -1, -1):  # the argument list: the last group in parentheses
        depth += s[j] in ")]"
        depth -= s[j] in "(["
        if depth == 0:
            start = j
            break
    ret, body = s[:start].strip(), s[start + 1:-1]
    operands, depth, cur = [], 0, ""
    for ch in body:
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            operands.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        operands.append(cur.strip())
    if ret:
        operands.append(ret)
    found = {}
    for i, op in enumerate(operands):
        names = [name for name in _RECORD_DTYPES if name in op]
        if names:
            found[i] = _RECORD_DTYPES[max(names, key=len)]
    return found, len(operands)


def _refuse_lazy_records(lazy, args):
    """A lazy DUFunc or GUFunc holds every loop in one numpy.ufunc, where NumPy would hand a
    loop of one record any other structured dtype: records need signatures (RecordUFunc)."""
    if args is None or any(_operand_dtype(a).fields is not None for a in args):
        raise TypeError("%s(): cujit's CPU ufuncs and gufuncs take records only with signatures "
                        "given to the decorator, as in @vectorize([float64(numba.from_dtype(dtype))])"
                        % lazy.__name__)


def _operand_dtype(value):
    return value.dtype if isinstance(value, (np.ndarray, np.generic)) else np.asarray(value).dtype


class RecordUFunc:
    """A CPU @vectorize or @guvectorize with records among its signatures' inputs (Numba's take
    them). NumPy knows a record only as its void type and hands a loop any structured dtype
    unchecked, so another layout would be read as garbage (as Numba's loops do): here each
    signature is a numpy.ufunc of its own, and a call goes to the first signature whose record
    operands have exactly the arguments' dtypes, where NumPy then does the rest. A record passes
    to the function as a copy (a store into its fields does not reach the input array). A record
    result must have the first argument's record type (NumPy gives a void output the first
    input's dtype), and takes no out=; other record outputs are refused."""

    def __init__(self, func, spellings, target, identity=None, layout=None):
        from .gufunc import parse_layout
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        if layout is None:
            self._nin, self._nout, core = _nparams(func), 1, []
        else:
            inputs, outputs = parse_layout(layout)
            self._nin, self._nout, core = len(inputs), len(outputs), _core_dims(inputs, outputs)
        self._layout = layout
        self._variants = []
        self._record_result = False
        for spelling in spellings:
            records, count = _record_operands(spelling)
            outs = [i for i in records if i >= self._nin]
            # NumPy gives a void output the first input's dtype when that is void too: a record
            # result of the first argument's record type is right; any other would be garbage.
            if outs and (layout is not None or records.get(0) != records[outs[0]]):
                raise TypeError("%s(): a record as an output of a CPU %s is supported only as a "
                                "ufunc's result of the first argument's record type (got %s): "
                                "NumPy gives a loop's void output the first input's dtype"
                                % (func.__name__, "gufunc" if layout else "ufunc", spelling))
            self._record_result = self._record_result or bool(outs)
            loops = _core.NumpyLoops(source(func), target == "parallel",
                                     self._nin if layout else _nparams(func), core, snapshot(func))
            loops.add([spelling])
            u = loops.make(func.__name__, func.__doc__ or "", self._nin, self._nout,
                           _identity_name(identity) if layout is None else "none", layout or "")
            self._variants.append((u, records))

    nin = property(lambda self: self._nin)
    nout = property(lambda self: self._nout)
    nargs = property(lambda self: self._nin + self._nout)
    types = property(lambda self: [t for u, _ in self._variants for t in u.types])
    ntypes = property(lambda self: len(self._variants))
    signature = property(lambda self: self._layout)

    def __call__(self, *args, **kwargs):
        inputs = args[:self._nin]
        if self._record_result and (len(args) > self._nin or kwargs.get("out") is not None):
            raise TypeError("%s(): out= is not supported for a ufunc whose result is a record (NumPy "
                            "cannot cast its void result into a structured array)" % self.__name__)
        dtypes = [_operand_dtype(a) for a in inputs]
        tried = None
        for u, records in self._variants:
            if all((i in records and dt == records[i]) or (i not in records and dt.fields is None)
                   for i, dt in enumerate(dtypes)):
                try:
                    return u(*args, **kwargs)
                except TypeError as e:  # NumPy found no loop for the other operands' types
                    tried = e
        if tried is not None:
            raise tried
        raise TypeError("%s(): no signature takes arguments of dtypes (%s): a record argument must "
                        "have exactly the dtype of the signature's record (signatures: %s)"
                        % (self.__name__, ", ".join(str(d) for d in dtypes), ", ".join(self.types)))

    def _no_method(self, *args, **kwargs):
        raise TypeError("%s(): reduce, accumulate, reduceat, outer and at are not supported by a CPU "
                        "ufunc with record signatures" % self.__name__)

    reduce = accumulate = reduceat = outer = at = _no_method

    def __reduce__(self):
        raise TypeError("a CPU ufunc with record signatures cannot be pickled (its record types "
                        "exist only in this process)")

    def __repr__(self):
        return "<cujit CPU %s %s with record signatures %s>" % (
            "gufunc" if self._layout else "ufunc", self.__name__, self.types)
