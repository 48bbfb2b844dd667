"""Functions with no source text anywhere (the plain REPL's `<stdin>`, exec() before `import
cujit`, code from an AST or from marshal) compile from a text rebuilt from their code object
(cujit/_rebuild.py), as Numba compiles them from bytecode. The rebuilt text is used only when it
compiles to the same instructions as the function's code; otherwise the function is refused with
SourceUnavailableError naming the construct, never compiled in another meaning."""
import ast
import glob
import marshal
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import cujit
from cujit import _rebuild, cuda, jit, vectorize
from cujit.decorators import SourceUnavailableError, _code_key, _compiled_like, get_source

HERE = os.path.dirname(os.path.abspath(__file__))
# The rebuild was written against CPython 3.11's bytecode and run on 3.12 (the GPU machine) once:
# there every test passes except the three marked gap_312, whose functions 3.12 compiles into
# shapes the rebuild does not cover yet; it refuses them by name, never compiles them otherwise.
# Other versions are untried.
not_311 = pytest.mark.xfail(sys.version_info[:2] not in ((3, 11), (3, 12)), strict=False,
                            reason="the rebuild is tried on CPython 3.11 and 3.12 only")
gap_312 = pytest.mark.xfail(sys.version_info[:2] != (3, 11), strict=False,
                            reason="3.12 bytecode shapes the rebuild does not cover yet (refused by name)")


def textless(src, name, g=None, filename="<stdin>"):
    """The function `name` of `src`, compiled from an AST: no text reaches linecache or the
    audit hook, as in the plain REPL."""
    ns = {"np": np, "cuda": cuda, "math": __import__("math")} if g is None else g
    exec(compile(ast.parse(textwrap.dedent(src)), filename, "exec"), ns)
    return ns[name]


# ---- Round trip over a corpus: the project's own kernels and @jit bodies ----------------------

class _Fn:
    def __init__(self, code):
        self.__code__ = code


def _code_objects(code):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield c
            yield from _code_objects(c)


@not_311
def test_round_trip_over_the_projects_tests():
    """Each function in tests/ and examples/ is rebuilt; a rebuilt text must compile to the
    same instructions, and a refusal must be a RebuildError (never another exception)."""
    files = sorted(glob.glob(os.path.join(HERE, "*.py")) +
                   glob.glob(os.path.join(HERE, "..", "examples", "**", "*.py"), recursive=True))
    ok = refused = unlike = 0
    for path in files:
        with open(path, encoding="utf-8") as fh:
            try:
                mod = compile(fh.read(), path, "exec")
            except SyntaxError:
                continue
        for code in _code_objects(mod):
            if code.co_name.startswith("<") and code.co_name != "<lambda>":
                continue  # comprehensions
            try:
                text, _ = _rebuild.rebuild(code)
            except _rebuild.RebuildError:
                refused += 1
                continue
            tree = ast.parse(text, mode="eval").body if code.co_name == "<lambda>" \
                else ast.parse(text).body[0]
            mine = _compiled_like(_Fn(code), tree)
            if mine is not None and _code_key(mine) == _code_key(code):
                ok += 1
            else:
                unlike += 1  # decorators._rebuilt refuses these: a text Python never ran
    # Test functions with try/with, comprehensions and nested functions are refused; kernels
    # and @jit bodies rebuild (828 of 1218 functions when this was written, 15 unlike).
    # The share of unlike texts stays under 2.5% as the suite grows (15 of 828, 34 of 1923;
    # 2 of 2375 on 3.11 once folded Ellipsis tuples and `assert a and b` rebuilt).
    assert ok >= 800 and unlike <= max(30, ok // 40), (ok, unlike, refused)


_BEHAVIOUR = """
def f1(a, b, c):
    if a < b <= c:
        return 1
    elif a and not b or c:
        return 2
    x = a if b > c else -c
    while x > 0 and a:
        x -= 3
        if x == 4:
            continue
        if x == 7:
            break
    for i in range(a, c, 2):
        x += i * 2 if i % 3 else i // 2
    y, z = x, a
    y, z = z, y
    w = u = a or b
    v1, v2, v3 = a and b or c, (a or b) and c, a and b and c or 4
    return x, y, z, w, u, (a and b), 0 <= a < 10 and b != 3, v1, v2, v3

def f2(a, b, c):
    t = 0
    while True:
        t += 1
        if t > a:
            break
        if t % 2:
            continue
        for k in range(b):
            if k == c:
                break
            t += k
    return t if t is not None else None
"""


@gap_312
@pytest.mark.parametrize("name", ["f1", "f2"])
def test_rebuilt_text_behaves_as_the_original(name):
    fn = textless(_BEHAVIOUR, name, g={})
    text, _ = _rebuild.rebuild(fn.__code__)
    ns = {}
    exec(text, ns)
    again = ns[name]
    assert _code_key(again.__code__) == _code_key(fn.__code__)
    for a in range(-2, 12):
        for b in (0, 1, 3, 5):
            for c in (-1, 0, 2, 6, 9):
                assert again(a, b, c) == fn(a, b, c)


@not_311
def test_statements_keep_their_lines():
    fn = textless("\n\ndef f(x):\n    y = x + 1\n\n\n    if y > 2:\n        y = 0\n    return y\n",
                  "f", g={})
    text, _ = _rebuild.rebuild(fn.__code__)
    lines = text.splitlines()
    # the def is on line 3 of the input, its first line here
    assert lines[1] == "    y = x + 1" and lines[4] == "    if y > 2:" and lines[6] == "    return y"


# ---- Compiling functions that have no text ---------------------------------------------------

_KERNEL = """
def kern(a, out):
    i = cuda.grid(1)
    if 0 <= i < a.size:
        acc = 0.0
        for k in range(3):
            acc += a[i] * k
        out[i] = acc if acc > 2 else -1.0
"""


@not_311
def test_textless_kernel(target):
    k = cuda.jit(textless(_KERNEL, "kern"))
    a = np.arange(4, dtype=np.float64)
    out = np.zeros(4)
    k[1, 4](a, out)
    assert out.tolist() == [-1.0, 3.0, 6.0, 9.0]
    text, filename, first, indent = get_source(k.py_func)
    assert filename == "<stdin>" and first == 2 and text.startswith("def kern(a, out):\n")


@gap_312
def test_textless_jit_and_lambda():
    f = jit(textless("def f(x, n):\n    t = 0\n    while n > 0:\n        t += x\n        n -= 1\n"
                     "    return t\n", "f", g={}))
    assert f(3, 4) == 12
    g = jit(textless("g = lambda x: x * 2 + 1\n", "g", g={}))
    assert g(5) == 11


@not_311
def test_textless_vectorize(target):
    fn = textless("def v(a, b):\n    return a - b if a > b else b - a\n", "v", g={})
    cpu = vectorize(["float64(float64, float64)"])(fn)
    gpu = vectorize(["float64(float64, float64)"], target="cuda")(fn)
    x, y = np.array([1.0, 5.0]), np.array([3.0, 2.0])
    assert cpu(x, y).tolist() == [2.0, 3.0]
    assert gpu(x, y).tolist() == [2.0, 3.0]


@not_311
def test_textless_ellipsis_index_and_assert_with_and():
    """`a[..., 0]` folds to the constant (Ellipsis, 0), which must be spelled `...` (not the
    global name Ellipsis), and `assert a and b` comes back from its jumps as `not (not a or
    not b)`: both were refused as unlike texts before."""
    fn = textless("def f(a, n):\n    assert n > 0 and n < 10, 'n'\n    return a[..., 0].sum() * n\n",
                  "f", g={})
    text, _ = _rebuild.rebuild(fn.__code__)
    assert "..." in text and "Ellipsis" not in text
    f = jit(fn)
    a = np.arange(6.0).reshape(3, 2)
    assert f(a, 2) == 12.0
    with pytest.raises(AssertionError, match="n"):
        f(a, 11)


@not_311
def test_marshalled_code():
    fn = textless("def f(x):\n    return x * 3\n", "f", g={})
    code = marshal.loads(marshal.dumps(fn.__code__))
    g = types.FunctionType(code, {})
    assert jit(g)(4) == 12


@not_311
def test_textless_typing_error_names_the_users_line():
    fn = textless("\ndef f(x):\n    y = x\n    return y + not_defined_anywhere\n", "f", g={})
    with pytest.raises(cujit.TypingError) as e:
        jit(fn)(1)
    assert "<stdin>:4:" in str(e.value) and "not_defined_anywhere" in str(e.value)


def test_textless_unsupported_construct_is_refused_by_name():
    fn = textless("def f(x):\n    return sum([i for i in range(x)])\n", "f", g={})
    with pytest.raises(SourceUnavailableError,
                       match=r"cannot rebuild it from its bytecode: a nested function, lambda or "
                             r"comprehension \(line 2\)"):
        jit(fn)(3)
    fn = textless("def f(x):\n    try:\n        return x\n    except Exception:\n"
                  "        return 0\n", "f", g={})
    with pytest.raises(SourceUnavailableError, match="a try or with statement"):
        jit(fn)(3)
    fn = textless("def f(a):\n    for x in a:\n        if x:\n            break\n    else:\n"
                  "        return 0\n    return 1\n", "f", g={})
    with pytest.raises(SourceUnavailableError, match=r"a for loop with an else clause \(line 2\)"
                       if sys.version_info[:2] == (3, 11) else r"cannot rebuild it from its bytecode"):
        jit(fn)(np.zeros(2))


def test_textless_default_argument_compiles_as_from_a_file():
    fn = textless("def f(x, y=2):\n    return x + y\n", "f", g={})
    assert _rebuild.rebuild(fn.__code__, fn.__defaults__)[0] == \
        "def f(x, y=2):\n    return x + y\n"
    assert jit(fn)(1, 5) == 6
    assert jit(fn)(1) == 3


def _run(args, stdin=None, target="sim"):
    env = dict(os.environ)
    env["CUJIT_ENABLE_CUDASIM"] = "1" if target == "sim" else "0"
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(cujit.__file__))
    p = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


_REPL = """\
import numpy as np
from cujit import cuda, jit
@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i + 1

a = np.zeros(3)
k[1, 3](a)
print(a.tolist())
@jit
def f(x):
    return x * 10

print(f(4))
"""


@not_311
def test_plain_repl(target):
    # The REPL reading a pipe: each statement is compiled from `<stdin>`, and no text is kept.
    out = _run(["-i", "-q"], stdin=_REPL, target=target)
    assert "[1.0, 2.0, 3.0]" in out and "40" in out
    out = _run(["-"], stdin=_REPL, target=target)  # a script read from stdin: `<stdin>` too
    assert out == "[1.0, 2.0, 3.0]\n40\n"


@not_311
def test_exec_before_import_cujit():
    # The string was compiled before cujit's audit hook existed: its text was never seen.
    out = _run(["-c", textwrap.dedent("""
        ns = {}
        exec("def f(x):\\n    if x > 2:\\n        return x * 2\\n    return x\\n", ns)
        from cujit import jit
        print(jit(ns["f"])(1), jit(ns["f"])(5))
    """)])
    assert out == "1 10\n"
