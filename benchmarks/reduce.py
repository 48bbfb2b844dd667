"""cuda.reduce sum over n float32 already on the device (issue 3's goal: above 2,500 GB/s on an
H100; numba-cuda: about 232 GB/s). Each call returns the sum to the host, as users call it.

    python benchmarks/reduce.py cujit|numba [n]

Prints one JSON line: {"tool", "n", "best_s", "gbps", "correct"}; gbps = 4 * n bytes / best_s.
"""
import json
import sys
import time

import numpy as np


def main():
    tool = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000_000
    if tool == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
        from numba import cuda
    else:
        from cujit import cuda

    @cuda.reduce
    def sum_reduce(a, b):
        return a + b

    # Small integers, so every order of additions gives the exact sum.
    host = (np.arange(n) % 8).astype(np.float32)
    d = cuda.to_device(host)
    expect = float(host.sum(dtype=np.float64))
    got = sum_reduce(d)  # warm-up: compiles
    cuda.synchronize()
    runs = []
    for _ in range(20):
        t0 = time.perf_counter()
        got = sum_reduce(d)
        runs.append(time.perf_counter() - t0)
    best = min(runs)
    # The same into a device result (no copy to the host), synchronised: how much of a call is
    # the transfer of the result.
    res = cuda.device_array(1, dtype=np.float32)
    dev_runs = []
    for _ in range(20):
        t0 = time.perf_counter()
        sum_reduce(d, res=res)
        cuda.synchronize()
        dev_runs.append(time.perf_counter() - t0)
    correct = float(got) == expect and float(res.copy_to_host()[0]) == expect
    print(json.dumps({"tool": tool, "n": n, "best_s": best, "gbps": 4 * n / best / 1e9,
                      "res_best_s": min(dev_runs), "runs_s": runs, "correct": correct}))


if __name__ == "__main__":
    main()
