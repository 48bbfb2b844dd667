"""Numba's environment variables that matter to students, honoured as Numba honours them:
NUMBA_ENABLE_CUDASIM=1 runs kernels on the simulator, NUMBA_DISABLE_JIT=1 makes @jit/@njit return
the Python function (CUDA kernels and ufuncs still compile, as in Numba). cujit's own spellings
(CUJIT_ENABLE_CUDASIM, CUJIT_DISABLE_JIT) do the same. Each runs in a fresh process, since the
settings are read at import."""
import os
import subprocess
import sys
import textwrap

import pytest


def run(tmp_path, code, **env):
    """Runs `code` as a script (cujit compiles from source, so it needs a file) with `env` set."""
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(code))
    full = {k: v for k, v in os.environ.items()
            if k not in ("CUJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM", "CUJIT_DISABLE_JIT", "NUMBA_DISABLE_JIT")}
    full.update(env, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=full, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


SIMULATOR = textwrap.dedent("""
    import numpy as np
    from cujit import cuda
    @cuda.jit
    def fill(a):
        a[cuda.grid(1)] = 5
    a = np.zeros(4, dtype=np.int32)
    if cuda.simulator_enabled():
        fill[1, 4](a)
    print(cuda.simulator_enabled(), a.sum())
""")


@pytest.mark.parametrize("name", ["NUMBA_ENABLE_CUDASIM", "CUJIT_ENABLE_CUDASIM"])
def test_enable_cudasim(tmp_path, name):
    assert run(tmp_path, SIMULATOR, **{name: "1"}) == ["True", "20"]
    assert run(tmp_path, SIMULATOR, **{name: "0"})[0] == "False"


DISABLE_JIT = textwrap.dedent("""
    import numpy as np
    from cujit import jit, njit, vectorize, cuda

    def plain(x):
        return x + 1

    @jit
    def a(x):
        return x + 1

    @njit("int64(int64)")
    def b(x):
        return [x]          # not compilable: with the JIT off it is never compiled

    @vectorize(["float64(float64)"])
    def v(x):
        return x * 2

    print(type(a).__name__, type(b).__name__, a(1), b(2), jit(plain) is plain, isinstance(v, np.ufunc))
""")


@pytest.mark.parametrize("name", ["NUMBA_DISABLE_JIT", "CUJIT_DISABLE_JIT"])
def test_disable_jit_returns_the_python_function(tmp_path, name):
    assert run(tmp_path, DISABLE_JIT, **{name: "1"}) == ["function", "function", "2", "[2]", "True", "True"]


def test_jit_on_by_default(tmp_path):
    out = run(tmp_path, """
        from cujit import jit
        @jit
        def a(x):
            return x + 1
        print(type(a).__name__, a(1))
    """, NUMBA_DISABLE_JIT="0")
    assert out == ["CPUDispatcher", "2"]


def test_kernels_still_compile_with_the_jit_disabled(tmp_path):
    """Numba's NUMBA_DISABLE_JIT leaves cuda.jit alone; so does cujit's."""
    out = run(tmp_path, SIMULATOR + "print(type(fill).__name__)\n", NUMBA_DISABLE_JIT="1", NUMBA_ENABLE_CUDASIM="1")
    assert out == ["True", "20", "Dispatcher"]
