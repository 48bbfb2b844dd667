"""The tiled shared-memory matrix multiply of Numba's documentation (the course's section-3
pattern), C = A @ B for n x n float32 matrices already on the device, TPB x TPB threads a block.

    python benchmarks/matmul.py cujit|numba [n]        (n defaults to 4096)

The kernel time is one launch between two cuda.synchronize() calls, best of 5 after a warm-up
launch that also compiles. Prints one JSON line: {"tool", "n", "tpb", "best_s", "runs_s",
"tflops", "correct"}; tflops = 2 n^3 / best_s / 1e12. `correct` compares 256 rows of C (and the
last one) with a float64 NumPy product, rtol 1e-3. The same kernel source runs with both tools,
each in its own process (benchmarks/run.py starts them).
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
    sys.exit("usage: python benchmarks/matmul.py cujit|numba [n]")

TPB = 16  # threads per block along each axis, as in Numba's documented fast_matmul


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)

    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tiles = (A.shape[1] + TPB - 1) // TPB

    tmp = float32(0.)
    for i in range(tiles):
        # Preload data into shared memory, zeros outside the matrices
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]

        # Wait until all threads finish preloading
        cuda.syncthreads()

        # Computes partial product on the shared memory
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]

        # Wait until all threads finish computing
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def main():
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
    rng = np.random.default_rng(0)
    A = rng.random((n, n), dtype=np.float32)
    B = rng.random((n, n), dtype=np.float32)
    d_A = cuda.to_device(A)
    d_B = cuda.to_device(B)
    d_C = cuda.device_array((n, n), dtype=np.float32)
    blocks = ((n + TPB - 1) // TPB, (n + TPB - 1) // TPB)  # x over the columns of C, y over rows
    threads = (TPB, TPB)

    fast_matmul[blocks, threads](d_A, d_B, d_C)  # warm-up: compiles and loads
    cuda.synchronize()
    runs = []
    for _ in range(5):
        cuda.synchronize()
        t0 = time.perf_counter()
        fast_matmul[blocks, threads](d_A, d_B, d_C)
        cuda.synchronize()
        runs.append(time.perf_counter() - t0)
    best = min(runs)

    C = d_C.copy_to_host()
    rows = np.unique(np.append(rng.choice(n, size=min(n, 256), replace=False), n - 1))
    ref = A[rows].astype(np.float64) @ B.astype(np.float64)
    correct = bool(np.allclose(C[rows], ref, rtol=1e-3))
    print(json.dumps({"tool": TOOL, "n": n, "tpb": TPB, "best_s": best, "runs_s": runs,
                      "tflops": 2.0 * n ** 3 / best / 1e12, "correct": correct}))


if __name__ == "__main__":
    main()
