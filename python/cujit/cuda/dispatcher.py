"""@cuda.jit: kernels (launched as f[blocks, threads](...)) and device functions.

A kernel's dispatcher is the C++ _core.Kernel: it fingerprints argument types, compiles on a miss
and launches, with no Python on the way. Device functions are only compiled as part of the
kernels and ufuncs that call them.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

from .. import _core
from .. import config
from .. import types as _t
from ..errors import NumbaInvalidConfigWarning
from ..decorators import capture, snapshot, source
from ..types import signature_string
from .compiler import nvrtc_flags


class _FunctionDescriptor:
    """What numba-cuda's tests read of a compiled device function's descriptor: its names."""

    def __init__(self, mangled_name, qualname):
        self.mangled_name = mangled_name
        self.qualname = qualname


class DeviceCompileResult:
    """One compilation of a device function for some argument types (``compile_device``): its
    signature, and its code on demand, compiled on its own with an ``extern "C"`` entry named
    ``fndesc.mangled_name`` (Numba's ABI: ``int name(RET* ret, args...)``)."""

    def __init__(self, device_function, args, return_type):
        from .compiler import _c_name, _type_object
        self._devfn = device_function
        self.fndesc = _FunctionDescriptor(_mangled(_c_name(device_function.__name__), args),
                                          getattr(device_function.py_func, "__qualname__", ""))
        sig = "%s(%s)" % (return_type or "", ", ".join(self._args_text(args)))
        # Typing now, as Numba's compile does: a function that does not type is refused here.
        _, resty = _core.generate_device_source(capture(device_function.py_func),
                                                self._args_text(args), str(return_type or ""),
                                                False, self.fndesc.mangled_name)
        self.signature = _t.Signature(_type_object(resty), args)
        self._sig_text = sig
        self._ptx = {}

    @staticmethod
    def _args_text(args):
        return [signature_string(a) if isinstance(a, _t.Type) else str(a) for a in args]

    def _code(self, what):
        if _core.simulator_enabled():
            raise AttributeError("inspect_%s: the simulator compiles device functions for the CPU, "
                                 "not to PTX (numba-cuda's simulator has no such method either)" % what)
        from .compiler import _compile, _current_cc
        opts = self._devfn.targetoptions
        cc = _current_cc()
        if cc not in self._ptx:
            self._ptx[cc] = _compile(self._devfn.py_func, self.signature, opts.get("debug"),
                                     opts.get("lineinfo"), True, opts.get("fastmath"), cc,
                                     opts.get("opt"), "numba", {"abi_name": self.fndesc.mangled_name},
                                     "ptx", False, None)[0]
        return self._ptx[cc]

    def inspect_asm(self):
        return self._code("asm")

    def inspect_llvm(self):
        """cujit has no LLVM IR: the generated CUDA C++ of the function alone, which NVRTC
        compiles (it says so on its first line)."""
        source, _ = _core.generate_device_source(capture(self._devfn.py_func),
                                                 self._args_text(self.signature.args),
                                                 str(self.signature.return_type), False,
                                                 self.fndesc.mangled_name)
        return _LLVM_NOTE.replace("this kernel", "this device function") + source


_ITANIUM = {"boolean": "b", "int8": "a", "uint8": "h", "int16": "s", "uint16": "t", "int32": "i",
            "uint32": "j", "int64": "x", "uint64": "y", "float32": "f", "float64": "d"}


def _mangled(name, args):
    """A C++-style mangled name in a namespace of cujit's own (``_ZN5cujit3fooEii``), as Numba
    mangles its device functions: the entry never collides with a CUDA function of the same
    Python name (a device function called ``cos``)."""
    codes = "".join(_ITANIUM.get(signature_string(a) if isinstance(a, _t.Type) else str(a), "v")
                    for a in args) or "v"
    return "_ZN5cujit%d%sE%s" % (len(name), name, codes)


def _args_of(signature):
    """(argument types, return type or None) of a signature given as numba-cuda's device
    functions take it: a string, a Signature, or a tuple of argument types."""
    if isinstance(signature, _t.Signature):
        return tuple(signature.args), signature.return_type
    if isinstance(signature, str):
        ret, args = _core.parse_signature(signature)
        return tuple(_type_named(a) for a in args), (_type_named(ret) if ret else None)
    if isinstance(signature, _t.Type):
        signature = (signature,)
    return tuple(signature), None


class DeviceFunction:
    """A ``@cuda.jit(device=True)`` function: callable from kernels, ufuncs and other device
    functions. It is typed at each call site for the argument types found there.

    As numba-cuda's device dispatcher, it also compiles on its own (``compile_device(args)``)
    for inspection: ``inspect_asm(args)`` is the PTX of the function alone (NVRTC's, for the
    current device) and ``inspect_llvm(args)`` the CUDA C++ cujit generated; signatures given to
    the decorator are compiled that way when first inspected."""

    def __init__(self, func, signatures=(), targetoptions=None):
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.targetoptions = dict(targetoptions or {}, device=True)
        self._declared = [_args_of(s) for s in signatures]
        self._overloads = {}
        # The text now (a file edited later is refused, not compiled); the globals are read with
        # the compile of each kernel or ufunc that calls it.
        source(func)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s() is a CUDA device function: call it from a kernel, a CUDA ufunc or "
                           "another device function, or call %s.py_func(...) for the Python "
                           "version" % (self.__name__, self.__name__))

    def __getitem__(self, config):
        raise RuntimeError("Cannot compile a device function as a kernel")  # numba-cuda's words

    def __reduce__(self):
        from .. import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("device", self.py_func, {
            "signatures": self._declared_strings(), "targetoptions": self.targetoptions})

    def _declared_strings(self):
        """The declared signatures as the core parses them: 'int32(int32, int32)', '(float64)'."""
        return ["%s(%s)" % ("" if ret is None else signature_string(ret),
                            ", ".join(signature_string(a) if isinstance(a, _t.Type) else str(a) for a in args))
                for args, ret in self._declared]

    def _signature_list(self):
        return [(args if ret is None else _t.Signature(ret, args)) for args, ret in self._declared]

    @staticmethod
    def _key(args):
        return tuple(signature_string(a) if isinstance(a, _t.Type) else str(a) for a in args)

    def compile_device(self, args, return_type=None):
        """Types (compiles) the function for the argument types ``args`` (a tuple of types) and
        returns the compile result (``.signature``, ``.fndesc.mangled_name``, its PTX by
        ``inspect_asm``), kept for later calls."""
        args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
        key = self._key(args)
        if key not in self._overloads:
            self._overloads[key] = DeviceCompileResult(self, args, return_type)
        return self._overloads[key]

    def _compile_declared(self):
        for args, ret in self._declared:
            self.compile_device(args, ret)

    @property
    def overloads(self):
        """argument types -> compile result, for the signatures compiled so far (declared ones
        included)."""
        self._compile_declared()
        return {cres.signature.args: cres for cres in self._overloads.values()}

    @property
    def signatures(self):
        return list(self.overloads)

    def _result(self, signature):
        self._compile_declared()
        args, ret = _args_of(signature)
        key = self._key(args)
        if key not in self._overloads:
            raise KeyError("%s() has no compiled signature %s; compiled: %s (compile_device(args) "
                           "compiles one)" % (self.__name__, args, list(self._overloads) or "none"))
        return self._overloads[key]

    def inspect_asm(self, signature=None):
        """The PTX of the function compiled on its own for ``signature`` (a tuple of argument
        types), or a dict of them for every compiled signature."""
        if signature is not None:
            return self._result(signature).inspect_asm()
        return {args: cres.inspect_asm() for args, cres in self.overloads.items()}

    def inspect_llvm(self, signature=None):
        """cujit has no LLVM IR: the generated CUDA C++ (see DeviceCompileResult.inspect_llvm)."""
        if signature is not None:
            return self._result(signature).inspect_llvm()
        return {args: cres.inspect_llvm() for args, cres in self.overloads.items()}

    def inspect_sass(self, signature=None):
        raise RuntimeError("Cannot inspect SASS of a device function")  # numba-cuda's words

    def __repr__(self):
        return "<cujit CUDA device function %s (compiled into each kernel or ufunc that calls it)>" % (
            self.__name__)


_LLVM_NOTE = ("// cujit has no LLVM IR: inspect_llvm() returns the CUDA C++ that cujit generated for "
              "this kernel (prelude included), which NVRTC compiles\n")


class _TypeName(_t.Type):
    """A type the core names that has no cujit type object (a read-only array, a tuple)."""

    def __init__(self, name):
        self.name = name


def _type_named(name):
    """The type object for a type the core names ('float64', 'array(float32, 1d, C)'), so that
    the keys of ``overloads`` are cujit's types (``float32[::1]``)."""
    if isinstance(getattr(_t, name, None), _t.ScalarType):
        return getattr(_t, name)
    m = re.match(r"^array\((\w+), (\d+)d, ([CFA])\)$", name)
    if m and isinstance(getattr(_t, m.group(1), None), _t.ScalarType):
        return _t.ArrayType(getattr(_t, m.group(1)), int(m.group(2)), m.group(3))
    return _TypeName(name)


def _threads_of(blockdim):
    """The threads of a block given as an int or a tuple of up to three ints."""
    threads = 1
    for d in (blockdim if isinstance(blockdim, tuple) else (blockdim,)):
        threads *= int(d)
    return threads


class _KernelOverload:
    """One compiled specialisation of a kernel (a value of ``Dispatcher.overloads``)."""

    def __init__(self, dispatcher, index, arg_types):
        self._dispatcher = dispatcher
        self._index = index
        self.signature = tuple(_type_named(t) for t in arg_types)
        self.argtypes = self.signature

    @property
    def source(self):
        """The generated CUDA C++ (prelude included)."""
        return self._dispatcher._info(self._index, False)["cuda_source"]

    def inspect_llvm(self):
        return self._dispatcher._inspect("llvm", self._index)

    def inspect_asm(self, cc=None):
        return self._dispatcher._inspect("asm", self._index, cc)

    def inspect_sass(self):
        return self._dispatcher._inspect("sass", self._index)

    @property
    def cooperative(self):
        """Whether this specialisation uses cuda.cg.this_grid() (it is launched cooperatively)."""
        return self._dispatcher.cooperative(self._index)

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks of ``blockdim`` (an int or a tuple) a cooperative launch of this
        specialisation may have on the current device."""
        return self._dispatcher._max_cooperative_grid_blocks(self._index, _threads_of(blockdim), dynsmemsize)

    def __getattr__(self, name):
        if name in ("regs_per_thread", "shared_mem_per_block", "const_mem_size", "local_mem_per_thread",
                    "max_threads_per_block"):
            return self._dispatcher._attribute(name, self._index)
        raise AttributeError(name)

    def __repr__(self):
        return "<compiled kernel %s%r>" % (self._dispatcher.__name__, self.signature)


class ForAll:
    """``kernel.forall(ntasks)``: a 1-D launch of enough blocks for ``ntasks`` threads."""

    def __init__(self, dispatcher, ntasks, tpb=0, stream=0, sharedmem=0):
        if ntasks < 0:
            raise ValueError("Can't create ForAll with negative task count: %s" % ntasks)
        self.dispatcher = dispatcher
        self.ntasks = ntasks
        self.thread_per_block = tpb
        self.stream = stream
        self.sharedmem = sharedmem

    def __call__(self, *args):
        if self.ntasks == 0:
            return None
        d = self.dispatcher
        specialized = d if d.specialized else d.specialize(*args)
        tpb = self.thread_per_block or specialized._block_size_for_forall(self.sharedmem)
        griddim = (self.ntasks + tpb - 1) // tpb
        return specialized[griddim, tpb, self.stream, self.sharedmem](*args)


class Dispatcher(_core.Kernel):
    """A ``@cuda.jit`` kernel. Launch it as ``kernel[blocks, threads](args...)`` or
    ``kernel[blocks, threads, stream, sharedmem](args...)``."""

    def __init__(self, func, signatures=(), debug=False, lineinfo=False, link=None, targetoptions=None,
                 specialized=False):
        self.py_func = func
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.debug = bool(debug)
        self.targetoptions = dict(targetoptions or {}, debug=self.debug, lineinfo=bool(lineinfo))
        opts = self.targetoptions
        # debug=True is not -G here: it checks indices (below); -G would make every kernel slow.
        flags = nvrtc_flags(lineinfo=lineinfo, opt=opts.get("opt", True), fastmath=opts.get("fastmath"),
                            max_registers=opts.get("max_registers"), launch_bounds=opts.get("launch_bounds"))
        # One signature given alone (not in a list) makes a specialized kernel, as in numba-cuda.
        self._specialized = bool(specialized)
        self.specializations = {}
        ext = opts.get("extensions")
        self._extensions = list(ext) if ext is not None else []
        # CUJIT_BOUNDSCHECK=1 / NUMBA_BOUNDSCHECK=1 check the GPU's indices as debug=True does (the
        # simulator always checks), where numba-cuda's kernels would end the thread without a word.
        checks = self.debug or config.BOUNDSCHECK is True
        # The text now; the globals when a specialisation compiles (here for declared signatures,
        # else at the first launch with new argument types), as Numba reads them.
        # link=: code (CUDA C++, PTX, ...) defining the foreign functions the kernel calls.
        from .compiler import _link_items
        link_items = _link_items(link, "cuda.jit(link=...) of %s" % func.__name__)
        super().__init__(source(func), [signature_string(s) for s in signatures], checks,
                         snapshot=snapshot(func, link_items), nvrtc_flags=flags)
        self._link = link
        self._declared_sigs = [signature_string(s) for s in signatures]  # for pickling
        from ..cpu import _needs_folding
        self._folds = _needs_folding(func)
        self._set_extensions(self._core_extensions())

    def __reduce__(self):
        """By value (cujit/_pickle.py): the function, its signatures and options."""
        from .. import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("kernel", self.py_func, {
            "signatures": self._declared_sigs, "debug": self.debug,
            "lineinfo": self.targetoptions.get("lineinfo", False), "link": self._link,
            "targetoptions": self.targetoptions, "specialized": self._specialized})

    def __call__(self, *args, **kwargs):
        # A ValueError, as numba-cuda raises for a kernel called like a function.
        raise ValueError("Kernel launch configuration was not specified for %s(). Use the syntax:\n\n"
                         "    %s[blockspergrid, threadsperblock](arg0, arg1, ..., argn)\n"
                         % (self.__name__, self.__name__))

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks of ``blockdim`` (an int or a tuple) a cooperative launch of this
        kernel may have on the current device (numba-cuda's overload method; here for a kernel
        with exactly one compiled signature)."""
        n = len(self.signatures)
        if n != 1:
            raise TypeError("max_cooperative_grid_blocks: %s() has %d compiled signatures; compile "
                            "exactly one (cuda.jit(signature)) or launch it once first" % (self.__name__, n))
        return self._max_cooperative_grid_blocks(0, _threads_of(blockdim), dynsmemsize)

    # ---- Launch helpers ----

    @property
    def extensions(self):
        """numba-cuda's kernel extensions: objects with ``prepare_args(ty, val, stream=, retr=)``
        returning ``(ty, val)``, applied to each argument from the last extension to the first
        before a launch; the functions they append to ``retr`` run after it. The list may be
        changed in place."""
        return self._extensions

    @extensions.setter
    def extensions(self, value):
        self._extensions = list(value)
        self._set_extensions(self._core_extensions())

    def _core_extensions(self):
        """What the core is told of the extensions: a kernel with defaults or *args also has its
        launches go through _prepare_launch, which folds their arguments."""
        return self._extensions if self._extensions or not self._folds else [None]

    def _prepare_launch(self, args, stream):
        """(arguments to launch with, functions to call after the launch): the extensions'
        prepare_args, then the copy hints (cuda.In/Out/InOut) unwrapped. Called by the core for a
        launch with extensions or hints."""
        from .args import ArgHint
        if self._folds:  # defaults filled in, *args as one tuple (numba-cuda's fold_arguments)
            from ..cpu import fold_arguments
            args = fold_arguments(self.py_func, args, {})
        retr = []
        out = []
        for val in args:
            try:
                ty = _t.typeof(val.value if isinstance(val, ArgHint) else val)
            except (NotImplementedError, TypeError):
                ty = None
            for ext in reversed(self._extensions):
                ty, val = ext.prepare_args(ty, val, stream=stream, retr=retr)
            if isinstance(val, ArgHint):
                val = val.to_device(retr, stream=stream)
            out.append(val)
        return tuple(out), retr

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A 1-D launch configuration for ``ntasks`` threads (the kernel checks ``cuda.grid(1) <
        ntasks``): ``kernel.forall(n)(args...)``. Without ``tpb``, the block size is the largest
        the compiled kernel can be launched with on the GPU (numba-cuda asks the driver's
        occupancy calculator), 256 on the simulator."""
        return ForAll(self, ntasks, tpb=tpb, stream=stream, sharedmem=sharedmem)

    def _block_size_for_forall(self, sharedmem):
        if _core.simulator_enabled():
            return 256
        return min(1024, self._attribute("max_threads_per_block", 0))

    # ---- Specialisation ----

    @property
    def specialized(self):
        """True for a dispatcher made by ``specialize()``: it compiles nothing but its one
        signature."""
        return self._specialized

    def specialize(self, *args):
        """A new dispatcher compiled for the types of ``args`` only (as a declared signature)."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        from .args import ArgHint

        def type_of(a):  # a value, or a type object (numba-cuda's tests pass float32[::1])
            if isinstance(a, _t.Type):
                return a
            return _t.typeof(a.value if isinstance(a, ArgHint) else a)
        argtypes = tuple(type_of(a) for a in args)
        key = (_core.simulator_enabled(), argtypes)
        hit = self.specializations.get(key)
        if hit is not None:
            return hit
        opts = dict(self.targetoptions)
        spec = Dispatcher(self.py_func, [argtypes], link=self._link, debug=opts.pop("debug"), lineinfo=opts.pop("lineinfo"),
                          targetoptions=opts, specialized=True)
        spec.extensions = self._extensions
        self.specializations[key] = spec
        return spec

    # ---- Introspection ----

    @property
    def overloads(self):
        """The compiled specialisations: argument-type tuple -> compiled kernel. Keys compare equal
        to tuples of cujit types: ``(cujit.float32[::1],) in k.overloads``."""
        return {tuple(_type_named(t) for t in sig): _KernelOverload(self, i, sig)
                for i, sig in enumerate(self._signatures)}

    def _indices(self, signature):
        """The specialisations a ``signature`` argument names (all, when None)."""
        sigs = self._signatures
        if signature is None:
            return list(range(len(sigs)))
        args = signature.args if hasattr(signature, "args") else signature
        if not isinstance(args, (tuple, list)):
            args = (args,)
        want = list(_core.parse_signature("(%s)" % ", ".join(str(t) for t in args))[1])
        for i, s in enumerate(sigs):
            if list(s) == want:
                return [i]
        raise KeyError("%s() has no specialisation for %s; compiled: %s"
                       % (self.__name__, tuple(args), ", ".join(self.signatures) or "none"))

    def _by_signature(self, signature, one):
        idx = self._indices(signature)
        if signature is not None:
            return one(idx[0])
        if self._specialized and idx:
            return one(idx[0])
        return {tuple(_type_named(t) for t in self._signatures[i]): one(i) for i in idx}

    def _attribute(self, name, index):
        if _core.simulator_enabled():
            # numba-cuda's simulator kernels have none of these methods; cujit's say why.
            raise AttributeError("%s: the simulator runs kernels on the CPU, where a kernel has no "
                                 "registers or GPU memory to report (numba-cuda's simulator has no "
                                 "such method either)" % name)
        return self._info(index, True)[name]

    def _inspect(self, what, index, cc=None):
        if what == "llvm":
            return _LLVM_NOTE + self._info(index, False)["cuda_source"]
        if _core.simulator_enabled():
            raise AttributeError("inspect_%s: the simulator compiles kernels for the CPU, not to %s "
                                 "(numba-cuda's simulator has no such method either)"
                                 % (what, "PTX" if what == "asm" else "SASS"))
        from .devices import get_current_device
        if cc is None:
            cc = get_current_device().compute_capability
        if what == "asm":
            return self._image(index, "compute_%d%d" % tuple(cc)).decode().rstrip("\0")
        return _sass(self._image(index, "sm_%d%d" % tuple(cc)))

    def get_regs_per_thread(self, signature=None):
        """Registers each thread of the compiled kernel uses (the driver's answer for the current
        device): for ``signature``, else a dict over the specialisations (the value itself for
        a specialized dispatcher)."""
        return self._by_signature(signature, lambda i: self._attribute("regs_per_thread", i))

    def get_shared_mem_per_block(self, signature=None):
        """Static shared memory per block, in bytes (as get_regs_per_thread)."""
        return self._by_signature(signature, lambda i: self._attribute("shared_mem_per_block", i))

    def get_const_mem_size(self, signature=None):
        return self._by_signature(signature, lambda i: self._attribute("const_mem_size", i))

    def get_local_mem_per_thread(self, signature=None):
        return self._by_signature(signature, lambda i: self._attribute("local_mem_per_thread", i))

    def get_max_threads_per_block(self, signature=None):
        return self._by_signature(signature, lambda i: self._attribute("max_threads_per_block", i))

    def inspect_llvm(self, signature=None):
        """cujit has no LLVM IR: the generated CUDA C++ of the specialisation for ``signature``
        (a tuple of argument types), or a dict of them, each starting with a comment saying so."""
        idx = self._indices(signature)
        if signature is not None:
            return self._inspect("llvm", idx[0])
        return {tuple(_type_named(t) for t in self._signatures[i]): self._inspect("llvm", i) for i in idx}

    def inspect_asm(self, signature=None):
        """The PTX (NVRTC's, for the current device) of the specialisation for ``signature``, or a
        dict of them."""
        idx = self._indices(signature)
        if signature is not None:
            return self._inspect("asm", idx[0])
        return {tuple(_type_named(t) for t in self._signatures[i]): self._inspect("asm", i) for i in idx}

    def inspect_lto_ptx(self, signature=None):
        """numba-cuda's PTX after link-time optimisation: cujit's PTX is already that of the whole
        program (one NVRTC unit), so this is inspect_asm."""
        return self.inspect_asm(signature)

    def inspect_sass(self, signature=None):
        """The SASS of the specialisation for ``signature`` (or a dict of them), disassembled
        from NVRTC's CUBIN by the CUDA toolkit's nvdisasm, which must be installed."""
        idx = self._indices(signature)
        if signature is not None:
            return self._inspect("sass", idx[0])
        return {tuple(_type_named(t) for t in self._signatures[i]): self._inspect("sass", i) for i in idx}

    def inspect_types(self, file=None):
        """Print each specialisation's source annotated with the types inference gave its
        variables, calls and results (Numba prints its IR there; the types are the same)."""
        out = file if file is not None else sys.stdout
        for text in self._annotations():
            print(text, file=out)

    def __repr__(self):
        name = getattr(self, "__name__", "?")
        try:
            sigs = self.signatures
        except TypeError:  # its __init__ raised: no core object behind it
            return "<cujit CUDA kernel %s (not initialised)>" % name
        return "<cujit CUDA kernel %s, %s>" % (
            name, "compiled for " + ", ".join(sigs) if sigs else "not compiled yet")


def _nvdisasm():
    found = shutil.which("nvdisasm")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.isfile(os.path.join(root, "bin", "nvdisasm")):
            return os.path.join(root, "bin", "nvdisasm")
    return None


def _sass(cubin):
    tool = _nvdisasm()
    if tool is None:
        raise RuntimeError("inspect_sass() needs the CUDA toolkit's nvdisasm, which was not found on "
                           "the PATH, in $CUDA_HOME/bin or in /usr/local/cuda/bin")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        r = subprocess.run([tool, f.name], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("nvdisasm failed: " + r.stderr.strip())
    return r.stdout


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
    if options.pop("lto", False):
        # cujit compiles the whole program (kernel, device functions, prelude) as one NVRTC unit,
        # which is what link-time optimisation gives numba-cuda, so lto=True changes nothing and
        # inspect_lto_ptx is that unit's PTX. Where numba-cuda would refuse (no nvJitLink), so does
        # cujit, with its message.
        from .cudadrv.driver import _have_nvjitlink
        if not _have_nvjitlink():
            raise RuntimeError("LTO requires nvjitlink, which is not available or not sufficiently "
                               "recent (>=12.3)")
    if options.get("boundscheck"):  # numba-cuda's refusal, word for word
        raise NotImplementedError("bounds checking is not supported for CUDA")
    sigs = ()
    specialized = False
    if func_or_sig is not None and not callable(func_or_sig) or isinstance(func_or_sig, (list, tuple)):
        sigs = _signature_list(func_or_sig)
        specialized = not isinstance(func_or_sig, list)
        func_or_sig = None

    link = options.get("link")
    targetoptions = dict(options, fastmath=fastmath, opt=opt, cache=cache, inline=inline)

    def wrap(func):
        if device:
            if link:
                raise NotImplementedError("cuda.jit(device=True, link=...): give link= to the kernel "
                                          "or to cuda.declare_device")
            return DeviceFunction(func, sigs, targetoptions=dict(targetoptions, debug=debug, lineinfo=lineinfo))
        return Dispatcher(func, sigs, debug=debug, lineinfo=lineinfo, link=link, targetoptions=targetoptions,
                          specialized=specialized)

    if func_or_sig is not None:
        return wrap(func_or_sig)
    return wrap
