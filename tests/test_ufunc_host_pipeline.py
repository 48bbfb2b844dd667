"""The staged host path of CUDA ufunc calls (src/runtime/ufunc_pipeline.*, src/bindings/ufunc_host.cpp):
host inputs packed into a staging buffer and moved by one copy per chunk, large element-wise calls
split into pipelined chunks. The tests shrink the chunks (_core._set_ufunc_host_path_config) so
small arrays split into many, uneven chunks, and turn the path on for the simulator, which then
runs the same chunk arithmetic as the GPU with plain copies. Every result is checked against
NumPy's, and _core._ufunc_host_path_stats() shows which path each call took."""
import threading

import numpy as np
import pytest

from cujit import _core, cuda, vectorize

# Small enough that arrays of a few hundred elements split; the layout pads each staged piece to
# 256 bytes, so a chunk of three operands needs 768 bytes of padding room.
SPLIT_MIN = 24 * 64  # float64 add (3 x 8 bytes per element): 64 elements is the largest one-chunk call
FIRST_CHUNK = 100
MAX_CHUNK = 4096
ALIGN = 256


@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int32(int32, int32)',
            'int64(int64, int64)'], target='cuda')
def add(a, b):
    return a + b


@vectorize(['float64(int32, float32)'], target='cuda')
def mixed(i, x):  # operands of three sizes: 4, 4 and 8 bytes
    return i * 2 + x


@vectorize(['float32(float32)'], target='cuda')
def halve(x):
    return x / 2


@pytest.fixture
def small_chunks(target):
    was = _core._ufunc_host_path_config()
    _core._set_ufunc_host_path_config(small_max=SPLIT_MIN, split_min=0, split_max=1 << 62, first_chunk=FIRST_CHUNK, max_chunk=MAX_CHUNK,
                                      gpu=True, simulator=True)
    try:
        yield target
    finally:
        _core._set_ufunc_host_path_config(**was)


def stats():
    return _core._ufunc_host_path_stats()


def delta(before):
    now = stats()
    return {k: now[k] - before[k] for k in now}


def expected_chunks(n, per_element, padding):
    """The schedule ufunc_pipeline.h describes: the first chunk holds FIRST_CHUNK staged bytes,
    each next one twice as many, up to what MAX_CHUNK holds after the padding."""
    max_len = (MAX_CHUNK - padding) // per_element
    length = max(1, min(FIRST_CHUNK // per_element, max_len))
    chunks, begin = 0, 0
    while begin < n:
        begin += length
        chunks += 1
        length = min(max_len, length * 2)
    return chunks


def pieces_span(n, itemsizes):
    return sum((n * s + ALIGN - 1) // ALIGN * ALIGN for s in itemsizes)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("n", [1, 63, 64, 65, 1000, 4099])
def test_results_equal_numpy_below_at_and_above_the_split_threshold(small_chunks, dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.random(n) * 1000).astype(dtype)
    b = (rng.random(n) * 1000).astype(dtype)
    before = stats()
    got = add(a, b)
    d = delta(before)
    assert isinstance(got, np.ndarray) and got.dtype == dtype
    np.testing.assert_array_equal(got, a + b)
    assert d["calls"] == 1
    size = np.dtype(dtype).itemsize
    split = pieces_span(n, [size] * 3) > SPLIT_MIN
    assert d["split_calls"] == int(split)
    if split:
        assert d["chunks"] == expected_chunks(n, 3 * size, 3 * ALIGN)
    else:
        assert d["chunks"] == 1


def test_calls_between_or_past_the_ranges_take_the_general_path(small_chunks):
    cfg = _core._ufunc_host_path_config()
    # float64 add stages 3 pieces of 8n bytes, each padded to 256: 20 elements 768 bytes (one
    # chunk), 100 elements 3072 (between the ranges), 200 elements 5376 (split), 1000 24576 (past).
    _core._set_ufunc_host_path_config(**dict(cfg, small_max=1024, split_min=4096, split_max=8192))
    try:
        for n, calls, split in [(20, 1, 0), (100, 0, 0), (200, 1, 1), (1000, 0, 0)]:
            a = np.arange(n, dtype=np.float64)
            before = stats()
            np.testing.assert_array_equal(add(a, a), a + a)
            d = delta(before)
            assert (d["calls"], d["split_calls"]) == (calls, split), n
    finally:
        _core._set_ufunc_host_path_config(**cfg)


def test_threshold_is_the_staged_span(small_chunks):
    # float64 add: 64 elements stage 3 x 512 bytes, exactly SPLIT_MIN: one chunk; 65 split.
    for n, split in [(63, 0), (64, 0), (65, 1)]:
        before = stats()
        a = np.arange(n, dtype=np.float64)
        np.testing.assert_array_equal(add(a, a), a + a)
        assert delta(before)["split_calls"] == split, n


def test_operands_of_different_sizes_split_exactly(small_chunks):
    n = 777
    i = np.arange(n, dtype=np.int32) - 300
    x = np.linspace(-1, 1, n, dtype=np.float32)
    before = stats()
    got = mixed(i, x)
    d = delta(before)
    assert d["split_calls"] == 1 and d["chunks"] == expected_chunks(n, 16, 3 * ALIGN)
    np.testing.assert_array_equal(got, i.astype(np.float64) * 2 + x.astype(np.float64))


def test_two_dimensional_arrays_split(small_chunks):
    a = np.arange(37 * 29, dtype=np.float32).reshape(37, 29)
    b = np.ones((37, 29), dtype=np.float32)
    before = stats()
    got = add(a, b)
    assert delta(before)["split_calls"] == 1
    assert got.shape == (37, 29)
    np.testing.assert_array_equal(got, a + b)


@pytest.mark.parametrize("n", [10, 500])
def test_scalars_with_arrays(small_chunks, n):
    a = np.arange(n, dtype=np.int64)
    f = np.arange(n, dtype=np.float32)
    before = stats()
    np.testing.assert_array_equal(add(a, 7), a + 7)
    np.testing.assert_array_equal(add(-3, a), a - 3)
    np.testing.assert_array_equal(add(f, np.float32(0.25)), f + np.float32(0.25))
    np.testing.assert_array_equal(add(np.float32(2), f), f + np.float32(2))
    np.testing.assert_array_equal(add(a, np.array(5, dtype=np.int64)), a + 5)  # a 0-d array is a scalar
    assert delta(before)["calls"] == 5
    np.testing.assert_array_equal(halve(f), f / 2)


def test_scalars_only(small_chunks):
    got = add(np.float64(1.5), np.float64(2.25))
    np.testing.assert_array_equal(got, np.array([3.75]))


@pytest.mark.parametrize("n", [40, 1000])
def test_host_out(small_chunks, n):
    a = np.arange(n, dtype=np.float64)
    b = np.full(n, 0.5)
    out = np.full(n, -1.0)
    before = stats()
    r = add(a, b, out=out)
    assert r is out and delta(before)["calls"] == 1
    np.testing.assert_array_equal(out, a + b)
    positional = np.empty(n)
    assert add(a, b, positional) is positional
    np.testing.assert_array_equal(positional, a + b)


def test_out_may_be_an_input(small_chunks):
    a = np.arange(1000, dtype=np.float64)
    want = a + a * 3
    b = a * 3
    before = stats()
    add(a, b, out=a)
    assert delta(before)["split_calls"] == 1
    np.testing.assert_array_equal(a, want)


def test_out_overlapping_an_input_elsewhere_takes_the_general_path(small_chunks):
    a = np.arange(1001, dtype=np.float64)
    b = np.ones(1000)
    before = stats()
    add(a[:-1], b, out=a[1:])
    assert delta(before)["calls"] == 0
    if small_chunks == "gpu":  # the GPU copies the inputs over first, as NumPy's overlap rule wants
        np.testing.assert_array_equal(a, np.concatenate([[0.0], np.arange(1000) + 1.0]))


def test_non_contiguous_out_takes_the_general_path(small_chunks):
    a = np.arange(300, dtype=np.float32)
    base = np.zeros(600, dtype=np.float32)
    out = base[::2]
    before = stats()
    assert add(a, a, out=out) is out
    assert delta(before)["calls"] == 0
    np.testing.assert_array_equal(out, a + a)
    np.testing.assert_array_equal(base[1::2], 0)


def test_non_contiguous_input_takes_the_general_path(small_chunks):
    a = np.arange(600, dtype=np.float32)[::2]
    before = stats()
    np.testing.assert_array_equal(add(a, a), a + a)
    assert delta(before)["calls"] == 0


def test_read_only_input(small_chunks):
    a = np.arange(1000, dtype=np.int64)
    a.flags.writeable = False
    before = stats()
    np.testing.assert_array_equal(add(a, a), a + a)
    assert delta(before)["split_calls"] == 1


def test_read_only_out_is_refused(small_chunks):
    a = np.arange(10, dtype=np.int64)
    out = np.zeros(10, dtype=np.int64)
    out.flags.writeable = False
    with pytest.raises(ValueError):
        add(a, a, out=out)


@pytest.mark.parametrize("n", [50, 1000])
def test_device_and_host_operands(small_chunks, n):
    a = np.arange(n, dtype=np.float64)
    b = np.linspace(0, 1, n)
    d_b = cuda.to_device(b)
    before = stats()
    r = add(a, d_b)  # a device input makes the result a device array
    assert cuda.is_cuda_array(r) and not isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r.copy_to_host(), a + b)
    out = np.empty(n)
    assert add(d_b, a, out=out) is out
    np.testing.assert_array_equal(out, b + a)
    d_out = cuda.device_array(n)
    assert add(a, b, out=d_out) is d_out
    np.testing.assert_array_equal(d_out.copy_to_host(), a + b)
    d = delta(before)
    assert d["calls"] == 3 and d["split_calls"] == (3 if n == 1000 else 0)


def test_strided_device_operand(small_chunks):
    a = np.arange(20, dtype=np.float64)
    d = cuda.to_device(np.arange(40, dtype=np.float64))[::2]
    before = stats()
    np.testing.assert_array_equal(add(a, d).copy_to_host(), a + np.arange(0, 40, 2))
    assert delta(before)["calls"] == 1  # small: one chunk, the device view read with its strides
    big = np.arange(1000, dtype=np.float64)
    d_big = cuda.to_device(np.arange(2000, dtype=np.float64))[::2]
    before = stats()
    np.testing.assert_array_equal(add(big, d_big).copy_to_host(), big + np.arange(0, 2000, 2))
    assert delta(before)["calls"] == 0  # cannot split: the general path


def test_broadcasting_in_one_chunk(small_chunks):
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    row = np.arange(4, dtype=np.float64)
    col = np.arange(3, dtype=np.float64).reshape(3, 1)
    before = stats()
    np.testing.assert_array_equal(add(m, row), m + row)
    np.testing.assert_array_equal(add(col, row), col + row)
    d = delta(before)
    assert d["calls"] == 2 and d["split_calls"] == 0


def test_broadcasting_past_one_chunk_takes_the_general_path(small_chunks):
    m = np.arange(600, dtype=np.float64).reshape(30, 20)
    row = np.arange(20, dtype=np.float64)
    before = stats()
    np.testing.assert_array_equal(add(m, row), m + row)
    assert delta(before)["calls"] == 0


def test_empty_arrays(small_chunks):
    a = np.zeros(0, dtype=np.float32)
    got = add(a, a)
    assert got.shape == (0,) and got.dtype == np.float32


def test_stream_argument(small_chunks):
    a = np.arange(1000, dtype=np.float32)
    s = cuda.stream()
    np.testing.assert_array_equal(add(a, a, stream=s), a + a)
    s.synchronize()


def test_threads_share_the_staging_set(small_chunks):
    # On the GPU one thread at a time holds the staging set; the others take the general path.
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        for n in (30, 700, 3000):
            a, b = rng.random(n), rng.random(n)
            if not np.array_equal(add(a, b), a + b):
                errors.append((seed, n))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_many_threads_with_split_host_results(small_chunks):
    # Split calls with host results (and host out=) from several threads at once: on the GPU one
    # holds the staging set and the others take the general path; every result is whole.
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        for n in (700, 3001, 4099, 1):
            a, b = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
            out = np.full(n, -1, dtype=np.float32)
            add(a, b, out=out)
            if not (np.array_equal(add(a, b), a + b) and np.array_equal(out, a + b)):
                errors.append((seed, n))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.parametrize("chunk", [0, 1, 5])
def test_a_failure_while_draining_leaves_the_next_call_working(small_chunks, chunk):
    n = 1000  # float32 add: 12 bytes per element, 8 uneven chunks
    assert expected_chunks(n, 12, 3 * ALIGN) > 5
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, dtype=np.float32)
    before = stats()
    _core._set_ufunc_host_path_drain_failure(chunk)
    try:
        with pytest.raises(RuntimeError, match="injected failure draining chunk %d" % chunk):
            add(a, b)
    finally:
        _core._set_ufunc_host_path_drain_failure(-1)
    for _ in range(3):
        np.testing.assert_array_equal(add(a, b), a + b)
    d = delta(before)
    assert d["calls"] == 3 and d["split_calls"] == 3


def test_simulator_reads_host_arrays_in_place_by_default(target):
    assert _core._ufunc_host_path_config()["simulator"] is False
    a = np.arange(1000, dtype=np.float64)  # 24 KB staged: one chunk on the GPU
    before = stats()
    np.testing.assert_array_equal(add(a, a), a + a)
    d = delta(before)
    assert d["calls"] == (1 if target == "gpu" else 0)


def test_settings_are_checked():
    was = _core._ufunc_host_path_config()
    try:
        with pytest.raises(ValueError, match="first_chunk exceeds max_chunk"):
            _core._set_ufunc_host_path_config(small_max=0, split_min=0, split_max=1 << 62, first_chunk=2048, max_chunk=1024, gpu=True, simulator=False)
        with pytest.raises(ValueError, match="staging buffer size"):
            _core._set_ufunc_host_path_config(small_max=0, split_min=0, split_max=1 << 62, first_chunk=1, max_chunk=1 << 30, gpu=True, simulator=False)
        with pytest.raises(ValueError, match="positive"):
            _core._set_ufunc_host_path_config(small_max=0, split_min=0, split_max=1 << 62, first_chunk=0, max_chunk=1024, gpu=True, simulator=False)
    finally:
        _core._set_ufunc_host_path_config(**was)
    assert _core._ufunc_host_path_config() == was


@pytest.mark.gpu
def test_gpu_large_call_splits_with_default_settings():
    """The defaults on the GPU: a float32 call staging 32 MiB (in the split range) splits into
    chunks of 4 MiB doubling to 16 MiB and equals the general path's result exactly."""
    was = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        x = np.random.default_rng(0).uniform(-3, 3, 4_000_000).astype(np.float32)
        before = stats()
        got = halve(x)
        d = delta(before)
        assert d["split_calls"] == 1 and d["chunks"] >= 3
        cfg = _core._ufunc_host_path_config()
        _core._set_ufunc_host_path_config(**dict(cfg, gpu=False))
        try:
            general = halve(x)
        finally:
            _core._set_ufunc_host_path_config(**cfg)
        np.testing.assert_array_equal(got, general)
        np.testing.assert_array_equal(got, x / np.float32(2))
    finally:
        _core.set_simulator(was)
