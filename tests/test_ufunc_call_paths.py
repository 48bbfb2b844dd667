"""The per-call fast paths of CUDA ufuncs (issue 23):
- the plan (bindings/ufunc.cpp, fuse::repeat): the same call into a device out= again, on the
  same array objects and stream, launches the pending write it stands on without classifying,
  selecting or building a tree; any difference (arrays, dtypes, shapes, out=, stream, other
  pending work, a mutation observed in between) takes the general path. _core._fusion_repeats()
  counts the calls the plan ran.
- the mapped path (runtime/ufunc_mapped.*): a tiny call with a host result reads its host inputs
  from, and writes its result to, mapped pinned memory: one launch, no copies. On the simulator it
  runs only when the tests ask (_set_ufunc_mapped_config(simulator=True)), with the same packing;
  _core._ufunc_mapped_calls() counts the calls it took.
Every result is compared with NumPy's (exactly: the loops are the same), and the plan's with fusion
on and off."""
import gc

import numpy as np
import pytest

from cujit import _core, cuda, vectorize


@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int64(int64, int64)',
            'int32(int32, int32)'], target='cuda')
def add(a, b):
    return a + b


@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int64(int64, int64)'], target='cuda')
def mul(a, b):
    return a * b


@vectorize(['float64(int32, float32)'], target='cuda')
def mixed(i, x):
    return i * 2 + x


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def fma3(a, b, c):
    return a * b + c


def repeats():
    return _core._fusion_repeats()


def vals(n, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.random(n) * 100).astype(dtype)


@pytest.fixture(params=[True, False], ids=["fused", "unfused"])
def fusion(request):
    _core._set_fusion(request.param)
    try:
        yield request.param
    finally:
        _core._set_fusion(True)


# ---- the plan ------------------------------------------------------------------------------------

def test_repeated_call_takes_the_plan_and_is_right(target, fusion):
    a, b = vals(1000, np.float32, 1), vals(1000, np.float32, 2)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.device_array(1000, np.float32)
    before = repeats()
    for _ in range(5):
        r = add(d_a, d_b, out=d_c)
        assert r is d_c
    # The first call records the plan; the next four repeat it (only deferred calls have one).
    assert repeats() - before == (4 if fusion else 0)
    np.testing.assert_array_equal(d_c.copy_to_host(), a + b)
    # The positional out= form and the keyword form are separate plans: both right.
    for _ in range(3):
        add(d_a, d_b, d_c)
    np.testing.assert_array_equal(d_c.copy_to_host(), a + b)


def test_each_repeat_runs_the_previous_write(target):
    # The pending write runs before the next identical call: every call of the loop is done, in
    # order, as on the general path (observable through a mutation of the input between calls).
    a, b = vals(256, np.float64, 3), vals(256, np.float64, 4)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.device_array(256, np.float64)
    want = []
    got = []
    for k in range(4):
        add(d_a, d_b, out=d_c)
        add(d_a, d_b, out=d_c)
        got.append(d_c.copy_to_host())
        want.append(a + b)
        a = a * 2
        d_a.copy_to_device(a)  # observes d_a: the pending write reading it runs first
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_plan_changes_with_arrays_dtypes_shapes_and_out(target):
    before = repeats()
    d32 = [cuda.to_device(vals(64, np.float32, s)) for s in range(3)]
    d64 = [cuda.to_device(vals(64, np.float64, s)) for s in range(2)]
    dint = [cuda.to_device(vals(64, np.int64, s)) for s in range(2)]
    short = [cuda.to_device(vals(32, np.float32, s)) for s in range(2)]
    o32a, o32b = cuda.device_array(64, np.float32), cuda.device_array(64, np.float32)
    o64, oint, oshort = cuda.device_array(64, np.float64), cuda.device_array(64, np.int64), cuda.device_array(32, np.float32)
    calls = [(d32[0], d32[1], o32a), (d32[0], d32[2], o32a), (d32[0], d32[2], o32b), (d64[0], d64[1], o64),
             (dint[0], dint[1], oint), (short[0], short[1], oshort), (d32[1], d32[0], o32a)]
    for x, y, o in calls:  # each differs from the one before: never a repeat
        add(x, y, out=o)
        np.testing.assert_array_equal(o.copy_to_host(), x.copy_to_host() + y.copy_to_host())
    assert repeats() == before
    # The same call twice in a row after a change: the second repeats.
    add(d64[0], d64[1], out=o64)
    add(d64[0], d64[1], out=o64)
    assert repeats() == before + 1
    np.testing.assert_array_equal(o64.copy_to_host(), d64[0].copy_to_host() + d64[1].copy_to_host())


def test_plan_and_streams(target):
    a, b = vals(500, np.float32, 5), vals(500, np.float32, 6)
    s1, s2 = cuda.stream(), cuda.stream()
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.device_array(500, np.float32)
    before = repeats()
    add(d_a, d_b, out=d_c, stream=s1)
    add(d_a, d_b, out=d_c, stream=s1)
    assert repeats() == before + 1
    add(d_a, d_b, out=d_c, stream=s2)  # another stream: the general path
    add(d_a, d_b, out=d_c)             # the default stream: the general path
    assert repeats() == before + 1
    s1.synchronize()
    s2.synchronize()
    cuda.synchronize()
    np.testing.assert_array_equal(d_c.copy_to_host(), a + b)


def test_plan_with_other_pending_work_and_chains(target):
    # Another pending write (a chain reading the planned call's result) makes the plan step
    # aside while it is pending; the chain fused the planned call's tree, and everything is right.
    a, b, w = vals(300, np.float32, 7), vals(300, np.float32, 8), vals(300, np.float32, 9)
    d_a, d_b, d_w = cuda.to_device(a), cuda.to_device(b), cuda.to_device(w)
    d_c = cuda.device_array(300, np.float32)
    before = repeats()
    add(d_a, d_b, out=d_c)
    add(d_a, d_b, out=d_c)
    assert repeats() == before + 1
    t = mul(d_c, d_w)             # takes the pending d_c's tree: mul(add(a, b), w), pending too
    assert _core._fusion_pending() == 2
    add(d_a, d_b, out=d_c)        # two pending writes: the general path
    add(d_a, d_b, out=d_c)
    assert repeats() == before + 1
    r = t.copy_to_host()          # the chain runs; the write into d_c is the only one left
    add(d_a, d_b, out=d_c)
    assert repeats() == before + 2
    np.testing.assert_array_equal(r, (a + b) * w)
    np.testing.assert_array_equal(d_c.copy_to_host(), a + b)


def test_in_place_accumulation_is_not_planned(target, fusion):
    # x = add(x, b, out=x): each call reads what the last wrote; it fuses instead (never a repeat).
    x0, b = vals(128, np.float64, 10), vals(128, np.float64, 11)
    d_x, d_b = cuda.to_device(x0), cuda.to_device(b)
    before = repeats()
    want = x0.copy()
    for _ in range(20):
        add(d_x, d_b, out=d_x)
        want = want + b
    assert repeats() == before
    np.testing.assert_array_equal(d_x.copy_to_host(), want)


def test_freed_arrays_are_not_mistaken_for_new_ones(target):
    before = repeats()
    for k in range(6):
        a, b = vals(200, np.float32, 20 + k), vals(200, np.float32, 40 + k)
        d_a, d_b = cuda.to_device(a), cuda.to_device(b)
        d_c = cuda.device_array(200, np.float32)
        add(d_a, d_b, out=d_c)
        np.testing.assert_array_equal(d_c.copy_to_host(), a + b)
        del d_a, d_b, d_c
        gc.collect()
    assert repeats() == before


def test_plan_with_three_inputs_broadcasting_and_mixed_types(target, fusion):
    a = vals(12, np.float32, 50).reshape(3, 4)
    b = vals(4, np.float32, 51)
    c = vals(1, np.float32, 52).reshape(1, 1)
    d_a, d_b, d_c = cuda.to_device(a), cuda.to_device(b), cuda.to_device(c)
    o = cuda.device_array((3, 4), np.float32)
    for _ in range(3):
        fma3(d_a, d_b, d_c, out=o)
    planned = o.copy_to_host()
    # The same loop as the general path's, bit for bit (the GPU may contract a * b + c into an
    # fma, as numba-cuda's does, so NumPy's float32 arithmetic is only close).
    _core._set_ufunc_plans(False)
    try:
        fma3(d_a, d_b, d_c, out=o)
    finally:
        _core._set_ufunc_plans(True)
    assert planned.tobytes() == o.copy_to_host().tobytes()
    np.testing.assert_allclose(planned, a * b + c, rtol=1e-6)
    i, x = np.arange(10, dtype=np.int32), vals(10, np.float32, 53)
    d_i, d_x = cuda.to_device(i), cuda.to_device(x)
    o64 = cuda.device_array(10, np.float64)
    for _ in range(3):
        mixed(d_i, d_x, out=o64)
    np.testing.assert_array_equal(o64.copy_to_host(), i * 2 + x.astype(np.float64))


def test_plan_refuses_what_the_general_path_refuses(target):
    a = vals(16, np.float32, 60)
    d_a = cuda.to_device(a)
    d_c = cuda.device_array(16, np.float32)
    add(d_a, d_a, out=d_c)
    add(d_a, d_a, out=d_c)
    with pytest.raises(TypeError, match="unexpected keyword"):
        add(d_a, d_a, out=d_c, where=True)
    with pytest.raises(TypeError, match="positional"):
        add(d_a, d_a, d_c, d_c)
    with pytest.raises(ValueError, match="shape"):
        add(d_a, d_a, out=cuda.device_array(8, np.float32))
    add(d_a, d_a, out=d_c)
    np.testing.assert_array_equal(d_c.copy_to_host(), a + a)


# ---- the mapped path ---------------------------------------------------------------------------

@pytest.fixture
def mapped(target):
    """The host path and its mapped path on for the simulator (on the GPU they are on anyway)."""
    was_host = _core._ufunc_host_path_config()
    was = _core._ufunc_mapped_config()
    host = dict(was_host)
    host["simulator"] = True
    _core._set_ufunc_host_path_config(**host)
    _core._set_ufunc_mapped_config(max_bytes=16 << 10, simulator=True)
    try:
        yield target
    finally:
        _core._set_ufunc_mapped_config(**was)
        _core._set_ufunc_host_path_config(**was_host)


def mapped_calls():
    return _core._ufunc_mapped_calls()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("shape", [(1,), (4, 4), (7,), (33, 5)])
def test_mapped_results_equal_numpy(mapped, dtype, shape):
    rng = np.random.default_rng(sum(shape))
    a = (rng.random(shape) * 1000 - 500).astype(dtype)
    b = (rng.random(shape) * 1000 - 500).astype(dtype)
    before = mapped_calls()
    r = add(a, b)
    assert mapped_calls() == before + 1
    assert isinstance(r, np.ndarray) and r.dtype == dtype and r.shape == shape
    np.testing.assert_array_equal(r, a + b)


def test_mapped_broadcasting_scalars_and_out(mapped):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.arange(4, dtype=np.float32) * np.float32(0.5)
    before = mapped_calls()
    np.testing.assert_array_equal(add(a, b), a + b)
    np.testing.assert_array_equal(add(a, np.float32(2.5)), a + np.float32(2.5))
    np.testing.assert_array_equal(add(np.float32(-1), a), a - 1)
    out = np.zeros((3, 4), np.float32)
    r = add(a, b, out=out)
    assert r is out
    np.testing.assert_array_equal(out, a + b)
    i, x = np.arange(9, dtype=np.int32), np.linspace(0, 1, 9, dtype=np.float32)
    np.testing.assert_array_equal(mixed(i, x), i * 2 + x.astype(np.float64))
    # out= over an input at the same elements, as the staged path allows
    c = a.copy()
    add(c, b, out=c)
    np.testing.assert_array_equal(c, a + b)
    assert mapped_calls() == before + 6


def test_mapped_with_a_device_operand_and_a_stream(mapped):
    a = np.arange(16, dtype=np.int64).reshape(4, 4)
    d_b = cuda.to_device(np.full((4, 4), 7, np.int64))
    s = cuda.stream()
    out = np.empty((4, 4), np.int64)
    before = mapped_calls()
    add(a, d_b, out=out, stream=s)  # a host result: mapped, after the stream's earlier work
    assert mapped_calls() == before + 1
    np.testing.assert_array_equal(out, a + 7)
    r = add(a, d_b)  # a device result: the staged path (the loop must not read the buffer later)
    assert mapped_calls() == before + 1
    np.testing.assert_array_equal(r.copy_to_host(), a + 7)


def test_mapped_stream_order_after_a_pending_device_write(mapped):
    # A device input written by earlier (deferred) work: the mapped call reads the written values.
    d_x = cuda.to_device(np.arange(16, dtype=np.float64))
    d_y = cuda.device_array(16, np.float64)
    add(d_x, d_x, out=d_y)
    out = np.empty(16, np.float64)
    add(np.ones(16), d_y, out=out)
    np.testing.assert_array_equal(out, 1 + 2 * np.arange(16.0))


def test_mapped_threshold_and_off(mapped):
    before = mapped_calls()
    big = np.ones(2048, np.float64)  # 3 x 16 KiB staged: past the bound
    np.testing.assert_array_equal(add(big, big), big + big)
    assert mapped_calls() == before
    _core._set_ufunc_mapped_config(max_bytes=0, simulator=True)
    small = np.arange(16, dtype=np.int64)
    np.testing.assert_array_equal(add(small, small), small * 2)
    assert mapped_calls() == before
    with pytest.raises(ValueError, match="staging buffer"):
        _core._set_ufunc_mapped_config(max_bytes=1 << 40, simulator=True)


def test_host_plan_repeats_with_new_data_and_steps_aside(mapped):
    # The host plan: the same call on host arrays of the same dtypes and shapes stages the new
    # data; anything else (dtype, shape, layout, a scalar, a list, out=, stream=) takes the
    # general path. Every result is NumPy's.
    rng = np.random.default_rng(70)
    before = mapped_calls()
    calls = 0
    for k in range(5):
        a = rng.integers(-100, 100, (4, 4)).astype(np.int64)
        b = rng.integers(-100, 100, (4, 4)).astype(np.int64)
        r = add(a, b)
        calls += 1
        assert r.dtype == np.int64 and r.shape == (4, 4)
        np.testing.assert_array_equal(r, a + b)
        r[:] = 0  # the result is the caller's own array, not a buffer the next call reuses
    assert mapped_calls() == before + calls
    x = np.arange(16, dtype=np.int64).reshape(4, 4)
    cases = [
        (lambda: add(x, x), x + x),
        (lambda: add(x.astype(np.float64), x.astype(np.float64)), (x + x).astype(np.float64)),  # dtype
        (lambda: add(x.ravel(), x.ravel()), (x + x).ravel()),                                    # shape
        (lambda: add(x[:, ::2].copy(), x[:, ::2].copy()), x[:, ::2] * 2),
        (lambda: add(x.T.copy(order="F"), x.T.copy(order="F")), x.T * 2),                       # F order
        (lambda: add(x, x[0]), x + x[0]),                                                        # broadcast
        (lambda: add(x, np.int64(3)), x + 3),                                                    # a scalar
        (lambda: add(x.tolist(), x), x + x),                                                     # a list
        (lambda: add(x, x, out=np.empty((4, 4), np.int64)), x + x),                              # out=
        (lambda: add(x, x, stream=cuda.stream()), x + x),                                        # stream=
        (lambda: add(x, x), x + x),
        (lambda: add(x, x), x + x),
    ]
    for f, want in cases:
        got = f()
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_host_plan_follows_the_settings(mapped):
    x = np.arange(16, dtype=np.float32)
    np.testing.assert_array_equal(add(x, x), x + x)
    before = mapped_calls()
    np.testing.assert_array_equal(add(x, x), x + x)
    assert mapped_calls() == before + 1
    _core._set_ufunc_mapped_config(max_bytes=0, simulator=True)  # off: the staged path
    np.testing.assert_array_equal(add(x, x), x + x)
    assert mapped_calls() == before + 1
    _core._set_ufunc_mapped_config(max_bytes=16 << 10, simulator=True)
    np.testing.assert_array_equal(add(x, x), x + x)
    np.testing.assert_array_equal(add(x, x), x + x)
    assert mapped_calls() == before + 3


# ---- cuda.reduce's result ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_reduce_result_through_mapped_memory_and_copied(target, dtype):
    @cuda.reduce
    def total(a, b):
        return a + b

    host = (np.arange(5000) % 13).astype(dtype)
    d = cuda.to_device(host)
    want = host.sum()
    s = cuda.stream()
    for mapped in (True, False, True):
        type(total)._mapped_result = mapped
        try:
            for stream in (0, s, None):
                r = total(d, stream=stream)
                assert type(r) is np.dtype(dtype).type and r == want
            assert total(d, size=7, init=3) == host[:7].sum() + 3  # fewer blocks than the full grid
            assert total(host) == want                               # a host array
        finally:
            type(total)._mapped_result = True
    res = cuda.device_array(1, dtype)
    assert total(d, res=res) is None and res.copy_to_host()[0] == want


def test_reduce_repeated_calls_take_the_fast_path_and_stay_right(target):
    @cuda.reduce
    def total(a, b):
        return a + b

    arrays = [cuda.to_device((np.arange(n) % 7).astype(dt)) for n, dt in
              [(1000, np.float32), (300, np.float32), (70000, np.float32), (999, np.int64), (1, np.float32), (5, np.int64)]]
    for _ in range(3):
        for d in arrays:
            h = d.copy_to_host()
            assert total(d) == h.sum()          # the common call: the fast path after the first
            assert total(d, init=2) == h.sum() + 2
            assert total(d, size=1) == h[0]
    assert total._fast is not None
    assert total(cuda.device_array(0, np.float32)) == 0  # empty: the general path's answer
