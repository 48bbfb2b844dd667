"""The course's atomic histogram (section 2): n int32 values in [0, 256), already on the device,
counted into 256 int32 bins by a grid-stride loop of cuda.atomic.add.

    python benchmarks/histogram.py cujit|numba [n] [global|shared]     (n defaults to 10^8)

`global` (the default) adds straight into the bins in global memory. `shared` privatises: each
block counts into a shared-memory copy of the bins, then adds its counts to the global bins.
Both launch min(1024, ceil(n / 256)) blocks of 256 threads (about 8 blocks per SM on an H100).
The kernel time is one launch between two cuda.synchronize() calls, best of 5 after a warm-up
launch that also compiles; the bins are zeroed before each launch, outside the timing. Prints one
JSON line: {"tool", "n", "variant", "best_s", "runs_s", "gelems", "correct"}; gelems = n /
best_s / 1e9, and `correct` compares the last launch's bins with np.bincount. The same kernel
source runs with both tools, each in its own process (benchmarks/run.py starts them).
"""
import json
import sys
import time

import numpy as np

TOOL = sys.argv[1] if len(sys.argv) > 1 else ""
if TOOL == "numba":
    np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
    from numba import cuda, int32
elif TOOL == "cujit":
    from cujit import cuda, int32
else:
    sys.exit("usage: python benchmarks/histogram.py cujit|numba [n] [global|shared]")

NBINS = 256
THREADS = 256
MAX_BLOCKS = 1024


@cuda.jit
def histogram_global(x, bins):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        cuda.atomic.add(bins, x[i], 1)


@cuda.jit
def histogram_shared(x, bins):
    local = cuda.shared.array(NBINS, dtype=int32)
    t = cuda.threadIdx.x
    for b in range(t, NBINS, cuda.blockDim.x):
        local[b] = 0
    cuda.syncthreads()
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        cuda.atomic.add(local, x[i], 1)
    cuda.syncthreads()
    for b in range(t, NBINS, cuda.blockDim.x):
        if local[b] != 0:
            cuda.atomic.add(bins, b, local[b])


KERNELS = {"global": histogram_global, "shared": histogram_shared}


def main():
    n = int(float(sys.argv[2])) if len(sys.argv) > 2 else 100_000_000
    variant = sys.argv[3] if len(sys.argv) > 3 else "global"
    kernel = KERNELS[variant]
    rng = np.random.default_rng(0)
    x = rng.integers(0, NBINS, n, dtype=np.int32)
    d_x = cuda.to_device(x)
    zeros = np.zeros(NBINS, dtype=np.int32)
    d_bins = cuda.to_device(zeros)
    blocks = min(MAX_BLOCKS, (n + THREADS - 1) // THREADS)

    kernel[blocks, THREADS](d_x, d_bins)  # warm-up: compiles and loads
    cuda.synchronize()
    runs = []
    for _ in range(5):
        d_bins.copy_to_device(zeros)
        cuda.synchronize()
        t0 = time.perf_counter()
        kernel[blocks, THREADS](d_x, d_bins)
        cuda.synchronize()
        runs.append(time.perf_counter() - t0)
    best = min(runs)

    correct = bool(np.array_equal(d_bins.copy_to_host(), np.bincount(x, minlength=NBINS)))
    print(json.dumps({"tool": TOOL, "n": n, "variant": variant, "best_s": best, "runs_s": runs,
                      "gelems": n / best / 1e9, "correct": correct}))


if __name__ == "__main__":
    main()
