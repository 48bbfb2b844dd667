"""A CUDA ufunc adding two float32 device arrays into a third (issue 4's goal: at least 95% of a
device-to-device copy's bandwidth; numba-cuda about 2,092 GB/s, the copy about 2,930 GB/s),
with that copy measured in the same process.

    python benchmarks/ufunc_add.py cujit|numba|cupy [n]        (n defaults to 100,000,000)

cujit and numba:

    @vectorize(['float32(float32, float32)'], target='cuda')
    def add(a, b):
        return a + b

    add(d_a, d_b, out=d_c)              then cuda.synchronize()
    d_copy.copy_to_device(d_a)          then cuda.synchronize()      (the copy)

cupy: cupy.add(a, b, out=c) and cupy.copyto(copy, a), each then a device synchronize. All four
arrays are on the device before timing; one warm-up call each (compiles), then the best of 10
calls, each timed with its synchronize.

Prints one JSON line: {"tool", "n", "best_s", "gbps", "copy_s", "copy_gbps", "pct_of_copy",
"correct"}; gbps = 12 n bytes / best_s / 1e9 (two 4-byte reads and one 4-byte write an element),
copy_gbps = 8 n bytes / copy_s / 1e9 (one read and one write), pct_of_copy = 100 gbps /
copy_gbps. `correct`: d_c equals a + b computed by NumPy (float32, exact) and d_copy equals a.
"""
import json
import sys
import time

import numpy as np

RUNS = 10


def best_of(call, sync):
    call()  # warm-up
    sync()
    runs = []
    for _ in range(RUNS):
        sync()
        t0 = time.perf_counter()
        call()
        sync()
        runs.append(time.perf_counter() - t0)
    return min(runs), runs


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else ""
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000_000
    rng = np.random.default_rng(0)
    ha = rng.random(n, dtype=np.float32)
    hb = rng.random(n, dtype=np.float32)

    if tool in ("cujit", "numba"):
        if tool == "numba":
            np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
            from numba import cuda, vectorize
        else:
            from cujit import cuda, vectorize

        @vectorize(['float32(float32, float32)'], target='cuda')
        def add(a, b):
            return a + b

        d_a, d_b = cuda.to_device(ha), cuda.to_device(hb)
        d_c = cuda.device_array(n, dtype=np.float32)
        d_copy = cuda.device_array(n, dtype=np.float32)
        sync = cuda.synchronize

        def run_add():
            add(d_a, d_b, out=d_c)

        def run_copy():
            d_copy.copy_to_device(d_a)

        def results():
            return d_c.copy_to_host(), d_copy.copy_to_host()
    elif tool == "cupy":
        import cupy
        d_a, d_b = cupy.asarray(ha), cupy.asarray(hb)
        d_c = cupy.empty(n, dtype=np.float32)
        d_copy = cupy.empty(n, dtype=np.float32)
        sync = cupy.cuda.runtime.deviceSynchronize

        def run_add():
            cupy.add(d_a, d_b, out=d_c)

        def run_copy():
            cupy.copyto(d_copy, d_a)

        def results():
            return d_c.get(), d_copy.get()
    else:
        sys.exit("usage: python benchmarks/ufunc_add.py cujit|numba|cupy [n]")

    best, runs = best_of(run_add, sync)
    copy_best, copy_runs = best_of(run_copy, sync)
    c, copied = results()
    correct = bool(np.array_equal(c, ha + hb)) and bool(np.array_equal(copied, ha))
    gbps, copy_gbps = 12 * n / best / 1e9, 8 * n / copy_best / 1e9
    print(json.dumps({"tool": tool, "n": n, "best_s": best, "runs_s": runs, "gbps": gbps,
                      "copy_s": copy_best, "copy_runs_s": copy_runs, "copy_gbps": copy_gbps,
                      "pct_of_copy": 100 * gbps / copy_gbps, "correct": correct}))


if __name__ == "__main__":
    main()
