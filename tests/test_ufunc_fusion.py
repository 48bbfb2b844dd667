"""Fusion of CUDA ufunc calls on device arrays (issue 23; docs/ARCHITECTURE.md "Fused CUDA ufunc
calls"): a call on device arrays is deferred, a chain runs as one loop, and a pending result is
computed the moment anything can observe it. Every test runs its program with fusion on and off
(_core._set_fusion, what CUJIT_FUSE=0 turns off) and compares the results bit for bit."""
import math
import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

from cujit import _core, cuda, vectorize


@vectorize(['float32(float32)'], target='cuda')
def normalize(g):
    return g / 255


@vectorize(['float32(float32, float32)'], target='cuda')
def weigh(v, w):
    return v * w


@vectorize(['float32(float32)'], target='cuda')
def activate(v):
    return (math.exp(v) - math.exp(-v)) / (math.exp(v) + math.exp(-v))


@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int64(int64, int64)'], target='cuda')
def mul(a, b):
    return a * b


@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int64(int64, int64)'], target='cuda')
def add(a, b):
    return a + b


@vectorize(['float32(float64)'], target='cuda')
def third32(x):
    return x / 3.0


@vectorize(['float64(float32, float64)'], target='cuda')
def widen(a, b):
    return a * b + a


@vectorize(['float64(int32)'], target='cuda')
def halve(i):
    return i / 2


@vectorize(['complex64(float32)'], target='cuda')
def to_complex(x):
    return complex(x, -x)


@cuda.jit
def scale_in_place(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= k


@cuda.jit
def copy_kernel(src, dst):
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i]


def data(n=1000, seed=0):
    rng = np.random.default_rng(seed)
    g = np.floor(rng.uniform(0, 255, n).astype(np.float32))
    w = rng.normal(.5, .1, n).astype(np.float32)
    return g, w


def run_both(fn):
    """fn() with fusion on, then off; its results (a list of arrays or scalars) must be equal to
    the bit. Returns the fused results and the most pending writes fn saw (through `seen`)."""
    seen = []

    def pending():
        seen.append(_core._fusion_pending())

    _core._set_fusion(True)
    try:
        fused = fn(pending)
    finally:
        _core._set_fusion(True)
    unfused_seen = []
    _core._set_fusion(False)
    try:
        unfused = fn(lambda: unfused_seen.append(_core._fusion_pending()))
    finally:
        _core._set_fusion(True)
    assert len(fused) == len(unfused)
    for a, b in zip(fused, unfused):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes(), (a, b)
    assert not any(unfused_seen)  # off means off
    return fused, max(seen, default=0)


def test_chain_is_one_loop_and_bit_identical(target):
    g, w = data()

    def prog(pending):
        dg, dw = cuda.to_device(g), cuda.to_device(w)
        r = activate(weigh(normalize(dg), dw))
        pending()
        return [r.copy_to_host()]

    before = len(_core._fusion_kernels())
    (r,), most = run_both(prog)
    assert most == 1  # the chain is one pending write (the intermediates' trees are in it)
    assert any(name == "normalize+weigh+activate" for name, _ in _core._fusion_kernels()) or before
    np.testing.assert_allclose(r, np.tanh(g / np.float32(255) * w), atol=1e-6)


def test_course_hidden_layer_with_out(target):
    # The course's code: every call writes an out= array. The writes are deferred; tmp's last one
    # supersedes its first, and `out` (dropped by the function) is never written.
    g, w = data(5000)

    def prog(pending):
        dg, dw = cuda.to_device(g), cuda.to_device(w)
        tmp = cuda.device_array_like(dg)
        out = cuda.device_array_like(dg)
        normalize(dg, out=tmp)
        weigh(tmp, dw, out=out)
        activate(out, out=tmp)
        pending()
        r = tmp.copy_to_host()
        pending()
        return [r, out.copy_to_host()]  # `out` observed after all: weigh(normalize(g), w)

    (r, o), most = run_both(prog)
    assert most == 2
    np.testing.assert_allclose(o, g / np.float32(255) * w, rtol=1e-6)


def test_materialisation_points(target):
    g, w = data(300)

    def prog(pending):
        dg, dw = cuda.to_device(g), cuda.to_device(w)
        res = []
        y = weigh(normalize(dg), dw)
        pending()
        res.append(y[5])                      # indexing one element
        y = weigh(normalize(dg), dw)
        res.append(y[10:20].copy_to_host())   # a view made while pending, then read
        y = weigh(normalize(dg), dw)
        res.append(np.asarray(y))             # __array__
        y = weigh(normalize(dg), dw)
        res.append(pickle.loads(pickle.dumps(y)).copy_to_host())
        y = weigh(normalize(dg), dw)
        z = cuda.device_array_like(y)
        copy_kernel[4, 128](y, z)             # a kernel reads it
        res.append(z.copy_to_host())
        y = weigh(normalize(dg), dw)
        z = cuda.device_array_like(y)
        z.copy_to_device(y)                   # a device-to-device copy
        res.append(z.copy_to_host())
        y = weigh(normalize(dg), dw)
        h = np.empty_like(g)
        y.copy_to_host(h)
        res.append(h)
        y = weigh(normalize(dg), dw)
        pending()
        cuda.synchronize()                    # runs every pending write
        pending_after_sync = _core._fusion_pending()
        res.append(np.array(pending_after_sync))
        s = cuda.stream()
        y = weigh(normalize(dg, stream=s), dw, stream=s)
        s.synchronize()
        res.append(np.array(_core._fusion_pending()))
        y2 = weigh(normalize(dg), dw)
        e = cuda.event()
        e.record()
        res.append(np.array(_core._fusion_pending()))
        res += [y.copy_to_host(), y2.copy_to_host()]
        return res

    res, most = run_both(prog)
    assert most >= 1
    assert int(res[7]) == 0 and int(res[8]) == 0 and int(res[9]) == 0


def test_intermediate_used_twice_and_mutated(target):
    x = np.linspace(-3, 3, 257).astype(np.float32)

    def prog(pending):
        dx = cuda.to_device(x)
        y = mul(dx, dx)
        z = add(y, y)          # the same subtree twice
        u = mul(z, y)          # and again, beside its consumer
        pending()
        ru = u.copy_to_host()
        y[0] = 1000.0          # mutating the intermediate afterwards changes nothing computed
        rz = z.copy_to_host()
        ry = y.copy_to_host()
        return [ru, rz, ry]

    (ru, rz, ry), most = run_both(prog)
    assert most >= 2 and ry[0] == 1000.0


def test_input_mutated_after_pending_call(target):
    x = np.arange(512, dtype=np.float32)

    def prog(pending):
        dx = cuda.to_device(x)
        res = []
        y = add(mul(dx, dx), dx)
        pending()
        dx[3] = -7.0                                    # setitem on an input
        res.append(y.copy_to_host())
        y = add(mul(dx, dx), dx)
        scale_in_place[4, 128](dx, np.float32(2.0))     # a kernel writes an input
        res.append(y.copy_to_host())
        y = add(mul(dx, dx), dx)
        dx.copy_to_device(np.full(512, 3, np.float32))  # a copy into an input
        res.append(y.copy_to_host())
        y = add(mul(dx, dx), dx)
        v = dx[::2]
        add(v, v, out=v)                                # a ufunc writes a view of an input
        res.append(y.copy_to_host())
        y = add(mul(dx, dx), dx)
        mul(dx, dx, out=dx)                             # ... or the input itself
        res.append(y.copy_to_host())
        res.append(dx.copy_to_host())
        return res

    run_both(prog)


def test_out_aliasing_inputs(target):
    x = np.linspace(0, 1, 300).astype(np.float32)

    def prog(pending):
        dx = cuda.to_device(x)
        res = []
        add(mul(dx, dx), dx, out=dx)          # read and written at the same element
        res.append(dx.copy_to_host())
        dx = cuda.to_device(x)
        rev = dx[::-1]
        add(mul(rev, rev), dx, out=dx)        # read reversed: the calls run in order
        res.append(dx.copy_to_host())
        dx = cuda.to_device(x)
        for _ in range(40):                   # longer than one fused loop takes
            add(mul(dx, np.float32(0.5)), np.float32(0.25), out=dx)
        pending()
        res.append(dx.copy_to_host())
        return res

    _, most = run_both(prog)
    assert most >= 1


def test_scalars_broadcasting_and_dtypes(target):
    rng = np.random.default_rng(3)
    a = rng.normal(size=(6, 40)).astype(np.float32)
    row = rng.normal(size=40).astype(np.float32)
    col = rng.normal(size=(6, 1)).astype(np.float32)
    d64 = rng.normal(size=40)
    i32 = np.arange(-20, 20, dtype=np.int32)

    def prog(pending):
        da, dr, dc = cuda.to_device(a), cuda.to_device(row), cuda.to_device(col)
        res = []
        res.append(add(mul(dr, dc), da).copy_to_host())              # (40,) x (6, 1) + (6, 40)
        res.append(mul(add(dr, 1.5), np.float32(2)).copy_to_host())  # Python and NumPy scalars
        res.append(add(mul(cuda.to_device(np.arange(40)), 3), 7).copy_to_host())  # int64
        t = third32(cuda.to_device(d64))                             # float32 intermediate
        res.append(widen(t, cuda.to_device(d64)).copy_to_host())
        res.append(mul(halve(cuda.to_device(i32)), 3.0).copy_to_host())
        res.append(to_complex(mul(dr, dr)).copy_to_host())          # a complex result is written
        pending()
        return res

    run_both(prog)


def test_streams(target):
    x = np.arange(1000, dtype=np.float64)

    def prog(pending):
        s1, s2 = cuda.stream(), cuda.stream()
        dx = cuda.to_device(x, stream=s1)
        y = mul(dx, dx, stream=s1)
        pending()
        z = add(y, dx, stream=s2)       # another stream: y is written on s1 first
        s1.synchronize()
        s2.synchronize()
        return [z.copy_to_host(), y.copy_to_host()]

    run_both(prog)


def test_errors_at_the_call(target):
    dx = cuda.to_device(np.arange(10, dtype=np.float32))
    dy = cuda.to_device(np.arange(4, dtype=np.float32))
    y = mul(dx, dx)
    with pytest.raises(ValueError):
        add(y, dy)                       # shapes that do not broadcast
    with pytest.raises(TypeError, match="No matching version"):
        add(y, cuda.to_device(np.arange(10, dtype=np.int32)))
    with pytest.raises(ValueError, match="out= has shape"):
        add(y, dx, out=dy)
    with pytest.raises(TypeError, match="out= has dtype"):
        add(y, dx, out=cuda.to_device(np.zeros(10)))
    np.testing.assert_array_equal(y.copy_to_host(), np.arange(10, dtype=np.float32) ** 2)


def test_dropped_result_is_never_computed(target):
    dx = cuda.to_device(np.arange(100, dtype=np.float32))
    _core._fusion_flush()
    y = mul(dx, dx)
    assert _core._fusion_pending() == 1
    del y
    assert _core._fusion_pending() == 0  # nothing can observe it any more
    dx[0] = 5.0                          # and a write to its input needs nothing first
    assert dx[0] == 5.0


def test_escaped_memory_is_not_deferred(target):
    dx = cuda.to_device(np.arange(100, dtype=np.float32))
    _core._fusion_flush()
    dx.device_ctypes_pointer             # another library may now write it at any time
    y = mul(dx, dx)
    assert _core._fusion_pending() == 0
    np.testing.assert_array_equal(y.copy_to_host(), np.arange(100, dtype=np.float32) ** 2)


@pytest.mark.parametrize("setting,pending", [("0", 0), ("1", 1)])
def test_kill_switch_and_debug_line(setting, pending):
    code = ("import numpy as np\nfrom cujit import cuda, vectorize, _core\n"
            "@vectorize(['float32(float32, float32)'], target='cuda')\n"
            "def m(a, b):\n    return a * b\n"
            "x = cuda.to_device(np.arange(8, dtype=np.float32))\n"
            "y = m(m(x, x), x)\nprint('pending', _core._fusion_pending())\n"
            "print(y.copy_to_host().tolist())\n")
    env = dict(os.environ, CUJIT_FUSE=setting, CUJIT_DEBUG="1", CUJIT_ENABLE_CUDASIM="1")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "pending %d" % pending in r.stdout
    assert str([float(v) ** 3 for v in range(8)]) in r.stdout
    assert ("fused 2 CUDA ufunc calls (m+m) into one loop" in r.stderr) == (setting == "1")


def test_fused_gpu_code_keeps_each_rounding(target):
    # NVRTC contracts a multiply and an add into an fma unless the intermediate passes
    # cj::fuse_barrier: the fused PTX has the unfused calls' separate roundings.
    if not hasattr(_core, "nvrtc_compile"):
        pytest.skip("no NVRTC")
    dx = cuda.to_device(np.arange(10, dtype=np.float32))
    add(mul(dx, dx), dx).copy_to_host()
    srcs = [s for name, s in _core._fusion_kernels() if name == "mul+add"]
    assert srcs
    try:
        ptx = _core.nvrtc_compile(srcs[0], "compute_90", [], pch=False, minimal=False, name="fused.cu")["image"]
    except Exception as e:  # noqa: BLE001 - a machine without NVRTC
        pytest.skip("NVRTC unavailable: %s" % e)
    ptx = ptx.decode() if isinstance(ptx, bytes) else ptx
    body = ptx[ptx.index(".entry"):]
    assert re.search(r"\bmul(\.rn)?\.f32", body) and not re.search(r"\bfma\.", body)


def test_dlpack_and_interface_run_and_escape(target):
    x = np.arange(50, dtype=np.float32)

    def prog(pending):
        dx = cuda.to_device(x)
        y = mul(mul(dx, dx), dx)
        pending()
        if target == "gpu":
            cai = y.__cuda_array_interface__   # another library may read it now
            assert cai["data"][0] == y.device_ctypes_pointer.value
        else:
            h = np.from_dlpack(y)              # shares the memory: it must be written first
            assert h.tobytes() == (x * x * x).tobytes()
        z = mul(y, y)                          # escaped memory: run at once
        pending_after = _core._fusion_pending()
        return [y.copy_to_host(), z.copy_to_host(), np.array(pending_after)]

    res, _ = run_both(prog)
    assert int(res[2]) == 0


def test_fallback_when_a_fused_loop_cannot_be_built(target):
    # A fused loop that fails to build (a cujit bug) must not lose the write: the chain runs one
    # call at a time, each intermediate in a new array, with the same results.
    g, w = data(700)

    def prog(pending):
        dg, dw = cuda.to_device(g), cuda.to_device(w)
        y = normalize(dg)
        r = add(activate(weigh(y, dw)), y)
        pending()
        return [r.copy_to_host()]

    _core._fusion_force_fallback(True)
    try:
        run_both(prog)
    finally:
        _core._fusion_force_fallback(False)
