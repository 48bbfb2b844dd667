"""The exceptions cujit raises.

The C++ core (cujit._core) raises these classes directly: src/bindings/errors.cpp translates its
C++ exceptions into them, looking them up here when the error happens. Everything cujit raises
on its own account derives from CujitError; plain misuse (a wrong argument type or value) raises
Python's TypeError / ValueError as usual.

In IPython and Jupyter, a cujit error shows without cujit's own frames, and a compile error's
location names the notebook cell as IPython does ("Cell In[3], line 2:") above the line and caret
(CujitError._render_traceback_, the hook IPython calls).
"""
import os
import re
import types as _pytypes

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

__all__ = [
    "CujitError", "TypingError", "UnsupportedError", "CompileSyntaxError", "InternalError",
    "ToolchainError", "NvrtcError", "SimulatorError", "SimulatorIndexError", "SimulatorRaceError", "CudaSupportError",
    "CudaAPIError",
    "CudaOutOfMemoryError", "CudaContextLostError", "KernelIndexError",
    "NumbaError", "NumbaTypeError", "NumbaValueError", "LoweringError", "CudaDriverError", "LinkerError",
    "NumbaWarning", "NumbaPerformanceWarning", "NumbaDeprecationWarning",
    "NumbaPendingDeprecationWarning", "NumbaPedanticWarning", "NumbaIRAssumptionWarning",
    "NumbaDebugInfoWarning", "NumbaTypeSafetyWarning", "NumbaParallelSafetyWarning",
    "NumbaExperimentalFeatureWarning", "NumbaInvalidConfigWarning",
]


class CujitError(Exception):
    """Base class of every cujit error."""

    def _render_traceback_(self):
        """What IPython and Jupyter show for this error (they call this instead of formatting the
        traceback themselves): the traceback without cujit's own frames, which only say how the
        decorator reached the compiler, and the message with a notebook cell named as IPython
        names it ("Cell In[3], line 2") instead of its file name."""
        try:
            return _render_for_ipython(self)
        except Exception:  # never let the display hide the error itself
            import traceback
            return "".join(traceback.format_exception(type(self), self, self.__traceback__)).splitlines()


class _Located:
    """Errors in the user's code. The C++ core sets ``msg`` (the message alone), ``filename``,
    ``lineno`` (1-based) and ``col`` (0-based); ``str()`` is the rendered message: the text, then
    ``file.py:LINE:``, the offending line and a caret under the problem."""

    def __init__(self, message="", msg=None, filename=None, lineno=None, col=None):
        super().__init__(message)
        self.rendered = message
        self.msg = message if msg is None else msg
        self.filename = filename
        self.lineno = lineno
        self.col = col

    def __str__(self):
        return self.rendered

    def __reduce__(self):
        return (type(self), (self.rendered, self.msg, self.filename, self.lineno, self.col))


class TypingError(_Located, CujitError):
    """The compiled code does not type-check: unknown names, types that do not fit, wrong
    argument counts, a variable that would need two types. Raised when a function is compiled
    (at decoration for explicit signatures, at the first call otherwise)."""


class UnsupportedError(_Located, CujitError):
    """Valid Python outside the subset cujit compiles (``with``, lambdas, list literals,
    recursion, ...). Raised when the function is compiled."""


class CompileSyntaxError(_Located, CujitError, SyntaxError):
    """Source text the compiler's lexer or parser rejects. It is also a SyntaxError, so code that
    catches SyntaxError catches it; unlike SyntaxError, ``str()`` is the full rendered message
    (SyntaxError's own would be "msg (file, line N)"). ``offset`` is the 1-based column, as
    SyntaxError has it."""

    def __init__(self, message="", msg=None, filename=None, lineno=None, col=None):
        # _Located's super().__init__ reaches SyntaxError.__init__ with the message only, so
        # SyntaxError does not try to parse a (filename, lineno, offset, text) tuple.
        super().__init__(message, msg, filename, lineno, col)
        self.offset = None if col is None else col + 1
        # The line itself, which tracebacks (Python's and IPython's) print with a caret under
        # `offset`; notebook cells are in linecache too.
        if filename and lineno:
            import linecache
            self.text = linecache.getline(filename, lineno) or _captured_line(filename, lineno) \
                or None


class InternalError(CujitError):
    """A bug in cujit itself (an invariant of the compiler was broken), never the user's fault.
    Please report it with the code that triggered it."""


class ToolchainError(CujitError):
    """A compiler cujit drives failed for a reason that is not in the user's code: NVRTC or the
    host C++ compiler could not be found or loaded, crashed, or rejected generated code.
    Host compiler failures carry ``output`` and ``command``."""


class NvrtcError(ToolchainError):
    """NVRTC rejected the generated CUDA C++ (``log`` is NVRTC's log, ``arch`` the target,
    ``code`` the nvrtcResult). Errors the pipeline can place in the user's code are raised as
    TypingError instead."""


class SimulatorError(CujitError):
    """The CUDA simulator stopped a kernel that would misbehave on a GPU: for example a
    grid.sync() that a block of a cooperative launch never reaches (a deadlock on the GPU)."""


class _IndexCaret(IndexError):
    """An out-of-bounds index in GPU code, caught by a check: the message names the index, the
    axis, the array and its size, the thread and block, and the Python line ("at file.py:LINE"),
    which is added below it with a caret under the array."""

    def __init__(self, message):
        # "at FILE:LINE", or "at FILE:LINE:COL" from a kernel built with the race check
        m = re.search(r"of '(\w+)' with size .* at (.+?):(\d+)(?::(\d+))? \(", message)
        if m and "\n\n" not in message:
            self.filename, self.lineno = m.group(2), int(m.group(3))
            message += _quote_line(self.filename, self.lineno, m.group(1), int(m.group(4)) - 1 if m.group(4) else None)
        super().__init__(message)


def _captured_line(filename, lineno, name=""):
    """A line of a function's text that is in no file (`python -c`, exec, rebuilt), as source
    capture found it."""
    try:
        from .decorators import line_text
    except ImportError:
        return ""
    return line_text(filename, lineno, name)


def _quote_line(filename, lineno, name, col=None):
    """"\n\nfile.py:LINE:\n    the line\n    ^" with the caret at `col` (0-based) or else under
    `name` (an array), or "" when the line cannot be read."""
    import linecache
    text = (linecache.getline(filename, lineno) or
            _captured_line(filename, lineno, name + "[" if name else "")).rstrip("\n")
    if not text:
        return ""
    if col is None:
        col = text.find(name + "[")
        if col < 0:
            col = max(text.find(name), 0)
    indent = len(text) - len(text.lstrip())
    return "\n\n%s:%d:\n    %s\n    %s^" % (filename, lineno, text.strip(), " " * max(col - indent, 0))


class SimulatorRaceError(SimulatorError):
    """Two threads of a block touched the same shared-memory element with no cuda.syncthreads()
    between them, at least one of them writing (the race check, CUJIT_SIM_RACECHECK=1). The
    message names the array and the index, the block, both threads, what each did (read or
    wrote) and both Python lines, which are shown with a caret under the array. ``accesses`` holds
    the two as (kind, thread, filename, lineno), the earlier first; ``filename`` and ``lineno``
    are the later one's, where the kernel stopped; ``msg`` is the message without the quoted
    lines. On a GPU the result of such a kernel depends on the order the threads happen to run
    in."""

    _ACCESS = re.compile(r"thread \((\d+), (\d+), (\d+)\) (wrote|read) it(?: \(as '(\w+)'\))? at (.+?):(\d+)(?::(\d+))? (?:and|with) ")

    def __init__(self, message):
        self.msg = message.split("\n\n", 1)[0]
        self.accesses = []
        self.filename = self.lineno = None
        array = re.match(r"race on shared memory (\w+)\[", message)
        quoted = ""
        for m in self._ACCESS.finditer(self.msg):
            thread = tuple(int(m.group(k)) for k in (1, 2, 3))
            filename, lineno = m.group(6), int(m.group(7))
            self.accesses.append((m.group(4), thread, filename, lineno))
            col = int(m.group(8)) - 1 if m.group(8) else None
            quoted += _quote_line(filename, lineno, m.group(5) or (array.group(1) if array else ""), col)
            self.filename, self.lineno = filename, lineno
        if "\n\n" not in message:  # not already rendered (an unpickled copy)
            message += quoted
        super().__init__(message)


class SimulatorIndexError(SimulatorError, _IndexCaret):
    """An array index out of bounds in simulated GPU code (every index is checked there). The
    message names the index, the axis, the array and its size, the thread and block, and the
    Python line, which is shown with a caret under the array. On a GPU the same kernel would read
    or corrupt other memory. Also an IndexError."""


class KernelIndexError(CujitError, _IndexCaret):
    """An array index out of bounds in a kernel compiled with ``@cuda.jit(debug=True)``, caught on
    the GPU. The message has the simulator's wording (index, axis, array and size, thread, block,
    the kernel, the Python line with a caret); the faulting thread stopped there, others ran on.
    Also an IndexError."""


class CudaSupportError(CujitError):
    """No usable CUDA GPU: libcuda.so.1 could not be loaded, cuInit failed, no device was found,
    or the runtime was already shut down at interpreter exit. Raised on the first GPU use (a
    device array, a copy, a launch). The message says why; the CPU simulator
    (CUJIT_ENABLE_CUDASIM=1) needs no GPU."""


class CudaAPIError(CujitError):
    """A CUDA driver call failed. ``call`` is the driver function ("cuMemAllocAsync"), ``code``
    the CUresult number and ``name`` its name ("CUDA_ERROR_OUT_OF_MEMORY")."""

    def __init__(self, message="", call=None, code=None, name=None):
        super().__init__(message)
        self.call = call
        self.code = code
        self.name = name

    def __reduce__(self):
        return (type(self), (str(self), self.call, self.code, self.name))


class CudaContextLostError(CudaAPIError):
    """The CUDA context was lost. Either a kernel faulted (``name`` is the sticky error, e.g.
    "CUDA_ERROR_ILLEGAL_ADDRESS", raised by the next call that waits for the GPU) and cujit has
    recreated the context, or an object made before such a fault (a device array, a stream, an
    event) was used afterwards ("CUDA_ERROR_CONTEXT_IS_DESTROYED"). Device arrays, streams,
    events, pinned and mapped host memory from before the fault are gone and must be created
    again; kernels and ufuncs load their code again by themselves."""


class CudaOutOfMemoryError(CudaAPIError, MemoryError):
    """A device allocation failed for want of memory (on the simulator: the host allocation behind
    it failed). It is a CudaAPIError (``name`` is "CUDA_ERROR_OUT_OF_MEMORY") and a MemoryError.
    ``requested`` is the size asked for in bytes; ``free`` and ``total`` the device's memory when it
    failed (the host's on the simulator). The message names all three, in bytes and binary units.
    The memory pool's cache has been returned to the device, so a smaller allocation can follow."""

    def __init__(self, message="", call=None, code=None, name=None, requested=None, free=None, total=None):
        super().__init__(message, call, code, name)
        self.requested = requested
        self.free = free
        self.total = total

    def __reduce__(self):
        return (type(self), (str(self), self.call, self.code, self.name, self.requested, self.free, self.total))


# Numba's names, so code that catches or filters them runs (numba.core.errors,
# numba.cuda.core.errors, numba.cuda.cudadrv.error). NumbaError is cujit's base class; the other
# error classes are declared for `except` clauses and isinstance checks: cujit raises none of them
# (its compiler reports TypingError, UnsupportedError or ToolchainError instead).
NumbaError = CujitError


class NumbaTypeError(CujitError, TypeError):
    """Numba's TypeError subclass; declared only (cujit raises TypingError or TypeError)."""


class NumbaValueError(CujitError, ValueError):
    """Numba's ValueError subclass; declared only (cujit raises ValueError)."""


class LoweringError(CujitError):
    """Numba's error for code generation failures; declared only (never raised by cujit)."""


class CudaDriverError(CujitError):
    """numba.cuda.cudadrv.error.CudaDriverError: the driver cannot be used in this process (CUDA
    was initialised before it forked). A failing driver call raises CudaAPIError."""


class LinkerError(CujitError):
    """numba.cuda.cudadrv.driver.LinkerError: a ``link=`` file that does not exist ("PATH not
    found"). cujit compiles linked CUDA C++ into the kernel's program; the driver's linker's
    failures raise CudaAPIError."""


class NumbaWarning(Warning):
    """Base of the warnings with Numba's names. cujit issues few of them; they exist so that
    warnings filters and ``pytest.warns`` written for Numba name real classes."""


class NumbaPerformanceWarning(NumbaWarning):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass


class NumbaPendingDeprecationWarning(NumbaWarning, PendingDeprecationWarning):
    pass


class NumbaPedanticWarning(NumbaWarning):
    pass


class NumbaIRAssumptionWarning(NumbaPedanticWarning):
    pass


class NumbaDebugInfoWarning(NumbaWarning):
    pass


class NumbaTypeSafetyWarning(NumbaWarning):
    pass


class NumbaParallelSafetyWarning(NumbaWarning):
    pass


class NumbaExperimentalFeatureWarning(NumbaWarning):
    pass


class NumbaInvalidConfigWarning(NumbaWarning):
    pass


def _user_traceback(tb):
    """`tb` without the frames of cujit's own Python files."""
    kept = []
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_PACKAGE_DIR):
            kept.append(tb)
        tb = tb.tb_next
    out = None
    for t in reversed(kept):
        out = _pytypes.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def _cell_name(shell, filename):
    """"Cell In[3]" for a notebook cell's pseudo-file name, None for a real file."""
    fmt = getattr(getattr(shell, "compile", None), "format_code_name", None)  # IPython >= 8
    label = fmt(filename) if fmt is not None and filename else None
    return "%s %s" % label if label else None


def _render_for_ipython(err):
    import traceback
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except ImportError:
        shell = None
    shown = err
    if isinstance(err, _Located) and err.filename and err.lineno:
        cell = _cell_name(shell, err.filename)
        where = "\n\n%s:%d:\n" % (err.filename, err.lineno)
        if cell and where in err.rendered:
            # A copy to display, so str(err) stays what the core rendered.
            fn, args = err.__reduce__()
            shown = fn(args[0].replace(where, "\n\n%s, line %d:\n" % (cell, err.lineno), 1), *args[1:])
            shown.__cause__, shown.__context__ = err.__cause__, err.__context__
            shown.__suppress_context__ = err.__suppress_context__
    # A cujit bug keeps every frame: the report needs them.
    tb = err.__traceback__ if isinstance(err, InternalError) else _user_traceback(err.__traceback__)
    if shell is not None:
        # IPython's own formatting (colours, the cell's lines around the call), with its usual
        # offset: the first frame is IPython's run_code.
        return shell.InteractiveTB.structured_traceback(type(shown), shown, tb)
    return "".join(traceback.format_exception(type(shown), shown, tb)).splitlines()
