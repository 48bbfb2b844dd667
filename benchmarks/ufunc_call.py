"""What one call of a CUDA ufunc costs where the data is small or on the host (issue 6's goals:
add on 1e5 float32 device arrays with out= in at most 8 us, numba-cuda 104 us; add on 4 x 4
int64 host arrays in at most 40 us, numba-cuda 560 us; the course's gaussian_pdf over 1e6 float32
host values, result to the host, in at most 1.0 ms, numba-cuda 2.57 ms).

    python benchmarks/ufunc_call.py cujit|numba|cupy N device_add      add(d_a, d_b, out=d_c), N float32
    python benchmarks/ufunc_call.py cujit|numba|cupy N host_add_int64  add(a, b) on N x N int64 host arrays
    python benchmarks/ufunc_call.py cujit|numba|cupy N gaussian_pdf    gaussian_pdf(x, mean, sigma), N float32

cujit and numba:

    @vectorize(['float32(float32, float32)', 'int64(int64, int64)'], target='cuda')
    def add(a, b):
        return a + b

    SQRT_2PI = np.float32((2 * math.pi) ** 0.5)

    @vectorize(['float32(float32, float32, float32)'], target='cuda')
    def gaussian_pdf(x, mean, sigma):
        return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)

called with np.float32 mean and sigma, as the course does. CuPy: device_add is cupy.add(a, b,
out=c); host_add_int64 is cupy.asnumpy(cupy.add(cupy.asarray(a), cupy.asarray(b))); gaussian_pdf
is a cupy.ElementwiseKernel (CuPy's way of writing an element-wise function) with the same
arithmetic (the exponent in double, as Numba's typing has it: -0.5 is a float64), its input
copied with cupy.asarray and its result with cupy.asnumpy.

One warm-up call (compiles), then the best of 5 loops of CALLS[what] calls, each loop timed up
to and including a synchronize (the host modes return host arrays, so every call has finished
anyway). Prints one JSON line: {"tool", "n", "calls", "best_s", "us", "ms", "loops_us",
"correct"}; us (ms) = the best loop's time / calls, best_s the same in seconds. `correct`: the
last result equals NumPy's: exactly for the adds, to 1e-5 relative for gaussian_pdf (computed
by NumPy in float64).
"""
import json
import math
import sys
import time

import numpy as np

LOOPS = 5
CALLS = {"device_add": 1000, "host_add_int64": 1000, "gaussian_pdf": 20}
SQRT_2PI = np.float32((2 * math.pi) ** 0.5)

CUPY_GAUSSIAN = '''
double t = (double)((x - mean) / sigma);
y = (float)(exp(-0.5 * t * t) / (double)(sigma * SQRT_2PI));
'''


def numba_style(tool):
    """The two ufuncs, compiled by cujit or numba-cuda."""
    if tool == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
        from numba import cuda, vectorize
    else:
        from cujit import cuda, vectorize

    @vectorize(['float32(float32, float32)', 'int64(int64, int64)'], target='cuda')
    def add(a, b):
        return a + b

    @vectorize(['float32(float32, float32, float32)'], target='cuda')
    def gaussian_pdf(x, mean, sigma):
        return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)

    return cuda, add, gaussian_pdf


def workload(tool, what, n):
    """(call, sync, result, want): call() runs one call, result() returns its output on the
    host, want is what NumPy computes."""
    rng = np.random.default_rng(0)
    if what == "device_add":
        ha, hb = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        want = ha + hb
    elif what == "host_add_int64":
        ha = rng.integers(-1000, 1000, size=(n, n), dtype=np.int64)
        hb = rng.integers(-1000, 1000, size=(n, n), dtype=np.int64)
        want = ha + hb
    else:
        x = rng.uniform(-3, 3, size=n).astype(np.float32)
        mean, sigma = np.float32(0.0), np.float32(1.0)
        want = np.exp(-0.5 * x.astype(np.float64) ** 2) / float(SQRT_2PI)
    out = {}

    if tool in ("cujit", "numba"):
        cuda, add, gaussian_pdf = numba_style(tool)
        sync = cuda.synchronize
        if what == "device_add":
            d_a, d_b = cuda.to_device(ha), cuda.to_device(hb)
            d_c = cuda.device_array(n, dtype=np.float32)

            def call():
                add(d_a, d_b, out=d_c)
            return call, sync, d_c.copy_to_host, want
        if what == "host_add_int64":
            def call():
                out["r"] = add(ha, hb)
        else:
            def call():
                out["r"] = gaussian_pdf(x, mean, sigma)
        return call, sync, lambda: out["r"], want

    if tool == "cupy":
        import cupy
        sync = cupy.cuda.runtime.deviceSynchronize
        if what == "device_add":
            d_a, d_b = cupy.asarray(ha), cupy.asarray(hb)
            d_c = cupy.empty(n, dtype=np.float32)

            def call():
                cupy.add(d_a, d_b, out=d_c)
            return call, sync, d_c.get, want
        if what == "host_add_int64":
            def call():
                out["r"] = cupy.asnumpy(cupy.add(cupy.asarray(ha), cupy.asarray(hb)))
        else:
            kernel = cupy.ElementwiseKernel(
                "float32 x, float32 mean, float32 sigma", "float32 y",
                CUPY_GAUSSIAN.replace("SQRT_2PI", "%.9ef" % SQRT_2PI), "gaussian_pdf")

            def call():
                out["r"] = cupy.asnumpy(kernel(cupy.asarray(x), mean, sigma))
        return call, sync, lambda: out["r"], want
    sys.exit("usage: python benchmarks/ufunc_call.py cujit|numba|cupy N device_add|host_add_int64|gaussian_pdf")


def main():
    tool, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if what not in CALLS:
        sys.exit("unknown workload %r: use one of %s" % (what, ", ".join(CALLS)))
    call, sync, result, want = workload(tool, what, n)
    calls = CALLS[what]
    call()  # warm-up: compiles
    sync()
    loops = []
    for _ in range(LOOPS):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        sync()
        loops.append(time.perf_counter() - t0)
    got = np.asarray(result())
    if what == "gaussian_pdf":
        correct = got.dtype == np.float32 and bool(np.allclose(got, want, rtol=1e-5, atol=0))
    else:
        correct = got.dtype == want.dtype and bool(np.array_equal(got, want))
    best = min(loops) / calls
    print(json.dumps({"tool": tool, "n": n, "args": what, "calls": calls, "best_s": best,
                      "us": best * 1e6, "ms": best * 1e3,
                      "loops_us": [t / calls * 1e6 for t in loops], "correct": correct}))


if __name__ == "__main__":
    main()
