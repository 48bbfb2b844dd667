"""CUDA ufunc calls on host arrays: the staged host path (src/runtime/ufunc_pipeline.*) against the
general path (one device array per operand), in one process, on the GPU; the settings come from
_core._set_ufunc_host_path_config, and gpu=False turns the host path off.

    python benchmarks/ufunc_host.py steps           what the 4 x 4 int64 host add's steps cost
    python benchmarks/ufunc_host.py goals           the default settings against the general path for
                                                    gaussian_pdf over 1e6 and add over 4M and 1e8 float32
    python benchmarks/ufunc_host.py sizes [max_n]   gaussian_pdf (1 in, 1 out) and add (2 in, 1 out)
                                                    over float32 host arrays of growing size, per
                                                    path and chunk setting

steps: best of 5 loops of 1000 calls each of the whole call on each path, and of the pieces the
general path is made of (to_device of 128 bytes, device_array, copy_to_host, the launch on device
arrays, a synchronize, an empty NumPy array). sizes: best of 5 loops, each of enough calls to
take ~20 ms, per setting; `equal` says the result equals the general path's exactly. Prints one
JSON line per measurement.
"""
import json
import math
import sys
import time

import numpy as np

from cujit import _core, cuda, vectorize

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@vectorize(['float32(float32, float32)', 'int64(int64, int64)'], target='cuda')
def add(a, b):
    return a + b


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


DEFAULT = _core._ufunc_host_path_config()
MiB = 1 << 20


def configure(**kw):
    _core._set_ufunc_host_path_config(**dict(DEFAULT, **kw))


def best_us(fn, calls, loops=5):
    fn()
    cuda.synchronize()
    times = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        cuda.synchronize()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return min(times)


def emit(**kw):
    print(json.dumps(kw), flush=True)


def steps():
    rng = np.random.default_rng(0)
    a = rng.integers(-1000, 1000, size=(4, 4), dtype=np.int64)
    b = rng.integers(-1000, 1000, size=(4, 4), dtype=np.int64)
    d_a, d_b, d_c = cuda.to_device(a), cuda.to_device(b), cuda.device_array((4, 4), np.int64)
    for name, kw in [("general path", dict(gpu=False)), ("host path", {})]:
        configure(**kw)
        emit(step="add(a, b) 4x4 int64, " + name, us=best_us(lambda: add(a, b), 1000),
             equal=bool(np.array_equal(add(a, b), a + b)))
    configure()
    pieces = [
        ("cuda.to_device(128 B): alloc + pageable H2D + sync", lambda: cuda.to_device(a)),
        ("cuda.device_array(16 int64): alloc", lambda: cuda.device_array((4, 4), np.int64)),
        ("d.copy_to_host(): numpy alloc + D2H + sync", lambda: d_c.copy_to_host()),
        ("add(d_a, d_b, out=d_c): select + pack + launch", lambda: add(d_a, d_b, out=d_c)),
        ("cuda.synchronize()", lambda: cuda.synchronize()),
        ("np.empty((4, 4), int64)", lambda: np.empty((4, 4), np.int64)),
    ]
    for name, fn in pieces:
        emit(step=name, us=best_us(fn, 1000))


def goals():
    rng = np.random.default_rng(0)
    for what, n in [("gaussian_pdf", 1_000_000), ("add", 4_194_304), ("add", 100_000_000)]:
        x = rng.uniform(-3, 3, n).astype(np.float32)
        y = rng.random(n, dtype=np.float32)
        call = (lambda: gaussian_pdf(x, np.float32(0), np.float32(1))) if what == "gaussian_pdf" else (lambda: add(x, y))
        calls = 20 if n < 1 << 24 else 1
        for name, kw in [("general", dict(gpu=False)), ("default", {})]:
            configure(**kw)
            emit(w=what, n=n, s=name, us=round(best_us(call, calls), 1))
    configure()


def sizes(max_n):
    rng = np.random.default_rng(0)
    big = 1 << 62
    settings = [
        ("general", dict(gpu=False)),
        ("one chunk up to 16 MiB, no split", dict(small_max=16 * MiB, split_min=big)),
        ("split from 0, first 1 MiB", dict(small_max=0, split_min=0, split_max=big, first_chunk=MiB)),
        ("split from 0, first 4 MiB", dict(small_max=0, split_min=0, split_max=big, first_chunk=4 * MiB)),
        ("split from 0, first 4 MiB, max 8 MiB",
         dict(small_max=0, split_min=0, split_max=big, first_chunk=4 * MiB, max_chunk=8 * MiB)),
        ("default", {}),
    ]
    n = 1 << 16
    ns = []
    while n <= max_n:
        ns.append(n)
        n *= 2 if n < 1 << 24 else 4
    ns = sorted(set(ns + [max_n] + ([1_000_000] if max_n >= 1_000_000 else [])))  # 1e6: ufunc_call.py's gaussian_pdf
    for n in ns:
        x = rng.uniform(-3, 3, n).astype(np.float32)
        y = rng.random(n, dtype=np.float32)
        mean, sigma = np.float32(0), np.float32(1)
        for what, call in [("gaussian_pdf", lambda: gaussian_pdf(x, mean, sigma)), ("add", lambda: add(x, y))]:
            configure(gpu=False)
            want = call()
            t0 = time.perf_counter()
            call()
            one = time.perf_counter() - t0
            calls = max(1, min(200, int(0.02 / max(one, 1e-6))))
            for name, kw in settings:
                configure(**kw)
                before = _core._ufunc_host_path_stats()
                got = call()
                after = _core._ufunc_host_path_stats()
                us = best_us(call, calls, loops=5 if n < 1 << 24 else 3)
                emit(w=what, n=n, s=name, us=round(us, 1),
                     chunks=after["chunks"] - before["chunks"], equal=bool(np.array_equal(got, want)))
    configure()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "steps"
    if mode == "steps":
        steps()
    elif mode == "goals":
        goals()
    elif mode == "sizes":
        sizes(int(float(sys.argv[2])) if len(sys.argv) > 2 else 100_000_000)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
