"""The GPU code generator's measurement switches (docs/environment.md): CUJIT_GRIDSTRIDE_UNROLL=k
and CUJIT_C_STRIDE=1 change the generated program, never a result. Each runs in a process of its
own (the switches are read at each compile); without a GPU the programs are compiled to PTX."""
import os
import subprocess
import sys

import pytest

_SCRIPT = r"""
import numpy as np
from cujit import cuda

@cuda.jit
def hist(x, bins):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(bins, x[i], 1)

@cuda.jit
def hist_shared(x, bins):
    local = cuda.shared.array(64, np.int32)
    for b in range(cuda.threadIdx.x, 64, cuda.blockDim.x):
        local[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(local, x[i], 1)
    cuda.syncthreads()
    for b in range(cuda.threadIdx.x, 64, cuda.blockDim.x):
        cuda.atomic.add(bins, b, local[b])

@cuda.jit
def scaled(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * 3 + a[i, 0]

for k, sig in ((hist, "void(int32[::1], int64[::1])"), (hist_shared, "void(int32[::1], int32[::1])"),
               (scaled, "void(float32[:, ::1], float32[:, ::1])")):
    ptx, _ = cuda.compile_ptx(k.py_func, sig)
    print(k.__name__, "match.any" in ptx)
if cuda.is_available():
    x = np.random.default_rng(0).integers(0, 64, 100_003).astype(np.int32)
    x[:5000] = 7  # runs of one bin: many threads of a warp add to one address
    want = np.bincount(x, minlength=64)
    b64 = np.zeros(64, np.int64)
    hist[37, 128](x, b64)
    assert np.array_equal(b64, want), "global"
    b32 = np.zeros(64, np.int32)
    hist_shared[37, 128](x, b32)
    assert np.array_equal(b32, want), "shared"
    a = np.random.default_rng(1).random((70, 33), dtype=np.float32)
    for arr in (a, a[:, :1].copy(), np.ascontiguousarray(a[::2])):
        out = np.zeros_like(arr)
        scaled[(8, 8), (16, 16)](arr, out)
        # The GPU contracts a * 3 + b into one fma (as numba-cuda does): within an ulp of NumPy's.
        assert np.allclose(out, arr * np.float32(3) + arr[:, :1], rtol=1e-6, atol=0), "strides"
    print("ran on the GPU")
"""


@pytest.mark.parametrize("env", [{"CUJIT_GRIDSTRIDE_UNROLL": "8"}, {"CUJIT_C_STRIDE": "1"}, {}])
def test_switches_keep_every_result(env):
    run_env = dict(os.environ, CUJIT_ENABLE_CUDASIM="0", **env)
    r = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=run_env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "hist False" in r.stdout and "hist_shared False" in r.stdout, r.stdout  # plain atomics
