"""The kernel patterns of the course "Fundamentals of Accelerated Computing with CUDA Python",
sections 2 and 3, written the way its students write them (module-level @cuda.jit kernels, global
ints such as TPB as constants), each result checked against NumPy on the `target` fixture:

(a) a grid-stride loop with fewer threads than elements; (b) histograms with cuda.atomic.add,
global and privatised in shared memory; (c) the race-condition demonstration, without and with
atomics; (d) 2D grids over matrices; (e) the tiled shared-memory matrix multiply; (f) naive and
tiled transposes, with and without the padding column; (g) a block sum reduction in shared memory.

The simulator runs the threads of a synchronising block as fibers, so launches of kernels with
barriers stay at a few dozen blocks. With the import changed to `from numba import ...`, every
test here passes on numba-cuda 0.30's simulator (NUMBA_ENABLE_CUDASIM=1) too. One kernel is
cujit-only on a GPU: numba-cuda's compiler refuses the inline (TILE, TILE + 1) shared shape (see
test_tiled_transpose_padded_shared_memory)."""
import math

import numpy as np
import pytest

from cujit import cuda, float32, float64, int32

TPB = 16  # threads per block along each axis of the 2D kernels
TILE = 32  # transpose tile: 32x32 threads, one per element
TILE_PADDED = TILE + 1  # the padded tile width as a global int: the form Numba accepts
NBINS = 256
RED_TPB = 128  # threads per block of the reduction (a power of two)


# -- (a) grid-stride loop ------------------------------------------------------------------


@cuda.jit
def add_grid_stride(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


@cuda.jit
def hypot_stride(a, b, c):
    idx = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(idx, a.shape[0], stride):
        c[i] = math.hypot(a[i], b[i])


def test_grid_stride_loop_fewer_threads_than_elements(target):
    n = 100_003
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    d_out = cuda.device_array_like(d_x)
    add_grid_stride[8, 128](d_x, d_y, d_out)  # 1,024 threads for 100,003 elements
    np.testing.assert_array_equal(d_out.copy_to_host(), x + y)

    a = np.random.uniform(-5, 5, n).astype(np.float32)
    b = np.random.uniform(-5, 5, n).astype(np.float32)
    c = cuda.device_array_like(a)
    hypot_stride[3, 96](cuda.to_device(a), cuda.to_device(b), c)
    np.testing.assert_allclose(c.copy_to_host(), np.hypot(a, b), rtol=1e-6)


# -- (b) histograms with atomics ---------------------------------------------------------------


@cuda.jit
def histogram_global(x, bins):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        cuda.atomic.add(bins, x[i], 1)


@cuda.jit
def cuda_histogram(x, xmin, xmax, histogram_out):
    """The course's version: float data, bins computed from a range, np.int32 conversion."""
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = np.int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


@cuda.jit
def histogram_shared(x, bins):
    """Privatised: each block counts into shared memory, then adds its counts to the global bins."""
    local = cuda.shared.array(NBINS, dtype=int32)
    t = cuda.threadIdx.x
    for b in range(t, NBINS, cuda.blockDim.x):
        local[b] = 0
    cuda.syncthreads()
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        cuda.atomic.add(local, x[i], 1)
    cuda.syncthreads()
    for b in range(t, NBINS, cuda.blockDim.x):
        if local[b] != 0:
            cuda.atomic.add(bins, b, local[b])


def test_histogram_global_atomics(target):
    x = np.random.randint(0, NBINS, 200_000).astype(np.int32)
    d_bins = cuda.to_device(np.zeros(NBINS, dtype=np.int32))
    histogram_global[16, 128](cuda.to_device(x), d_bins)
    np.testing.assert_array_equal(d_bins.copy_to_host(), np.bincount(x, minlength=NBINS))


def test_histogram_course_version_float_data(target):
    x = np.random.normal(size=50_000, loc=0, scale=1).astype(np.float32)
    xmin, xmax = np.float32(-4.0), np.float32(4.0)
    out = np.zeros(10, dtype=np.int32)
    cuda_histogram[32, 128](x, xmin, xmax, out)
    # The same arithmetic in NumPy, by Numba's typing: float32 / int64 (the shape) is float64,
    # so x[i] - xmin is float32 and the division float64; np.int32 truncates.
    bin_width = np.float64(xmax - xmin) / 10
    b = ((x - xmin).astype(np.float64) / bin_width).astype(np.int32)
    ref = np.bincount(b[(b >= 0) & (b < 10)], minlength=10)
    np.testing.assert_array_equal(out, ref)


def test_histogram_shared_memory_privatised(target):
    x = np.random.randint(0, NBINS, 200_000).astype(np.int32)
    x[:5000] = 7  # one crowded bin: many atomics on one address
    d_bins = cuda.to_device(np.zeros(NBINS, dtype=np.int32))
    histogram_shared[12, 128](cuda.to_device(x), d_bins)
    np.testing.assert_array_equal(d_bins.copy_to_host(), np.bincount(x, minlength=NBINS))


# -- (c) the race condition ---------------------------------------------------------------------


@cuda.jit
def thread_counter_race_condition(global_counter):
    global_counter[0] += 1  # This is bad


@cuda.jit
def thread_counter_safe(global_counter):
    cuda.atomic.add(global_counter, 0, 1)  # Safely add 1 to offset 0 in global_counter array


def test_race_condition_and_its_atomic_fix(target):
    blocks, threads = 64, 64
    expected = blocks * threads
    global_counter = cuda.to_device(np.array([0], dtype=np.int32))
    thread_counter_race_condition[blocks, threads](global_counter)
    racy = int(global_counter.copy_to_host()[0])
    # Lost updates make it anything from 1 up; on the GPU it is typically far below 4,096.
    assert 1 <= racy <= expected

    global_counter = cuda.to_device(np.array([0], dtype=np.int32))
    thread_counter_safe[blocks, threads](global_counter)
    assert global_counter.copy_to_host()[0] == expected


# -- (d) 2D grids -------------------------------------------------------------------------------


@cuda.jit
def matrix_add(a, b, out):
    x, y = cuda.grid(2)
    if x < out.shape[0] and y < out.shape[1]:
        out[x, y] = a[x, y] + b[x, y]


@cuda.jit
def matrix_add_coalesced(a, b, out):
    # threadIdx.x walks the last (fastest-changing) axis, so neighbouring threads touch
    # neighbouring addresses.
    col, row = cuda.grid(2)
    if row < out.shape[0] and col < out.shape[1]:
        out[row, col] = a[row, col] + b[row, col]


@cuda.jit
def matrix_scale_2d_stride(a, factor, out):
    start_x, start_y = cuda.grid(2)
    stride_x, stride_y = cuda.gridsize(2)
    for i in range(start_x, a.shape[0], stride_x):
        for j in range(start_y, a.shape[1], stride_y):
            out[i, j] = a[i, j] * factor


def test_2d_grid_matrix_add_non_multiple_sizes(target):
    a = np.random.rand(1000, 700).astype(np.float32)
    b = np.random.rand(1000, 700).astype(np.float32)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_out = cuda.device_array_like(d_a)
    threads_per_block = (TPB, TPB)
    blocks = (math.ceil(a.shape[0] / TPB), math.ceil(a.shape[1] / TPB))  # (63, 44)
    matrix_add[blocks, threads_per_block](d_a, d_b, d_out)
    np.testing.assert_array_equal(d_out.copy_to_host(), a + b)

    d_out = cuda.device_array_like(d_a)
    blocks = (math.ceil(a.shape[1] / TPB), math.ceil(a.shape[0] / TPB))  # x over the columns
    matrix_add_coalesced[blocks, threads_per_block](d_a, d_b, d_out)
    np.testing.assert_array_equal(d_out.copy_to_host(), a + b)


def test_2d_grid_stride_loop(target):
    a = np.random.rand(300, 170).astype(np.float64)
    out = np.zeros_like(a)
    matrix_scale_2d_stride[(3, 2), (8, 16)](a, 3.0, out)  # 24 x 32 threads over 300 x 170
    np.testing.assert_array_equal(out, a * 3.0)


# -- (e) tiled matrix multiply ---------------------------------------------------------------------


@cuda.jit
def matmul_naive(A, B, C):
    row, col = cuda.grid(2)
    if row < C.shape[0] and col < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[row, k] * B[k, col]
        C[row, col] = tmp


@cuda.jit
def fast_matmul(A, B, C):
    """Numba's documented shared-memory matmul, with bounds checks so that sizes need not be
    multiples of TPB: x runs over C's columns, y over its rows; each block walks the tiles of K."""
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)

    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tiles = (A.shape[1] + TPB - 1) // TPB

    tmp = float32(0.)
    for i in range(tiles):
        # Preload data into shared memory, zeros outside the matrices
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]

        # Wait until all threads finish preloading
        cuda.syncthreads()

        # Computes partial product on the shared memory
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]

        # Wait until all threads finish computing
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def test_naive_matmul(target):
    A = np.random.rand(100, 70).astype(np.float32)
    B = np.random.rand(70, 50).astype(np.float32)
    C = np.zeros((100, 50), dtype=np.float32)
    matmul_naive[(7, 4), (TPB, TPB)](A, B, C)
    np.testing.assert_allclose(C, A.astype(np.float64) @ B, rtol=1e-5)


@pytest.mark.parametrize("m,k,n", [(100, 70, 50), (64, 48, 32)])
def test_tiled_shared_memory_matmul(target, m, k, n):
    A = np.random.rand(m, k).astype(np.float32)
    B = np.random.rand(k, n).astype(np.float32)
    d_A, d_B = cuda.to_device(A), cuda.to_device(B)
    d_C = cuda.device_array((m, n), dtype=np.float32)
    blocks = ((n + TPB - 1) // TPB, (m + TPB - 1) // TPB)  # x over the columns of C
    fast_matmul[blocks, (TPB, TPB)](d_A, d_B, d_C)
    np.testing.assert_allclose(d_C.copy_to_host(), A.astype(np.float64) @ B, rtol=1e-5)


# -- (f) transposes -------------------------------------------------------------------------------


@cuda.jit
def transpose_naive(a, transposed):
    row, col = cuda.grid(2)
    if row < a.shape[0] and col < a.shape[1]:
        transposed[col, row] = a[row, col]


@cuda.jit
def tile_transpose(a, transposed):
    tile = cuda.shared.array((TILE, TILE), int32)

    # Coalesced read: threadIdx.x walks the columns of a.
    a_col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    a_row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if a_row < a.shape[0] and a_col < a.shape[1]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[a_row, a_col]

    cuda.syncthreads()

    # Coalesced write: threadIdx.x walks the columns of the transpose; the tile is read down a
    # column (32 threads on one shared-memory bank: the conflict the padding removes).
    t_col = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.x
    t_row = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.y
    if t_row < transposed.shape[0] and t_col < transposed.shape[1]:
        transposed[t_row, t_col] = tile[cuda.threadIdx.x, cuda.threadIdx.y]


@cuda.jit
def tile_transpose_conflict_free(a, transposed):
    tile = cuda.shared.array((TILE, TILE + 1), int32)  # the +1 column spreads a column over banks

    a_col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    a_row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if a_row < a.shape[0] and a_col < a.shape[1]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[a_row, a_col]

    cuda.syncthreads()

    t_col = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.x
    t_row = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.y
    if t_row < transposed.shape[0] and t_col < transposed.shape[1]:
        transposed[t_row, t_col] = tile[cuda.threadIdx.x, cuda.threadIdx.y]


@cuda.jit
def tile_transpose_padded_global(a, transposed):
    tile = cuda.shared.array((TILE, TILE_PADDED), int32)

    a_col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    a_row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if a_row < a.shape[0] and a_col < a.shape[1]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[a_row, a_col]

    cuda.syncthreads()

    t_col = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.x
    t_row = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.y
    if t_row < transposed.shape[0] and t_col < transposed.shape[1]:
        transposed[t_row, t_col] = tile[cuda.threadIdx.x, cuda.threadIdx.y]


def test_naive_transpose(target):
    a = np.arange(1000 * 700, dtype=np.int32).reshape(1000, 700)
    d_t = cuda.device_array((700, 1000), dtype=np.int32)
    transpose_naive[(63, 44), (TPB, TPB)](cuda.to_device(a), d_t)
    np.testing.assert_array_equal(d_t.copy_to_host(), a.T)


def _tiled_transpose(kernel, shape):
    a = np.arange(shape[0] * shape[1], dtype=np.int32).reshape(shape)
    d_t = cuda.device_array((shape[1], shape[0]), dtype=np.int32)
    blocks = ((shape[1] + TILE - 1) // TILE, (shape[0] + TILE - 1) // TILE)  # x over a's columns
    kernel[blocks, (TILE, TILE)](cuda.to_device(a), d_t)
    np.testing.assert_array_equal(d_t.copy_to_host(), a.T)


@pytest.mark.parametrize("shape", [(128, 96), (100, 70)])
def test_tiled_transpose_shared_memory(target, shape):
    _tiled_transpose(tile_transpose, shape)


@pytest.mark.parametrize("shape", [(128, 96), (100, 70)])
def test_tiled_transpose_padded_shared_memory(target, shape):
    # cujit folds TILE + 1 in the shape; numba-cuda 0.30 refuses it ("No implementation of
    # function ... shared.array ... array(Tuple(Literal[int](32), int64), class(int32))"), so
    # Numba code writes (32, 33) or a global such as TILE_PADDED (the next test).
    _tiled_transpose(tile_transpose_conflict_free, shape)


def test_tiled_transpose_padded_with_a_global_width(target):
    _tiled_transpose(tile_transpose_padded_global, (100, 70))


# -- (g) block sum reduction ---------------------------------------------------------------------


@cuda.jit
def block_sum(x, partials):
    s = cuda.shared.array(RED_TPB, dtype=float64)
    t = cuda.threadIdx.x

    # Each thread first adds up its grid-stride share, so few blocks cover any n.
    acc = 0.0
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        acc += x[i]
    s[t] = acc
    cuda.syncthreads()

    # Tree in shared memory: halve the active threads each step.
    step = RED_TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2

    if t == 0:
        partials[cuda.blockIdx.x] = s[0]


@cuda.jit
def block_sum_one_per_thread(x, partials):
    s = cuda.shared.array(RED_TPB, dtype=int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.shape[0]:
        s[t] = x[i]
    else:
        s[t] = 0
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        partials[cuda.blockIdx.x] = s[0]


def test_block_sum_reduction_grid_stride(target):
    x = np.random.rand(100_000)
    blocks = 40
    d_partials = cuda.device_array(blocks, dtype=np.float64)
    block_sum[blocks, RED_TPB](cuda.to_device(x), d_partials)
    partials = d_partials.copy_to_host()
    np.testing.assert_allclose(partials.sum(), x.sum(), rtol=1e-12)


def test_block_sum_reduction_one_element_per_thread(target):
    x = np.random.randint(-1000, 1000, 10_000).astype(np.int32)
    blocks = (x.size + RED_TPB - 1) // RED_TPB  # 79 blocks, the last one partial
    partials = np.zeros(blocks, dtype=np.int32)
    block_sum_one_per_thread[blocks, RED_TPB](x, partials)
    np.testing.assert_array_equal(partials, np.add.reduceat(x, np.arange(0, x.size, RED_TPB)))
    assert partials.sum() == x.sum()
