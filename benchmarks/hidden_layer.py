"""The section-1 assessment at n = 100,000,000, host arrays in and a host array out, timed the way
the course's `assess` does (one call, wall clock) after a warm-up call.

    python benchmarks/hidden_layer.py cujit|numba [n]

Prints one JSON line: {"tool", "n", "best_s", "runs_s", "correct"}. Each tool runs in its own
process (benchmarks/run.py starts them) so neither's import or driver state affects the other.
"""
import json
import math
import sys
import time

import numpy as np


def main():
    tool = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000_000
    if tool == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
        from numba import cuda, vectorize
    else:
        from cujit import cuda, vectorize

    @vectorize(['float32(float32)'], target='cuda')
    def normalize(grayscales):
        return grayscales / 255

    @vectorize(['float32(float32, float32)'], target='cuda')
    def weigh(values, weights):
        return values * weights

    @vectorize(['float32(float32)'], target='cuda')
    def activate(values):
        return (math.exp(values) - math.exp(-values)) / (math.exp(values) + math.exp(-values))

    def create_hidden_layer(n, greyscales, weights, exp, normalize, weigh, activate):
        g = cuda.to_device(greyscales)
        w = cuda.to_device(weights)
        tmp = cuda.device_array_like(g)
        out = cuda.device_array_like(g)
        normalize(g, out=tmp)
        weigh(tmp, w, out=out)
        activate(out, out=tmp)
        return tmp.copy_to_host()

    rng = np.random.default_rng(0)
    greyscales = np.floor(rng.uniform(0, 255, n).astype(np.float32))
    weights = rng.normal(.5, .1, n).astype(np.float32)
    create_hidden_layer(n, greyscales, weights, math.exp, normalize, weigh, activate)  # warm-up
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        a = create_hidden_layer(n, greyscales, weights, math.exp, normalize, weigh, activate)
        runs.append(time.perf_counter() - t0)
    ref = np.tanh((greyscales / np.float32(255)) * weights)
    correct = bool(np.allclose(a, ref, atol=1e-5))
    print(json.dumps({"tool": tool, "n": n, "best_s": min(runs), "runs_s": runs, "correct": correct}))


if __name__ == "__main__":
    main()
