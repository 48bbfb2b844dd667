"""NumPy inside @jit (issue 20) against Numba on the same machine, in the same run: whole-array
expressions (one fused loop each), a reduction along an axis, the course's np.hypot and Numba's
5-minute-guide function; each in steady state (best of RUNS calls) and its first call in a fresh
process (decoration, compile and the call): of a new function on a machine where cujit has run
before (its precompiled prelude is in the cache: another function was compiled there first, in
another process, and its background build of the precompiled prelude has finished), and cold (an
empty cache: the first function ever; cujit compiles it from the whole prelude text while it
precompiles the prelude in the background for later functions). Numba keeps nothing between
processes, so its two first-call rows measure the same thing.

    python benchmarks/numpy_jit.py [--write]     runs every row for both tools, prints the table
                                                 (--write: into benchmarks/RESULTS.md's section)
    python benchmarks/numpy_jit.py _run TOOL CASE steady|first|cold   one measurement, one JSON line
    python benchmarks/numpy_jit.py _warm TOOL CASE     compiles the case renamed (fills the cache)

Numba runs in its own interpreter: NUMBA_PYTHON (default /work/refvenv/bin/python); cujit in
this one. Each measurement is a fresh process. Results are checked against NumPy.
"""
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

RUNS = 10
HERE = os.path.dirname(os.path.abspath(__file__))

SOURCES = {
    "axpy": ("a * b + c over 10^7 float64", "def f(a, b, c):\n    return a * b + c\n"),
    "sum_axis0": ("np.sum(a, axis=0) on 4000 x 4000 float64", "def f(a):\n    return np.sum(a, axis=0)\n"),
    "hypot": ("np.hypot(x, y) over 10^6 float32 (the course's)", "def f(x, y):\n    return np.hypot(x, y)\n"),
    "go_fast": ("Numba's 5-minute guide go_fast on 1000 x 1000 float64",
                "def f(a):\n    trace = 0.0\n    for i in range(a.shape[0]):\n"
                "        trace += np.tanh(a[i, i])\n    return a + trace\n"),
}


def inputs(case):
    rng = np.random.default_rng(0)
    if case == "axpy":
        return tuple(rng.random(10 ** 7) for _ in range(3))
    if case == "sum_axis0":
        return (rng.random((4000, 4000)),)
    if case == "hypot":
        return tuple(rng.random(10 ** 6).astype(np.float32) for _ in range(2))
    return (rng.random((1000, 1000)),)


def reference(case, args):
    if case == "axpy":
        return args[0] * args[1] + args[2]
    if case == "sum_axis0":
        return np.sum(args[0], axis=0)
    if case == "hypot":
        return np.hypot(*args)
    a = args[0]
    return a + np.tanh(np.diagonal(a)).sum()


def measure(tool, case, mode, name="f"):
    folder = tempfile.mkdtemp(prefix="cujit-npjit-")
    # "first": the cache run_one filled by a _warm process (the same prelude, another function).
    os.environ["CUJIT_CACHE_DIR"] = os.environ.get("NPJIT_CACHE") or os.path.join(folder, "cache")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(folder, "numba-cache")
    if tool == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 refers to it; NumPy 2.5 removed it
        from numba import njit
    else:
        from cujit import njit
    args = inputs(case)
    with open(os.path.join(folder, "bench_mod.py"), "w") as fh:
        fh.write("import numpy as np\n\n" + SOURCES[case][1].replace("def f(", "def %s(" % name))
    sys.path.insert(0, folder)
    t0 = time.perf_counter()
    import bench_mod
    f = njit(getattr(bench_mod, name))
    r = f(*args)
    first = time.perf_counter() - t0
    ok = bool(np.allclose(r, reference(case, args), rtol=1e-6)) and np.asarray(r).dtype == reference(case, args).dtype
    if mode in ("first", "cold", "warm"):
        return {"s": first, "ok": ok}
    runs = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        f(*args)
        runs.append(time.perf_counter() - t0)
    return {"s": min(runs), "ok": ok}


def wait_for_header(cache, timeout=600):
    """cujit's precompiled prelude, built in the background after a first compile, in place."""
    import glob
    end = time.time() + timeout
    while time.time() < end and glob.glob(os.path.join(cache, "**", "*.building"), recursive=True):
        time.sleep(0.05)


def run_one(tool, case, mode):
    py = os.environ.get("NUMBA_PYTHON", "/work/refvenv/bin/python") if tool == "numba" else sys.executable
    env = dict(os.environ)
    env.pop("NPJIT_CACHE", None)
    if mode == "first":  # a machine where a function was compiled before, in another process
        env["NPJIT_CACHE"] = tempfile.mkdtemp(prefix="cujit-npjit-cache-")
        subprocess.run([py, os.path.abspath(__file__), "_warm", tool, case], capture_output=True, env=env)
        wait_for_header(env["NPJIT_CACHE"])
    p = subprocess.run([py, os.path.abspath(__file__), "_run", tool, case, mode], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        errors = [l for l in p.stderr.splitlines() if "Error" in l] or p.stderr.strip().splitlines() or ["?"]
        return {"s": None, "ok": False, "error": errors[-1].strip()[:120]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def cell(r):
    if r["s"] is None:
        return "fails: " + r.get("error", "")
    t = r["s"]
    s = "%.2f ms" % (t * 1e3) if t < 1 else "%.2f s" % t
    return s if r["ok"] else s + " (WRONG)"


def table():
    import numpy
    lines = ["- machine: %s, %d CPUs (%s)" % (platform.node() or "?", os.cpu_count() or 0, platform.processor() or platform.machine()),
             "- date: %s" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
             "- software: Python %s, NumPy %s; Numba from %s" % (platform.python_version(), numpy.__version__,
                                                                os.environ.get("NUMBA_PYTHON", "/work/refvenv/bin/python")),
             "",
             "| workload | cujit | Numba | cujit / Numba |",
             "| --- | --- | --- | --- |"]
    for case, (what, _) in SOURCES.items():
        for mode, label in (("steady", "best of %d calls" % RUNS),
                            ("first", "first call of a new function: compile + call, fresh process"),
                            ("cold", "first call, empty cache (cujit precompiles its prelude in the background)")):
            c, n = run_one("cujit", case, mode), run_one("numba", case, mode)
            ratio = "%.2fx" % (c["s"] / n["s"]) if c["s"] and n["s"] else "-"
            lines.append("| @jit %s, %s | %s | %s | %s |" % (what, label, cell(c), cell(n), ratio))
            print(lines[-1], flush=True)
    return "\n".join(lines)


def write(text):
    from results_md import replace_section
    replace_section("<!-- begin numpy-jit: written by benchmarks/numpy_jit.py -->", "<!-- end numpy-jit -->",
                    "## NumPy in @jit (CPU), beside Numba\n\n" + text)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_run":
        print(json.dumps(measure(*sys.argv[2:5])))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "_warm":
        print(json.dumps(measure(sys.argv[2], sys.argv[3], "warm", name="warm_up")))
        return
    text = table()
    if "--write" in sys.argv:
        write(text)


if __name__ == "__main__":
    main()
