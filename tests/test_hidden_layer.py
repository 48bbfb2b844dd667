"""The section-1 assessment: the hidden layer, written both as CUDA ufuncs and as kernels (the
seed's solution), on the simulator (smaller n) and the GPU. Its timing at n = 100,000,000 is a
benchmark (benchmarks/hidden_layer.py), not a test."""
import math
from math import exp

import numpy as np

from cujit import cuda, vectorize


@vectorize(['float32(float32)'], target='cuda')
def normalize_u(grayscales):
    return grayscales / 255


@vectorize(['float32(float32, float32)'], target='cuda')
def weigh_u(values, weights):
    return values * weights


@vectorize(['float32(float32)'], target='cuda')
def activate_u(values):
    return (math.exp(values) - math.exp(-values)) / (math.exp(values) + math.exp(-values))


@cuda.jit
def normalize_k(grayscales, out):
    i = cuda.grid(1)
    if i < grayscales.size:
        out[i] = grayscales[i] / 255.0  # Normalize to range [0, 1]


@cuda.jit
def weigh_k(values, weights, out):
    i = cuda.grid(1)
    if i < values.size:
        out[i] = values[i] * weights[i]  # Element-wise multiplication


@cuda.jit
def activate_k(values, out):
    i = cuda.grid(1)
    if i < values.size:
        out[i] = (exp(values[i]) - exp(-values[i])) / (exp(values[i]) + exp(-values[i]))  # tanh


def inputs(n):
    rng = np.random.default_rng(1)
    greyscales = np.floor(rng.uniform(0, 255, n).astype(np.float32))
    weights = rng.normal(.5, .1, n).astype(np.float32)
    return greyscales, weights


def reference(greyscales, weights):
    return np.tanh((greyscales / np.float32(255)) * weights)


def hidden_layer_ufuncs(n, greyscales, weights, exp, normalize, weigh, activate):
    g = cuda.to_device(greyscales)
    w = cuda.to_device(weights)
    tmp = cuda.device_array_like(g)
    out = cuda.device_array_like(g)
    normalize(g, out=tmp)
    weigh(tmp, w, out=out)
    activate(out, out=tmp)
    return tmp.copy_to_host()


def hidden_layer_kernels(n, greyscales, weights, exp, normalize, weigh, activate):
    greyscales_device = cuda.to_device(greyscales)
    weights_device = cuda.to_device(weights)
    normalized_device = cuda.device_array(greyscales.shape, dtype=np.float32)
    weighted_device = cuda.device_array(weights.shape, dtype=np.float32)
    activated_device = cuda.device_array(weights.shape, dtype=np.float32)
    threads_per_block = 512
    blocks_per_grid = (n + (threads_per_block - 1)) // threads_per_block
    normalize[blocks_per_grid, threads_per_block](greyscales_device, normalized_device)
    weigh[blocks_per_grid, threads_per_block](normalized_device, weights_device, weighted_device)
    activate[blocks_per_grid, threads_per_block](weighted_device, activated_device)
    return activated_device.copy_to_host()


def test_hidden_layer_as_ufuncs(target):
    n = 1_000_000
    g, w = inputs(n)
    a = hidden_layer_ufuncs(n, g, w, exp, normalize_u, weigh_u, activate_u)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.shape == (n,)
    np.testing.assert_allclose(a, reference(g, w), rtol=1e-5, atol=1e-6)


def test_hidden_layer_as_kernels(target):
    n = 200_000
    g, w = inputs(n)
    a = hidden_layer_kernels(n, g, w, exp, normalize_k, weigh_k, activate_k)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    np.testing.assert_allclose(a, reference(g, w), rtol=1e-5, atol=1e-6)
