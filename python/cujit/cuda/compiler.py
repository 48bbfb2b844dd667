"""``cuda.compile_ptx`` and its siblings (numba.cuda.compiler): a kernel's PTX without running it.

cujit compiles a kernel by writing CUDA C++ (generate_kernel_source) and handing it to NVRTC; here
NVRTC is asked for PTX for the requested compute capability. The PTX is cujit's, not Numba's: its
entry names, parameters and code differ. Device functions are compiled only inside the kernels
that call them (they have no ABI of their own), so compiling one alone, or to LTO-IR, or with the
C ABI, raises NotImplementedError.
"""

from .. import _core
from ..decorators import capture
from ..types import signature_string, void


def _unsupported(what):
    raise NotImplementedError("cujit cannot %s: it compiles device functions only as part of the "
                              "kernels and ufuncs that call them" % what)


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


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=None, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """The PTX of ``pyfunc`` compiled as a kernel for ``sig`` and compute capability ``cc``
    (default: config.CUDA_DEFAULT_PTX_CC), and its return type: ``(ptx, void)``."""
    from .. import config
    if device:
        _unsupported("compile a device function to PTX on its own (compile_ptx(device=True))")
    for flag, value in (("debug", debug), ("lineinfo", lineinfo), ("fastmath", fastmath),
                        ("forceinline", forceinline), ("launch_bounds", launch_bounds)):
        if value:
            raise NotImplementedError("compile_ptx: cujit does not support %s=%r here" % (flag, value))
    pyfunc = getattr(pyfunc, "py_func", pyfunc)
    ret, args = _arg_types(sig)
    if ret not in (None, "void", "none"):
        raise TypeError("CUDA kernel must have void return type.")
    cc = tuple(cc) if cc is not None else tuple(config.CUDA_DEFAULT_PTX_CC)
    source = _core.generate_kernel_source(capture(pyfunc), args, True)  # True: the GPU's program
    result = _core.nvrtc_compile(source, "compute_%d%d" % cc, pch=False)
    ptx = result["image"]
    return (ptx.decode() if isinstance(ptx, bytes) else ptx).rstrip("\0"), void


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
    """Numba's general compile: PTX of a kernel (device=False, output='ptx') is supported; a
    device function alone, the C ABI and LTO-IR are not."""
    if device:
        _unsupported("compile a device function on its own (cuda.compile with device=True)")
    if output != "ptx":
        raise NotImplementedError("cuda.compile: cujit produces PTX only, not %r" % (output,))
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=False, fastmath=fastmath,
                       cc=cc, opt=opt, abi_info=abi_info, forceinline=forceinline,
                       launch_bounds=launch_bounds)


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False,
                               opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
                               launch_bounds=None):
    from .devices import get_current_device
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=get_current_device().compute_capability, opt=opt, abi=abi, abi_info=abi_info,
                   output=output, forceinline=forceinline, launch_bounds=launch_bounds)


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
    """Numba declares an external device function (written in CUDA C++ or PTX and linked in);
    cujit does not link user code, so this raises NotImplementedError."""
    raise NotImplementedError("cuda.declare_device(%r): cujit does not link external device "
                              "functions (CUDA C++/PTX) into kernels yet" % (name,))


def run_frontend(*args, **kwargs):
    raise NotImplementedError("numba.cuda.compiler.run_frontend builds Numba IR, which cujit "
                              "does not have")
