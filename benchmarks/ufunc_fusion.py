"""Fusion of CUDA ufunc calls (issue 23): the course's hidden layer on device arrays, its three
ufunc calls deferred and run as one loop, against the same calls run one by one (fusion off,
what CUJIT_FUSE=0 does), in one process.

    python benchmarks/ufunc_fusion.py cujit [n]    (n defaults to 100,000,000; on the simulator 1,000,000)

(cujit only: no other tool fuses Numba-API ufunc calls; benchmarks/run.py runs it as a row.)

Two forms, on device arrays g and w made before timing:
  out=    the course's code:  tmp, out = device_array_like(g) twice; normalize(g, out=tmp);
          weigh(tmp, w, out=out); activate(out, out=tmp); return tmp
  chain   activate(weigh(normalize(g), w))   (each call a new array)
each timed up to and including cuda.synchronize() (which runs the pending fused loop), best of
10 after a warm-up call (compiles). The unfused loops read and write 12 n bytes per call chain
more than the fused one (two intermediates written and read back).

Prints one JSON line: {"tool": "cujit", "n", "backend", "out_fused_s", "out_unfused_s",
"chain_fused_s", "chain_unfused_s", "out_speedup", "chain_speedup", "identical", "correct"}; identical: the
fused results equal the unfused ones bit for bit.
"""
import json
import math
import sys
import time

import numpy as np

RUNS = 10


def main():
    from cujit import _core, cuda, vectorize

    if len(sys.argv) > 1 and sys.argv[1] != "cujit":
        sys.exit("ufunc_fusion.py measures cujit only")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else (1_000_000 if _core.simulator_enabled() else 100_000_000)

    @vectorize(['float32(float32)'], target='cuda')
    def normalize(grayscales):
        return grayscales / 255

    @vectorize(['float32(float32, float32)'], target='cuda')
    def weigh(values, weights):
        return values * weights

    @vectorize(['float32(float32)'], target='cuda')
    def activate(values):
        return (math.exp(values) - math.exp(-values)) / (math.exp(values) + math.exp(-values))

    rng = np.random.default_rng(0)
    g = cuda.to_device(np.floor(rng.uniform(0, 255, n).astype(np.float32)))
    w = cuda.to_device(rng.normal(.5, .1, n).astype(np.float32))

    def with_out():  # as the course's create_hidden_layer: `out` is dropped, so never written
        tmp = cuda.device_array_like(g)
        out = cuda.device_array_like(g)
        normalize(g, out=tmp)
        weigh(tmp, w, out=out)
        activate(out, out=tmp)
        return tmp

    def chain():
        return activate(weigh(normalize(g), w))

    def best(fn, fused):
        _core._set_fusion(fused)
        try:
            r = fn()
            cuda.synchronize()
            result = r.copy_to_host()
            runs = []
            for _ in range(RUNS):
                cuda.synchronize()
                t0 = time.perf_counter()
                keep = fn()  # held through the synchronize: a dropped result is never computed
                cuda.synchronize()
                del keep
                runs.append(time.perf_counter() - t0)
            return min(runs), result
        finally:
            _core._set_fusion(True)

    out_f, r1 = best(with_out, True)
    out_u, r2 = best(with_out, False)
    chain_f, r3 = best(chain, True)
    chain_u, r4 = best(chain, False)
    identical = r1.tobytes() == r2.tobytes() == r3.tobytes() == r4.tobytes()
    print(json.dumps({"tool": "cujit", "n": n, "backend": "sim" if _core.simulator_enabled() else "gpu",
                      "out_fused_s": out_f, "out_unfused_s": out_u, "chain_fused_s": chain_f,
                      "chain_unfused_s": chain_u, "out_speedup": out_u / out_f, "chain_speedup": chain_u / chain_f,
                      "identical": identical, "correct": identical}))


if __name__ == "__main__":
    main()
