"""B = A.T through a 32 x 32 shared-memory tile (the classic bank-conflict case: each block writes
its tile along rows and reads it down columns), n x n float32 already on the device, blocks of
32 x 8 threads.

    python benchmarks/transpose.py cujit|numba [n]        (n defaults to 8192)

The kernel time is one launch between two cuda.synchronize() calls, best of 5 after a warm-up
launch that also compiles. Prints one JSON line: {"tool", "n", "best_s", "runs_s", "gbps",
"correct"}; gbps counts the bytes read and written (2 n^2 * 4 / best_s), `correct` compares the
whole result with A.T. cujit pads the tile's rows to 33 float32 (compiler/shared_layout.h);
CUJIT_SHARED_PAD=0 keeps the plain layout, as numba-cuda has it.
"""
import json
import sys
import time

import numpy as np

TOOL = sys.argv[1] if len(sys.argv) > 1 else ""
if TOOL == "numba":
    np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
    from numba import cuda, float32
elif TOOL == "cujit":
    from cujit import cuda, float32
else:
    sys.exit("usage: python benchmarks/transpose.py cujit|numba [n]")

TILE = 32
ROWS = 8  # threads per block along y: each thread moves TILE // ROWS elements


@cuda.jit
def transpose(a, b):
    tile = cuda.shared.array(shape=(TILE, TILE), dtype=float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for k in range(0, TILE, ROWS):
        if y + k < a.shape[0] and x < a.shape[1]:
            tile[ty + k, tx] = a[y + k, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for k in range(0, TILE, ROWS):
        if y + k < b.shape[0] and x < b.shape[1]:
            b[y + k, x] = tile[tx, ty + k]


def main():
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
    a = np.random.default_rng(0).random((n, n), dtype=np.float32)
    d_a = cuda.to_device(a)
    d_b = cuda.device_array((n, n), dtype=np.float32)
    blocks = ((n + TILE - 1) // TILE, (n + TILE - 1) // TILE)
    threads = (TILE, ROWS)
    transpose[blocks, threads](d_a, d_b)  # warm-up: compiles and loads
    cuda.synchronize()
    runs = []
    for _ in range(5):
        cuda.synchronize()
        t0 = time.perf_counter()
        transpose[blocks, threads](d_a, d_b)
        cuda.synchronize()
        runs.append(time.perf_counter() - t0)
    best = min(runs)
    correct = bool(np.array_equal(d_b.copy_to_host(), a.T))
    print(json.dumps({"tool": TOOL, "n": n, "best_s": best, "runs_s": runs,
                      "gbps": 2.0 * n * n * 4 / best / 1e9, "correct": correct}))


if __name__ == "__main__":
    main()
