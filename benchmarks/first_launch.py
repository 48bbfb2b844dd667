"""How long a new kernel takes to give its first result (issue 6's goals: the first new kernel
of a process, nothing cached, in at most 0.10 s, numba-cuda 1.34 s; the next new kernel of the
same process in at most 0.03 s; the first kernel again in a new process, from the disk cache, in
at most 5 ms).

    python benchmarks/first_launch.py cujit|numba|cupy N first    N fresh processes, empty caches
    python benchmarks/first_launch.py cujit|numba|cupy N cached   one process fills a cache, then
                                                                  N new processes time it

Each timed process imports the tool and moves its inputs to the device first (so the CUDA
context exists and neither the import nor the context's creation is counted: a warm process),
then times, from decoration to the result on the host,

    import axpy_mod                     (@cuda.jit(cache=True) def axpy(out, a, x, y): ...)
    axpy_mod.axpy[blocks, 256](d_out, 2.0, d_x, d_y)
    d_out.copy_to_host()

and in `first` mode, after it, the same for a second, different kernel (hypot_mod.hypot:
out[i] = math.sqrt(x[i] * x[i] + y[i] * y[i])). Each kernel lives in its own module file in a
fresh folder, so its decoration is inside the timing. cujit's disk cache is always on
(CUJIT_CACHE_DIR points at an empty folder of that run); Numba caches kernels only with
cache=True, which both tools are given, in NUMBA_CACHE_DIR (also empty). CuPy builds the same
kernels as cupy.RawKernel objects (CUDA C++ source) with CUPY_CACHE_DIR empty; its RawKernel
compiles on the first launch, so construction and first launch are both timed.

Prints one JSON line: {"tool", "n", "best_s", "ms", "next_ms" (first mode), "runs_ms",
"correct"}: the best of the N processes for each figure; best_s is the first kernel's.
`correct`: every process got a * x + y and hypot(x, y) right (to 1e-6 relative).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

N_ELEMS = 1024  # four blocks: the size hardly matters here, and simulators stay quick
THREADS = 256

KERNELS = {
    "axpy": '''
from {tool} import cuda


@cuda.jit(cache=True)
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]
''',
    "hypot": '''
import math
from {tool} import cuda


@cuda.jit(cache=True)
def hypot(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sqrt(x[i] * x[i] + y[i] * y[i])
''',
}

CUPY_KERNELS = {
    "axpy": r'''
extern "C" __global__ void axpy(float* out, double a, const float* x, const float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)(a * x[i] + y[i]);
}
''',
    "hypot": r'''
extern "C" __global__ void hypot_(float* out, const float* x, const float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sqrtf(x[i] * x[i] + y[i] * y[i]);
}
''',
}


def timed_process(tool, folder, names):
    """Runs in the child: a warm process times decoration to result for each kernel in names."""
    rng = np.random.default_rng(0)
    x = rng.random(N_ELEMS, dtype=np.float32)
    y = rng.random(N_ELEMS, dtype=np.float32)
    want = {"axpy": 2.0 * x.astype(np.float64) + y,
            "hypot": np.sqrt(x.astype(np.float64) ** 2 + y.astype(np.float64) ** 2)}
    blocks = (N_ELEMS + THREADS - 1) // THREADS
    times, ok = [], True
    if tool == "cupy":
        import cupy
        d_x, d_y = cupy.asarray(x), cupy.asarray(y)
        d_out = cupy.empty(N_ELEMS, dtype=np.float32)
        cupy.cuda.runtime.deviceSynchronize()
        for name in names:
            t0 = time.perf_counter()
            kernel = cupy.RawKernel(CUPY_KERNELS[name], "hypot_" if name == "hypot" else name)
            args = (d_out, 2.0, d_x, d_y) if name == "axpy" else (d_out, d_x, d_y)
            kernel((blocks,), (THREADS,), args + (np.int64(N_ELEMS),))
            got = d_out.get()
            times.append(time.perf_counter() - t0)
            ok = ok and bool(np.allclose(got, want[name], rtol=1e-6))
        return times, ok
    if tool == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
        from numba import cuda
    else:
        from cujit import cuda
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    d_out = cuda.device_array(N_ELEMS, dtype=np.float32)
    cuda.synchronize()
    sys.path.insert(0, folder)
    for name in names:
        t0 = time.perf_counter()
        kernel = getattr(__import__(name + "_mod"), name)
        args = (d_out, 2.0, d_x, d_y) if name == "axpy" else (d_out, d_x, d_y)
        kernel[blocks, THREADS](*args)
        got = d_out.copy_to_host()
        times.append(time.perf_counter() - t0)
        ok = ok and bool(np.allclose(got, want[name], rtol=1e-6))
    return times, ok


def write_kernels(folder, tool):
    for name, text in KERNELS.items():
        with open(os.path.join(folder, name + "_mod.py"), "w") as f:
            f.write(text.format(tool="numba" if tool == "numba" else "cujit"))


def run_child(tool, folder, names):
    """One timed process with its caches in `folder`; returns its {"s": [...], "ok"}."""
    env = dict(os.environ, CUJIT_CACHE_DIR=os.path.join(folder, "cache"),
               NUMBA_CACHE_DIR=os.path.join(folder, "numba-cache"),
               CUPY_CACHE_DIR=os.path.join(folder, "cupy-cache"))
    env.pop("CUJIT_DISABLE_CACHE", None)
    p = subprocess.run([sys.executable, __file__, tool, "0", "_child", folder, ",".join(names)],
                       env=env, capture_output=True, text=True)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        sys.exit((p.stderr or p.stdout).strip() or "the timed process failed")
    return json.loads(lines[-1])


def run_processes(tool, n, cached):
    """`first`: n processes, each with a fresh folder and empty caches. `cached`: one process
    fills a folder's caches, then n processes time the same kernel from them."""
    if cached:
        with tempfile.TemporaryDirectory(prefix="cujit-bench-") as folder:
            write_kernels(folder, tool)
            run_child(tool, folder, ["axpy"])
            return [run_child(tool, folder, ["axpy"]) for _ in range(n)]
    runs = []
    for _ in range(n):
        with tempfile.TemporaryDirectory(prefix="cujit-bench-") as folder:
            write_kernels(folder, tool)
            runs.append(run_child(tool, folder, ["axpy", "hypot"]))
    return runs


def main():
    tool, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if what == "_child":
        times, ok = timed_process(tool, sys.argv[4], sys.argv[5].split(","))
        print(json.dumps({"s": times, "ok": ok}))
        return
    if tool not in ("cujit", "numba", "cupy") or what not in ("first", "cached"):
        sys.exit("usage: python benchmarks/first_launch.py cujit|numba|cupy N first|cached")
    runs = run_processes(tool, max(n, 1), what == "cached")
    best = min(r["s"][0] for r in runs)
    out = {"tool": tool, "n": len(runs), "args": what, "best_s": best, "ms": best * 1e3,
           "runs_ms": [[t * 1e3 for t in r["s"]] for r in runs],
           "correct": all(r["ok"] for r in runs)}
    if what == "first":
        out["next_ms"] = min(r["s"][1] for r in runs) * 1e3
    print(json.dumps(out))


if __name__ == "__main__":
    main()
