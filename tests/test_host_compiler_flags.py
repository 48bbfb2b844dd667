"""The host compiler gets only flags it accepts. clang 14 has no -mtls-dialect=gnu2 (which cujit
adds to @njit builds on x86-64 for speed), so every @njit failed with CXX=clang++; each extra
flag is now probed once per compiler and left out when refused."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

CLANG = shutil.which("clang++")

PROGRAM = textwrap.dedent("""
    import numpy as np
    import cujit
    from cujit import cuda, njit, vectorize, guvectorize, prange

    @njit
    def add1(x):
        return x + 1

    @njit(parallel=True, fastmath=True)
    def total(a):
        s = 0.0
        for i in prange(a.shape[0]):
            s += a[i]
        return s

    @cuda.jit
    def inc(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1

    @vectorize(["float64(float64)"], target="cuda")
    def twice(x):
        return 2 * x

    @vectorize(["float64(float64)"], target="parallel")
    def thrice(x):
        return 3 * x

    a = np.zeros(100)
    inc[4, 32](a)
    print(add1(2), total(np.ones(1000)), a.sum(), twice(np.ones(4)).sum(), thrice(np.ones(50000)).sum())
""")


def run_child(tmp_path, **env):
    full = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"),
                PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **env)
    script = tmp_path / "program.py"  # cujit reads the source: it must be in a file
    script.write_text(PROGRAM)
    return subprocess.run([sys.executable, str(script)], env=full, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.skipif(CLANG is None, reason="clang++ is not installed")
def test_clang_builds_jit_ufunc_and_simulator(tmp_path):
    r = run_child(tmp_path, CXX=CLANG)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["3", "1000.0", "100.0", "8.0", "150000.0"]
    # A second process finds every build and every probe answer in the cache.
    r = run_child(tmp_path, CXX=CLANG)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["3", "1000.0", "100.0", "8.0", "150000.0"]


def test_unknown_flag_is_left_out(tmp_path):
    """A compiler wrapper that refuses -mtls-dialect=gnu2 (as clang does) whatever CXX is."""
    real = shutil.which("g++") or shutil.which("c++")
    if real is None:
        pytest.skip("no g++")
    wrapper = tmp_path / "picky-c++"
    wrapper.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        for a in "$@"; do
          case "$a" in -mtls-dialect=*) echo "picky-c++: unknown argument: '$a'" >&2; exit 1;; esac
        done
        exec {real} "$@"
    """))
    wrapper.chmod(0o755)
    r = run_child(tmp_path, CXX=str(wrapper))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["3", "1000.0", "100.0", "8.0", "150000.0"]


FASTMATH = textwrap.dedent("""
    import math, sys
    import numpy as np
    from cujit import cuda, njit

    tiny = np.array([5e-324, 1e-310])
    before = (list(tiny * 1.0), math.log(5e-324))

    @njit(fastmath=True)
    def scaled(a):
        return a * 2.0

    @cuda.jit(fastmath=True)
    def k(a):
        a[0] = a[0] * 2.0

    scaled(1.0)
    k[1, 1](np.ones(1))
    after = (list(tiny * 1.0), math.log(5e-324))
    print(before == after, after)
""")


def test_fastmath_code_leaves_the_process_float_environment_alone(tmp_path):
    # GCC links crtfastmath.o into -ffast-math modules; loading one turned on flush-to-zero for the
    # whole process (NumPy's subnormals became 0, math.log(5e-324) raised). Numba's fastmath does not.
    script = tmp_path / "prog.py"
    script.write_text(FASTMATH)
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("True"), r.stdout
