"""``cuda.compile_ptx`` and its siblings (numba.cuda.compiler), and ``cuda.declare_device``.

cujit compiles a kernel by writing CUDA C++ (generate_kernel_source) and handing it to NVRTC; here
NVRTC is asked for PTX for the requested compute capability. The PTX is cujit's, not Numba's: its
entry names, parameters and code differ. A device function compiled on its own gets an extern "C"
entry (C ABI, or Numba's status-and-pointer ABI, unmangled) in relocatable PTX. LTO-IR is not
produced.
"""

from .. import _core
from ..decorators import capture
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


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=None, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """The PTX of ``pyfunc`` compiled for ``sig`` and compute capability ``cc`` (default:
    config.CUDA_DEFAULT_PTX_CC), and its return type: ``(ptx, return type)``. A kernel
    (``device=False``) returns void. A device function (``device=True``) gets an ``extern "C"``
    entry named ``abi_info['abi_name']`` or its Python name: with ``abi="c"`` a C function
    ``RET name(args...)``, with ``abi="numba"`` Numba's ``int name(RET* ret, args...)`` (unmangled,
    unlike Numba's)."""
    from .. import config
    for flag, value in (("debug", debug), ("lineinfo", lineinfo), ("fastmath", fastmath),
                        ("forceinline", forceinline), ("launch_bounds", launch_bounds)):
        if value:
            raise NotImplementedError("compile_ptx: cujit does not support %s=%r here" % (flag, value))
    if abi not in ("numba", "c"):
        raise NotImplementedError("Unsupported ABI: %s" % (abi,))
    pyfunc = getattr(pyfunc, "py_func", pyfunc)
    ret, args = _arg_types(sig)
    cc = tuple(cc) if cc is not None else tuple(config.CUDA_DEFAULT_PTX_CC)
    arch = "compute_%d%d" % cc
    if device:
        name = (abi_info or {}).get("abi_name", pyfunc.__name__)
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError("abi_info['abi_name'] must be a C identifier, got %r" % (name,))
        source, resty = _core.generate_device_source(capture(pyfunc), args, ret or "", abi == "c", name)
        # Relocatable code: the function is kept (and visible) for another program to link.
        result = _core.nvrtc_compile(source, arch, ["-rdc=true"], pch=False)
        resty = _type_object(resty)
    else:
        if abi_info is not None or abi == "c":
            raise NotImplementedError("compile_ptx: the C ABI and abi_info are for device functions "
                                      "(device=True), not kernels")
        if ret not in (None, "void", "none"):
            raise TypeError("CUDA kernel must have void return type.")
        source = _core.generate_kernel_source(capture(pyfunc), args, True)  # True: the GPU's program
        result = _core.nvrtc_compile(source, arch, pch=False)
        resty = void
    ptx = result["image"]
    return (ptx.decode() if isinstance(ptx, bytes) else ptx).rstrip("\0"), resty


def compile_ptx_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False,
                                   opt=None, abi="numba", abi_info=None, forceinline=False,
                                   launch_bounds=None):
    """compile_ptx for the compute capability of the current device."""
    from .devices import get_current_device
    cc = get_current_device().compute_capability
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=cc, opt=opt, abi=abi, abi_info=abi_info, forceinline=forceinline,
                       launch_bounds=launch_bounds)


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
            abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """Numba's general compile: ``(ptx, return type)`` of a device function (the default, with the
    C ABI) or a kernel. PTX only: LTO-IR (``output='ltoir'``) is not produced."""
    if output != "ptx":
        raise NotImplementedError("cuda.compile: cujit produces PTX only, not %r" % (output,))
    if not device and abi == "c":
        abi = "numba"  # Numba ignores the ABI of kernels
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=cc, opt=opt, abi=abi, abi_info=abi_info, forceinline=forceinline,
                       launch_bounds=launch_bounds)


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False,
                               opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
                               launch_bounds=None):
    from .devices import get_current_device
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=get_current_device().compute_capability, opt=opt, abi=abi, abi_info=abi_info,
                   output=output, forceinline=forceinline, launch_bounds=launch_bounds)


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
    links): ``([ptx], void)`` for a kernel with output='ptx' (cujit links no external code); a
    device function alone and LTO-IR are not supported, as in compile()."""
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError("Unsupported output type: %s" % (output,))
    code, resty = compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                          cc=cc, opt=opt, abi=abi, abi_info=abi_info, output=output,
                          forceinline=forceinline, launch_bounds=launch_bounds)
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
