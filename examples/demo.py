"""make demo: the course's section-1 assessment (the hidden layer) and a kernel example.

Runs on the GPU when there is one, else on the CPU simulator (with a smaller n).
"""
import os
import time

import numpy as np

import cujit
from cujit import _core

if not _core.gpu_available():
    os.environ["CUJIT_ENABLE_CUDASIM"] = "1"
    _core.set_simulator(True)

from cujit import cuda, vectorize  # noqa: E402
import math  # noqa: E402

on_gpu = not _core.simulator_enabled()
print("cujit %s on %s" % (cujit.__version__, _core.device_info()["name"] if on_gpu else "the CPU simulator"))

# ---- The hidden layer, as CUDA ufuncs -------------------------------------------------------
n = 100_000_000 if on_gpu else 1_000_000
greyscales = np.floor(np.random.uniform(0, 255, n).astype(np.float32))
weights = np.random.normal(.5, .1, n).astype(np.float32)


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


create_hidden_layer(1000, greyscales[:1000], weights[:1000], math.exp, normalize, weigh, activate)
t0 = time.perf_counter()
a = create_hidden_layer(n, greyscales, weights, math.exp, normalize, weigh, activate)
dt = time.perf_counter() - t0
ref = np.tanh((greyscales / np.float32(255)) * weights)
print("hidden layer, n = %d: %.3f s, correct: %s" % (n, dt, np.allclose(a, ref, atol=1e-5)))


# ---- A kernel: 2D grid doubling a matrix ------------------------------------------------------
@cuda.jit
def doubled(arr, out):
    x, y = cuda.grid(2)
    if x < arr.shape[0] and y < arr.shape[1]:
        out[x, y] = arr[x, y] * 2


arr = np.random.randn(37, 53).astype(np.float32)
d_out = cuda.device_array_like(arr)
doubled[(3, 4), (16, 16)](cuda.to_device(arr), d_out)
print("kernel doubled[(3, 4), (16, 16)]: correct:", np.array_equal(d_out.copy_to_host(), arr * 2))
