"""Host <-> device bandwidth for one large copy each way (issue 4's goal: pageable host memory
within 1.5x of pinned host memory), from and into arrays that already exist.

    python benchmarks/transfer.py cujit|numba|cupy [nbytes] [pageable|pinned]

nbytes defaults to 400,000,000 (a float32 array of nbytes // 4 elements). The host source, the
host destination and the device array are allocated, and both host arrays written, before any
timing, so the first touch of fresh pages is never measured. Pageable arrays are NumPy arrays;
pinned ones come from cuda.pinned_array (cujit, numba) or cupyx.empty_pinned (cupy). Copies:

    host -> device   d.copy_to_device(h)        (cupy: d.set(h))
    device -> host   d.copy_to_host(h_out)      (cupy: d.get(out=h_out))

each followed by a synchronize inside the timed region; one warm-up each way, then the best of 5
of each direction, timed separately. Before every timed device -> host copy h_out is overwritten
with -1 (untimed) and afterwards compared with h in full (np.array_equal): `correct` is True
when all 5 came back equal (which also checks the host -> device copies that filled d).

Prints one JSON line: {"tool", "n" (bytes), "mode", "best_s", "h2d_s", "d2h_s", "h2d_gbps",
"d2h_gbps", "gbps", "correct"}; h2d_gbps = nbytes / best host->device time / 1e9, likewise
d2h_gbps, and gbps is the slower of the two (min), so one figure bounds a round trip's direction;
best_s is the slower direction's best time.
"""
import json
import sys
import time

import numpy as np

RUNS = 5


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else ""
    nbytes = int(sys.argv[2]) if len(sys.argv) > 2 else 400_000_000
    mode = sys.argv[3] if len(sys.argv) > 3 else "pageable"
    if mode not in ("pageable", "pinned"):
        sys.exit("usage: python benchmarks/transfer.py cujit|numba|cupy [nbytes] [pageable|pinned]")
    n = nbytes // 4
    nbytes = 4 * n

    if tool in ("cujit", "numba"):
        if tool == "numba":
            np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
            from numba import cuda
        else:
            from cujit import cuda
        if mode == "pinned" and not hasattr(cuda, "pinned_array"):
            sys.exit("%s: cuda.pinned_array is missing" % tool)

        def host_empty():
            if mode == "pinned":
                return cuda.pinned_array(n, dtype=np.float32)
            return np.empty(n, dtype=np.float32)

        d = cuda.device_array(n, dtype=np.float32)
        sync = cuda.synchronize

        def h2d(h):
            d.copy_to_device(h)

        def d2h(h_out):
            d.copy_to_host(h_out)
    elif tool == "cupy":
        import cupy
        import cupyx

        def host_empty():
            if mode == "pinned":
                return cupyx.empty_pinned((n,), dtype=np.float32)
            return np.empty(n, dtype=np.float32)

        d = cupy.empty(n, dtype=np.float32)
        sync = cupy.cuda.runtime.deviceSynchronize

        def h2d(h):
            d.set(h)

        def d2h(h_out):
            d.get(out=h_out)
    else:
        sys.exit("usage: python benchmarks/transfer.py cujit|numba|cupy [nbytes] [pageable|pinned]")

    rng = np.random.default_rng(0)
    h = host_empty()
    h[...] = rng.random(n, dtype=np.float32)  # written: every page is resident before timing
    h_out = host_empty()
    h_out.fill(-1.0)

    h2d(h)  # warm-up each way (first use of the copy paths, staging buffers)
    sync()
    d2h(h_out)
    sync()

    h2d_runs = []
    for _ in range(RUNS):
        sync()
        t0 = time.perf_counter()
        h2d(h)
        sync()
        h2d_runs.append(time.perf_counter() - t0)

    d2h_runs = []
    correct = True
    for _ in range(RUNS):
        h_out.fill(-1.0)
        sync()
        t0 = time.perf_counter()
        d2h(h_out)
        sync()
        d2h_runs.append(time.perf_counter() - t0)
        correct = correct and bool(np.array_equal(h_out, h))

    h2d_s, d2h_s = min(h2d_runs), min(d2h_runs)
    h2d_gbps, d2h_gbps = nbytes / h2d_s / 1e9, nbytes / d2h_s / 1e9
    print(json.dumps({"tool": tool, "n": nbytes, "mode": mode, "best_s": max(h2d_s, d2h_s),
                      "h2d_s": h2d_s, "d2h_s": d2h_s, "h2d_runs_s": h2d_runs, "d2h_runs_s": d2h_runs,
                      "h2d_gbps": h2d_gbps, "d2h_gbps": d2h_gbps, "gbps": min(h2d_gbps, d2h_gbps),
                      "correct": correct}))


if __name__ == "__main__":
    main()
