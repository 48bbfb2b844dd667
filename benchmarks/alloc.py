"""The cost of one device allocation and its release as a user sees it (issue 4's goal: a 4 MB
cuda.device_array under 5 us; numba-cuda takes about 100 us).

    python benchmarks/alloc.py cujit|numba|cupy [nbytes]

nbytes defaults to 4,000,000 (a float32 array of nbytes // 4 elements). A loop of 1,000 times

    a = cuda.device_array(nbytes // 4, dtype=np.float32)     (cupy: cupy.empty)
    del a                                                   (the last reference: freed here)

then, still inside the timed region, whatever the tool has left pending is finished: numba-cuda
defers frees to a queue that it flushes every few frees, and the loop ends with that queue
cleared (cuda.current_context().memory_manager.deallocations.clear()) so every free of the loop
is counted; then a synchronize, so stream-ordered frees have run too. CuPy serves cupy.empty
from its memory pool (its default, what a CuPy user gets). One warm-up loop of 100, then the
best of 5 loops.

`correct`: an array from the same call holds what is copied into it (round trip through the
host), and the device's free memory (cuMemGetInfo through libcuda, when there is a GPU) has not
shrunk by more than 64 MB over all the loops: the memory was given back or reused, not leaked.

Prints one JSON line: {"tool", "n" (bytes), "iters", "best_s", "us", "loops_us",
"mem_growth_mb", "correct"}; us = best loop's time / iters * 1e6 (the mean per allocate-and-free
within the best loop) and best_s the same in seconds.
"""
import ctypes
import json
import sys
import time

import numpy as np

ITERS = 1000
LOOPS = 5


def free_device_memory():
    """Free bytes on the current context's device, or None (no driver, no context: simulators)."""
    try:
        lib = ctypes.CDLL("libcuda.so.1")
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        if lib.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total)) != 0:
            return None
        return free.value
    except (OSError, AttributeError):
        return None


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else ""
    nbytes = int(sys.argv[2]) if len(sys.argv) > 2 else 4_000_000
    n = nbytes // 4
    nbytes = 4 * n

    if tool in ("cujit", "numba"):
        if tool == "numba":
            np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
            from numba import cuda
        else:
            from cujit import cuda
        empty = cuda.device_array
        sync = cuda.synchronize
        # numba-cuda's deferred frees (its memory manager's queue, where device_array's
        # finalizer puts cuMemFree, and the context's); none for cujit or the simulators.
        queues = []
        if tool == "numba":
            ctx = cuda.current_context()
            mm = getattr(ctx, "memory_manager", None)
            queues = [q for q in (getattr(mm, "deallocations", None),
                                  getattr(ctx, "deallocations", None)) if q is not None]

        def finish():
            for q in queues:
                q.clear()
            sync()

        def roundtrip(a, h):
            a.copy_to_device(h)
            return a.copy_to_host()
    elif tool == "cupy":
        import cupy
        empty = cupy.empty

        def finish():
            cupy.cuda.runtime.deviceSynchronize()

        def roundtrip(a, h):
            a.set(h)
            return a.get()
    else:
        sys.exit("usage: python benchmarks/alloc.py cujit|numba|cupy [nbytes]")

    f32 = np.float32

    def loop(iters):
        t0 = time.perf_counter()
        for _ in range(iters):
            a = empty(n, dtype=f32)
            del a
        finish()
        return time.perf_counter() - t0

    h = np.arange(n, dtype=np.float32)
    a = empty(n, dtype=f32)  # first use: context, pools
    ok = bool(np.array_equal(roundtrip(a, h), h)) and a.shape == (n,) and a.dtype == np.float32
    del a
    loop(100)  # warm-up
    free0 = free_device_memory()
    loops = [loop(ITERS) for _ in range(LOOPS)]
    free1 = free_device_memory()
    growth = None if free0 is None or free1 is None else (free0 - free1) / 1e6
    correct = ok and (growth is None or growth < 64)
    best = min(loops) / ITERS
    print(json.dumps({"tool": tool, "n": nbytes, "iters": ITERS, "best_s": best, "us": best * 1e6,
                      "loops_us": [t / ITERS * 1e6 for t in loops], "mem_growth_mb": growth,
                      "correct": correct}))


if __name__ == "__main__":
    main()
