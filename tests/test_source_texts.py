"""Functions whose source is in no file compile, as they do with Numba (which reads bytecode):
those of a `python -c` program (the text is sys.orig_argv's), those made by exec() or compile()
of a string (remembered through the `compile` audit event), and those with no text at all (rebuilt
from the code object, tests/test_rebuild.py). The expected outputs are Numba 0.68's / numba-cuda
0.30's for the same programs."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cujit
from cujit import cuda, jit, vectorize
from cujit.decorators import get_source


def _run_c(program, target="sim", extra=()):
    env = dict(os.environ)
    env["CUJIT_ENABLE_CUDASIM"] = "1" if target == "sim" else "0"
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(cujit.__file__))] + sys.path)
    p = subprocess.run([sys.executable, *extra, "-c", textwrap.dedent(program)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


# ---- python -c ------------------------------------------------------------------------------

def test_python_c_kernel_with_print(target):
    out = _run_c("""
        import numpy as np
        from cujit import cuda
        @cuda.jit
        def k(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = i * 2
                print("thread", i, a[i])
        a = np.zeros(3)
        k[1, 3](a)
        cuda.synchronize()
        print(a.tolist())
    """, target)
    lines = out.splitlines()
    assert sorted(lines[:3]) == ["thread 0 0.0", "thread 1 2.0", "thread 2 4.0"]
    assert lines[3] == "[0.0, 2.0, 4.0]"


def test_python_c_jit_vectorize_and_lambda():
    out = _run_c("""
        import numpy as np
        from cujit import jit, vectorize
        @jit
        def f(x):
            return x + 1
        @vectorize(["float64(float64)"])
        def v(x):
            return x * 3
        g, h = jit(lambda x: x * 7), jit(lambda x: x * 10)
        print(f(2), v(np.arange(3.0)).tolist(), g(3), h(3))
    """)
    assert out == "3 [0.0, 3.0, 6.0] 21 30\n"


def test_python_c_cuda_vectorize(target):
    out = _run_c("""
        import numpy as np
        from cujit import vectorize
        @vectorize(["float32(float32, float32)"], target="cuda")
        def add(x, y):
            return x + y
        print(add(np.arange(3, dtype=np.float32), np.ones(3, dtype=np.float32)).tolist())
    """, target)
    assert out == "[1.0, 2.0, 3.0]\n"


def test_python_c_with_interpreter_options():
    # -c after options that take a value (-W, -X), and joined to another flag (-Bc).
    out = _run_c("""
        from cujit import jit
        @jit
        def f(x):
            return x * 2
        print(f(21))
    """, extra=("-W", "ignore", "-X", "utf8", "-B"))
    assert out == "42\n"


def test_python_c_error_points_at_the_users_line():
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1")
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(cujit.__file__))
    prog = "from cujit import jit\n@jit\ndef f(x):\n    return x + undefined_name\nf(1)\n"
    p = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode != 0
    assert "<string>:4:\n        return x + undefined_name\n                   ^~~~" in p.stderr
    assert "SourceUnavailableError" not in p.stderr


# ---- exec() and compile() of strings ----------------------------------------------------------

_SRC = """
def f(x, y):
    return x * y + 1
"""


@pytest.mark.parametrize("form", ["g_l", "g", "none", "compile", "compile_named", "bytes"])
def test_exec_forms(form):
    g = {"__builtins__": __builtins__}
    ld = {}
    if form == "g_l":
        exec(_SRC, g, ld)
    elif form == "g":
        exec(_SRC, ld)
    elif form == "none":
        exec(_SRC + "ld['f'] = f\n")
    elif form == "compile":
        exec(compile(_SRC, "<string>", "exec"), g, ld)
    elif form == "compile_named":
        exec(compile(_SRC, "<my kernels>", "exec"), g, ld)
    else:
        exec(_SRC.encode(), g, ld)
    f = ld["f"]
    assert jit(f)(3, 4) == 13
    text, filename, first, indent = get_source(f)
    assert text == "def f(x, y):\n    return x * y + 1\n" and first == 2 and indent == 0


def test_exec_two_texts_same_name():
    # Two strings define f under the same file name "<string>": each f gets its own text.
    a, b = {}, {}
    exec("def f(x):\n    return x + 1\n", {}, a)
    exec("def f(x):\n    return x - 1\n", {}, b)
    assert jit(a["f"])(10) == 11
    assert jit(b["f"])(10) == 9


def test_exec_kernel_as_numba_cudas_tests_make_them(target):
    # test_atomics.py's pattern: a kernel in a formatted string, its globals passed in.
    fns = """
def kern(res, ary):
    tx = cuda.threadIdx.x
    res[tx] = ary[tx] + {k}
"""
    ld = {}
    exec(fns.format(k=5), {"cuda": cuda}, ld)
    k = cuda.jit("void(int32[:], int32[:])")(ld["kern"])
    ary = np.arange(4, dtype=np.int32)
    res = np.zeros(4, dtype=np.int32)
    k[1, 4](res, ary)
    assert res.tolist() == [5, 6, 7, 8]


def test_exec_vectorize(target):
    ld = {}
    exec("def fn(a, b):\n    return a * b\n", {}, ld)
    cpu = vectorize(["int64(int64, int64)"])(ld["fn"])
    gpu = vectorize(["int64(int64, int64)"], target="cuda")(ld["fn"])
    x = np.arange(4)
    assert cpu(x, x).tolist() == [0, 1, 4, 9]
    assert gpu(x, x).tolist() == [0, 1, 4, 9]


def test_exec_lambda():
    ld = {}
    exec("f = lambda x: x * 3\ng = lambda x: x * 4", {}, ld)
    assert jit(ld["f"])(2) == 6 and jit(ld["g"])(2) == 8


def test_exec_error_points_at_the_strings_line():
    ld = {}
    exec("\n\ndef f(x):\n    y = x\n    return y + undefined_thing\n", {}, ld)
    with pytest.raises(cujit.TypingError) as e:
        jit(ld["f"])(1)
    assert "<string>:5:\n        return y + undefined_thing\n" in str(e.value)


def test_linecache_entries_still_used(tmp_path):
    # IPython and Jupyter register each cell's text in linecache under a pseudo file name.
    import linecache
    text = "def cell_fn(x):\n    return x * 5\n"
    name = "<ipython-input-1-cujit>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    import ast
    code = compile(ast.parse(text), name, "exec")  # from an AST: no text reaches the audit hook
    ns = {}
    exec(code, ns)
    assert jit(ns["cell_fn"])(3) == 15
    assert get_source(ns["cell_fn"])[1] == name


def test_remembered_texts_are_bounded():
    from cujit import _texts
    for i in range(_texts._MAX_TEXTS + 50):
        exec("def many_%d(x):\n    return x\n" % i, {})
    exec("y = 1 + 2\n", {})  # no function in it: not kept
    assert len(_texts._TEXTS) <= _texts._MAX_TEXTS
    assert not any(src == b"y = 1 + 2\n" for _, src in _texts._TEXTS)
    assert ("<string>", b"def many_%d(x):\n    return x\n" % (_texts._MAX_TEXTS + 49)) \
        in _texts._TEXTS
    ns = {}
    exec("def last(x):\n    return x * 4\n", ns)
    assert jit(ns["last"])(2) == 8


def test_runtime_error_quotes_the_line_of_an_exec_kernel(target):
    # An index error found at run time names the line and quotes it, as for a file.
    ld = {}
    exec("\ndef past_end(a, n):\n    i = cuda.grid(1)\n    if i < n:\n        a[i] = 1.0\n",
         {"cuda": cuda}, ld)
    k = cuda.jit(debug=True, opt=False)(ld["past_end"])
    with pytest.raises(IndexError) as info:
        k[1, 8](np.zeros(4, np.float32), 8)
    msg = str(info.value)
    assert "index 4 is out of bounds for axis 0 of 'a' with size 4" in msg
    assert "<string>:5" in msg and "a[i] = 1.0" in msg and "^" in msg
