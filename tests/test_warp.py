"""Warp intrinsics on both targets: shuffles (idx, up, down, xor) on the four types CUDA shuffles,
votes (all, any, eq, ballot), match_any, activemask, lanemask_lt and syncwarp, and the course's
block reduction with shuffles. The references are computed lane by lane in NumPy from CUDA's
definitions; the simulator runs these kernels' threads as fibers that meet at each warp
operation."""
import numpy as np
import pytest

from cujit import cuda

FULL = 0xffffffff


@cuda.jit
def warp_reduce(a, out):
    i = cuda.grid(1)
    v = a[i]
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(FULL, v, off)
        off //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_shfl_down_warp_reduce(target, dtype):
    a = (np.arange(256) % 37 - 11).astype(dtype)
    out = np.zeros(8, dtype)
    warp_reduce[2, 128](a, out)
    np.testing.assert_array_equal(out, a.reshape(8, 32).sum(1))


@cuda.jit
def shuffles(a, o):
    i = cuda.grid(1)
    v = a[i]
    o[i, 0] = cuda.shfl_sync(FULL, v, 5)
    o[i, 1] = cuda.shfl_sync(FULL, v, 37)  # the source lane is taken modulo 32
    o[i, 2] = cuda.shfl_up_sync(FULL, v, 3)
    o[i, 3] = cuda.shfl_down_sync(FULL, v, 3)
    o[i, 4] = cuda.shfl_xor_sync(FULL, v, 6)


def test_shuffle_variants(target):
    a = np.random.default_rng(1).normal(size=64)
    o = np.zeros((64, 5))
    shuffles[1, 64](a, o)
    lanes = np.arange(64) % 32
    base = np.arange(64) - lanes
    ref = np.empty_like(o)
    ref[:, 0] = a[base + 5]
    ref[:, 1] = a[base + 5]
    ref[:, 2] = np.where(lanes >= 3, a[np.maximum(np.arange(64) - 3, 0)], a)  # lanes < 3 keep theirs
    ref[:, 3] = np.where(lanes < 29, a[np.minimum(np.arange(64) + 3, 63)], a)
    ref[:, 4] = a[base + (lanes ^ 6)]
    np.testing.assert_array_equal(o, ref)


@cuda.jit
def butterfly_and_scan(a, total, scan):
    i = cuda.grid(1)
    s = a[i]
    x = a[i]
    k = 1
    while k < 32:
        s += cuda.shfl_xor_sync(FULL, s, k)   # every lane ends with the warp's sum
        y = cuda.shfl_up_sync(FULL, x, k)     # Hillis-Steele inclusive scan
        if cuda.laneid >= k:
            x += y
        k *= 2
    total[i] = s
    scan[i] = x


def test_butterfly_sum_and_inclusive_scan(target):
    a = np.arange(1, 97, dtype=np.int64)
    total = np.zeros_like(a)
    scan = np.zeros_like(a)
    butterfly_and_scan[1, 96](a, total, scan)
    w = a.reshape(3, 32)
    np.testing.assert_array_equal(total, np.repeat(w.sum(1), 32))
    np.testing.assert_array_equal(scan, np.cumsum(w, axis=1).ravel())


@cuda.jit
def votes(a, o):
    i = cuda.grid(1)
    p = a[i] > 0
    o[i, 0] = cuda.all_sync(FULL, p)
    o[i, 1] = cuda.any_sync(FULL, p)
    o[i, 2] = cuda.eq_sync(FULL, p)
    o[i, 3] = cuda.ballot_sync(FULL, p)
    if cuda.laneid < 16:  # half a warp, named by its mask; an integer predicate
        o[i, 4] = cuda.ballot_sync(0x0000ffff, a[i])
    o[i, 5] = cuda.match_any_sync(FULL, a[i])


def test_votes_ballot_match(target):
    a = np.zeros(96, dtype=np.int32)
    a[:32] = [1, 0, 2, 2] * 8        # warp 0: mixed
    a[32:64] = 3                      # warp 1: all true, all equal
    a[64:96] = 0                      # warp 2: all false
    o = np.zeros((96, 6), np.int64)
    votes[1, 96](a, o)
    for w in range(3):
        lanes = a[32 * w:32 * w + 32]
        bits = sum(1 << l for l in range(32) if lanes[l] > 0)
        low = sum(1 << l for l in range(16) if lanes[l] != 0)
        for l in range(32):
            row = o[32 * w + l]
            match = sum(1 << m for m in range(32) if lanes[m] == lanes[l])
            assert row[0] == all(lanes > 0)
            assert row[1] == any(lanes > 0)
            assert row[2] == (all(lanes > 0) or not any(lanes > 0))
            assert row[3] == np.int32(np.uint32(bits))  # Numba types ballot_sync as int32
            assert row[4] == (low if l < 16 else 0)
            assert row[5] == np.int32(np.uint32(match))


@cuda.jit
def masks(o):
    i = cuda.grid(1)
    o[i, 0] = cuda.activemask()
    o[i, 1] = cuda.lanemask_lt()
    o[i, 2] = cuda.laneid


def test_activemask_and_lanemask_with_a_partial_warp(target):
    o = np.zeros((48, 3), np.int64)
    masks[1, 48](o)   # warp 1 has only 16 threads
    np.testing.assert_array_equal(o[:32, 0], 0xffffffff)
    np.testing.assert_array_equal(o[32:, 0], 0xffff)
    lanes = np.arange(48) % 32
    np.testing.assert_array_equal(o[:, 1], (1 << lanes) - 1)
    np.testing.assert_array_equal(o[:, 2], lanes)


@cuda.jit
def warp_tree_syncwarp(a, out):
    # The last-warp unrolled reduction of CUDA's samples, made safe with syncwarp: each step
    # reads what other lanes wrote in shared memory before the previous syncwarp.
    s = cuda.shared.array(64, np.float32)
    t = cuda.threadIdx.x
    s[t] = a[cuda.grid(1)]
    s[t + 32] = 0
    cuda.syncwarp(FULL)
    k = 16
    while k > 0:
        v = s[t + k]
        cuda.syncwarp(FULL)
        s[t] += v
        cuda.syncwarp(FULL)
        k //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


def test_syncwarp_orders_shared_memory(target):
    a = np.arange(128, dtype=np.float32)
    out = np.zeros(4, np.float32)
    warp_tree_syncwarp[4, 32](a, out)
    np.testing.assert_array_equal(out, a.reshape(4, 32).sum(1))


TPB = 256


@cuda.jit
def block_sum_shuffles(a, partial):
    # The course's block reduction with shuffles: reduce in each warp, one value per warp to
    # shared memory, then the first warp reduces those.
    warp_sums = cuda.shared.array(TPB // 32, np.float32)
    i = cuda.grid(1)
    v = np.float32(0)
    while i < a.size:            # grid-stride accumulation
        v += a[i]
        i += cuda.gridsize(1)
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(FULL, v, off)
        off //= 2
    lane = cuda.threadIdx.x % 32
    warp = cuda.threadIdx.x // 32
    if lane == 0:
        warp_sums[warp] = v
    cuda.syncthreads()
    if warp == 0:
        v = warp_sums[lane] if lane < TPB // 32 else np.float32(0)
        off = 16
        while off > 0:
            v += cuda.shfl_down_sync(FULL, v, off)
            off //= 2
        if lane == 0:
            partial[cuda.blockIdx.x] = v


def test_block_reduction_with_shuffles(target):
    a = np.random.default_rng(2).integers(0, 100, 100_003).astype(np.float32)
    partial = np.zeros(24, np.float32)
    block_sum_shuffles[24, TPB](a, partial)
    assert partial.sum(dtype=np.float64) == a.sum(dtype=np.float64)
