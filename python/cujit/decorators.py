"""What the decorators hand the C++ core: a function's source text, where it came from, and a
snapshot of the globals and closure variables it names (DESIGN.md decision 2).

The source text is read when the function is decorated (`source`), and checked against the code
object Python compiled, so a file edited since it was imported is never compiled in its new
form. The globals are read when a specialisation is compiled (`capture`, which the dispatchers
call on a compile only), as Numba does: a global assigned after the decorator, or a function
defined below it, is seen by the first call. Other cujit functions it names (device functions)
are captured with it, so the core has the whole call graph before it starts and never calls back
into Python.
"""

import ast as _ast
import enum as _enum
import builtins
import gc
import io as _io
import tokenize as _tokenize
import inspect
import linecache
import math
import operator
import cmath
import random
import sys
import types as _pytypes
import weakref

import numpy as np

from . import _core
from . import _texts
from . import types as _t


class SourceUnavailableError(RuntimeError):
    """The function's source text cannot be found (cujit compiles from source), or the file no
    longer holds the text Python compiled the function from."""


# function -> (text, filename, first_line, col_offset, name), read and checked once.
_SOURCES = weakref.WeakKeyDictionary()


def get_source(func):
    """(text, filename, first_line, col_offset) of a function, dedented: the text Python compiled
    it from (see _read_source)."""
    return _source_entry(func)[:4]


def _source_entry(func):
    try:
        return _SOURCES[func]
    except (KeyError, TypeError):
        pass
    entry = _read_source(func)
    try:
        _SOURCES[func] = entry
    except TypeError:  # not weakly referenceable: read each time
        pass
    _remember_lines(entry)
    return entry


# filename -> {line number: set of texts}, for the texts that are in no file and not in
# linecache (a `python -c` program, an exec'd string, a rebuilt text), so that runtime errors can
# quote the user's line (errors._quote_line). Several strings exec'd as "<string>" may each have
# a line 5: a line is quoted only where one of them fits (never a wrong one).
_LINES_BY_FILE = {}


def _remember_lines(entry):
    text, filename, first, indent, _ = entry
    if not (filename.startswith("<") and filename.endswith(">")) or linecache.getlines(filename):
        return
    lines = _LINES_BY_FILE.setdefault(filename, {})
    if len(lines) > 100000:
        lines.clear()
    for k, line in enumerate(text.splitlines()):
        if line.strip():
            lines.setdefault(first + k, set()).add(" " * indent + line)


def line_text(filename, lineno, name=""):
    """The user's line `lineno` of `filename` where linecache has none (see _LINES_BY_FILE):
    the one line known there, or the one of several that names `name`; else ""."""
    known = _LINES_BY_FILE.get(filename, {}).get(lineno, ())
    if len(known) > 1 and name:
        known = [t for t in known if name in t]
    return next(iter(known)) if len(known) == 1 else ""


def _read_source(func):
    """The source of `func` from the lines linecache holds for its file. Those lines are first
    taken as they are (they may be the text the module was imported from, cached by an earlier
    decoration, while the file has since been edited); when they do not compile to `func`'s own
    code, the file is read again; when neither does, the file changed since Python compiled the
    function, and its text is rebuilt from the code object (or it is refused), never taken from
    the file. A function with no file is looked up in the `python -c` program and the texts given
    to exec()/compile() (_texts), else rebuilt (_rebuilt)."""
    code = func.__code__
    filename = code.co_filename
    tried = []
    for fresh in (False, True):
        if fresh:
            linecache.checkcache(filename)
        # Without inspect's search of sys.modules for the defining module (tens of ms in a
        # process that imported NumPy). Jupyter and IPython keep cell sources in linecache.
        lines = linecache.getlines(filename, func.__globals__)
        if not lines:
            continue
        if len(lines) < code.co_firstlineno:  # the file is shorter now than when Python read it
            tried.append(lines)
            continue
        if any(lines is t or lines == t for t in tried):
            continue
        tried.append(lines)
        found = _find_in(func, lines)
        if found is not None:
            return found
    pseudo = filename.startswith("<") and filename.endswith(">")
    if tried and not pseudo:
        # The file was edited after Python compiled the function. Numba compiles the bytecode
        # Python ran, so cujit compiles the text rebuilt from it, where the rebuild covers it.
        try:
            return _rebuilt(func)
        except SourceUnavailableError as e:
            reason = getattr(e, "reason", "")
        what = "the lambda on line %d" % code.co_firstlineno if func.__name__ == "<lambda>" \
            else "%s() (line %d)" % (func.__name__, code.co_firstlineno)
        raise SourceUnavailableError(
            "the source of %s in %s is not the text Python compiled it from: the file was edited "
            "after it was imported (and the function cannot be rebuilt from its bytecode: %s). "
            "cujit compiles Python source, so reload the module (or restart the process) to "
            "compile the current text" % (what, filename, reason))
    # No file: the program of `python -c`, or a string given to exec()/compile() (_texts).
    for lines in _texts.candidates(filename):
        if len(lines) < code.co_firstlineno or any(lines is t for t in tried):
            continue
        tried.append(lines)
        found = _find_in(func, lines)
        if found is not None:
            return found
    # No text at all (the plain REPL, exec before `import cujit`, marshalled code, a deleted
    # file): a text rebuilt from the code object, used only where it compiles to the same code.
    return _rebuilt(func)


def _rebuilt(func):
    from . import _rebuild
    code = func.__code__
    what = "the lambda on line %d" % code.co_firstlineno if func.__name__ == "<lambda>" \
        else "%s() (line %d of %s)" % (func.__name__, code.co_firstlineno, code.co_filename)
    try:
        text, name = _rebuild.rebuild(
            code, None if func.__name__ == "<lambda>" else getattr(func, "__defaults__", None))
    except _rebuild.RebuildError as e:
        err = SourceUnavailableError(
            "cannot read the source of %s, and cannot rebuild it from its bytecode: %s. "
            "cujit compiles Python source, so define the function in a file or a notebook cell"
            % (what, e))
        err.reason = str(e)
        raise err from None
    first = max(code.co_firstlineno, 1)
    if func.__name__ == "<lambda>":
        # `lambda a, b: <body>` rebuilt; compiled as the def that lambdas become (_lambda_source).
        node = _ast.parse(text, mode="eval").body
        ok = _matches(func, None, node, strict=True)
        name = "lambda_%d" % first
        text = "def %s(%s):\n    return %s\n" % (
            name, ", ".join(code.co_varnames[:code.co_argcount]), _ast.unparse(node.body))
        first = max(first - 1, 1)
    else:
        ok = _matches(func, text.splitlines(keepends=True), None, strict=True)
    if not ok:
        err = SourceUnavailableError(
            "cannot read the source of %s, and the text rebuilt from its bytecode does not "
            "compile to the same code (a construct the rebuild does not cover). cujit compiles "
            "Python source, so define the function in a file or a notebook cell" % what)
        err.reason = "the rebuilt text does not compile to the same code"
        raise err
    # The definition's line is the code's first line, so each statement rebuilt at its own
    # line keeps diagnostics on the user's line numbers.
    return text, code.co_filename, first, 0, name


def _find_in(func, lines):
    """(text, filename, first, indent, name) of `func` in `lines`, or None where the lines do
    not hold it."""
    code = func.__code__
    first = max(code.co_firstlineno, 1)
    if func.__name__ == "<lambda>":
        return _lambda_source(func, lines, first)
    rest = lines[first - 1:]
    block = _block(rest)
    if not block or not _matches(func, block, None):
        return None
    indent = len(block[0]) - len(block[0].lstrip(" \t"))
    prefix = block[0][:indent]
    inside = _string_continuations(block) if indent else ()
    out = []
    for k, ln in enumerate(block):
        if k in inside:  # a line inside a multi-line string literal: its text, kept as written
            out.append(ln)
        else:
            out.append(ln[indent:] if ln.startswith(prefix) else ln.lstrip(" \t"))
    return "".join(out), code.co_filename, first, indent, func.__name__


def _string_continuations(block):
    """The indices of the lines of `block` that continue a string literal begun on an earlier
    line (a triple-quoted string's, or one continued by a backslash): dedenting the function must
    leave their text alone, or the string would lose its leading spaces."""
    text = "".join(block)
    if '"""' not in text and "'''" not in text and "\\\n" not in text:
        return ()
    out = set()
    # Python 3.12 tokenizes an f-string as FSTRING_START ... FSTRING_END, not one STRING.
    fstart, fend = getattr(_tokenize, "FSTRING_START", None), getattr(_tokenize, "FSTRING_END", None)
    opened = []
    try:
        for tok in _tokenize.generate_tokens(_io.StringIO("if 1:\n" + text).readline):
            if tok.type == fstart:
                opened.append(tok.start[0])
                continue
            start = opened.pop() if tok.type == fend and opened else tok.start[0]
            if (tok.type == _tokenize.STRING or tok.type == fend) and tok.end[0] > start:
                out.update(range(start - 1, tok.end[0] - 1))  # rows after the first, 0-based in block
    except (_tokenize.TokenError, SyntaxError):
        return ()
    return out


def _parse_block(block):
    """The block parsed at its own columns (an indented block is parsed inside `if 1:`), with
    line numbers counted from the block's first line."""
    text = "".join(block)
    indented = bool(block) and block[0][:1] in (" ", "\t")
    # The garbage collector would walk every node made so far at each collection, which makes
    # parsing a long function superlinear in its length (tests/test_compile_scaling.py).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        tree = _ast.parse("if 1:\n" + text if indented else text)
    finally:
        if was_enabled:
            gc.enable()
    if indented:
        _ast.increment_lineno(tree, -1)
        tree.body = tree.body[0].body
    return tree


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
        # Compiled to bytecode rather than parsed to an ast.Module: the same syntax check without
        # building a Python object per node (3.5 times faster on long functions).
        text = "".join(block)
        if block and block[0][:1] in (" ", "\t"):
            text = "if 1:\n" + text
        compile(text, "<cujit>", "exec", dont_inherit=True)
        return block
    except SyntaxError:
        try:
            return inspect.getblock(lines)
        except Exception:  # tokenize errors on text that is not a definition
            return None


# ---- Is this text the function's own? ----

_FUTURE_FLAGS = 0
for _name in __import__("__future__").all_feature_names:
    _FUTURE_FLAGS |= getattr(__import__("__future__"), _name).compiler_flag


_FLAGS = 0x04 | 0x08 | 0x20 | 0x80 | 0x100 | 0x200  # *args, **kw, generator, coroutine, async gen


def _code_key(code):
    """What decides a code object's behaviour: its instructions (jump targets as instruction
    numbers, constants and names by value, nested code objects compared the same way), its
    variables and the flags that change how it runs. Line numbers are left out, and so are the
    compiler's choices that depend on the module around the function: `mod.f(x)` loads a method
    unless `mod` was bound by an import in the module (LOAD_ATTR instead, with other caches)."""
    import dis
    # EXTENDED_ARG prefixes depend on how far jumps go, so on the caches of LOAD_ATTR/LOAD_METHOD.
    ins, index, pending = [], {}, []
    for i in dis.get_instructions(code):
        if i.opname == "CACHE":
            continue
        # A jump to a dropped instruction lands on the next one kept. PUSH_NULL belongs to the
        # non-method form of `x.f()` (LOAD_ATTR; LOAD_METHOD pushes no NULL).
        pending.append(i.offset)
        if i.opname in ("EXTENDED_ARG", "PUSH_NULL", "NOP"):  # NOP: where `if True:` was
            continue
        for off in pending:
            index[off] = len(ins)
        pending = []
        ins.append(i)
    jumps = set(dis.hasjrel) | set(dis.hasjabs)
    out = []
    for i in ins:
        op = "LOAD_ATTR" if i.opname == "LOAD_METHOD" else i.opname
        if i.opcode in jumps:
            arg = index.get(i.argval, i.argval)
        elif isinstance(i.argval, _pytypes.CodeType):
            arg = _code_key(i.argval)
        elif isinstance(i.argval, frozenset):  # a display of constants: its order differs in a .pyc
            arg = ("frozenset", tuple(sorted(repr(x) for x in i.argval)))
        else:
            arg = (type(i.argval).__name__, repr(i.argval))
        out.append((op, arg))
    return (code.co_name, tuple(out), code.co_varnames, code.co_freevars, code.co_cellvars,
            code.co_argcount, code.co_kwonlyargcount, code.co_flags & _FLAGS)


def _compiled_like(func, node):
    """The code object Python makes of the definition or lambda `node` (an AST node), compiled
    where `func` was: inside a function defining its free variables, so they are cells there too,
    and with its `from __future__` flags."""
    code = func.__code__
    if isinstance(node, _ast.Lambda):
        stmt = _ast.Expr(value=node)
    else:
        stmt = node
    body = [stmt]
    if code.co_freevars:
        # def __cujit_outer(): <free> = None; <definition>  -- the free names become cells.
        assign = _ast.Assign(targets=[_ast.Name(id=n, ctx=_ast.Store()) for n in code.co_freevars],
                             value=_ast.Constant(value=None))
        outer = _ast.FunctionDef(name="__cujit_outer", args=_ast.arguments(
            posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
            defaults=[]), body=[assign, stmt], decorator_list=[], returns=None, type_comment=None)
        body = [outer]
    mod = _ast.Module(body=body, type_ignores=[])
    _ast.fix_missing_locations(mod)
    try:
        top = compile(mod, code.co_filename, "exec", flags=code.co_flags & _FUTURE_FLAGS,
                      dont_inherit=True)
    except (SyntaxError, ValueError, TypeError):
        return None

    def find(c):
        for k in c.co_consts:
            if isinstance(k, _pytypes.CodeType):
                if k.co_name == code.co_name and k.co_argcount == code.co_argcount:
                    return k
                r = find(k)
                if r is not None:
                    return r
        return None
    return find(top)


def _matches(func, block, node, strict=False):
    """True when the definition in `block` (or the lambda `node`) compiles to `func`'s code."""
    if node is None:
        try:
            tree = _parse_block(block)
        except SyntaxError:
            return False
        defs = [n for n in tree.body if isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef))]
        if len(defs) != 1 or defs[0].name != func.__code__.co_name:
            return False
        node = defs[0]
    mine = _compiled_like(func, node)
    if mine is None:
        return False
    if _code_key(mine) == _code_key(func.__code__):
        return True
    if strict:  # a rebuilt text: the same code or nothing
        return False
    # pytest rewrites the assert statements of test modules, so their functions' bytecode is
    # not what their text compiles to; the names and positions still are.
    loader = getattr(sys.modules.get(getattr(func, "__module__", None)), "__loader__", None)
    if type(loader).__name__ == "AssertionRewritingHook" and any(
            isinstance(n, _ast.Assert) for n in _ast.walk(node)):
        return True
    return False


# ---- Lambdas ----

def _positions(code):
    """The (line, col) .. (end_line, end_col) span of the instructions of `code` itself (not of
    code nested in it): for a lambda, the span of its body."""
    start = end = None
    # Before Python 3.11 there are no columns: the bytecode comparison alone tells lambdas apart.
    for pos in getattr(code, "co_positions", lambda: ())():
        line, end_line, col, end_col = pos
        if line is None or col is None or end_line is None or end_col is None:
            continue
        if col == 0 and end_col == 0 and line == end_line:
            continue  # RESUME and the like
        if start is None or (line, col) < start:
            start = (line, col)
        if end is None or (end_line, end_col) > end:
            end = (end_line, end_col)
    return start, end


_PARSED = {}  # filename -> (lines object, tree): the last file parsed for its lambdas


def _module_tree(filename, lines):
    hit = _PARSED.get(filename)
    if hit is not None and hit[0] is lines:
        return hit[1]
    try:
        tree = _ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        tree = None
    _PARSED[filename] = (lines, tree)
    return tree


def _lambda_source(func, lines, first):
    """A lambda as the source of an equivalent function: `def <name>(args):` on the line before
    the lambda's, and `return <body>` on its line, so errors in the body name the user's line.

    The lambda is the one whose body's position in the file is where Python's code object says
    its instructions are (not the first lambda of the line: `f, g = jit(lambda x: x + 1),
    jit(lambda x: x * 10)`), and its text must compile to the lambda's own code."""
    code = func.__code__
    params = list(code.co_varnames[:code.co_argcount])
    start, end = _positions(code)
    tree = _module_tree(code.co_filename, lines)
    offset = 0
    if tree is None:
        # A file Python cannot parse whole (an IPython cell with magics): the statement at the
        # lambda's line.
        try:
            block = inspect.getblock(lines[first - 1:])
            tree = _parse_block(block)
        except Exception:
            return None
        offset = first - 1
    candidates = []
    for node in _ast.walk(tree):
        if not isinstance(node, _ast.Lambda) or [a.arg for a in node.args.args] != params:
            continue
        b = node.body
        if start is not None and ((b.lineno + offset, b.col_offset) != start or
                                  (b.end_lineno + offset, b.end_col_offset) != end):
            continue
        candidates.append(node)
    found = [n for n in candidates if _matches(func, None, n)]
    if not found:  # several only where they compile alike (no columns to tell them apart)
        return None
    node = found[0]
    body = _segment(lines[node.body.lineno + offset - 1:node.body.end_lineno + offset], node.body)
    line = node.body.lineno + offset
    same_line = sum(1 for n in _ast.walk(tree) if isinstance(n, _ast.Lambda)
                    and n.body.lineno == node.body.lineno)
    name = "lambda_%d" % line if same_line == 1 else "lambda_%d_%d" % (line, node.col_offset)
    # Default values are left out, as cujit compiles calls that pass every argument (a def with
    # defaults is refused; a lambda's are simply not used).
    args = list(params)
    # Keep the body at its column in the user's file so carets land under the right token.
    col = node.body.col_offset
    if "\n" in body:
        # Its lines as they are (comments included), in brackets, each on its own line number.
        body_line = "    return (" + body + ")"
    elif col < 8:
        body_line = "    return " + body
    else:
        body_line = " " * (col - 7) + "return " + body
    source = "def %s(%s):\n%s\n" % (name, ", ".join(args), body_line)
    return source, code.co_filename, max(line - 1, 1), 0, name


def _segment(node_lines, node):
    """The text of `node` (its lines given, first to last), by its UTF-8 column offsets."""
    if len(node_lines) == 1:
        b = node_lines[0].encode()
        return b[node.col_offset:node.end_col_offset].decode()
    parts = [node_lines[0].encode()[node.col_offset:].decode()]
    parts += node_lines[1:-1]
    parts.append(node_lines[-1].encode()[:node.end_col_offset].decode())
    return "".join(parts)


# operator: its functions are the operators they name (operator.add(a, b) is a + b), as in Numba.
_MODULES = {math: "math", cmath: "cmath", np: "numpy", np.random: "numpy.random", np.linalg: "numpy.linalg", random: "random",
            operator: "operator"}


def _module_name(value):
    if value in _MODULES:
        return _MODULES[value]
    import cujit
    if value is cujit:  # `import numba` through the alias, or `import cujit`
        return "numba"
    if value is _t:  # `from numba import types`: types.float32 as a dtype
        return "numba.types"
    from . import typed as _typed
    if value is _typed:  # typed.List() / typed.Dict.empty(...) in compiled code
        return "numba.typed"
    from . import cuda as _cuda
    from .cuda import libdevice as _libdevice
    if value is _libdevice:
        return "cuda.libdevice"
    if value is _cuda.fp16:
        return "cuda.fp16"
    if value is _cuda or getattr(value, "__name__", "") in ("numba.cuda", "cujit.cuda"):
        return "cuda"
    return None


def _class_key(registry, cls):
    # The key compiled code names a user's class by ("Name@<id>": it tells apart classes of one
    # name), kept in `registry` so that the bindings can find the class again.
    key = "%s@%x" % (cls.__qualname__, id(cls))
    registry[key] = cls
    return key


# Classes compiled code has seen, by key, one registry per kind: an enum member a @jit function
# returns is made from its class (bindings/cpu.cpp reads ENUM_CLASSES), so is a named tuple (as
# Numba returns an instance of the user's class), and the dispatcher raises a user's exception.
ENUM_CLASSES = {}
EXC_CLASSES = {}
NAMEDTUPLE_CLASSES = {}


def enum_key(cls):
    return _class_key(ENUM_CLASSES, cls)


def exc_key(cls):
    return _class_key(EXC_CLASSES, cls)


def namedtuple_key(cls):
    return _class_key(NAMEDTUPLE_CLASSES, cls)


# Functions passed from Python as arguments (a @jit function to a @jit function, a device
# function to a kernel), by key: the argument's type names this key, so a call with another
# function is another specialisation (its code called, never the first one's), and a compile
# finds the function here (add_function_args). Kept for the process's life, as the type is.
FUNCTION_ARGS = {}


def function_arg_key(value):
    """The key of a compiled function passed as an argument ("name@<id>"), or None for any
    other value (bindings/marshal.cpp asks only about values it has no other type for)."""
    from .cuda.dispatcher import DeviceFunction, Dispatcher
    from .cpu import CPUDispatcher
    if not isinstance(value, (DeviceFunction, CPUDispatcher, Dispatcher)):
        return None
    key = "%s@%x" % (value.py_func.__name__, id(value))
    FUNCTION_ARGS[key] = value
    return key


def add_function_args(fs, keys):
    """Adds to `fs` (a copy of the snapshot a compile uses) the functions its arguments name, as
    the globals " fnarg <key>" (no Python name has a space), read now as any callee is."""
    seen = {}
    for key in keys:
        fs.add_global(" fnarg " + key, _classify(FUNCTION_ARGS[key], seen))


def _is_namedtuple_class(value):
    # Numba's test (typeof of a tuple subclass with _fields): collections.namedtuple and
    # typing.NamedTuple classes alike.
    return isinstance(value, type) and issubclass(value, tuple) and isinstance(getattr(value, "_fields", None), tuple)


def _tuple_item(item):
    """Whether a classified value can be an item of a constant global tuple: a number, a str, an
    array or such a tuple."""
    if item[0] == "opaque":
        return item[1] == "<class 'str'>" and len(item) > 2
    return item[0] in ("int", "float", "bool", "scalar", "tuple", "array")


def _classify(value, seen):
    """The (kind, payload...) tuple the core's FunctionSource.set_globals understands."""
    from .cuda.dispatcher import DeviceFunction, Dispatcher
    if isinstance(value, type) and issubclass(value, BaseException):  # raise MyError(...)
        return ("exception", exc_key(value), value.__name__, issubclass(value, Exception))
    if isinstance(value, str):  # untyped, but an exception's argument (raise ValueError(msg))
        return ("opaque", "<class 'str'>", value)
    if isinstance(value, _enum.Enum):  # Numba's EnumMember / IntEnumMember: its value, typed
        v = _classify(value.value, seen)
        if v[0] not in ("int", "float", "bool", "scalar", "tuple"):
            return ("opaque", "%r (an enum member whose value is not a number or a tuple)" % type(value))
        return ("enum", enum_key(type(value)), isinstance(value, _enum.IntEnum), v)
    if isinstance(value, type) and issubclass(value, _enum.Enum):
        members = [(n, _classify(m, seen)) for n, m in value.__members__.items()]
        if not members or any(m[0] != "enum" for _, m in members):
            return ("opaque", "%r (an enum class whose members are not numbers)" % value)
        return ("enumclass", enum_key(value), issubclass(value, _enum.IntEnum), members)
    if value is None:  # Numba's none: `X is None` is known when compiling
        return ("none",)
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
    if isinstance(value, complex):  # Numba: complex128
        return ("scalar", "complex128", value)
    if isinstance(value, np.generic) and value.dtype in _t._BY_DTYPE:
        name = _t._BY_DTYPE[value.dtype].name
        if value.dtype.kind in "Mm":  # datetime64/timedelta64: its count of units (NaT: INT64_MIN)
            return ("scalar", name, int(value.view(np.int64)))
        return ("scalar", name, value.item())
    if _is_namedtuple_class(value):
        # A named tuple class: called in compiled code to make one. Its field defaults are
        # constants (a default the compiler has no type for is an error only where it is used).
        defaults = getattr(value, "_field_defaults", {})
        return ("ntclass", namedtuple_key(value), value.__name__, list(value._fields),
                [(f, _classify(defaults[f], seen)) for f in value._fields if f in defaults], repr(value))
    if isinstance(value, tuple) and _is_namedtuple_class(type(value)):
        items = [_classify(v, seen) for v in value]
        if all(_tuple_item(i) for i in items):
            cls = type(value)
            return ("tuple", items, namedtuple_key(cls), cls.__name__, list(cls._fields))
        return ("opaque", "%r (only named tuples of numbers, strs and arrays can be globals)" % type(value))
    if isinstance(value, tuple):
        # A tuple of numbers (or of such tuples) is a constant, as in Numba (SHAPE = (16, 16)).
        # A tuple of arrays (and numbers) is one too: its arrays are constant arrays, as a global
        # array is (literal_unroll over such a tuple is common in numba-cuda's tests).
        # A str item is a constant too (Numba types a global tuple of strs as UniTuple(unicode)),
        # in CPU code: GPU code refuses strs.
        items = [_classify(v, seen) for v in value]
        if all(_tuple_item(i) for i in items):
            return ("tuple", items)
        return ("opaque", "<class 'tuple'> (only tuples of numbers, strs and arrays can be globals)")
    if isinstance(value, np.ndarray) and value.dtype in _t._BY_DTYPE and value.ndim >= 1:
        # Global arrays are constants in compiled code, as in Numba (cuda.const.array_like).
        c = np.ascontiguousarray(value)
        return ("array", _t._BY_DTYPE[c.dtype].name, list(c.shape), c.tobytes())
    if isinstance(value, np.ndarray) and value.dtype.fields is not None and value.ndim >= 1:
        c = np.ascontiguousarray(value)  # a constant array of records: its bytes and its dtype
        return ("array", "record", list(c.shape), c.tobytes(), c.dtype)
    if isinstance(value, _pytypes.ModuleType):
        name = _module_name(value)
        if name is not None:
            return ("module", name)
        return ("opaque", "<class 'module'> (%s)" % value.__name__)
    if isinstance(value, _t.Record):  # a record type (numba.from_dtype): cuda.local/shared.array's dtype
        return ("dtype", "record", value.dtype)
    if isinstance(value, np.dtype) and value.fields is not None:
        return ("dtype", "record", value)
    if isinstance(value, _t.ScalarType):
        return ("dtype", value.name)
    if isinstance(value, (_t._UnicodeType, _t.ListType, _t.DictType, _t.BaseTuple)):
        # A type object of no scalar (types.unicode_type, ListType(int64), UniTuple(int64, 2)):
        # typed.List.empty_list's and typed.Dict.empty's argument, by its spelling.
        return ("dtype", str(value))
    from . import typed as _typed
    if value is _typed.List or value is _typed.Dict:  # `from numba.typed import List`
        return ("attr", "numba.typed", value.__name__)
    if isinstance(value, type) and issubclass(value, np.generic):
        try:
            return ("dtype", _t.from_dtype(value).name)
        except TypeError:
            pass
    if isinstance(value, Frozen):
        return ("function", value.source)
    from .cpu import CPUDispatcher
    from .extending import _Jitable, extension_api_of
    if isinstance(value, DeviceFunction) and value._declared:
        # cuda.jit(sigs, device=True): a call picks one of its signatures and converts its
        # arguments to it, as Numba does (compiler/overloads.h); @jit(sigs) the same.
        return ("function", capture(value.py_func, seen), value._declared_strings())
    if isinstance(value, CPUDispatcher) and getattr(value, "_declared_sigs", None):
        return ("function", capture(value.py_func, seen), value._declared_sigs)
    if isinstance(value, (DeviceFunction, CPUDispatcher, _Jitable, Dispatcher)):
        # @jit functions call each other as device functions do: typed at each call site. A
        # @cuda.jit kernel called from GPU code is compiled as a device function there, as
        # numba-cuda's dispatcher does (compile_device), so it may return a value.
        return ("function", capture(value.py_func, seen))
    from .cuda.compiler import ExternFunction
    if isinstance(value, ExternFunction):  # cuda.declare_device: its C name, signature, ABI, code
        return ("foreign", value.name, value._sig_text, value.abi, value.use_cooperative, value._link_items)
    from .cuda._refuse import Refused
    if isinstance(value, Refused):  # numba.cuda.bf16's names: importable, not compiled
        return ("opaque", repr(value))
    api = extension_api_of(value)
    if api is not None:
        return ("opaque", "%r (given an implementation with numba.extending.%s: cujit does not "
                          "support Numba's extension API)" % (type(value), api))
    # A function taken from a module: `from math import exp`.
    for mod, mname in _MODULES.items():
        n = getattr(value, "__name__", None)
        if n is not None and getattr(mod, n, None) is value:
            return ("attr", mname, n)
    import cujit
    from . import cuda as _cuda
    if value is cujit.literal_unroll:  # also cuda.literal_unroll (one object): for every target
        return ("attr", "numba", "literal_unroll")
    if isinstance(value, _cuda._KernelOnly) and "." in value.__name__:
        # `op = cuda.atomic.add` at module level: an intrinsic bound to a name.
        space, _, attr = value.__name__.rpartition(".")
        return ("attr", "cuda." + space, attr)
    n = getattr(value, "__name__", None)
    if n is not None and getattr(_cuda, n, None) is value:
        return ("attr", "cuda", n)
    from .cuda import libdevice as _libdevice
    if n is not None and getattr(_libdevice, n, None) is value:  # from numba.cuda.libdevice import sinf
        return ("attr", "cuda.libdevice", n)
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


def source(func):
    """A _core.FunctionSource of `func`'s text alone, without globals: what a dispatcher names
    and points at in messages. Reading (and checking) the text happens here, at decoration."""
    text, filename, first, indent, name = _source_entry(func)
    return _core.FunctionSource(name, text, filename, first, indent)


class Frozen:
    """A device function whose snapshot was taken once (a CUDA gufunc's function, captured at
    decoration as Numba compiles it there) and is reused by every kernel that calls it."""

    def __init__(self, func):
        self.py_func = func
        self.source = capture(func)


def snapshot(func, link=None, self_sigs=None):
    """The callable a dispatcher calls on each compile: `capture(func)` then. `link`: a kernel's
    link= code, as (kind, name, bytes) items (cuda/compiler.py _link_items). `self_sigs`: the
    declared signatures a call of the function by its own name, not bound yet, converts to."""
    if not link and not self_sigs:
        return lambda: capture(func)
    return lambda: capture(func, link=link, self_sigs=self_sigs)


def capture(func, seen=None, link=None, self_sigs=None):
    """A _core.FunctionSource for `func`, with its globals as they are now (and `link`, a kernel's
    link= items, under the name " link", which no Python name can be)."""
    if seen is None:
        seen = {}
    if id(func) in seen:
        return seen[id(func)]
    text, filename, first, indent, name = _source_entry(func)
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
        elif name == func.__name__ and func.__code__.co_name == name:
            # A function compiled at its decoration (declared signatures) that calls itself: its
            # name is not bound yet; it names this function, as Numba resolves it.
            snap[name] = ("function", fs) + ((self_sigs,) if self_sigs else ())
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
    # Default values, as Python evaluated them at the def: a compiled caller that leaves an
    # argument out passes this value (" default <parameter>", which no Python name can be).
    if func.__defaults__:
        params = code.co_varnames[:code.co_argcount]
        for pname, value in zip(params[len(params) - len(func.__defaults__):], func.__defaults__):
            snap[" default " + pname] = _classify(value, seen)
    if link:
        snap[" link"] = ("link", link)
    # The order of each set display of constants that Python made a frozenset constant of: the
    # compiled set's order follows it as Numba's does (" setorder <line>:<column>", codegen_dicts.cpp).
    for (line, col), perm in _set_orders(code, text).items():
        snap[" setorder %d:%d" % (first + line - 1, col)] = ("tuple", [("int", k) for k in perm])
    fs.set_globals(snap)
    return fs


def _foldable(e):
    # What CPython's compiler folds into a constant: literals, operators on them, tuples of them.
    if isinstance(e, _ast.Constant):
        return True
    if isinstance(e, _ast.UnaryOp):
        return _foldable(e.operand)
    if isinstance(e, _ast.BinOp):
        return _foldable(e.left) and _foldable(e.right)
    if isinstance(e, _ast.Tuple):
        return all(_foldable(x) for x in e.elts)
    return False


def _set_orders(code, text):
    """{(line in text, byte column): the display's item indices in its frozenset's order} for
    each set display of constants in the text that has a frozenset constant in `code`. CPython
    folds such a display into a frozenset, whose order (which differs between a fresh compile
    and a .pyc) Numba's set then follows; it is read here from the code object itself."""
    consts = []

    def walk(c):
        for k in c.co_consts:
            if isinstance(k, frozenset):
                consts.append(k)
            elif isinstance(k, _pytypes.CodeType):
                walk(k)

    walk(code)
    if not consts:
        return {}
    try:
        tree = _ast.parse(text)
    except SyntaxError:
        return {}
    out = {}
    for node in _ast.walk(tree):
        if not (isinstance(node, _ast.Set) and node.elts and all(_foldable(e) for e in node.elts)):
            continue
        try:
            vals = [eval(compile(_ast.Expression(e), "<set>", "eval"), {"__builtins__": {}}) for e in node.elts]
            want = frozenset(vals)
        except Exception:  # not a constant after all (1/0), or unhashable
            continue
        for fs in consts:
            if fs == want:
                perm = []
                for item in fs:
                    perm.append(next(k for k, v in enumerate(vals) if v == item))
                out[(node.lineno, node.col_offset)] = perm
                break
    return out
