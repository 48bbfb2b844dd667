"""The GPU layout of static cuda.shared.array storage (compiler/shared_layout.h): rows read down a
column (a leading index that varies with threadIdx.x) are padded by one element against bank
conflicts, only where nothing observes the layout; the simulator keeps the plain C layout, and
every result is the same. The PTX's .shared declaration shows the storage's size: 32 x 32 float32
is 4096 bytes plain, 4224 (32 x 33 x 4) padded."""
import os
import subprocess
import sys

import numpy as np

from cujit import cuda, float32, float64, int32

T = 32


def _shared_bytes(kernel, sig):
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig)
    sizes = []
    for line in ptx.splitlines():
        if line.strip().startswith(".shared .align"):
            sizes.append(int(line.rsplit("[", 1)[1].split("]")[0]))
    return sorted(sizes)


@cuda.jit
def transpose(a, b):
    tile = cuda.shared.array((T, T), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * T + tx
    y = cuda.blockIdx.y * T + ty
    for k in range(0, T, 8):
        tile[ty + k, tx] = a[y + k, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * T + tx
    y = cuda.blockIdx.x * T + ty
    for k in range(0, T, 8):
        b[y + k, x] = tile[tx, ty + k]


def test_padded_transpose_gives_the_transpose(target):
    a = np.random.default_rng(0).random((64, 96), dtype=np.float32)
    d_b = cuda.device_array((96, 64), np.float32)
    transpose[(3, 2), (T, 8)](cuda.to_device(a), d_b)
    np.testing.assert_array_equal(d_b.copy_to_host(), a.T)


def test_a_tile_read_down_a_column_is_padded_in_the_gpu_code():
    assert _shared_bytes(transpose, "void(float32[:, ::1], float32[:, ::1])") == [T * (T + 1) * 4]


@cuda.jit
def column_sums(a, out):
    # Each thread adds its row of the tile in order: a float sum, bit for bit the same padded or not.
    tile = cuda.shared.array((T, T), float32)
    tx = cuda.threadIdx.x
    for r in range(T):
        tile[r, tx] = a[r, tx]
    cuda.syncthreads()
    s = float32(0)
    for k in range(T):
        s += tile[tx, k]
    out[tx] = s


def test_float_sums_read_down_a_column_are_exact(target):
    a = np.random.default_rng(1).standard_normal((T, T)).astype(np.float32)
    out = np.zeros(T, np.float32)
    column_sums[1, T](a, out)
    want = np.add.accumulate(a, axis=1, dtype=np.float32)[:, -1]  # left to right, in float32
    np.testing.assert_array_equal(out, want)
    assert _shared_bytes(column_sums, "void(float32[:, ::1], float32[::1])") == [T * (T + 1) * 4]


@cuda.jit
def atomic_histograms(x, out):
    # One histogram per thread of the warp, bins along the row: atomics at [tx, bin].
    h = cuda.shared.array((T, 16), int32)
    tx = cuda.threadIdx.x
    for b in range(16):
        h[tx, b] = 0
    cuda.syncwarp()
    for i in range(x.shape[1]):
        cuda.atomic.add(h, (tx, x[tx, i]), 1)
    cuda.syncwarp()
    for b in range(16):
        out[tx, b] = h[tx, b]


def test_atomics_on_a_padded_array_count_every_element(target):
    x = np.random.default_rng(2).integers(0, 16, (T, 200)).astype(np.int32)
    out = np.zeros((T, 16), np.int32)
    atomic_histograms[1, T](x, out)
    want = np.stack([np.bincount(row, minlength=16) for row in x])
    np.testing.assert_array_equal(out, want)
    assert _shared_bytes(atomic_histograms, "void(int32[:, ::1], int32[:, ::1])") == [T * 17 * 4]


@cuda.jit
def float64_tile(a, out):
    tile = cuda.shared.array((16, 16), float64)
    tx = cuda.threadIdx.x
    for r in range(16):
        tile[r, tx] = a[r, tx]
    cuda.syncthreads()
    out[tx, 0] = tile[tx, 3] * 2.0
    out[tx, 1] = tile.shape[1] + tile.size + tile.ndim + len(tile)


def test_float64_rows_pad_by_one_element(target):
    a = np.random.default_rng(3).random((16, 16))
    out = np.zeros((16, 2))
    float64_tile[1, 16](a, out)
    np.testing.assert_array_equal(out[:, 0], a[:, 3] * 2.0)
    np.testing.assert_array_equal(out[:, 1], np.full(16, 16 + 256 + 2 + 16))
    assert _shared_bytes(float64_tile, "void(float64[:, ::1], float64[:, ::1])") == [16 * 17 * 8]


@cuda.jit
def three_dims(x, out):
    # t[k, tx, j]: the middle index varies with threadIdx.x, so the rows of 8 become 9.
    t = cuda.shared.array((2, T, 8), int32)
    tx = cuda.threadIdx.x
    for k in range(2):
        for j in range(8):
            t[k, tx, j] = x[tx] * (k + 1) + j
    cuda.syncwarp()
    s = 0
    for k in range(2):
        for j in range(8):
            s += t[k, (tx + 1) % T, j] * (j + 1)
    out[tx] = s


def test_three_dimensional_array_pads_its_last_dimension(target):
    x = np.arange(T, dtype=np.int32) * 3
    out = np.zeros(T, np.int32)
    three_dims[1, T](x, out)
    nxt = np.roll(x, -1).astype(np.int64)
    j = np.arange(8)
    want = sum(((nxt[:, None] * (k + 1) + j) * (j + 1)).sum(axis=1) for k in range(2))
    np.testing.assert_array_equal(out, want)
    assert _shared_bytes(three_dims, "void(int32[::1], int32[::1])") == [2 * T * 9 * 4]


# ---- what keeps the plain layout ----------------------------------------------------------------

@cuda.jit(device=True)
def _first_column_sum(tile):
    s = float32(0)
    for k in range(tile.shape[0]):
        s += tile[k, 0]
    return s


@cuda.jit
def passed_to_device_function(a, out):
    tile = cuda.shared.array((T, T), float32)
    tx = cuda.threadIdx.x
    for r in range(T):
        tile[r, tx] = a[r, tx]
    cuda.syncthreads()
    out[tx] = tile[tx, 0] + _first_column_sum(tile)


@cuda.jit
def strides_read(a, out):
    tile = cuda.shared.array((T, T), float32)
    tx = cuda.threadIdx.x
    tile[tx, 0] = a[tx, 0]
    cuda.syncthreads()
    out[tx] = tile[tx, 0] + tile.strides[0]


@cuda.jit
def row_view(a, out):
    tile = cuda.shared.array((T, T), float32)
    tx = cuda.threadIdx.x
    tile[tx, 0] = a[tx, 0]
    cuda.syncthreads()
    row = tile[tx]
    out[tx] = row[0]


@cuda.jit
def aliased(a, out):
    tile = cuda.shared.array((T, T), float32)
    other = tile
    tx = cuda.threadIdx.x
    tile[tx, 0] = a[tx, 0]
    cuda.syncthreads()
    out[tx] = other[tx, 0]


@cuda.jit
def assigned_twice(a, out):
    tx = cuda.threadIdx.x
    tile = cuda.shared.array((T, T), float32)
    tile[tx, 0] = a[tx, 0]
    cuda.syncthreads()
    out[tx] = tile[tx, 0]
    cuda.syncthreads()
    tile = cuda.shared.array((T, T), float32)
    tile[tx, 1] = a[tx, 1]
    cuda.syncthreads()
    out[tx] += tile[(tx + 1) % T, 1]


def test_a_variable_assigned_twice_keeps_the_plain_layout(target):
    a = np.random.default_rng(6).random((T, T), dtype=np.float32)
    out = np.zeros(T, np.float32)
    assigned_twice[1, T](a, out)
    np.testing.assert_array_equal(out, a[:, 0] + np.roll(a[:, 1], -1))
    assert _shared_bytes(assigned_twice, "void(float32[:, ::1], float32[::1])") == [T * T * 4, T * T * 4]


def test_unsafe_uses_keep_the_plain_layout(target):
    a = np.random.default_rng(4).random((T, T), dtype=np.float32)
    sig = "void(float32[:, ::1], float32[::1])"
    for kernel in (passed_to_device_function, strides_read, row_view, aliased):
        assert _shared_bytes(kernel, sig) == [T * T * 4], kernel.__name__
    out = np.zeros(T, np.float32)
    passed_to_device_function[1, T](a, out)
    np.testing.assert_array_equal(out, a[:, 0] + np.add.accumulate(a[:, 0], dtype=np.float32)[-1])
    strides_read[1, T](a, out)
    np.testing.assert_array_equal(out, a[:, 0] + np.float32(T * 4))  # numba-cuda: 128, the C layout's
    for kernel in (row_view, aliased):
        out[:] = 0
        kernel[1, T](a, out)
        np.testing.assert_array_equal(out, a[:, 0])


@cuda.jit
def rows_only(a, out):
    # The course's matmul pattern: reads along rows only, where padding would cost vector loads.
    s = cuda.shared.array((16, 16), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    s[ty, tx] = a[ty, tx]
    cuda.syncthreads()
    acc = float32(0)
    for j in range(16):
        acc += s[ty, j] * s[j, tx]
    out[ty, tx] = acc


def test_reads_along_rows_keep_the_plain_layout(target):
    a = np.random.default_rng(5).random((16, 16), dtype=np.float32)
    out = np.zeros((16, 16), np.float32)
    rows_only[1, (16, 16)](a, out)
    np.testing.assert_allclose(out, a @ a, rtol=1e-5)
    assert _shared_bytes(rows_only, "void(float32[:, ::1], float32[:, ::1])") == [16 * 16 * 4]


_DEBUG_SCRIPT = r"""
import sys
sys.path.insert(0, %r)
import test_shared_layout as t
from cujit import cuda
for k in (t.transpose, t.passed_to_device_function, t.strides_read, t.rows_only):
    cuda.compile_ptx(k.py_func, "void(float32[:, ::1], float32[:, ::1])" if k in (t.transpose, t.rows_only)
                     else "void(float32[:, ::1], float32[::1])")
"""


def _debug_listing(**env):
    run_env = dict(os.environ, CUJIT_DEBUG="3", CUJIT_ENABLE_CUDASIM="0", **env)
    r = subprocess.run([sys.executable, "-c", _DEBUG_SCRIPT % os.path.dirname(__file__)],
                       capture_output=True, text=True, env=run_env, timeout=600)
    assert r.returncode == 0, r.stderr
    return [line.strip() for line in (r.stdout + r.stderr).splitlines() if "// cuda.shared.array at line" in line]


def test_the_decision_and_its_reason_are_in_the_generated_code():
    lines = _debug_listing()
    assert any("rows padded 32 -> 33 elements" in s and "indexes a leading dimension with threadIdx.x" in s
               for s in lines), lines
    assert any("plain layout: passed to a call" in s for s in lines), lines
    assert any("plain layout: its .strides is read" in s for s in lines), lines
    assert any("plain layout: no access reads down a column" in s for s in lines), lines
    forced = _debug_listing(CUJIT_SHARED_PAD="0")
    assert forced and not any("rows padded" in s for s in forced), forced

