"""The CPU target against Numba on the same machine (issue 5): the course's monte_carlo_pi and
cpu_gaussian_pdf, the first call's compile time, and a second process's first call when the
disk cache holds the compiled code.

    python benchmarks/cpu.py cujit|numba N monte_carlo_pi     best of 20 calls of monte_carlo_pi(N)
    python benchmarks/cpu.py cujit|numba N gaussian_pdf       best of 20 calls over N float32
    python benchmarks/cpu.py cujit|numba N compile            first call of a fresh @jit function
                                                              (hypot), empty cache, decoration to result
    python benchmarks/cpu.py cujit|numba N cached             the same in a second process, cache warm

cujit's disk cache is always on (CUJIT_CACHE_DIR points both processes at one fresh folder);
Numba's needs cache=True, so the `cached` runs use @jit(cache=True) for both tools (cujit
accepts it), the function living in a fresh module file that both processes import.

Prints one JSON line: {"tool", "n", "best_s", "ms", "correct"}; ms = best_s * 1000.
`correct`: monte_carlo_pi within 0.01 of pi; gaussian_pdf equal to NumPy's formula to 1e-6
relative; compile/cached: hypot(3.0, 4.0) == 5.0.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

RUNS = 20
HYPOT = '''
import math
from {tool} import jit


@jit(cache=True)
def hypot(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)
'''


def tool_module(tool):
    if tool == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
        import numba
        return numba
    import cujit
    return cujit


def best_of(call):
    call()  # warm-up (compiles)
    runs = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        call()
        runs.append(time.perf_counter() - t0)
    return min(runs)


def monte_carlo_pi_bench(mod, n):
    import random

    @mod.jit
    def monte_carlo_pi(nsamples):
        acc = 0
        for i in range(nsamples):
            x = random.random()
            y = random.random()
            if (x ** 2 + y ** 2) < 1.0:
                acc += 1
        return 4.0 * acc / nsamples

    best = best_of(lambda: monte_carlo_pi(n))
    return best, abs(monte_carlo_pi(n) - math.pi) < 0.01


SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


def gaussian_pdf_bench(mod, n):
    @mod.vectorize
    def cpu_gaussian_pdf(x, mean, sigma):
        return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)

    x = np.random.default_rng(0).uniform(-3, 3, size=n).astype(np.float32)
    mean, sigma = np.float32(0.0), np.float32(1.0)  # as the course writes them
    best = best_of(lambda: cpu_gaussian_pdf(x, mean, sigma))
    want = np.exp(-0.5 * x.astype(np.float64) ** 2) / (1.0 * float(SQRT_2PI))
    return best, bool(np.allclose(cpu_gaussian_pdf(x, mean, sigma), want, rtol=1e-6))


def first_call(tool, folder):
    """Imports hypot from `folder` and times decoration + first call (the import of the tool
    itself is not counted)."""
    tool_module(tool)
    sys.path.insert(0, folder)
    t0 = time.perf_counter()
    import hypot_mod
    r = hypot_mod.hypot(3.0, 4.0)
    return time.perf_counter() - t0, r == 5.0


def compile_bench(tool, cached):
    folder = tempfile.mkdtemp(prefix="cujit-bench-")
    with open(os.path.join(folder, "hypot_mod.py"), "w") as f:
        f.write(HYPOT.format(tool="numba" if tool == "numba" else "cujit"))
    env = dict(os.environ, CUJIT_CACHE_DIR=os.path.join(folder, "cache"),
               NUMBA_CACHE_DIR=os.path.join(folder, "numba-cache"))
    cmd = [sys.executable, __file__, tool, "0", "_first_call", folder]
    times = []
    for _ in range(2 if cached else 1):
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        times.append(json.loads(out.strip().splitlines()[-1]))
    last = times[-1]
    return last["s"], last["ok"] and all(t["ok"] for t in times)


def main():
    tool, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if what == "_first_call":
        s, ok = first_call(tool, sys.argv[4])
        print(json.dumps({"s": s, "ok": ok}))
        return
    if what == "monte_carlo_pi":
        best, ok = monte_carlo_pi_bench(tool_module(tool), n)
    elif what == "gaussian_pdf":
        best, ok = gaussian_pdf_bench(tool_module(tool), n)
    elif what in ("compile", "cached"):
        best, ok = compile_bench(tool, what == "cached")
    else:
        raise SystemExit("unknown benchmark %r" % what)
    print(json.dumps({"tool": tool, "n": n, "best_s": best, "ms": best * 1e3, "correct": bool(ok)}))


if __name__ == "__main__":
    main()
