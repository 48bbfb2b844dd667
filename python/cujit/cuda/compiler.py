"""``cuda.compile_ptx`` and its siblings (numba.cuda.compiler), and ``cuda.declare_device``.

cujit compiles a kernel by writing CUDA C++ (generate_kernel_source) and handing it to NVRTC; here
NVRTC is asked for PTX for the requested compute capability. The PTX is cujit's, not Numba's: its
entry names, parameters and code differ. A device function compiled on its own gets an extern "C"
entry (C ABI, or Numba's status-and-pointer ABI, unmangled) in relocatable PTX, or LTO-IR
(output='ltoir': NVRTC's -dlto).
"""

import re

from .. import _core
from ..decorators import capture
from ..errors import TypingError
from ..types import signature_string, void


def _arg_types(sig):
    """(return type, argument types) of a signature, the arguments spelled as signatures spell
    them ('float32[::1]'), which is what generate_kernel_source takes."""
    text = signature_string(sig)
    ret, _ = _core.parse_signature(text)  # refuses a malformed signature, naming the problem
    inner = text[text.index("(") + 1:text.rindex(")")] if "(" in text else ""
    args, depth, cur = [], 0, ""
    for ch in inner:
        depth += ch in "[(" and 1 or (ch in "])" and -1 or 0)
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return ret, args


def _type_object(name):
    """The cujit type object for the core's spelling of a return type."""
    from .. import types as _t
    if name in ("void", "none"):
        return void
    try:
        return _t.boolean if name in ("bool", "boolean") else getattr(_t, name)
    except AttributeError:
        return name


def launch_bounds_flags(launch_bounds):
    """NVRTC's option for numba-cuda's ``launch_bounds`` (an int, or a tuple of max threads per
    block, min blocks per multiprocessor, max blocks per cluster): the kernel's entry is declared
    with ``__launch_bounds__(...)``, which the PTX states as .maxntid / .minnctapersm /
    .maxclusterrank and the driver enforces at launch."""
    if launch_bounds is None:
        return []
    bounds = (launch_bounds,) if isinstance(launch_bounds, int) else tuple(launch_bounds)
    if len(bounds) > 3:  # numba-cuda's words
        raise ValueError("Got %d launch bounds: %s. A maximum of three are supported: "
                         "(max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster)"
                         % (len(bounds), launch_bounds))
    for b in bounds:
        if isinstance(b, bool) or not isinstance(b, int) or b < 0:
            raise TypeError("launch_bounds takes non-negative integers, got %r" % (launch_bounds,))
    return ["-DCJ_LAUNCH_BOUNDS=__launch_bounds__(%s)" % ", ".join(str(b) for b in bounds)]


def nvrtc_flags(debug=False, lineinfo=False, opt=True, fastmath=False, max_registers=None,
                launch_bounds=None):
    """NVRTC's spelling of the options numba-cuda passes to NVVM: debug as -G (DWARF: the PTX has
    .debug_info and .file naming the user's file); -lineinfo; opt=False as ptxas's -O0 (NVRTC has
    no switch to turn its own optimisation off without -G); fastmath as --use_fast_math (flush to
    zero, approximate division, square root and transcendentals: the instructions numba-cuda's
    fastmath gives); --maxrregcount; launch bounds (launch_bounds_flags)."""
    flags = []
    if debug:
        flags.append("-G")
    if lineinfo and not debug:  # -G has the line table already
        flags.append("-lineinfo")
    if max_registers:  # 0 or None: no limit, as in numba-cuda
        if isinstance(max_registers, bool) or not isinstance(max_registers, int) or max_registers < 0:
            raise ValueError("max_registers must be a positive integer, got %r" % (max_registers,))
        flags.append("--maxrregcount=%d" % max_registers)
    if (opt is False or opt == 0) and not debug:
        flags.append("--ptxas-options=-O0")
    if fastmath:
        flags.append("--use_fast_math")
    return flags + launch_bounds_flags(launch_bounds)


def _arch(cc, prefix="compute_"):
    """'compute_90' for (9, 0); an arch-specific or family target keeps its letter: (9, 0, 'a')
    is compute_90a, as numba-cuda spells it."""
    cc = tuple(cc)
    if len(cc) not in (2, 3) or not all(isinstance(c, int) for c in cc[:2]) or (
            len(cc) == 3 and cc[2] not in ("a", "f")):
        raise ValueError("cc must be (major, minor) or (major, minor, 'a' or 'f'), got %r" % (cc,))
    return "%s%d%d%s" % (prefix, cc[0], cc[1], cc[2] if len(cc) == 3 else "")


def _c_name(name):
    """A C identifier made of a Python name ('<lambda>' -> '_lambda_')."""
    name = re.sub(r"\W", "_", name)
    return name if name.isidentifier() else "_" + name


def _compile(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, abi_info, output,
             forceinline, launch_bounds):
    """The code of ``pyfunc`` (PTX text, or LTO-IR bytes with output='ltoir') and its return
    type."""
    from .. import config
    if output not in ("ptx", "ltoir"):  # numba-cuda's words
        raise NotImplementedError("Unsupported output type: %s" % (output,))
    if forceinline and output != "ltoir":  # numba-cuda's words (compile_ptx included)
        raise ValueError("Can only designate forced inlining in LTO-IR")
    if abi not in ("numba", "c"):
        raise NotImplementedError("Unsupported ABI: %s" % (abi,))
    if not device and abi == "c":
        raise NotImplementedError("The C ABI is not supported for kernels")
    if device and launch_bounds is not None:
        raise ValueError("launch_bounds are for kernels (device=False), not device functions")
    pyfunc = getattr(pyfunc, "py_func", pyfunc)
    ret, args = _arg_types(sig)
    cc = tuple(cc) if cc is not None else tuple(config.CUDA_DEFAULT_PTX_CC)
    arch = _arch(cc)
    if debug is None:
        debug = config.CUDA_DEBUGINFO_DEFAULT
    flags = nvrtc_flags(debug=debug, lineinfo=lineinfo, opt=opt is not False, fastmath=fastmath,
                        launch_bounds=launch_bounds)
    if output == "ltoir":
        flags.append("-dlto")
    if device:
        name = (abi_info or {}).get("abi_name")
        if name is None:
            name = _c_name(pyfunc.__name__)
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError("abi_info['abi_name'] must be a C identifier, got %r" % (name,))
        source, resty = _core.generate_device_source(capture(pyfunc), args, ret or "", abi == "c", name)
        # Relocatable code: the function is kept (and visible) for another program to link.
        # forceinline=True (LTO-IR only): the entry is __forceinline__, for the program that links
        # it to inline (what it calls is __forceinline__ already).
        if forceinline:
            flags.append("-DCJ_DEVICE_ENTRY=__forceinline__")
        result = _core.nvrtc_compile(source, arch, ["-rdc=true"] + flags, pch=False)
        resty = _type_object(resty)
    else:
        if abi_info is not None:
            raise NotImplementedError("compile_ptx: abi_info is for device functions (device=True), "
                                      "not kernels")
        if ret not in (None, "void", "none"):
            raise TypeError("CUDA kernel must have void return type.")
        try:
            source = _core.generate_kernel_source(capture(pyfunc), args, True)  # True: the GPU's program
        except TypingError as e:
            if "a kernel cannot return a value" in str(e):  # numba-cuda's exception and words
                raise TypeError("CUDA kernel must have void return type.") from e
            raise
        result = _core.nvrtc_compile(source, arch, flags, pch=False)
        resty = void
    code = result["image"]
    if output == "ltoir":
        return code, resty
    return (code.decode() if isinstance(code, bytes) else code).rstrip("\0"), resty


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=None, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """The PTX of ``pyfunc`` compiled for ``sig`` and compute capability ``cc`` (default:
    config.CUDA_DEFAULT_PTX_CC; ``(9, 0, 'a')`` for sm_90a), and its return type: ``(ptx, return
    type)``. A kernel (``device=False``) returns void. A device function (``device=True``) gets an
    ``extern "C"`` entry named ``abi_info['abi_name']`` or its Python name: with ``abi="c"`` a C
    function ``RET name(args...)``, with ``abi="numba"`` Numba's ``int name(RET* ret, args...)``
    (unmangled, unlike Numba's). ``debug``, ``lineinfo``, ``opt``, ``fastmath`` and
    ``launch_bounds`` mean what they mean to cuda.jit (nvrtc_flags)."""
    return _compile(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, abi_info, "ptx",
                    forceinline, launch_bounds)


def _current_cc():
    """The compute capability to compile for on this device: its own, or the closest NVRTC
    supports (numba-cuda's find_closest_arch)."""
    from .devices import get_current_device
    from .cudadrv.nvrtc import find_closest_arch
    return find_closest_arch(tuple(get_current_device().compute_capability)[:2])


def compile_ptx_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False,
                                   opt=None, abi="numba", abi_info=None, forceinline=False,
                                   launch_bounds=None):
    """compile_ptx for the compute capability of the current device."""
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=_current_cc(), opt=opt, abi=abi, abi_info=abi_info, forceinline=forceinline,
                       launch_bounds=launch_bounds)


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
            abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """Numba's general compile: ``(code, return type)`` of a device function (the default, with
    the C ABI) or a kernel: PTX text, or with ``output='ltoir'`` NVRTC's LTO-IR (bytes, for
    nvJitLink)."""
    return _compile(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, abi_info, output,
                    forceinline, launch_bounds)


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False,
                               opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
                               launch_bounds=None):
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=_current_cc(), opt=opt, abi=abi, abi_info=abi_info, output=output,
                   forceinline=forceinline, launch_bounds=launch_bounds)


def _scalar_type(name):
    """The cujit type object of a scalar type spelled as the core spells it ('int32', 'bool')."""
    from .. import types as _t
    return _t.boolean if name in ("bool", "boolean") else getattr(_t, name)


def _link_items(link, what):
    """The snapshot's form of a ``link=`` list: (kind, name, bytes) per item. A path is read now
    (its kind from its extension, as numba-cuda's linker decides); a LinkableCode object is taken
    as it is."""
    from .compat import LinkableCode
    import os
    if link is None:
        return []
    if isinstance(link, (str, os.PathLike, LinkableCode)):
        link = [link]
    items = []
    for item in link:
        if isinstance(item, LinkableCode):
            items.append((item.kind_key, item.name, item.data))
            continue
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError("%s: link= takes paths and linkable code objects (cuda.CUSource, "
                            "cuda.PTXSource, ...), got %r" % (what, item))
        path = os.fspath(item)
        suffix = os.path.splitext(path)[1]
        ext = suffix.lower().lstrip(".")
        kind = {"cu": "cu", "ptx": "ptx", "cubin": "cubin", "fatbin": "fatbin", "o": "object",
                "a": "archive", "ltoir": "ltoir"}.get(ext)
        # numba-cuda's linker's classes and words (a RuntimeError, a LinkerError), then what cujit links.
        if not suffix:
            raise RuntimeError("Don't know how to link file with no extension (%s: %r; cujit links .cu, .ptx, "
                               ".cubin, .fatbin, .o, .a and .ltoir files)" % (what, path))
        if kind is None:
            raise RuntimeError("Don't know how to link file with extension %s (%s: %r; cujit links .cu, .ptx, "
                               ".cubin, .fatbin, .o, .a and .ltoir files)" % (suffix, what, path))
        try:
            with open(path, "rb") as f:
                items.append((kind, path, f.read()))
        except FileNotFoundError:
            from ..errors import LinkerError
            raise LinkerError("%s not found" % path) from None
    return items


class ExternFunction:
    """A device function written in CUDA C++ (or PTX, ...), declared by ``cuda.declare_device``:
    callable from kernels and device functions. ``link`` is the code that defines it, linked into
    every kernel that calls it."""

    def __init__(self, name, sig, link=None, use_cooperative=False, abi="numba"):
        from ..types import Signature, void
        if abi not in ("numba", "c"):
            raise NotImplementedError("Unsupported ABI: %s" % (abi,))
        text = signature_string(sig)
        if text.lstrip().startswith("("):  # numba-cuda's words
            raise TypeError("Return type must be provided for device declarations")
        ret, args = _core.parse_signature(text)
        if ret is None:
            raise TypeError("Return type must be provided for device declarations")
        for a in args + [ret]:
            if "[" in a or "(" in a:
                raise NotImplementedError(
                    "cuda.declare_device(%r, %r): cujit passes numbers to foreign functions; the "
                    "type %s (arrays, pointers, records) is not supported yet" % (name, text, a))
        self.name = name
        self.abi = abi
        self.use_cooperative = bool(use_cooperative)
        self._sig_text = "%s(%s)" % (ret, ", ".join(args))
        self.sig = Signature(void if ret in ("void", "none") else _scalar_type(ret),
                             [_scalar_type(a) for a in args])
        self.link = link
        self._link_items = _link_items(link, "cuda.declare_device(%r)" % (name,))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s is a foreign CUDA device function: call it from a kernel or a device "
                           "function" % (self.name,))

    def __repr__(self):
        return "<cujit foreign device function %s %s>" % (self.name, self._sig_text)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
                abi="c", abi_info=None, output="ltoir", forceinline=False, launch_bounds=None):
    """numba-cuda's compile to a list of codes (the function's and those of the external code it
    links): ``([code], return type)``; cujit links no external code into it."""
    code, resty = _compile(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, abi_info,
                           output, forceinline, launch_bounds)
    return [code], resty


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Declares a device function written in CUDA C++ or PTX (numba-cuda's foreign function
    interface): ``name`` is its C name, ``sig`` its Numba signature, ``link`` the code that
    defines it. With the Numba ABI (the default) it is ``extern "C" __device__ int name(T* ret,
    args...)``, the result stored through ``ret``; with ``abi="c"``, ``T name(args...)``."""
    return ExternFunction(name, sig, link=link, use_cooperative=use_cooperative, abi=abi)


def run_frontend(*args, **kwargs):
    raise NotImplementedError("numba.cuda.compiler.run_frontend builds Numba IR, which cujit "
                              "does not have")
