"""The CUDA simulators on the CPU, in threads simulated per second (issue 6's goals: at least
5,000,000 for an axpy-like kernel, Numba 0.56's simulator 5,400; at least 500,000 for a block
reduction through shared memory and cuda.syncthreads, Numba 0.56: 553).

    python benchmarks/sim.py cujit|numba N axpy      out[i] = a * x[i] + y[i] over N threads
    python benchmarks/sim.py cujit|numba N reduce    each block of 256 sums its 256 values

This script switches the simulators on itself (CUJIT_ENABLE_CUDASIM=1, NUMBA_ENABLE_CUDASIM=1)
before importing the tool; run it on the CPU machine whose figures you want
(`python benchmarks/run.py --sim`). Both kernels are launched in blocks of 256 threads over N
threads (N a multiple of 256):

    axpy[N // 256, 256](d_out, 2.0, d_x, d_y)          float32 arrays
    block_sum[N // 256, 256](d_sums, d_x)            shared-memory tree, cuda.syncthreads()
                                                     after every level (9 barriers a thread)

One warm-up launch of a single block (compiles), then the best of 3 launches, each timed up to
and including cuda.synchronize(), the inputs already in device arrays. Prints one JSON line:
{"tool", "n", "best_s", "threads_per_s", "runs_s", "correct"}; threads_per_s = N / best_s.
`correct`: the outputs equal NumPy's (exactly: the inputs are small integers).
"""
import json
import os
import sys
import time

import numpy as np

os.environ["CUJIT_ENABLE_CUDASIM"] = "1"
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

TPB = 256
RUNS = 3

# The kernels live at module level: Numba's simulator gives a kernel its fake `cuda` module by
# replacing the function's globals, which a closure over a local `cuda` would escape.
TOOL = sys.argv[1] if len(sys.argv) > 1 else ""
if TOOL == "numba":
    np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
    from numba import cuda, float32
elif TOOL == "cujit":
    from cujit import cuda, float32
else:
    sys.exit("usage: python benchmarks/sim.py cujit|numba N axpy|reduce")


@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def block_sum(sums, x):
    s = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.size:
        s[t] = x[i]
    else:
        s[t] = 0
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        sums[cuda.blockIdx.x] = s[0]


def main():
    n, what = int(sys.argv[2]), sys.argv[3]
    blocks = max(n // TPB, 1)
    n = blocks * TPB
    x = (np.arange(n) % 8).astype(np.float32)
    y = (np.arange(n) % 5).astype(np.float32)
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    if what == "axpy":
        d_out = cuda.device_array(n, dtype=np.float32)
        want = 2.0 * x + y

        def launch(b):
            axpy[b, TPB](d_out, 2.0, d_x, d_y)
    elif what == "reduce":
        d_out = cuda.device_array(blocks, dtype=np.float32)
        want = x.reshape(blocks, TPB).sum(axis=1)

        def launch(b):
            block_sum[b, TPB](d_out, d_x)
    else:
        sys.exit("unknown workload %r: use axpy or reduce" % what)

    launch(1)  # warm-up: compiles
    cuda.synchronize()
    runs = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        launch(blocks)
        cuda.synchronize()
        runs.append(time.perf_counter() - t0)
    best = min(runs)
    correct = bool(np.array_equal(d_out.copy_to_host(), want))
    print(json.dumps({"tool": TOOL, "n": n, "args": what, "best_s": best, "threads_per_s": n / best,
                      "runs_s": runs, "correct": correct}))


if __name__ == "__main__":
    main()
