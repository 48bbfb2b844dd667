"""cujit in IPython and Jupyter, and the progress lines and reprs a notebook user sees.

Functions defined in cells compile (their source comes from IPython's cell cache), errors show the
cell line with a caret and none of cujit's own frames, `%load_ext cujit` installs the numba alias,
a compile longer than a second prints a progress line (proving the compile runs without the GIL),
and the dispatchers and device arrays have reprs that say what they hold. The IPython tests need
IPython (CI installs it with ipykernel); the others run everywhere.
"""
import os
import re
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cujit
from cujit import _core, config, cuda, jit, vectorize, guvectorize
from cujit.errors import TypingError


@pytest.fixture
def sim():
    previous = _core.simulator_enabled()
    _core.set_simulator(True)
    try:
        yield
    finally:
        _core.set_simulator(previous)


@pytest.fixture(scope="module")
def shell(tmp_path_factory):
    """IPython's InteractiveShell, as a notebook kernel runs cells (no colours, no history file)."""
    pytest.importorskip("IPython")
    os.environ.setdefault("IPYTHONDIR", str(tmp_path_factory.mktemp("ipython")))
    from traitlets.config import Config
    from IPython.core.interactiveshell import InteractiveShell
    c = Config()
    c.HistoryManager.enabled = False
    sh = InteractiveShell.instance(config=c, colors="nocolor")
    sh.run_cell("import numpy as np\nfrom cujit import cuda, jit, vectorize", store_history=True)
    return sh


def run_cell(shell, capsys, source):
    """Runs `source` as the next numbered cell; returns (result, its cell label, printed text)."""
    label = "Cell In[%d]" % shell.execution_count
    capsys.readouterr()
    result = shell.run_cell(textwrap.dedent(source), store_history=True)
    out = capsys.readouterr()
    return result, label, out.out + out.err


# ---- functions defined in cells compile --------------------------------------------------------

def test_cell_functions_compile(shell, capsys, sim):
    result, _, out = run_cell(shell, capsys, """
        @jit
        def add_one(x):
            return x + 1

        @cuda.jit
        def double(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] *= 2

        @vectorize(['float32(float32, float32)'], target='cuda')
        def hyp(x, y):
            return (x * x + y * y) ** 0.5

        a = np.arange(4, dtype=np.float32)
        double[1, 4](a)
        print(add_one(41), a.tolist(), hyp(np.float32(3), np.float32(4)).tolist())
    """)
    assert result.success, out
    assert "42 [0.0, 2.0, 4.0, 6.0] [5.0]" in out


def test_function_from_an_earlier_cell(shell, capsys, sim):
    """A device function in one cell, the kernel calling it in the next."""
    run_cell(shell, capsys, """
        @cuda.jit(device=True)
        def square(x):
            return x * x
    """)
    result, _, out = run_cell(shell, capsys, """
        @cuda.jit
        def squares(a):
            i = cuda.grid(1)
            a[i] = square(i)

        b = np.zeros(5, dtype=np.int64)
        squares[1, 5](b)
        print(b.tolist())
    """)
    assert result.success, out
    assert "[0, 1, 4, 9, 16]" in out


# ---- errors show the cell line with a caret, not cujit's frames ---------------------------------

def _no_cujit_frames(out):
    package = os.path.dirname(cujit.__file__)
    assert package not in out, out
    for internal in ("dispatcher.py", "ufunc.py", "decorators.py", "super().__init__"):
        assert internal not in out, out


def test_typing_error_at_decoration_shows_the_cell_line(shell, capsys, sim):
    result, label, out = run_cell(shell, capsys, """
        @cuda.jit('void(float32[:])')
        def bad_kernel(x):
            x[0] = 1 + not_defined_anywhere
    """)
    assert isinstance(result.error_in_exec, TypingError)
    _no_cujit_frames(out)
    assert "TypingError: NameError: name 'not_defined_anywhere' is not defined" in out
    # The location as IPython names cells, then the line and a caret under the name.
    assert "%s, line 3:\n" % label in out
    lines = out.splitlines()
    i = next(n for n, ln in enumerate(lines) if ln.strip() == "x[0] = 1 + not_defined_anywhere")
    assert lines[i + 1].index("^~") == lines[i].index("not_defined_anywhere")
    # IPython's own part still shows where in the cell the error surfaced: the decorator.
    assert "----> 1 @cuda.jit('void(float32[:])')" in out
    # str() is unchanged: it keeps the cell's file name.
    assert str(result.error_in_exec).count("ipython-input") + str(result.error_in_exec).count(".py:") == 1


def test_typing_error_of_a_cuda_ufunc(shell, capsys, sim):
    result, label, out = run_cell(shell, capsys, """
        @vectorize(['float32(float32)'], target='cuda')
        def bad_ufunc(x):
            return x + undefined_in_ufunc
    """)
    assert isinstance(result.error_in_exec, TypingError)
    _no_cujit_frames(out)
    assert "%s, line 3:" % label in out and "^" in out


def test_error_at_first_call_names_the_defining_cell(shell, capsys, sim):
    _, defining, _ = run_cell(shell, capsys, """
        @jit
        def compares_identity(n):
            d = {n: 1}
            if d is n:
                return 1
            return 0
    """)
    # `is` between values other than None is refused when typed, at the call.
    result, calling, out = run_cell(shell, capsys, "compares_identity(3)\n")
    assert isinstance(result.error_in_exec, cujit.errors.UnsupportedError)
    _no_cujit_frames(out)
    assert "%s, line 1" % calling in out           # IPython's frame: where it was called
    assert "%s, line 4:" % defining in out         # cujit's location: the line that fails
    assert "if d is n:" in out


def test_render_traceback_without_ipython_running(monkeypatch):
    """Outside IPython the same method gives plain traceback lines, still without cujit's frames."""
    pytest.importorskip("IPython")
    import IPython
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    with pytest.raises(TypingError) as info:
        @cuda.jit("void(float32[:])")
        def bad(x):
            x[0] = undefined_thing  # noqa: F821
    text = "\n".join(info.value._render_traceback_())
    _no_cujit_frames(text)
    assert "test_jupyter.py" in text and "undefined_thing" in text and "^" in text


def test_compile_syntax_error_carries_the_line():
    """CompileSyntaxError is a SyntaxError, which IPython and Python print from `text` and
    `offset`: the line and a caret."""
    e = cujit.errors.CompileSyntaxError("bad\n\nx.py:1:\n", "bad", __file__, 1, 0)
    with open(__file__) as f:
        assert e.text == f.readline() and e.offset == 1


# ---- %load_ext cujit ----------------------------------------------------------------------------

def test_load_ext_installs_the_numba_alias(tmp_path):
    """In a fresh process, so the alias does not leak into the other tests."""
    pytest.importorskip("IPython")
    script = textwrap.dedent("""
        from traitlets.config import Config
        from IPython.core.interactiveshell import InteractiveShell
        c = Config()
        c.HistoryManager.enabled = False
        sh = InteractiveShell.instance(config=c, colors="nocolor")
        r = sh.run_cell("%load_ext cujit")
        assert r.success, r.error_in_exec
        r = sh.run_cell('''
        import numba, cujit
        from numba import cuda, vectorize
        import numpy as np

        @vectorize(['int64(int64)'], target='cuda')
        def inc(x):
            return x + 1

        print(numba is cujit, cuda is cujit.cuda, inc(np.arange(3)).tolist())
        ''')
        assert r.success, r.error_in_exec
    """)
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", IPYTHONDIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "True True [1, 2, 3]" in p.stdout


# ---- progress lines for long compiles -----------------------------------------------------------

def _unique_function(folder):
    """A function of its own file in `folder`, so that no other test compiles the same code."""
    path = folder / "unique_function.py"
    path.write_text("def f(x):\n    return x + %d\n" % os.getpid())
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns["f"]


def test_progress_line_when_the_threshold_is_zero(monkeypatch, capsys, sim):
    monkeypatch.setattr(config, "COMPILE_PROGRESS_AFTER", 0.0)

    @cuda.jit
    def progress_kernel(a):
        a[0] = 7

    a = np.zeros(1, dtype=np.float32)
    progress_kernel[1, 1](a)
    err = capsys.readouterr().err
    assert "cujit: compiling kernel progress_kernel(array(float32, 1d, C)) ...\n" in err
    assert re.search(r"cujit: compiled kernel progress_kernel\(array\(float32, 1d, C\)\) in \d+\.\d\d s\n", err)
    progress_kernel[1, 1](a)  # compiled: nothing more to say
    assert capsys.readouterr().err == ""


def test_progress_line_for_jit_and_ufuncs(monkeypatch, capsys):
    monkeypatch.setattr(config, "COMPILE_PROGRESS_AFTER", 0.0)

    @jit
    def progress_add(x, y):
        return x + y

    assert progress_add(1, 2.5) == 3.5

    @vectorize(["float64(float64)"])
    def progress_ufunc(x):
        return x * 2

    err = capsys.readouterr().err
    assert "cujit: compiling function progress_add(int64, float64) ..." in err
    assert "cujit: compiling ufunc progress_ufunc ..." in err


def test_no_progress_line_for_a_short_compile(monkeypatch, capsys, sim):
    monkeypatch.setattr(config, "COMPILE_PROGRESS_AFTER", 30.0)

    @cuda.jit
    def quiet_kernel(a):
        a[0] = 1

    quiet_kernel[1, 1](np.zeros(1))
    assert "cujit:" not in capsys.readouterr().err


def test_progress_line_appears_while_the_compiler_runs(monkeypatch, capsys, tmp_path):
    """The compiler (here c++ behind a script that first sleeps a second) runs without the GIL,
    so the timer thread prints its line during the compile, not after it."""
    real = None
    for name in ("c++", "g++", "clang++"):
        real = real or __import__("shutil").which(name)
    if real is None:
        pytest.skip("no host C++ compiler")
    slow = tmp_path / "slow-c++"
    slow.write_text("#!/bin/sh\nsleep 1\nexec %s \"$@\"\n" % real)
    slow.chmod(slow.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("CXX", str(slow))
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(config, "COMPILE_PROGRESS_AFTER", 0.3)
    f = jit(_unique_function(tmp_path))
    assert f(1) == 1 + os.getpid()
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("cujit:")]
    assert lines[0] == "cujit: compiling function f(int64) ..."
    seconds = float(re.fullmatch(r"cujit: compiled function f\(int64\) in (\d+\.\d\d) s", lines[1]).group(1))
    assert seconds >= 1.0


def test_progress_line_for_a_failed_compile(monkeypatch, capsys, tmp_path):
    failing = tmp_path / "failing-c++"
    failing.write_text("#!/bin/sh\necho 'fake compiler: refusing' >&2\nexit 1\n")
    failing.chmod(failing.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("CXX", str(failing))
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(config, "COMPILE_PROGRESS_AFTER", 0.0)
    with pytest.raises(cujit.errors.CujitError):
        jit(_unique_function(tmp_path))(1)
    err = capsys.readouterr().err
    assert re.search(r"cujit: compiling function f\(int64\) failed after \d+\.\d\d s", err)


def test_progress_setting_from_the_environment():
    code = "from cujit import config; print(config.COMPILE_PROGRESS_AFTER)"
    outs = []
    for value in ("", "2.5", "0", "off", "-1"):
        env = dict(os.environ, CUJIT_COMPILE_PROGRESS=value, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        outs.append(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                   check=True).stdout.strip())
    assert outs == ["1.0", "2.5", "0.0", "None", "None"]


# ---- reprs --------------------------------------------------------------------------------------

def test_device_array_repr(sim):
    d = cuda.to_device(np.zeros((3, 4), dtype=np.float32))
    assert repr(d) == "<cujit.cuda.DeviceNDArray shape=(3, 4) dtype=float32 on simulator>"
    f = cuda.device_array((3, 4), dtype=np.float64, order="F")
    assert repr(f) == "<cujit.cuda.DeviceNDArray shape=(3, 4) dtype=float64 strides=(8, 24) (F order) on simulator>"
    assert repr(d[:, ::2]) == "<cujit.cuda.DeviceNDArray shape=(3, 2) dtype=float32 strides=(16, 8) on simulator>"


def test_dispatcher_reprs(sim):
    @cuda.jit
    def k(a):
        a[0] = 1

    assert repr(k) == "<cujit CUDA kernel k, not compiled yet>"
    k[1, 1](np.zeros(2, dtype=np.int32))
    assert repr(k) == "<cujit CUDA kernel k, compiled for (array(int32, 1d, C))>"

    @cuda.jit(device=True)
    def helper(x):
        return x

    assert repr(helper).startswith("<cujit CUDA device function helper")

    @jit
    def add(x, y):
        return x + y

    assert repr(add) == "<cujit CPUDispatcher add, not compiled yet>"
    add(1, 2)
    add(1.0, 2.0)
    assert repr(add) == "<cujit CPUDispatcher add, compiled for (int64, int64), (float64, float64)>"

    @vectorize(["float32(float32)", "float64(float64)"], target="cuda")
    def twice(x):
        return 2 * x

    assert repr(twice) == "<cujit CUDA ufunc twice with 2 signature(s): f->f, d->d>"

    @guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target="cuda")
    def copy(a, out):
        for i in range(a.shape[0]):
            out[i] = a[i]

    assert repr(copy) == "<cujit CUDA gufunc copy '(n)->(n)' with 1 signature(s): f->f>"
