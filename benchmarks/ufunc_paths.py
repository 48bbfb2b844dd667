"""Issue 23's per-call fast paths against the general paths they bypass, each pair in one process,
interleaved (best of LOOPS loops each):

- plan: add(d_a, d_b, out=d_c) on n float32 device arrays, CALLS calls a loop, then synchronise;
  with the per-ufunc plan (the default) and without (_core._set_ufunc_plans(False)), beside the
  same work as a @cuda.jit kernel launch, and the planned loop's time before its synchronise.
- mapped: add(a, b) on host arrays of each size below, result to the host: the mapped path of tiny
  calls (runtime/ufunc_mapped.*, max_bytes large) with its host plan, without it, and the staged
  path (max_bytes 0). The row with the smallest staged bytes where staged wins bounds mapped_max.
- reduce: cuda.reduce sum over 1e8 float32 on the device, result to the host, with the result
  through mapped memory (the default) and copied back from a device array (Reduce._mapped_result).

    python benchmarks/ufunc_paths.py [plan|mapped|reduce ...]

Prints one JSON line per measurement. Every result is checked against NumPy's ("correct").
"""
import json
import sys
import time

import numpy as np

from cujit import _core, cuda, vectorize

LOOPS = int(__import__("os").environ.get("UFUNC_PATHS_LOOPS", 7))
CALLS = 1000


@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int64(int64, int64)'], target='cuda')
def add(a, b):
    return a + b


def best_per_call(fn, calls, sync):
    fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - t0) / calls


def interleave(variants, calls, sync):
    """{name: best us per call}, each variant (name, setup, fn) measured LOOPS times, alternating."""
    best = {name: float("inf") for name, _, _ in variants}
    for _ in range(LOOPS):
        for name, setup, fn in variants:
            setup()
            best[name] = min(best[name], best_per_call(fn, calls, sync))
    return {k: v * 1e6 for k, v in best.items()}


@cuda.jit
def add_kernel(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def plan(n=100_000):
    """Also: the same work as a @cuda.jit kernel (the floor a ufunc call can reach), and the plan's
    loop timed before its synchronize (what the host spends issuing the calls)."""
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.device_array(n, np.float32)
    blocks = (n + 255) // 256

    def call():
        add(d_a, d_b, out=d_c)

    def kern():
        add_kernel[blocks, 256](d_a, d_b, d_c)
    r = interleave([("plan", lambda: _core._set_ufunc_plans(True), call),
                    ("general", lambda: _core._set_ufunc_plans(False), call),
                    ("kernel", lambda: None, kern)], CALLS, cuda.synchronize)
    _core._set_ufunc_plans(True)
    issue = float("inf")
    for _ in range(LOOPS):
        cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(CALLS):
            call()
        issue = min(issue, time.perf_counter() - t0)
    call()
    correct = bool(np.array_equal(d_c.copy_to_host(), a + b))
    print(json.dumps({"bench": "plan", "n": n, "plan_us": r["plan"], "general_us": r["general"],
                      "same_kernel_us": r["kernel"], "plan_issue_us": issue / CALLS * 1e6, "correct": correct}))


def mapped():
    was = _core._ufunc_mapped_config()
    sizes = [((4, 4), np.int64), ((64,), np.float32), ((256,), np.float32), ((512,), np.float64),
             ((1024,), np.float32), ((2048,), np.float32), ((4096,), np.float32), ((8192,), np.float32)]
    for shape, dtype in sizes:
        rng = np.random.default_rng(1)
        a = (rng.random(shape) * 1000).astype(dtype)
        b = (rng.random(shape) * 1000).astype(dtype)
        out = {}

        def call():
            out["r"] = add(a, b)

        def mode(max_bytes, plans):
            def setup():
                _core._set_ufunc_mapped_config(max_bytes=max_bytes, simulator=False)
                _core._set_ufunc_plans(plans)
            return setup
        r = interleave([("mapped", mode(16 << 20, True), call), ("mapped_noplan", mode(16 << 20, False), call),
                        ("staged", mode(0, True), call)], CALLS, lambda: None)
        _core._set_ufunc_mapped_config(**was)
        _core._set_ufunc_plans(True)
        correct = bool(np.array_equal(out["r"], a + b))
        staged_bytes = 3 * a.nbytes
        print(json.dumps({"bench": "mapped", "shape": list(shape), "dtype": np.dtype(dtype).name,
                          "staged_bytes": staged_bytes, "mapped_us": r["mapped"],
                          "mapped_without_host_plan_us": r["mapped_noplan"], "staged_us": r["staged"],
                          "correct": correct}))


def reduce(n=100_000_000):
    @cuda.reduce
    def sum_reduce(a, b):
        return a + b
    host = (np.arange(n) % 8).astype(np.float32)
    d = cuda.to_device(host)
    expect = float(host.sum(dtype=np.float64))
    got = {}

    def call():
        got["r"] = sum_reduce(d)

    def mode(on):
        return lambda: setattr(type(sum_reduce), "_mapped_result", on)
    r = interleave([("mapped", mode(True), call), ("copied", mode(False), call)], 20, lambda: None)
    type(sum_reduce)._mapped_result = True
    print(json.dumps({"bench": "reduce", "n": n, "mapped_us": r["mapped"], "copied_us": r["copied"],
                      "mapped_gbps": 4 * n / r["mapped"] / 1e3, "copied_gbps": 4 * n / r["copied"] / 1e3,
                      "correct": float(got["r"]) == expect}))


def main():
    which = sys.argv[1:] or ["plan", "mapped", "reduce"]
    for w in which:
        {"plan": plan, "mapped": mapped, "reduce": reduce}[w]()


if __name__ == "__main__":
    main()
