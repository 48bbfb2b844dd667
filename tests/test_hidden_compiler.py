"""Without a system C++ compiler (issue 21): @jit, a CPU ufunc and a simulated kernel still run,
through a compiler pip installs (ziglang's `zig c++`), where Numba needs no compiler at all. The
machine's compiler is hidden by running the program with a PATH that has none and no CXX; the
program's disk cache and zig's are fresh folders, so everything is really compiled by zig."""
import os
import subprocess
import sys

import pytest

import cujit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The children import the cujit this process imported (make test-asan's build under build/asan,
# else python/), with the sanitizer runtimes it was started with.
PKG = os.path.dirname(os.path.dirname(os.path.abspath(cujit.__file__)))
PASS = {k: os.environ[k] for k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS") if k in os.environ}

PROGRAM = r'''
import numpy as np
import cujit
from cujit import cuda, njit, vectorize

@njit
def poly(x):
    return x * x + 2 * x + 1

@vectorize(["float64(float64, float64)"])
def hyp(a, b):
    return (a * a + b * b) ** 0.5

@cuda.jit
def bump(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += i

a = np.zeros(8)
bump[1, 8](a)
print(poly(3), hyp(np.array([3.0, 5.0]), np.array([4.0, 12.0])).tolist(), a.tolist())
print(" ".join(cujit._core.toolchain_info()["host_compiler"]))
'''



def _zig():
    for base in sys.path:
        z = os.path.join(base or ".", "ziglang", "zig")
        if os.path.isfile(z):
            return z
    return None


@pytest.mark.skipif(_zig() is None, reason="ziglang is not installed (make test's setup installs it; "
                    "the GPU machine has no package registry)")
def test_jit_ufunc_and_simulator_without_a_system_compiler(tmp_path):
    env = {
        "PATH": str(tmp_path / "no-compiler-here"),  # no c++, g++ or clang++ on it
        "HOME": str(tmp_path / "home"),
        "CUJIT_CACHE_DIR": str(tmp_path / "cache"),
        # zig's own cache (its C++ library, built at its first use) is kept under build/, so the
        # suite's second run (make test-asan) does not build it again; cujit's cache is fresh.
        "ZIG_GLOBAL_CACHE_DIR": os.environ.get("CUJIT_TEST_ZIG_CACHE", os.path.join(ROOT, "build", "zig-cache")),
        "CUJIT_ENABLE_CUDASIM": "1",
        "PYTHONPATH": PKG,
        "NUMBA_CUDA_WARN_ON_IMPLICIT_COPY": "0",
        "NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS": "0",
        **PASS,
    }
    r = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=1500)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.splitlines()
    assert lines[0] == "16 [5.0, 13.0] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]"
    assert lines[1].endswith("ziglang/zig c++")


def test_no_compiler_at_all_says_what_to_install(tmp_path):
    # No system compiler and no ziglang on sys.path: the error names every fix.
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "CUJIT_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": PKG, "PYTHONNOUSERSITE": "1", **PASS}
    code = ("import cujit; cujit._core.set_compiler_fallbacks([])\n"
            "from cujit import njit\n"
            "try:\n    njit(lambda x: x + 1)(1)\nexcept Exception as e:\n    print(type(e).__name__); print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ToolchainError\nno C++ compiler found")
    for fix in ("apt-get install g++", "set CXX", "pip install ziglang", "cujit[compiler]"):
        assert fix in r.stdout
