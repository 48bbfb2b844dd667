"""cuda.local.array, cuda.shared.array (static shapes) and cuda.atomic add/sub/max/min/exch, with
scalar and tuple indices, returning the old value, on the simulator and the GPU."""
import numpy as np
import pytest

from cujit import cuda, float32, int32

N_BINS = 8


@cuda.jit
def local_prefix(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        tmp = cuda.local.array(4, dtype=float32)
        acc = 0.0
        for k in range(4):
            acc += a[i, k]
            tmp[k] = acc
        for k in range(4):
            out[i, k] = tmp[k]


def test_local_array(target):
    a = np.random.rand(50, 4).astype(np.float32)
    out = np.zeros_like(a)
    local_prefix[2, 32](a, out)
    np.testing.assert_allclose(out, np.cumsum(a, axis=1), rtol=1e-6)


@cuda.jit
def local_2d(out):
    i = cuda.grid(1)
    m = cuda.local.array(shape=(2, 3), dtype=np.int64)
    for r in range(2):
        for c in range(3):
            m[r, c] = r * 10 + c + i
    if i < out.shape[0]:
        out[i] = m[1, 2] + m[0, 0]


def test_local_array_2d_with_keywords_and_numpy_dtype(target):
    out = np.zeros(40, dtype=np.int64)
    local_2d[1, 64](out)
    np.testing.assert_array_equal(out, 12 + 2 * np.arange(40))


@cuda.jit
def histogram(x, bins):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(bins, x[i] % N_BINS, 1)


def test_atomic_add_histogram(target):
    x = np.random.randint(0, 1000, 100000).astype(np.int32)
    bins = np.zeros(N_BINS, dtype=np.int32)
    histogram[(x.size + 255) // 256, 256](x, bins)
    np.testing.assert_array_equal(bins, np.bincount(x % N_BINS, minlength=N_BINS))


@cuda.jit
def atomics_all(fa, ia, old):
    i = cuda.grid(1)
    if i < old.shape[0]:
        cuda.atomic.add(fa, 0, 1.0)
        cuda.atomic.sub(ia, (0, 0), 2)
        cuda.atomic.max(fa, 1, i * 1.0)
        cuda.atomic.min(ia, (0, 1), -i)
        old[i] = cuda.atomic.exch(ia, (1, 0), i)


@pytest.mark.parametrize("ft,it", [(np.float32, np.int32), (np.float64, np.int64), (np.float32, np.uint32)])
def test_atomic_operations(target, ft, it):
    n = 1000
    fa = np.zeros(2, dtype=ft)
    ia = np.zeros((2, 2), dtype=it)
    ia[0, 0] = 5000
    ia[1, 0] = 7
    old = np.zeros(n, dtype=it)
    atomics_all[4, 256](fa, ia, old)
    assert fa[0] == n and fa[1] == n - 1
    assert ia[0, 0] == 5000 - 2 * n
    if it != np.uint32:
        assert ia[0, 1] == -(n - 1)
    # exch: every thread's value went in once; the old values are the initial 7 and all but one i
    got = sorted(list(old) + [ia[1, 0]])
    assert got == sorted(list(range(n)) + [7])


@cuda.jit
def shared_reverse(a, out):
    s = cuda.shared.array(128, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncthreads()
    out[t] = s[127 - t]


def test_shared_array_with_barrier(target):
    a = np.arange(128, dtype=np.float32)
    out = np.zeros_like(a)
    shared_reverse[1, 128](a, out)
    np.testing.assert_array_equal(out, a[::-1])


@cuda.jit
def shared_counter(out):
    s = cuda.shared.array(1, dtype=int32)
    if cuda.threadIdx.x == 0:
        s[0] = 0
    cuda.atomic.add(s, 0, 1)
    out[cuda.blockIdx.x] = s[0]


def test_shared_array_is_per_block(target):
    # Without a barrier the last thread of each block sees the whole block's count on the
    # simulator (threads of a kernel without barriers run in order); on the GPU at most that.
    out = np.zeros(4, dtype=np.int32)
    shared_counter[4, 32](out)
    assert (out >= 1).all() and (out <= 32).all()
    if target == "sim":
        assert (out == 32).all()


@cuda.jit
def more_atomics(bits, u, f, old):
    i = cuda.grid(1)
    if i < 64:
        cuda.atomic.or_(bits, 0, 1 << (i % 32))
        cuda.atomic.and_(bits, 1, ~(1 << (i % 32)))
        cuda.atomic.xor(bits, 2, 1 << (i % 32))
        cuda.atomic.inc(u, 0, 9)
        cuda.atomic.dec(u, 1, 100)
        cuda.atomic.nanmax(f, 0, f[1 + i % 2])
        # A ticket lock: thread i waits until the counter is i, then moves it on (the GPU's
        # independent thread scheduling lets the waiting threads of a warp spin).
        got = cuda.atomic.cas(u, 2, i, i + 1)
        while got != i:
            got = cuda.atomic.cas(u, 2, i, i + 1)
        old[i] = got
        cuda.atomic.compare_and_swap(u[3:], 0, 1)


def test_bit_inc_dec_nan_and_cas_atomics(target):
    bits = np.array([0, -1, 0], dtype=np.int64)
    u = np.array([0, 0, 0, 0], dtype=np.uint32)
    f = np.array([np.nan, np.nan, 2.5], dtype=np.float64)
    old = np.zeros(64, dtype=np.uint32)
    more_atomics[1, 64](bits, u, f, old)
    assert bits[0] == 0xFFFFFFFF and bits[1] == -1 - 0xFFFFFFFF and bits[2] == 0
    assert u[0] == 64 % 10  # inc wraps to 0 after 9
    assert u[1] == 100 - 63  # 0 -> 100 (wrap), then 63 decrements
    assert f[0] == 2.5  # NaNs ignored
    assert u[2] == 64 and list(old) == list(range(64))  # each thread's cas succeeded once, in turn
    assert u[3] == 1


def test_atomic_type_errors(target):
    import cujit.errors

    @cuda.jit
    def bad(a):
        cuda.atomic.inc(a, 0, 1)

    with pytest.raises(cujit.errors.TypingError, match="does not support arrays of int32"):
        bad[1, 1](np.zeros(2, dtype=np.int32))


@cuda.jit
def dynamic_shared_reverse(a, out):
    s = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncthreads()
    out[t] = s[s.shape[0] - 1 - t]


def test_dynamic_shared_memory_sized_by_the_launch(target):
    a = np.arange(64, dtype=np.float32)
    out = np.zeros_like(a)
    dynamic_shared_reverse[1, 64, 0, 64 * 4](a, out)
    np.testing.assert_array_equal(out, a[::-1])


def test_too_much_dynamic_shared_memory_is_refused_before_launch(target):
    # The simulator holds launches to an H100's opt-in limit (227 KiB), so both targets refuse.
    a = np.zeros(64, dtype=np.float32)
    with pytest.raises(ValueError, match="bytes of dynamic shared memory"):
        dynamic_shared_reverse[1, 64, 0, 1 << 30](a, a.copy())


WEIGHTS = np.array([[0.5, 1.5, -2.0], [3.25, 0.0, 1.0]], dtype=np.float32)
OFFSETS = np.arange(3, dtype=np.int16) - 1


@cuda.jit
def apply_const(x, out):
    i = cuda.grid(1)
    w = cuda.const.array_like(WEIGHTS)
    if i < out.shape[0]:
        acc = 0.0
        for r in range(w.shape[0]):
            for c in range(w.shape[1]):
                acc += w[r, c] * x[i] + OFFSETS[c]
        out[i] = acc


def test_const_array_like_and_global_arrays(target):
    x = np.arange(10, dtype=np.float32)
    out = np.zeros(10, dtype=np.float64)
    apply_const[1, 32](x, out)
    np.testing.assert_allclose(out, WEIGHTS.sum() * x + 2 * OFFSETS.sum(), rtol=1e-6)


@cuda.jit
def write_const(out):
    OFFSETS[0] = 1


def test_global_arrays_are_read_only(target):
    import cujit.errors
    with pytest.raises(cujit.errors.TypingError, match="Cannot modify readonly array of type: readonly array"):
        write_const[1, 1](np.zeros(1))
