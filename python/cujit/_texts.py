"""Source texts that are in no file and not in linecache: the program of `python -c`, and the
strings handed to exec(), eval() and compile() (numba-cuda's tests build kernels that way).

cujit compiles from source text, where Numba reads bytecode, so these texts are remembered for
source capture (decorators._read_source), which still checks that the text compiles to the
function's own code before it uses it. A function whose text was never seen (compiled before
`import cujit`, in the plain REPL, or from an AST or marshalled code) is rebuilt from its code
object instead (_rebuild.py).

CPython raises the audit event `compile` with `(source, filename)` for every compile(), exec()
and eval() of source text (3.8 and later; the source arrives as bytes). An audit hook cannot be
removed, so it does as little as it can: it keeps only texts that can hold a function (`def` or
`lambda` in them), at most _MAX_TEXTS of them and _MAX_BYTES in all, the least recently compiled
dropped first. Nothing here runs when a kernel is launched: texts are looked up at decoration.
"""

import collections
import sys
import threading

_MAX_TEXTS = 512
_MAX_BYTES = 16 << 20

# (filename, source bytes) -> None, oldest first.
_TEXTS = collections.OrderedDict()
_size = [0]
_lock = threading.Lock()
_installed = [False]
# ast.parse's default name, and the name cujit's own checks compile under: texts that are
# parsed, not run (a function of one would be rebuilt from its code all the same).
_IGNORED = frozenset(("<unknown>", "<cujit>"))


def _hook(event, args):
    # Called for every audit event of the process: the test that fails fast comes first.
    if event != "compile":
        return
    try:
        src, filename = args[0], args[1]
    except Exception:
        return
    if isinstance(src, str):
        try:
            src = src.encode("utf-8")
        except UnicodeError:
            return
    if not isinstance(src, bytes) or not isinstance(filename, str):
        return  # an AST (filename None): no text to remember
    if filename in _IGNORED:
        return
    if b"def" not in src and b"lambda" not in src:
        return
    key = (filename, src)
    with _lock:
        if key in _TEXTS:
            _TEXTS.move_to_end(key)
            return
        if len(src) > _MAX_BYTES:
            return
        _TEXTS[key] = None
        _size[0] += len(src)
        while len(_TEXTS) > _MAX_TEXTS or _size[0] > _MAX_BYTES:
            (_, old), _unused = _TEXTS.popitem(last=False)
            _size[0] -= len(old)


def install():
    """Start remembering compiled texts (once per process, at `import cujit`)."""
    if _installed[0]:
        return
    _installed[0] = True
    sys.addaudithook(_hook)


def command_text():
    """The program of `python -c PROGRAM`, or None when the process was not started that way."""
    argv = getattr(sys, "orig_argv", None)
    if not argv or not sys.argv or sys.argv[0] != "-c":
        return None
    # Interpreter options before -c; the ones that take a value may have it attached or next.
    with_value = set("WXQ")
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--" or not a.startswith("-") or a == "-":
            return None
        if a.startswith("--"):  # --check-hash-based-pycs MODE, --version, --help ...
            i += 2 if a == "--check-hash-based-pycs" else 1
            continue
        for j, ch in enumerate(a[1:], 1):
            if ch == "c":
                rest = a[j + 1:]
                if rest:
                    return rest
                return argv[i + 1] if i + 1 < len(argv) else None
            if ch == "m":
                return None
            if ch in with_value:
                if j + 1 == len(a):
                    i += 1  # the value is the next argument
                break
        i += 1
    return None


_LINES = {}  # source text -> its lines (the same list each time, for decorators' parse cache)


def _lines_of(text):
    lines = _LINES.get(text)
    if lines is None:
        lines = text.splitlines(keepends=True)
        if len(_LINES) > _MAX_TEXTS:
            _LINES.clear()
        _LINES[text] = lines
    return lines


def candidates(filename):
    """Line lists of the texts that may hold a function whose code names `filename`, newest
    first: the `-c` program (its functions name "<string>"), then the texts compiled with that
    filename."""
    out = []
    if filename == "<string>":
        prog = command_text()
        if prog is not None:
            out.append(_lines_of(prog))
    with _lock:
        texts = [src for (fn, src) in _TEXTS if fn == filename]
    for src in reversed(texts):
        try:
            text = src.decode("utf-8")
        except UnicodeDecodeError:
            continue  # a source with a coding declaration: the rebuild from bytecode covers it
        out.append(_lines_of(text))
    return out
