"""@guvectorize(..., target='cuda'): generalized ufuncs for the GPU (or the simulator).

The user's function is compiled as a cujit device function. For each signature and each shape of
call (the number of loop dimensions, and how many of them each input has) a small wrapper kernel
is written here as Python source and compiled through the ordinary kernel path
(cujit.cuda.Dispatcher): each GPU thread takes one flat loop index, turns it into the loop
indices, and calls the device function with the core sub-arrays of its arguments. A loop
dimension of size 1 is broadcast inside the kernel (``min(i, a.shape[k] - 1)``), so broadcasting
copies nothing.

Behaviour follows Numba's CUDA gufuncs (``numba.guvectorize(..., target='cuda')``); where cujit
differs, the docstring of ``guvectorize`` says so.
"""

import linecache
import re
import threading
import zlib

import numpy as np

from . import _core
from .types import signature_string


class GufuncLayoutError(NameError, ValueError):
    """An output core dimension that no input defines. Numba raises NameError here; it is also a
    ValueError, like cujit's other layout errors."""


# ---------------------------------------------------------------------------------------------
# Layouts: '(m,n),(n,p)->(m,p)'

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


def _parse_groups(text, layout, side):
    groups = []
    pos = 0
    text = text.strip()
    if not text:
        return groups
    while True:
        if pos >= len(text) or text[pos] != "(":
            raise ValueError("bad gufunc layout %r: expected '(' at %r in the %s; a layout is "
                             "written like '(m,n),(n,p)->(m,p)'" % (layout, text[pos:], side))
        close = text.find(")", pos)
        if close < 0:
            raise ValueError("bad gufunc layout %r: unclosed '(' in the %s" % (layout, side))
        inner = text[pos + 1:close].strip()
        names = []
        if inner:
            parts = [p.strip() for p in inner.split(",")]
            if parts[-1] == "":  # '(n,)' is allowed, as in Numba
                parts.pop()
            for p in parts:
                if not _NAME.match(p):
                    what = ("fixed-size and optional core dimensions are not supported"
                            if p and (p[0].isdigit() or p.endswith("?")) else "expected a name")
                    raise ValueError("bad gufunc layout %r: core dimension %r in the %s: %s"
                                     % (layout, p, side, what))
                names.append(p)
        groups.append(tuple(names))
        pos = close + 1
        rest = text[pos:].lstrip()
        if not rest:
            return groups
        if rest[0] != ",":
            raise ValueError("bad gufunc layout %r: expected ',' between arguments at %r in the %s"
                             % (layout, rest, side))
        text = rest[1:].lstrip()
        pos = 0


def parse_layout(layout):
    """'(m,n),(n,p)->(m,p)' -> ([('m','n'), ('n','p')], [('m','p')])."""
    if not isinstance(layout, str):
        raise TypeError("the gufunc layout must be a string like '(n),(n)->()', got %r" % (layout,))
    if layout.count("->") != 1:
        raise ValueError("bad gufunc layout %r: it needs exactly one '->' between inputs and "
                         "outputs, as in '(n),(n)->()'" % layout)
    ins, outs = layout.split("->")
    inputs = _parse_groups(ins, layout, "inputs")
    outputs = _parse_groups(outs, layout, "outputs")
    if not inputs:
        raise ValueError("bad gufunc layout %r: a gufunc needs at least one input" % layout)
    if not outputs:
        raise ValueError("bad gufunc layout %r: a gufunc needs at least one output, as in "
                         "'(n),(n)->()'" % layout)
    known = set(n for g in inputs for n in g)
    undefined = sorted(set(n for g in outputs for n in g) - known)
    if undefined:
        raise GufuncLayoutError("bad gufunc layout %r: undefined output symbols: %s (every core "
                                "dimension of an output must appear in an input)"
                                % (layout, ", ".join(undefined)))
    return inputs, outputs


# ---------------------------------------------------------------------------------------------
# Signatures

_ARRAY = re.compile(r"array\(([\w\[\]]+), (\d+)d, ([CFA])\)\Z")  # datetime64[D] too


class _ArgType:
    """One argument of a signature: a dtype, and an array ndim (None for a scalar)."""

    def __init__(self, spelling):
        m = _ARRAY.match(spelling)
        name = m.group(1) if m else spelling
        self.ndim = int(m.group(2)) if m else None
        self.name = "boolean" if name == "bool" else name
        self.dtype = np.dtype(np.bool_ if name == "bool" else name)

    def kernel_type(self, ndim):
        """The spelling of this dtype as an array of `ndim` dims (or the scalar)."""
        if ndim is None:
            return self.name
        return "%s[%s]" % (self.name, ", ".join([":"] * ndim))


class _Variant:
    """One signature of the gufunc, checked against the layout."""

    def __init__(self, index, spelling, inputs, outputs, name):
        ret, args = _core.parse_signature(spelling)
        if ret not in (None, "void", "none"):
            # numba-cuda's message (it prints the signature object), then the remedy.
            raise TypeError("guvectorized functions cannot return values: signature %r of %s() "
                            "specifies %s return type; write the results into the output "
                            "arguments" % (spelling, name, ret))
        nin, nout = len(inputs), len(outputs)
        if len(args) != nin + nout:
            raise TypeError("signature %r of %s() has %d argument(s), but the layout has %d "
                            "input(s) and %d output(s)" % (spelling, name, len(args), nin, nout))
        self.index = index
        self.spelling = spelling
        self.args = [_ArgType(a) for a in args]
        # slice1[i]: a '()' argument declared as a 1-D array: it gets a 1-element view
        # (Numba's special case, the usual way to declare a scalar output).
        self.slice1 = []
        for i, (t, core) in enumerate(zip(self.args, inputs + outputs)):
            what = "input" if i < nin else "output"
            num = i + 1 if i < nin else i - nin + 1
            if t.ndim is None:
                if core:
                    raise TypeError("signature %r of %s(): %s #%d is the scalar %s, but the layout "
                                    "gives it core dimensions (%s)"
                                    % (spelling, name, what, num, t.name, ",".join(core)))
                if i >= nin:
                    raise TypeError("signature %r of %s(): output #%d is the scalar %s, which the "
                                    "function cannot write; declare it as %s[:] and write res[0]"
                                    % (spelling, name, num, t.name, t.name))
                self.slice1.append(False)
            elif t.ndim == len(core):
                self.slice1.append(False)
            elif t.ndim == 1 and not core:
                self.slice1.append(True)
            else:
                raise TypeError("signature %r of %s(): %s #%d is a %d-D array, but the layout "
                                "gives it %d core dimension(s) (%s)"
                                % (spelling, name, what, num, t.ndim, len(core), ",".join(core)))
        self.in_dtypes = tuple(t.dtype for t in self.args[:nin])
        self.out_dtypes = tuple(t.dtype for t in self.args[nin:])

    def letters(self, nin):
        chars = [t.dtype.char for t in self.args]
        return "".join(chars[:nin]) + "->" + "".join(chars[nin:])


# ---------------------------------------------------------------------------------------------
# The wrapper kernels

def _kernel_source(kname, nin, nout, nloop, in_modes, slice1):
    """Python source of the wrapper kernel.

    in_modes[i]: None for an input passed as a scalar, else its number of loop dimensions.
    Outputs always have all `nloop` loop dimensions. slice1[i]: a '()' argument declared as a 1-D
    array (a 1-element view is passed).
    """
    ins = ["a%d" % i for i in range(nin)]
    outs = ["o%d" % i for i in range(nout)]
    lines = ["def %s(%s):" % (kname, ", ".join(["n_items"] + ins + outs)),
             "    for t in range(cuda.grid(1), n_items, cuda.gridsize(1)):"]
    if nloop > 0:
        # Flat index -> loop indices, last dimension fastest (the first output has them all).
        lines.append("        r = t")
        for g in range(nloop - 1, 0, -1):
            lines.append("        i%d = r %% o0.shape[%d]" % (g, g))
            lines.append("        r = r // o0.shape[%d]" % g)
        lines.append("        i0 = r")

    def expr(name, k, s1, bcast):
        """The argument passed for array `name` with k loop dims (None: a scalar parameter)."""
        if k is None or k == 0:
            return name  # a scalar, core dims only, or a 1-element array for a '()' argument
        idx = []
        for j in range(k):
            g = nloop - k + j
            idx.append("min(i%d, %s.shape[%d] - 1)" % (g, name, j) if bcast else "i%d" % g)
        if s1 and bcast:  # a 1-element view: name its index so that the slice reads it once
            lines.append("        s_%s = %s" % (name, idx[-1]))
            idx[-1] = "s_%s:s_%s + 1" % (name, name)
        elif s1:
            idx[-1] = "%s:%s + 1" % (idx[-1], idx[-1])
        return "%s[%s]" % (name, ", ".join(idx))

    call = [expr(name, in_modes[i], slice1[i], True) for i, name in enumerate(ins)]
    call += [expr(name, nloop, slice1[nin + i], False) for i, name in enumerate(outs)]
    lines.append("        gufunc_core(%s)" % ", ".join(call))
    return "\n".join(lines) + "\n"


def _compile_kernel(core, src, kname, sig):
    """exec the synthesized source under a pseudo file name that linecache knows (so cujit can
    read it back) and wrap it in a Dispatcher with `sig`, which types it now."""
    from .cuda import dispatcher as _dispatcher
    from . import cuda as _cuda
    # Named by its text, so that the same kernel gets the same name (and the same disk cache
    # entry) in every process.
    filename = "<cujit guvectorize %s %08x>" % (kname, zlib.crc32(src.encode()))
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    glb = {"cuda": _cuda, "gufunc_core": core}
    exec(compile(src, filename, "exec"), glb)
    return _dispatcher.Dispatcher(glb[kname], [sig])


# ---------------------------------------------------------------------------------------------
# Arguments of a call

class _In:
    """One input, classified: 'device', 'host' (a NumPy array) or 'scalar'."""

    __slots__ = ("kind", "value", "shape", "dtype")

    def __init__(self, obj):
        from . import cuda as _cuda
        if _cuda.is_cuda_array(obj) and not isinstance(obj, np.ndarray):
            self.kind = "device"
            self.value = obj if isinstance(obj, _cuda.DeviceNDArray) else _cuda.to_device(obj)
            self.shape = tuple(self.value.shape)
            self.dtype = np.dtype(self.value.dtype)
            return
        arr = obj if isinstance(obj, np.ndarray) else np.asarray(obj)
        if arr.ndim == 0:
            self.kind = "scalar"
            self.value = arr[()]
            self.shape = ()
        else:
            self.kind = "host"
            self.value = arr
            self.shape = arr.shape
        self.dtype = arr.dtype


def _describe(a):
    return "scalar" if a.kind == "scalar" else str(a.dtype)


class CUDAGUFunc:
    """A generalized ufunc for the GPU (or the simulator), made by
    ``@guvectorize([...], layout, target='cuda')``. Call it with the inputs, and optionally the
    outputs (positionally after the inputs, or ``out=``), and ``stream=``."""

    _THREADS = 256
    _MAX_BLOCKS = 1 << 16

    def __init__(self, func, signatures, layout):
        from .cuda.dispatcher import DeviceFunction
        self.py_func = func.py_func if isinstance(func, DeviceFunction) else func
        self.__name__ = self.py_func.__name__
        self.__qualname__ = getattr(self.py_func, "__qualname__", self.__name__)
        self.__doc__ = self.py_func.__doc__
        self.__module__ = self.py_func.__module__
        self.__wrapped__ = self.py_func
        self.signature = layout
        self._inputs, self._outputs = parse_layout(layout)
        self.nin = len(self._inputs)
        self.nout = len(self._outputs)
        self.nargs = self.nin + self.nout
        code = self.py_func.__code__
        if code.co_argcount != self.nargs or code.co_flags & 0x0C:
            raise TypeError("%s() must take exactly %d arguments (%d input(s) and %d output(s) of "
                            "layout %r), it takes %s"
                            % (self.__name__, self.nargs, self.nin, self.nout, layout,
                               "a variable number" if code.co_flags & 0x0C else code.co_argcount))
        self._core = func if isinstance(func, DeviceFunction) else DeviceFunction(func)
        # Numba compiles a CUDA gufunc at decoration, so the function's globals are read now, once:
        # the wrapper kernels compiled later for other shapes of call use this same snapshot.
        from .decorators import Frozen
        self._frozen = Frozen(self.py_func)
        variants = []
        for i, s in enumerate(signatures):
            variants.append(_Variant(i, signature_string(s), self._inputs, self._outputs,
                                     self.__name__))
        # Selection by input dtypes; a later signature with the same input dtypes replaces an
        # earlier one, as in Numba.
        by_inputs = {}
        for v in variants:
            by_inputs[v.in_dtypes] = v
        self._variants = list(by_inputs.values())
        self._kernels = {}
        self._lock = threading.Lock()
        self._signature_strings = [signature_string(s) for s in signatures]  # for pickling
        # Type every signature now, for the common shape of call (one loop dimension, every
        # input an array), so that typing errors show at the decorator as in Numba.
        for v in self._variants:
            self._kernel(v, 1, tuple([1] * self.nin))

    def __reduce__(self):
        """By value (cujit/_pickle.py): the function, its signatures and layout."""
        from . import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("cuda_gufunc", self.py_func, {
            "signatures": self._signature_strings, "layout": self.signature})

    # -- introspection ---------------------------------------------------------------------

    @property
    def types(self):
        return [v.letters(self.nin) for v in self._variants]

    @property
    def ntypes(self):
        return len(self._variants)

    def __repr__(self):
        return "<cujit CUDA gufunc %s %r with %d signature(s): %s>" % (
            self.__name__, self.signature, self.ntypes, ", ".join(self.types))

    # -- kernels ---------------------------------------------------------------------------

    def _kernel(self, v, nloop, in_modes):
        key = (v.index, nloop, in_modes)
        k = self._kernels.get(key)
        if k is not None:
            return k
        with self._lock:
            k = self._kernels.get(key)
            if k is not None:
                return k
            core_nd = [len(c) for c in self._inputs + self._outputs]
            kname = "gufunc_%s" % self.__name__
            src = _kernel_source(kname, self.nin, self.nout, nloop, in_modes, v.slice1)
            types = ["int64"]
            for i, t in enumerate(v.args):
                mode = in_modes[i] if i < self.nin else nloop
                if mode is None:
                    types.append(t.kernel_type(None))
                else:
                    nd = core_nd[i] + mode
                    if v.slice1[i] and mode == 0:
                        nd = 1
                    types.append(t.kernel_type(nd))
            k = _compile_kernel(self._frozen, src, kname, "void(%s)" % ", ".join(types))
            self._kernels[key] = k
            return k

    # -- calls -----------------------------------------------------------------------------

    def _select(self, ins):
        def matches(v, scalars_exact):
            return all(a.dtype == d if a.kind != "scalar" or scalars_exact
                       else a.dtype.kind in "biuf"  # a number adapts to the signature
                       for a, d in zip(ins, v.in_dtypes))
        found = []
        if any(a.kind == "scalar" for a in ins):
            found = [v for v in self._variants if matches(v, True)]
        if not found:
            found = [v for v in self._variants if matches(v, False)]
        if not found:
            found = self._cast_inputs(ins)
        if not found:
            raise TypeError("no matching signature of %s() for input types (%s); signatures: %s"
                            % (self.__name__, ", ".join(_describe(a) for a in ins),
                               ", ".join(self.types)))
        if len(found) > 1:
            raise TypeError("ambiguous call to %s(): the scalar inputs fit signatures %s; pass a "
                            "NumPy scalar (np.float32(x)) to choose one"
                            % (self.__name__, ", ".join(v.letters(self.nin) for v in found)))
        return found[0]

    def _cast_inputs(self, ins):
        """numba-cuda's fallback: the first signature (in declaration order) each of whose input
        dtypes NumPy can cast to the given one's; host inputs are converted to it (the course's
        float32 l2_norm on float64 coordinates), device arrays cannot be."""
        for v in self._variants:
            if all(a.kind == "scalar" or np.can_cast(d, a.dtype) for a, d in zip(ins, v.in_dtypes)):
                for a, d in zip(ins, v.in_dtypes):
                    if a.kind == "device" and a.dtype != d:
                        raise TypeError("compatible signature is possible by casting but %s does not "
                                        "support .astype()" % type(a.value))
                    if a.kind == "host" and a.dtype != d:
                        a.value, a.dtype = a.value.astype(d), np.dtype(d)
                return [v]
        return []

    def __call__(self, *args, **kwargs):
        out = kwargs.pop("out", None)
        stream = kwargs.pop("stream", 0)
        if kwargs:
            raise TypeError("%s() got an unexpected keyword argument %r"
                            % (self.__name__, next(iter(kwargs))))
        outs = self._given_outputs(args, out)
        ins = [_In(a) for a in args[:self.nin]]
        sizes, loop = self._schedule(ins)
        v = self._select(ins)
        out_shapes = [loop + tuple(sizes[s] for s in core) for core in self._outputs]
        device_result = self._check_outputs(outs, out_shapes, v)
        device_result = device_result or any(a.kind == "device" for a in ins)
        in_modes, kargs = self._input_args(v, ins, stream)
        results, kouts, zero_d = self._output_args(v, outs, out_shapes, device_result, stream)
        n = 1
        for d in loop:
            n *= d
        if n > 0:
            kernel = self._kernel(v, len(loop), tuple(in_modes))
            threads = min(self._THREADS, (n + 31) // 32 * 32)
            blocks = min((n + threads - 1) // threads, self._MAX_BLOCKS)
            kernel[blocks, threads, stream](n, *kargs, *kouts)
        for j in zero_d:
            # A 0-d device output was written through a 1-element array (a DeviceNDArray has no
            # reshape yet); the one value goes through the host.
            value = kouts[j].copy_to_host(stream=stream).reshape(())
            if results[j] is None:
                from . import cuda as _cuda
                results[j] = _cuda.to_device(value, stream=stream)
            else:
                results[j].copy_to_device(value, stream=stream)
        return results[0] if self.nout == 1 else tuple(results)

    def _given_outputs(self, args, out):
        """The outputs passed positionally or as out= (None where not given)."""
        from . import cuda as _cuda
        nin, nout = self.nin, self.nout
        if len(args) not in (nin, nin + nout):
            def pos(n):
                return "%d positional argument%s" % (n, "s" * (n != 1))

            # numba-cuda's message, word for word (its tests match it)
            raise TypeError("This gufunc accepts %s (when providing input only) or %s (when "
                            "providing input and output). Got %s."
                            % (pos(nin), pos(nin + nout), pos(len(args))))
        outs = [None] * nout
        if len(args) > nin:
            if out is not None:
                raise ValueError("cannot specify argument 'out' as both positional and keyword")
            outs = list(args[nin:])
        elif out is not None:
            if nout == 1:
                outs = [out[0] if isinstance(out, tuple) and len(out) == 1 else out]
            elif isinstance(out, tuple) and len(out) == nout:
                outs = list(out)
            else:
                raise TypeError("%s() has %d outputs: pass out= as a tuple of %d arrays"
                                % (self.__name__, nout, nout))
        for j, o in enumerate(outs):
            if o is None:
                continue
            if isinstance(o, np.ndarray):
                if not o.flags.writeable:
                    raise ValueError("%s(): output #%d is a read-only array"
                                     % (self.__name__, j + 1))
            elif _cuda.is_cuda_array(o):
                if not isinstance(o, _cuda.DeviceNDArray):
                    outs[j] = _cuda.to_device(o)  # a __cuda_array_interface__ object: no copy
                if outs[j]._readonly:  # a read-only __cuda_array_interface__ or DLPack tensor
                    raise ValueError("%s(): output #%d is a read-only array"
                                     % (self.__name__, j + 1))
            else:
                raise TypeError("%s(): output #%d must be a NumPy array or a device array, got %s"
                                % (self.__name__, j + 1, type(o).__name__))
        return outs

    def _schedule(self, ins):
        """The size of each core dimension ({name: size}) and the broadcast loop shape."""
        sizes, first = {}, {}
        loop_shapes = []
        for i, (a, core) in enumerate(zip(ins, self._inputs)):
            nc = len(core)
            if len(a.shape) < nc:
                raise ValueError("%s(): arg #%d has %d dimension(s), fewer than its %d core "
                                 "dimension(s) (%s) in layout %r (insufficient inner dimension)"
                                 % (self.__name__, i + 1, len(a.shape), nc, ",".join(core),
                                    self.signature))
            split = len(a.shape) - nc
            for axis, (sym, size) in enumerate(zip(core, a.shape[split:])):
                if sym in sizes and sizes[sym] != size:
                    raise ValueError(
                        "%s(): core dimension %r mismatch: arg #%d has %s = %d (shape[%d] of %s), "
                        "but arg #%d has %s = %d (layout %r)"
                        % (self.__name__, sym, i + 1, sym, size, split + axis, a.shape,
                           first[sym], sym, sizes[sym], self.signature))
                sizes.setdefault(sym, size)
                first.setdefault(sym, i + 1)
            loop_shapes.append(a.shape[:split])
        try:
            loop = tuple(np.broadcast_shapes(*loop_shapes))
        except ValueError:
            raise ValueError("%s(): outer dimension mismatch: the loop dimensions of the inputs "
                             "(%s) cannot be broadcast together (layout %r)"
                             % (self.__name__, ", ".join(str(s) for s in loop_shapes),
                                self.signature)) from None
        return sizes, loop

    def _check_outputs(self, outs, out_shapes, v):
        """Checks the given outputs' shapes and dtypes; True if one is a device array."""
        device = False
        for j, o in enumerate(outs):
            if o is None:
                continue
            device = device or not isinstance(o, np.ndarray)
            if tuple(o.shape) != out_shapes[j]:
                raise ValueError("%s(): output #%d has shape %s, but the inputs give %s (output "
                                 "shape mismatch)" % (self.__name__, j + 1, tuple(o.shape),
                                                      out_shapes[j]))
            if np.dtype(o.dtype) != v.out_dtypes[j]:
                raise TypeError("%s(): output #%d has dtype %s, but signature %s writes %s "
                                "(incompatible dtype)" % (self.__name__, j + 1, np.dtype(o.dtype),
                                                          v.letters(self.nin), v.out_dtypes[j]))
        return device

    def _input_args(self, v, ins, stream):
        """Each input's mode (None: passed as a scalar; else its number of loop dimensions) and
        the kernel argument for it."""
        from . import cuda as _cuda
        in_modes, kargs = [], []
        for i, a in enumerate(ins):
            t = v.args[i]
            if a.kind == "scalar" or len(a.shape) == 0:  # also a 0-d device array
                value = a.value if a.kind == "scalar" else a.value.copy_to_host(stream=stream)[()]
                if t.ndim is None:
                    in_modes.append(None)
                    kargs.append(t.dtype.type(value))
                else:  # a '()' input declared as a 1-D array gets a 1-element array
                    in_modes.append(0)
                    kargs.append(np.full(1, value, dtype=t.dtype))
                continue
            in_modes.append(len(a.shape) - len(self._inputs[i]))
            if a.kind == "host":
                # An input is copied in and never back, as in Numba, where the kernel sees a
                # writeable device copy even of a read-only host array. (A read-only view would
                # be typed as a read-only array: no declared signature fits it.)
                kargs.append(_cuda.to_device(a.value, stream=stream))
            elif getattr(a.value, "_readonly", False):
                # A read-only device input (a read-only __cuda_array_interface__ or DLPack
                # tensor): the wrapper kernel's declared signature takes writeable arrays only,
                # so it gets a device copy, as a host input does.
                copy = _cuda.device_array(a.value.shape, a.value.dtype, stream=stream)
                copy.copy_to_device(a.value, stream=stream)
                kargs.append(copy)
            else:
                kargs.append(a.value)
        return in_modes, kargs

    def _output_args(self, v, outs, out_shapes, device_result, stream):
        """(what the call returns, what the kernel writes, outputs to copy back as 0-d device
        arrays). A 0-d output is written through a 1-element array."""
        from . import cuda as _cuda
        results, kouts, zero_d = [], [], []
        for j, (shape, given) in enumerate(zip(out_shapes, outs)):
            dtype = v.out_dtypes[j]
            if given is None and not device_result:
                given = np.empty(shape, dtype)
            elif given is None and shape:
                given = _cuda.device_array(shape, dtype, stream=stream)
            if isinstance(given, np.ndarray):
                kout = given if shape else given.reshape(1)  # a 0-d array's reshape is a view
            elif shape:
                kout = given
            else:  # a 0-d device output (given, or None: made after the launch)
                kout = _cuda.device_array((1,), dtype, stream=stream)
                zero_d.append(j)
            results.append(given)
            kouts.append(kout)
        return results, kouts, zero_d


_TARGETS = ("cuda", "cpu", "parallel")


def guvectorize(ftylist=None, signature=None, target="cpu", identity=None, nopython=True,
                cache=False, fastmath=False, writable_args=(), **options):
    """Compile a function on core sub-arrays into a generalized ufunc (Numba's
    ``numba.guvectorize``).

    ``ftylist``: the signatures, as strings ('void(float32[:], float32[:], float32[:])') or type
    expressions (void(float32[:], float32[:], float32[:])). ``signature``: the layout, such as
    '(n),(n)->()' or '(m,n),(n,p)->(m,p)'. ``target``: 'cuda' for the GPU (or the simulator);
    'cpu' (the default) and 'parallel' make a NumPy gufunc (cpu_ufunc.py); there, a layout alone
    (``@guvectorize('(n)->()')``) gives a GUFunc that compiles for the types of each call, which
    must then pass every output. The rest describes the CUDA target.

    A '()' input declared as a scalar is passed to the function as a scalar; a '()' output is
    declared as a 1-D array and written as ``res[0] = ...``. The call follows Numba's CUDA gufunc,
    except: (1) loop dimensions broadcast by NumPy's rules (Numba accepts only equal loop shapes,
    or () and (1,)); (2) a signature is selected like a CUDA ufunc's: array inputs must match its
    dtypes exactly and scalars adapt (Numba also casts host arrays to the first signature they
    can be cast from); (3) an empty loop returns empty outputs (Numba fails); (4) outputs declared
    as scalars, layouts without '->' or without outputs, and a function whose argument count
    differs from the layout are refused at the decorator.
    """
    if target not in _TARGETS:
        raise ValueError("unknown guvectorize target %r: use one of %s"
                         % (target, ", ".join(_TARGETS)))
    if ftylist is not None and callable(ftylist) and not isinstance(ftylist, (list, tuple, str)):
        raise TypeError("@guvectorize needs a list of signatures and a layout, as in "
                        "@guvectorize(['void(float32[:], float32[:], float32[:])'], "
                        "'(n),(n)->()', target='cuda')")
    if target != "cuda":
        return _cpu_guvectorize(ftylist, signature, target)
    if signature is None:
        if isinstance(ftylist, str) and "->" in ftylist:
            raise TypeError("@guvectorize(target='cuda') needs explicit signatures before the "
                            "layout, as in @guvectorize(['void(float32[:], float32[:])'], %r, "
                            "target='cuda')" % ftylist)
        raise TypeError("@guvectorize needs a layout such as '(n),(n)->()' as its second "
                        "argument")
    if writable_args:
        raise TypeError("writable_args are not supported by CUDA gufuncs")
    if not nopython:  # numba-cuda's refusals, word for word
        raise TypeError("nopython flag must be True")
    if options:
        raise TypeError("The following target options are not supported: %s"
                        % ", ".join(repr(k) for k in options))
    if ftylist is None or (isinstance(ftylist, (list, tuple)) and not ftylist):
        raise TypeError("@guvectorize(target='cuda') needs explicit signatures, as in "
                        "@guvectorize(['void(float32[:], float32[:], float32[:])'], "
                        "'(n),(n)->()', target='cuda')")
    if not isinstance(ftylist, (list, tuple)):
        ftylist = [ftylist]
    parse_layout(signature)  # layout errors show even before the function is seen

    def wrap(func):
        return CUDAGUFunc(func, list(ftylist), signature)

    return wrap


def _cpu_guvectorize(ftylist, layout, target):
    """guvectorize's 'cpu' and 'parallel' targets (cpu_ufunc.py): the decorator."""
    from .cpu_ufunc import GUFunc, make_gufunc
    if layout is None and isinstance(ftylist, str) and "->" in ftylist:
        layout, ftylist = ftylist, None  # @guvectorize('(n)->()'): compiled per call
    if layout is None:
        raise TypeError("@guvectorize needs a layout such as '(n),(n)->()' as its second "
                        "argument")
    parse_layout(layout)  # layout errors show even before the function is seen
    if ftylist is not None and not isinstance(ftylist, (list, tuple)):
        ftylist = [ftylist]

    def wrap(func):
        if not ftylist:
            return GUFunc(func, layout, target)
        return make_gufunc(func, list(ftylist), layout, target)

    return wrap
