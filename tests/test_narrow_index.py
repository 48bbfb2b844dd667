"""The narrow variant of a kernel (issue 23, kern23; opt-in with CUJIT_INDEX32=1, read when a
kernel is specialised): when every array argument of a launch is shorter than 2^31 in each
dimension and lies within 2^31 bytes of its data pointer, array indexing runs in 32-bit
arithmetic (prelude/common.h offset32); any other launch runs the 64-bit program. The simulator
runs the same narrow indexing, so these results prove it on both targets."""
import numpy as np
import pytest

from cujit import cuda


@pytest.fixture
def index32(monkeypatch):
    monkeypatch.setenv("CUJIT_INDEX32", "1")


def _make_gather():
    @cuda.jit
    def gather(x, idx, out):
        i = cuda.grid(1)
        if i < idx.shape[0]:
            out[i] = x[idx[i]]  # negative indices count from the end
    return gather


def _make_2d():
    @cuda.jit
    def rows(a, out):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            out[i, j] = a[i, j] + a[-1 - i, j] * 10 + a[i][-1]
    return rows


def _make_poke():
    @cuda.jit
    def poke(a, i, v):
        a[i] = v
    return poke


def test_small_arrays_run_narrow_with_negative_indices(target, index32):
    gather = _make_gather()
    x = np.arange(100, dtype=np.float64) * 1.5
    idx = np.array([0, 5, 99, -1, -100, -37, 42], dtype=np.int64)
    out = cuda.device_array(len(idx), np.float64)
    for _ in range(2):  # the general path, then the fast path
        gather[1, 32](cuda.to_device(x), cuda.to_device(idx), out)
        np.testing.assert_array_equal(out.copy_to_host(), x[idx])
        assert gather._last_narrow == 1
    rev = cuda.to_device(x)[::-3]  # a negative stride: offsets below the data pointer
    out = cuda.device_array(len(idx), np.float64)
    idx2 = np.array([0, 1, 33, -1, -34], dtype=np.int64)
    gather[1, 32](rev, cuda.to_device(idx2), out)
    np.testing.assert_array_equal(out.copy_to_host()[:5], x[::-3][idx2])
    assert gather._last_narrow == 1


def test_two_dimensional_views_run_narrow(target, index32):
    rows = _make_2d()
    a = np.arange(6 * 7, dtype=np.int32).reshape(6, 7)
    for view in (a, a[:, ::2], a.T, a[::-1, 1:]):
        out = cuda.device_array(view.shape, np.int32)
        rows[(1, 1), (8, 8)](cuda.to_device(np.ascontiguousarray(view)) if view is a else cuda.to_device(a)[
            (slice(None), slice(None, None, 2)) if view.shape == (6, 4) else (slice(None, None, -1), slice(1, None))]
            if view.shape != (7, 6) else cuda.to_device(a).T, out)
        expect = view + view[::-1] * 10 + view[:, -1:]
        np.testing.assert_array_equal(out.copy_to_host(), expect)
        assert rows._last_narrow == 1


def test_an_array_past_2_31_bytes_runs_the_64_bit_program(target, index32):
    poke = _make_poke()
    n = 2**31 + 64  # untouched pages cost nothing on the simulator; 2 GiB on the GPU
    a = cuda.device_array(n, np.uint8)
    a[:8] = np.zeros(8, np.uint8)
    a[n - 64:] = np.zeros(64, np.uint8)
    for i, v in ((n - 3, 7), (-1, 9), (5, 11)):
        poke[1, 1](a, i, v)
        assert poke._last_narrow == 0
    np.testing.assert_array_equal(a[n - 4:].copy_to_host(), [0, 7, 0, 9])
    np.testing.assert_array_equal(a[:8].copy_to_host(), [0, 0, 0, 0, 0, 11, 0, 0])
    small = cuda.to_device(np.zeros(8, np.uint8))
    poke[1, 1](small, -2, 5)  # the same specialisation, a narrow launch
    assert poke._last_narrow == 1
    np.testing.assert_array_equal(small.copy_to_host(), [0, 0, 0, 0, 0, 0, 5, 0])


def test_narrow_program_indexes_in_32_bits(target, index32):
    gather = _make_gather()
    out = cuda.device_array(2, np.float64)
    gather[1, 2](cuda.to_device(np.ones(4)), cuda.to_device(np.array([0, 1])), out)
    narrow = gather._image(0, "compute_90", True, True).decode()
    wide = gather._image(0, "compute_90", True).decode()
    assert "cvt.s64.s32" in narrow  # the 32-bit byte offset, widened once for the address
    assert narrow != wide


def test_without_cujit_index32_there_is_no_narrow_variant(target, monkeypatch):
    monkeypatch.delenv("CUJIT_INDEX32", raising=False)
    gather = _make_gather()
    out = cuda.device_array(2, np.float64)
    gather[1, 2](cuda.to_device(np.ones(4)), cuda.to_device(np.array([0, 1])), out)
    assert gather._last_narrow == 0
    with pytest.raises(ValueError, match="no narrow variant"):
        gather._image(0, "compute_90", False, True)
