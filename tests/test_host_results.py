"""New host arrays for large results (src/runtime/host_blocks.*, src/bindings/host_results.cpp):
copy_to_host() without ary=, a CUDA ufunc's host result and np.asarray of a device array get
their data from mapped, faulted-in blocks that are cached for reuse when the array dies. The tests
lower the threshold (_core._set_host_block_config) so arrays of a few MiB take the path, and check
that the arrays are ordinary NumPy arrays owning their data, hold the right values, reuse blocks,
and that repeated calls hold no more memory than the cache allows."""
import gc

import numpy as np
import pytest

from cujit import _core, cuda, vectorize

MIB = 1 << 20


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def add(a, b):
    return a + b


@pytest.fixture
def small_blocks(target):
    was = _core._host_block_config()
    _core._trim_host_blocks()
    _core._set_host_block_config(**dict(was, min_bytes=MIB, cache_bytes=16 * MIB, pinned_min_bytes=MIB,
                                        pinned_cache_bytes=8 * MIB))
    try:
        yield target
    finally:
        gc.collect()
        _core._set_host_block_config(**was)
        _core._trim_host_blocks()


def stats():
    return _core._host_block_stats()


def delta(before):
    now = stats()
    return {k: now[k] - before[k] for k in ("fresh", "reused", "unmapped")}


def test_defaults_start_at_32_mib():
    c = _core._host_block_config()
    assert c["min_bytes"] == 32 * MIB
    assert 0 < c["cache_bytes"] <= 2 << 30
    assert c["populate"] is True
    assert c["pinned_min_bytes"] == MIB and 0 < c["pinned_cache_bytes"] <= 256 * MIB


def test_copy_to_host_result_owns_its_block_and_reuses_it(small_blocks):
    h = np.arange(3 * MIB // 4, dtype=np.float32)  # 3 MiB
    d = cuda.to_device(h)
    before = stats()
    r = d.copy_to_host()
    assert delta(before) == {"fresh": 1, "reused": 0, "unmapped": 0}
    assert stats()["live"] == 1
    assert r.flags.owndata and r.base is None and r.flags.c_contiguous and r.flags.writeable
    assert r.dtype == np.float32 and r.shape == h.shape
    np.testing.assert_array_equal(r, h)
    del r
    assert stats()["live"] == 0 and stats()["cached"] == 1
    before = stats()
    r2 = d.copy_to_host()
    assert delta(before) == {"fresh": 0, "reused": 1, "unmapped": 0}
    np.testing.assert_array_equal(r2, h)


def test_results_below_the_threshold_and_with_the_path_off_are_plain(small_blocks):
    h = np.arange(1000, dtype=np.float64)
    d = cuda.to_device(h)
    before = stats()
    r = d.copy_to_host()
    np.testing.assert_array_equal(r, h)
    big = cuda.to_device(np.ones(MIB, dtype=np.float32))
    _core._set_host_block_config(**dict(_core._host_block_config(), min_bytes=0))
    r2 = big.copy_to_host()
    np.testing.assert_array_equal(r2, 1.0)
    assert delta(before) == {"fresh": 0, "reused": 0, "unmapped": 0}


def test_fortran_order_and_odd_sizes(small_blocks):
    h = np.asfortranarray(np.arange(1023 * 517, dtype=np.float64).reshape(1023, 517))  # ~4.03 MiB
    d = cuda.to_device(h)
    before = stats()
    r = d.copy_to_host()
    assert delta(before)["fresh"] + delta(before)["reused"] == 1
    assert r.flags.f_contiguous and not r.flags.c_contiguous and r.flags.owndata
    np.testing.assert_array_equal(r, h)
    # A record dtype goes the same way.
    rec = np.zeros(300_001, dtype=[("a", np.int32), ("b", np.float64)])
    rec["a"] = np.arange(rec.size)
    rec["b"] = rec["a"] * 0.5
    rr = cuda.to_device(rec).copy_to_host()
    assert rr.dtype == rec.dtype
    np.testing.assert_array_equal(rr, rec)


def test_strided_device_view_copies_into_a_block(small_blocks):
    h = np.arange(4 * MIB // 4, dtype=np.float32).reshape(1024, 1024)
    d = cuda.to_device(h)
    r = d[:, ::2].copy_to_host()
    np.testing.assert_array_equal(r, h[:, ::2])


def test_ufunc_host_result_comes_from_a_block(small_blocks):
    a = np.linspace(0, 1, 2 * MIB // 8 + 7)  # float64, just over 2 MiB, an odd length
    b = np.linspace(1, 2, a.size)
    before = stats()
    r = add(a, b)
    assert delta(before)["fresh"] + delta(before)["reused"] >= 1
    assert r.flags.owndata and r.base is None
    np.testing.assert_array_equal(r, a + b)


def test_resize_and_pickle_of_a_block_array(small_blocks):
    import pickle
    h = np.arange(MIB // 2, dtype=np.float32)  # 2 MiB
    r = cuda.to_device(h).copy_to_host()
    assert stats()["live"] == 1
    r.resize(3 * MIB // 4, refcheck=False)  # NumPy reallocates through the array's own handler
    np.testing.assert_array_equal(r[:h.size], h)
    r[h.size:] = 7
    assert stats()["live"] == 1
    r.resize(10, refcheck=False)  # now below the threshold: malloc'd, the block released
    np.testing.assert_array_equal(r, h[:10])
    assert stats()["live"] == 0
    s = cuda.to_device(h).copy_to_host()
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(s)), h)


def test_a_block_of_a_different_size_is_not_reused_wastefully(small_blocks):
    d_big = cuda.to_device(np.ones(8 * MIB // 4, dtype=np.float32))    # 8 MiB
    d_small = cuda.to_device(np.ones(2 * MIB // 4, dtype=np.float32))  # 2 MiB
    del_big = d_big.copy_to_host()
    del del_big
    before = stats()
    r = d_small.copy_to_host()  # the cached 8 MiB block would waste three quarters
    assert delta(before) == {"fresh": 1, "reused": 0, "unmapped": 0}
    np.testing.assert_array_equal(r, 1.0)


def test_the_cache_stays_within_its_bytes_and_memory_stays_flat(small_blocks):
    d = cuda.to_device(np.full(5 * MIB // 4, 3, dtype=np.float32))  # 5 MiB results: 6 MiB blocks
    results = [d.copy_to_host() for _ in range(4)]
    assert stats()["live"] == 4
    del results
    s = stats()
    assert s["live"] == 0 and s["cached_bytes"] <= 16 * MIB and s["cached"] == 2
    assert s["unmapped"] >= 2
    before = stats()
    for _ in range(50):
        r = d.copy_to_host()
        assert r[0] == 3 and r[-1] == 3
        del r
    dd = delta(before)
    assert dd["fresh"] == 0 and dd["reused"] == 50
    assert stats()["live"] == 0 and stats()["cached_bytes"] <= 16 * MIB


def test_trim_gives_every_cached_block_back(small_blocks):
    r = cuda.to_device(np.ones(MIB, dtype=np.float32)).copy_to_host()
    del r
    assert stats()["cached"] >= 1
    _core._trim_host_blocks()
    assert stats()["cached"] == 0 and stats()["cached_bytes"] == 0


def test_a_failing_copy_leaves_no_live_block(small_blocks):
    d = cuda.to_device(np.ones(MIB, dtype=np.float32))
    with pytest.raises(ValueError):
        d.copy_to_host(np.empty(3, dtype=np.float32))
    gc.collect()
    assert stats()["live"] == 0


@pytest.fixture
def pinned_results(small_blocks):
    """The ufunc host path on the simulator too, with chunks small enough to split a few MiB."""
    was = _core._ufunc_host_path_config()
    _core._set_ufunc_host_path_config(small_max=4096, split_min=0, split_max=1 << 62, first_chunk=300_000,
                                      max_chunk=1 << 20, gpu=True, simulator=True)
    try:
        yield small_blocks
    finally:
        _core._set_ufunc_host_path_config(**was)


@pytest.mark.parametrize("n", [MIB // 4, MIB // 4 + 13, 3 * MIB // 4 - 1])
def test_split_ufunc_results_are_pinned_blocks_written_directly(pinned_results, n):
    rng = np.random.default_rng(n)
    a, b = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
    before_p = _core._ufunc_host_path_stats()
    before = stats()
    r = add(a, b)
    after_p = _core._ufunc_host_path_stats()
    assert after_p["split_calls"] - before_p["split_calls"] == 1
    assert after_p["direct_out_calls"] - before_p["direct_out_calls"] == 1
    assert stats()["live_pinned"] == 1
    assert delta(before)["fresh"] + delta(before)["reused"] == 1
    assert r.flags.owndata and r.base is None
    np.testing.assert_array_equal(r, a + b)
    del r
    assert stats()["live_pinned"] == 0
    # Reused for the next result of that size, and written whole again.
    before = stats()
    r2 = add(b, b)
    assert delta(before) == {"fresh": 0, "reused": 1, "unmapped": 0}
    np.testing.assert_array_equal(r2, b + b)


def test_small_and_unsplit_ufunc_results_are_not_pinned(pinned_results):
    before_p = _core._ufunc_host_path_stats()
    a = np.arange(1000, dtype=np.float32)  # 8 KB staged: one chunk
    np.testing.assert_array_equal(add(a, a), a + a)
    big = np.ones(MIB // 8, dtype=np.float64)  # split, a result of exactly 1 MiB: pinned
    np.testing.assert_array_equal(add(big, big), 2.0)
    small = np.ones(MIB // 8 - 1, dtype=np.float64)  # split, result just under 1 MiB: plain
    np.testing.assert_array_equal(add(small, small), 2.0)
    d = {k: _core._ufunc_host_path_stats()[k] - before_p[k] for k in before_p}
    assert d["calls"] == 3 and d["direct_out_calls"] == 1


def test_pinned_blocks_are_not_handed_out_as_pageable_ones(pinned_results):
    a = np.ones(MIB // 2, dtype=np.float32)  # 2 MiB result
    r = add(a, a)
    del r
    assert stats()["cached"] == 1
    before = stats()
    c = cuda.to_device(np.ones(MIB // 2, dtype=np.float32)).copy_to_host()  # 2 MiB, pageable
    assert delta(before) == {"fresh": 1, "reused": 0, "unmapped": 0}
    assert stats()["live_pinned"] == 0
    np.testing.assert_array_equal(c, 1.0)


def test_pinned_cache_stays_within_its_bytes(pinned_results):
    a = np.ones(3 * MIB // 4, dtype=np.float32)  # 3 MiB results: 4 MiB blocks, 8 MiB of pinned cache
    rs = [add(a, a) for _ in range(4)]
    assert stats()["live_pinned"] == 4
    del rs
    s = stats()
    assert s["live_pinned"] == 0 and s["cached"] == 2 and s["unmapped"] >= 2


@pytest.mark.gpu
def test_gpu_pinned_result_keeps_pageable_copy_semantics():
    """On the GPU a split call's result is page-locked for the pipeline's DMA, yet copies of it
    complete before they return (it is not in the pinned registry), cuda.pinned/cuda.mapped
    accept it, and the values equal NumPy's."""
    was = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        x = np.random.default_rng(0).uniform(-3, 3, 1_000_000).astype(np.float32)
        before = _core._ufunc_host_path_stats()
        r = add(x, x)
        assert _core._ufunc_host_path_stats()["direct_out_calls"] - before["direct_out_calls"] == 1
        np.testing.assert_array_equal(r, x + x)
        s = cuda.stream()
        d = cuda.to_device(r, stream=s)
        r[:] = -1  # the copy was complete when to_device returned
        np.testing.assert_array_equal(d.copy_to_host(), x + x)
        with cuda.pinned(r):
            d.copy_to_host(r)
        np.testing.assert_array_equal(r, x + x)
        with cuda.mapped(r) as m:
            assert m.shape == r.shape
    finally:
        _core.set_simulator(was)
