"""What the decorators hand the C++ core: a function's source text, where it came from, and a
snapshot of the globals and closure variables it names (DESIGN.md decision 2).

The snapshot is taken when the function is first compiled and then frozen, as Numba does. Other
cujit functions it names (device functions) are captured with it, so the core has the whole call
graph before it starts and never calls back into Python.
"""

import builtins
import inspect
import linecache
import math
import cmath
import random
import types as _pytypes

import numpy as np

from . import _core
from . import types as _t


class SourceUnavailableError(RuntimeError):
    """The function's source text cannot be found (cujit compiles from source)."""


def get_source(func):
    """(text, filename, first_line, col_offset) of a function, dedented."""
    code = func.__code__
    # The file's lines through linecache, as inspect.getsourcelines finds them in the end, but
    # without its search of sys.modules for the defining module (tens of ms in a process that
    # imported NumPy). Jupyter and IPython keep cell sources there under the cell's name.
    linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, func.__globals__)
    if not lines or len(lines) < code.co_firstlineno:
        raise SourceUnavailableError(
            "cannot read the source of %s(): cujit compiles Python source, so define the "
            "function in a file or a notebook cell (not with exec or in a plain REPL)"
            % func.__name__)
    rest = lines[code.co_firstlineno - 1:]
    lines = inspect.getblock(rest) if func.__name__ == "<lambda>" else _block(rest)
    first = code.co_firstlineno
    first = max(first, 1)
    if func.__name__ == "<lambda>":
        return _lambda_source(func, lines, first)
    indent = len(lines[0]) - len(lines[0].lstrip(" \t"))
    prefix = lines[0][:indent]
    out = []
    for ln in lines:
        out.append(ln[indent:] if ln.startswith(prefix) else ln.lstrip(" \t"))
    return "".join(out), code.co_filename, first, indent


def _block(lines):
    """The decorated definition at the top of `lines`. Indentation finds its end; Python's parser
    confirms it, and where it does not (a docstring or a bracket that goes back to a lower
    column) inspect.getblock decides. getblock alone tokenizes, and tokenize compiles its
    patterns on first use, which costs about 20 ms in every process."""
    base = len(lines[0]) - len(lines[0].lstrip(" \t"))
    seen_def, end = False, 1
    for i, line in enumerate(lines):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if len(line) - len(line.lstrip(" \t")) <= base:
            if seen_def:
                break  # back at the definition's column: the next statement
            seen_def = text.startswith(("def ", "async def "))
        end = i + 1
    block = lines[:end]
    try:
        import ast as pyast
        import textwrap
        pyast.parse(textwrap.dedent("".join(block)))
        return block
    except SyntaxError:
        return inspect.getblock(lines)


def _lambda_source(func, lines, first):
    """A lambda as the source of an equivalent function: `def <name>(args):` on the line before
    the lambda's, and `return <body>` on its line, so errors in the body name the user's line."""
    import ast as pyast
    import textwrap
    code = func.__code__
    params = list(code.co_varnames[:code.co_argcount])
    text = textwrap.dedent("".join(lines))
    try:
        tree = pyast.parse(text)
    except SyntaxError:
        tree = None
    found = None
    if tree is not None:
        for node in pyast.walk(tree):
            if isinstance(node, pyast.Lambda) and [a.arg for a in node.args.args] == params:
                found = node
                break
    if found is None:
        raise SourceUnavailableError(
            "cannot find the source of the lambda on %s line %d: define it with def instead"
            % (code.co_filename, first))
    body = pyast.get_source_segment(text, found.body)
    line = first + found.body.lineno - 1
    name = "lambda_%d" % line
    # Keep the body at its column in the user's file so carets land under the right token.
    col = found.body.col_offset + (len(lines[0]) - len(lines[0].lstrip(" \t"))) - \
        (len(text) - len(text.lstrip(" \t")))
    if "\n" in body or col < 8:
        body_line = "    return " + " ".join(body.split())
    else:
        body_line = " " * (col - 7) + "return " + body
    source = "def %s(%s):\n%s\n" % (name, ", ".join(params), body_line)
    return source, code.co_filename, max(line - 1, 1), 0


_MODULES = {math: "math", cmath: "cmath", np: "numpy", np.random: "numpy.random", random: "random"}


def _module_name(value):
    if value in _MODULES:
        return _MODULES[value]
    import cujit
    if value is cujit:  # `import numba` through the alias, or `import cujit`
        return "numba"
    from . import cuda as _cuda
    if value is _cuda or getattr(value, "__name__", "") in ("numba.cuda", "cujit.cuda"):
        return "cuda"
    return None


def _classify(value, seen):
    """The (kind, payload...) tuple the core's FunctionSource.set_globals understands."""
    from .cuda.dispatcher import DeviceFunction, Dispatcher
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        if -(2 ** 63) <= value < 2 ** 63:
            return ("int", value)
        if 2 ** 63 <= value < 2 ** 64:  # Numba types such an int as uint64
            return ("scalar", "uint64", value)
        return ("opaque", "<class 'int'> (too large for int64 or uint64)")
    if isinstance(value, float):
        return ("float", value)
    if isinstance(value, np.generic) and value.dtype in _t._BY_DTYPE:
        name = _t._BY_DTYPE[value.dtype].name
        return ("scalar", name, value.item())
    if isinstance(value, np.ndarray) and value.dtype in _t._BY_DTYPE and value.ndim >= 1:
        # Global arrays are constants in compiled code, as in Numba (cuda.const.array_like).
        c = np.ascontiguousarray(value)
        return ("array", _t._BY_DTYPE[c.dtype].name, list(c.shape), c.tobytes())
    if isinstance(value, _pytypes.ModuleType):
        name = _module_name(value)
        if name is not None:
            return ("module", name)
        return ("opaque", "<class 'module'> (%s)" % value.__name__)
    if isinstance(value, _t.ScalarType):
        return ("dtype", value.name)
    if isinstance(value, type) and issubclass(value, np.generic):
        try:
            return ("dtype", _t.from_dtype(value).name)
        except TypeError:
            pass
    from .cpu import CPUDispatcher
    if isinstance(value, (DeviceFunction, CPUDispatcher)):
        # @jit functions call each other as device functions do: typed at each call site.
        return ("function", capture(value.py_func, seen))
    if isinstance(value, Dispatcher):
        return ("opaque", "<class 'cujit.cuda.Dispatcher'> (a kernel cannot be called from GPU code; "
                          "use cuda.jit(device=True) for helpers)")
    # A function taken from a module: `from math import exp`.
    for mod, mname in _MODULES.items():
        n = getattr(value, "__name__", None)
        if n is not None and getattr(mod, n, None) is value:
            return ("attr", mname, n)
    import cujit
    from . import cuda as _cuda
    n = getattr(value, "__name__", None)
    if n is not None and getattr(_cuda, n, None) is value:
        return ("attr", "cuda", n)
    if n is not None and getattr(cujit, n, None) is value:  # from numba import prange
        return ("attr", "numba", n)
    return ("opaque", repr(type(value)))


def _names(code):
    """Every global or free name a code object (and the code objects nested in it) reads."""
    out = set(code.co_names) | set(code.co_freevars)
    for c in code.co_consts:
        if isinstance(c, _pytypes.CodeType):
            out |= _names(c)
    return out


def capture(func, seen=None):
    """A _core.FunctionSource for `func`, with its globals snapshot."""
    if seen is None:
        seen = {}
    if id(func) in seen:
        return seen[id(func)]
    text, filename, first, indent = get_source(func)
    name = func.__name__ if func.__name__ != "<lambda>" else text.split("(", 1)[0][4:]
    fs = _core.FunctionSource(name, text, filename, first, indent)
    seen[id(func)] = fs
    code = func.__code__
    closure = {}
    if func.__closure__:
        for name, cell in zip(code.co_freevars, func.__closure__):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: the variable is not assigned yet
                pass
    snap = {}
    g = func.__globals__
    names = _names(code)
    for name in names:
        if name in closure:
            snap[name] = _classify(closure[name], seen)
        elif name in g:
            snap[name] = _classify(g[name], seen)
        elif not hasattr(builtins, name):
            continue  # attribute names and locals also appear in co_names
    if "random" in names and any(v == ("module", "cuda") or v == ("module", "numba") for v in snap.values()):
        # cuda.random.xoroshiro128p_uniform_float32(...): the generator functions are Python
        # device functions, so the ones the code names travel as qualified globals.
        from .cuda import random as _random
        for name in names:
            fn = getattr(_random, name, None)
            if hasattr(fn, "py_func"):
                snap["cuda.random." + name] = ("function", capture(fn.py_func, seen))
    fs.set_globals(snap)
    return fs
