"""The restrict variant of a kernel (issue 23): when no two array arguments of a launch share a
byte, the kernel runs a program whose array pointers are __restrict__ (NVRTC then reads arrays
the kernel only reads through the read-only cache); any launch whose arrays overlap runs the plain
program. The choice is made at each launch, on the fast path too (src/bindings/kernel_alias.h)."""
import os
import subprocess
import sys

import numpy as np

from cujit import cuda


@cuda.jit
def store_then_load(out, x, res):
    # With out and x the same memory, the load must see the store: a restrict program may move
    # the load above the store, or serve it from the read-only cache.
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 7.0
        res[i] = x[i]


def _launch(out, x, res):
    store_then_load[1, 32](out, x, res)
    return res.copy_to_host()


def test_the_same_array_twice_runs_the_plain_variant(target):
    a = cuda.to_device(np.arange(8, dtype=np.float32))
    res = cuda.device_array(8, np.float32)
    np.testing.assert_array_equal(_launch(a, a, res), np.full(8, 7.0))
    assert store_then_load._last_variant == 0
    b = cuda.to_device(np.arange(8, dtype=np.float32))
    c = cuda.to_device(np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(_launch(b, c, res), np.arange(8))
    assert store_then_load._last_variant == 1
    for _ in range(2):  # the fast path chooses per launch, both ways
        np.testing.assert_array_equal(_launch(b, b, res), np.full(8, 7.0))
        assert store_then_load._last_variant == 0
        c = cuda.to_device(np.arange(8, dtype=np.float32))
        np.testing.assert_array_equal(_launch(b, c, res), np.arange(8))
        assert store_then_load._last_variant == 1


def test_overlapping_views_run_the_plain_variant(target):
    base = np.arange(12, dtype=np.float32)
    res = cuda.device_array(6, np.float32)
    d = cuda.to_device(base)
    # Two view objects of the same six elements: each thread reads what it wrote.
    np.testing.assert_array_equal(_launch(d[0:6], d[0:6], res), np.full(6, 7.0))
    assert store_then_load._last_variant == 0
    # Interleaved views lie in one span: counted as overlapping (never wrong, only slower).
    d = cuda.to_device(base)
    np.testing.assert_array_equal(_launch(d[0::2], d[1::2], res), [1, 3, 5, 7, 9, 11])
    assert store_then_load._last_variant == 0
    # Partial overlaps (threads would race on the shared elements: only the choice is checked).
    cases = [
        (d[0:6], d[2:8], res),  # x reads d[2:8] while out writes d[0:6]
        (d[0:6], d[5:11], res),  # one element shared
        (d[0:6], d[0:6][::-1], res),  # a reversed view (negative stride)
        (d[0:6], d[6:12], d[3:9]),  # the result overlaps both
    ]
    for out, x, r in cases:
        store_then_load[1, 32](out, x, r)
        assert store_then_load._last_variant == 0
    store_then_load[1, 32](d[0:6], d[6:12], res)  # adjacent, not overlapping
    assert store_then_load._last_variant == 1


def test_disjoint_views_of_one_buffer_run_the_restrict_variant(target):
    d = cuda.to_device(np.arange(18, dtype=np.float32))
    np.testing.assert_array_equal(_launch(d[0:6], d[6:12], d[12:18]), np.arange(6, 12))
    assert store_then_load._last_variant == 1
    np.testing.assert_array_equal(d.copy_to_host()[:6], np.full(6, 7.0))
    # A zero-length array reaches no byte: it overlaps nothing.
    e = cuda.to_device(np.arange(4, dtype=np.float32))
    store_then_load[1, 32](e[0:0], e, e[0:0])
    assert store_then_load._last_variant == 1


@cuda.jit
def scaled(out, x, k):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * k


@cuda.jit
def takes_tuple(out, t):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = t[0][i] + 1


def test_restrict_program_reads_through_the_read_only_cache(target):
    out = cuda.device_array(4, np.float32)
    scaled[1, 4](out, cuda.to_device(np.ones(4, np.float32)), 2.0)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(4, 2.0))
    ptx = scaled._image(0, "compute_90", True).decode()
    plain = scaled._image(0, "compute_90").decode()
    assert "ld.global.nc.f32" in ptx  # x, which the kernel only reads
    assert "ld.global.nc" not in plain
    assert "st.global.f32" in ptx and "st.global.nc" not in ptx


def test_an_array_in_a_tuple_has_no_restrict_variant(target):
    # A tuple's arrays are not among the spans the launch compares: no restrict program at all.
    a = cuda.to_device(np.arange(4, dtype=np.float32))
    takes_tuple[1, 4](a, (a,))
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(4) + 1)
    assert takes_tuple._last_variant == 0
    try:
        takes_tuple._image(0, "compute_90", True)
    except ValueError as e:
        assert "no restrict variant" in str(e)
    else:
        raise AssertionError("expected ValueError")


def test_debug_output_names_the_variant():
    prog = """
import numpy as np
from cujit import cuda
@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i]
a = cuda.to_device(np.ones(4))
b = cuda.device_array(4)
k[1, 4](b, a)
k[1, 4](a, a)
"""
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_DEBUG="1")
    r = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if "variant" in ln]
    assert lines == [
        "cujit: kernel k(array(float64, 1d, C), array(float64, 1d, C)): restrict variant (no two array arguments overlap)",
        "cujit: kernel k(array(float64, 1d, C), array(float64, 1d, C)): plain variant (array arguments may overlap)",
    ], r.stderr
