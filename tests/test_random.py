"""cuda.random on both targets, pinned against the algorithm's published definition: splitmix64
seeding, the xoroshiro128+ step and its 2**64-step jump (written out again below in NumPy,
independently of the C++ core and of the device functions), and Numba's conversions to floats.
Also the course's Monte Carlo estimate of pi."""
import math

import numpy as np
import pytest

from cujit import cuda
from cujit.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states,
                               xoroshiro128p_normal_float32, xoroshiro128p_normal_float64,
                               xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64)

M64 = (1 << 64) - 1


def splitmix64(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


def step(s0, s1):
    """One xoroshiro128+ step on Python ints: (output, s0', s1')."""
    out = (s0 + s1) & M64
    s1 ^= s0
    return out, rotl(s0, 55) ^ s1 ^ ((s1 << 14) & M64), rotl(s1, 36)


def jump(s0, s1):
    j0 = j1 = 0
    for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
        for b in range(64):
            if word >> b & 1:
                j0 ^= s0
                j1 ^= s1
            _, s0, s1 = step(s0, s1)
    return j0, j1


def reference_states(n, seed, subsequence=0):
    s = splitmix64(seed & M64)
    state = (s, s)
    for _ in range(subsequence):
        state = jump(*state)
    out = []
    for i in range(n):
        if i:
            state = jump(*state)
        out.append(state)
    return np.array(out, dtype=np.uint64)


def reference_draws(states, count):
    """`count` raw outputs of each generator, vectorised over generators with NumPy's wrapping
    uint64 arithmetic."""
    s0, s1 = states[:, 0].copy(), states[:, 1].copy()
    outs = []
    with np.errstate(over="ignore"):
        for _ in range(count):
            outs.append(s0 + s1)
            t = s1 ^ s0
            s0 = ((s0 << np.uint64(55)) | (s0 >> np.uint64(9))) ^ t ^ (t << np.uint64(14))
            s1 = (t << np.uint64(36)) | (t >> np.uint64(28))
    return np.stack(outs, axis=1), np.stack([s0, s1], axis=1)


def unit64(raw):
    return (raw >> np.uint64(11)).astype(np.float64) * (1.0 / 2 ** 53)


def test_states_follow_the_definition(target):
    for n, seed, sub in [(1, 0, 0), (5, 1234, 0), (4, 7, 2), (3, -1, 1)]:
        s = create_xoroshiro128p_states(n, seed=seed, subsequence_start=sub)
        assert s.shape == (n, 2) and s.dtype == np.uint64
        np.testing.assert_array_equal(s.copy_to_host(), reference_states(n, seed, sub))
    # Known value: splitmix64(0)'s first output, from the generator's reference implementation.
    assert splitmix64(0) == 0xE220A8397B1DCDAF
    s = create_xoroshiro128p_states(6, seed=99)
    init_xoroshiro128p_states(s, 5)
    np.testing.assert_array_equal(s.copy_to_host(), reference_states(6, 5))


@cuda.jit
def draw(states, u32, u64, n32, n64):
    i = cuda.grid(1)
    if i < u32.shape[0]:
        for k in range(u32.shape[1]):
            u32[i, k] = xoroshiro128p_uniform_float32(states, i)
            u64[i, k] = xoroshiro128p_uniform_float64(states, i)
            n32[i, k] = xoroshiro128p_normal_float32(states, i)
            n64[i, k] = xoroshiro128p_normal_float64(states, i)


def test_draws_match_the_stream(target):
    n, k = 40, 3
    init = reference_states(n, 2024)
    states = create_xoroshiro128p_states(n, seed=2024)
    u32, n32 = np.zeros((n, k), np.float32), np.zeros((n, k), np.float32)
    u64, n64 = np.zeros((n, k)), np.zeros((n, k))
    draw[2, 32](states, u32, u64, n32, n64)
    raw, final = reference_draws(init, 6 * k)  # per k: 1 + 1 + 2 + 2 draws
    raw = raw.reshape(n, k, 6)
    np.testing.assert_array_equal(u32, unit64(raw[:, :, 0]).astype(np.float32))
    np.testing.assert_array_equal(u64, unit64(raw[:, :, 1]))
    a, b = unit64(raw[:, :, 2]).astype(np.float32), unit64(raw[:, :, 3]).astype(np.float32)
    ref32 = np.sqrt(np.float32(-2) * np.log(a)) * np.cos(np.float32(2 * math.pi) * b)
    np.testing.assert_allclose(n32, ref32, rtol=2e-6, atol=2e-6)
    a, b = unit64(raw[:, :, 4]).astype(np.float32), unit64(raw[:, :, 5]).astype(np.float32)
    # float64 normals take float32 uniforms and a float32 log, as Numba's do.
    ref64 = np.sqrt(-2.0 * np.log(a).astype(np.float64)) * np.cos(2 * math.pi * b.astype(np.float64))
    np.testing.assert_allclose(n64, ref64, rtol=2e-6, atol=2e-6)
    np.testing.assert_array_equal(states.copy_to_host(), final)  # the states advanced in place


@cuda.jit
def compute_pi(rng_states, iterations, out):
    """The course's Monte Carlo pi: each thread draws `iterations` points in the unit square."""
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x ** 2 + y ** 2 <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations


def test_monte_carlo_pi(target):
    threads_per_block, blocks = 64, 32
    rng_states = create_xoroshiro128p_states(threads_per_block * blocks, seed=1)
    out = np.zeros(threads_per_block * blocks, dtype=np.float32)
    compute_pi[blocks, threads_per_block](rng_states, 200, out)
    # 409,600 points: the standard error of the estimate is about 0.0026.
    assert abs(out.mean() - math.pi) < 0.015
    # The same points from the reference stream give the same count, up to a point or two that
    # rounding could put on either side of the circle.
    raw, _ = reference_draws(reference_states(threads_per_block * blocks, 1), 400)
    u = unit64(raw).astype(np.float32).astype(np.float64)
    inside = (u[:, 0::2] ** 2 + u[:, 1::2] ** 2 <= 1.0).sum(axis=1)
    assert np.abs(out * 200 / 4 - inside).max() <= 2


@cuda.jit
def _draw_qualified(states, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.random.xoroshiro128p_uniform_float32(states, i)


@cuda.jit
def _draw_imported(states, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = xoroshiro128p_uniform_float32(states, i)


def test_generators_by_qualified_name(target):
    # cuda.random.xoroshiro128p_uniform_float32 in a kernel, as in numba.cuda, gives the same
    # draws as the name imported from cujit.cuda.random.
    n = 64
    a, b = cuda.device_array(n, np.float32), cuda.device_array(n, np.float32)
    _draw_qualified[1, n](create_xoroshiro128p_states(n, seed=7), a)
    _draw_imported[1, n](create_xoroshiro128p_states(n, seed=7), b)
    assert (a.copy_to_host() == b.copy_to_host()).all()


# numba-cuda refuses a float count (TypeError); int() made n=10.5 ten states in silence.
@pytest.mark.parametrize("n", [10.5, np.array(3.5), "4"])
def test_state_count_must_be_an_integer(target, n):
    with pytest.raises(TypeError, match="n must be an integer"):
        create_xoroshiro128p_states(n, seed=1)


def test_integer_like_counts_are_taken(target):
    assert create_xoroshiro128p_states(np.int32(3), seed=1).shape[0] == 3
    with pytest.raises(TypeError, match="subsequence_start must be an integer"):
        create_xoroshiro128p_states(2, seed=1, subsequence_start=1.5)
