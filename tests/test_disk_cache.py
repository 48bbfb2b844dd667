"""The disk cache seen from Python (issue 6): a second process compiles nothing for the same
code, and code that differs only in its file name (a Jupyter cell in a new kernel is
/tmp/ipykernel_<pid>/<hash>.py) reuses the entry. The store itself (corrupt entries, concurrent
writers) is tested in tests_cpp/toolchain_test.cpp."""
import os
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import numpy as np
    from cujit import njit, cuda

    @njit
    def hypot(x, y):
        return (x * x + y * y) ** 0.5

    @cuda.jit
    def double(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= 2

    assert hypot(3.0, 4.0) == 5.0
    d = cuda.to_device(np.arange(4.0))
    double[1, 4](d)
    assert (d.copy_to_host() == np.arange(4.0) * 2).all()
""")


def run_in(path, cache):
    path.write_text(PROGRAM)
    env = dict(os.environ, CUJIT_CACHE_DIR=str(cache), CUJIT_ENABLE_CUDASIM="1", CUJIT_DEBUG="1")
    env.pop("CUJIT_DISABLE_CACHE", None)
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr


def entries(cache):
    return sorted(p.name for p in cache.rglob("*") if p.is_file())


def test_second_process_and_renamed_file_hit_the_cache(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "a").mkdir()
    first = run_in(tmp_path / "a" / "prog.py", cache)
    assert "host compiler" in first
    filled = entries(cache)
    assert any(n.endswith(".so") for n in filled)
    # The same code from another file name: no new entries, and each build is a cache hit
    # (the host compiler stage then only loads the library).
    (tmp_path / "b").mkdir()
    again = run_in(tmp_path / "b" / "cell_9f2.py", cache)
    assert entries(cache) == filled
    assert again.count("host compiler") == first.count("host compiler")
