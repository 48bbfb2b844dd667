"""The cost of one kernel launch as a user writes it, `kernel[grid, block](args)`, for an almost
empty kernel (issue 6's goal: at most 1.25 times a raw C++ cuLaunchKernel loop; numba-cuda about
30 us with one array, 54 us with three arrays and two scalars).

    python benchmarks/launch.py cujit|numba|cupy|raw N 1array|3arrays2scalars

cujit and numba launch, N times in a loop,

    @cuda.jit
    def one_array(a):                       def three_arrays(a, b, c, x, y):
        if cuda.grid(1) == 0:                   if cuda.grid(1) == 0:
            a[0] += 1.0                             a[0] += x
                                                    b[0] += y
                                                    c[0] += 1.0

    one_array[1, 32](d_a)                   three_arrays[1, 32](d_a, d_b, d_c, 1.0, 2)

with float32 device arrays of 256 elements and Python scalars (a float and an int), then
cuda.synchronize(). cupy launches the same kernels written in CUDA C++ as cupy.RawKernel
objects, k((1,), (32,), (a, b, c, 1.0, 2)), CuPy's way of launching a kernel of one's own (CuPy
passes an array as its data pointer). raw builds benchmarks/raw_launch.cpp with the system g++
against $CUDA_HOME (default /usr/local/cuda: its headers, libnvrtc, libcuda) into build/bench/
and runs it: the same kernels through cuLaunchKernel in a C++ loop, the floor any Python launch
is measured against.

One warm-up launch (compiles), then the best of 5 loops of N launches, each loop timed up to and
including its synchronize. Prints one JSON line: {"tool", "n", "best_s", "us", "loops_us",
"correct"}; us = the best loop's time / N * 1e6, best_s the same in seconds. `correct`: a[0],
b[0] and c[0] counted every launch (1 + 5 N of them).
"""
import ctypes
import json
import os
import subprocess
import sys
import time

import numpy as np

LOOPS = 5
ELEMS = 256
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")

CUPY_SOURCE = r'''
extern "C" __global__ void one_array(float* a) {
  if (blockIdx.x * blockDim.x + threadIdx.x == 0) a[0] += 1.0f;
}

extern "C" __global__ void three_arrays(float* a, float* b, float* c, double x, long long y) {
  if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
    a[0] = (float)(a[0] + x);
    b[0] = (float)(b[0] + (double)y);
    c[0] += 1.0f;
  }
}
'''

# The kernels live at module level: Numba's simulator gives a kernel its fake `cuda` module by
# replacing the function's globals, which a closure over a local `cuda` would escape.
TOOL = sys.argv[1] if len(sys.argv) > 1 else ""
if TOOL in ("cujit", "numba"):
    if TOOL == "numba":
        np.row_stack = np.vstack  # numba-cuda 0.30 still refers to it; NumPy 2.5 removed it
        from numba import cuda
    else:
        from cujit import cuda

    @cuda.jit
    def one_array(a):
        if cuda.grid(1) == 0:
            a[0] += 1.0

    @cuda.jit
    def three_arrays(a, b, c, x, y):
        if cuda.grid(1) == 0:
            a[0] += x
            b[0] += y
            c[0] += 1.0



def run_raw(n, what):
    """Builds raw_launch.cpp when the binary is missing or older than the source, runs it and
    passes its JSON line on."""
    src = os.path.join(HERE, "raw_launch.cpp")
    exe = os.path.join(ROOT, "build", "bench", "raw_launch")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        lib = os.path.join(CUDA, "lib64")
        # The stubs folder lets it link where only the driver's libcuda.so.1 is installed (no
        # libcuda.so): it is not in the rpath, so at run time the driver's library is loaded.
        cmd = ["g++", "-O2", "-std=c++17", "-I" + os.path.join(CUDA, "include"), src, "-o", exe,
               "-L" + lib, "-L" + os.path.join(lib, "stubs"), "-Wl,-rpath," + lib, "-lcuda", "-lnvrtc"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            lines = p.stderr.strip().splitlines() or ["exit status %d" % p.returncode]
            sys.exit("g++ failed building raw_launch: %s" % next((ln for ln in lines if "error" in ln), lines[-1]))
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        sys.exit("no CUDA driver here (libcuda.so.1 not found)")
    p = subprocess.run([exe, str(n), what], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit((p.stderr or p.stdout).strip() or "raw_launch exited with %d" % p.returncode)
    print(p.stdout.strip().splitlines()[-1])


def main():
    tool, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if what not in ("1array", "3arrays2scalars"):
        sys.exit("usage: python benchmarks/launch.py cujit|numba|cupy|raw N 1array|3arrays2scalars")
    if tool == "raw":
        return run_raw(n, what)
    three = what == "3arrays2scalars"
    x, y = 1.0, 2

    if tool in ("cujit", "numba"):
        arrays = [cuda.to_device(np.zeros(ELEMS, dtype=np.float32)) for _ in range(3)]
        d_a, d_b, d_c = arrays
        sync = cuda.synchronize
        if three:
            def loop(count):
                for _ in range(count):
                    three_arrays[1, 32](d_a, d_b, d_c, x, y)
        else:
            def loop(count):
                for _ in range(count):
                    one_array[1, 32](d_a)

        def first_elements():
            return [float(d.copy_to_host()[0]) for d in arrays]
    elif tool == "cupy":
        import cupy
        kernel = cupy.RawKernel(CUPY_SOURCE, "three_arrays" if three else "one_array")
        arrays = [cupy.zeros(ELEMS, dtype=np.float32) for _ in range(3)]
        d_a, d_b, d_c = arrays
        sync = cupy.cuda.runtime.deviceSynchronize
        if three:
            def loop(count):
                for _ in range(count):
                    kernel((1,), (32,), (d_a, d_b, d_c, x, y))
        else:
            def loop(count):
                for _ in range(count):
                    kernel((1,), (32,), (d_a,))

        def first_elements():
            return [float(d[0].get()) for d in arrays]
    else:
        sys.exit("usage: python benchmarks/launch.py cujit|numba|cupy|raw N 1array|3arrays2scalars")

    loop(1)  # warm-up: compiles
    sync()
    loops = []
    for _ in range(LOOPS):
        t0 = time.perf_counter()
        loop(n)
        sync()
        loops.append(time.perf_counter() - t0)
    launches = 1 + LOOPS * n
    want = [launches * x, launches * y, launches] if three else [launches, 0, 0]
    best = min(loops) / n
    print(json.dumps({"tool": tool, "n": n, "args": what, "best_s": best, "us": best * 1e6,
                      "loops_us": [t / n * 1e6 for t in loops],
                      "correct": first_elements() == want}))


if __name__ == "__main__":
    main()
