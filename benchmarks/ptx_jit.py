"""CUBIN or PTX for a new kernel (issue 23): which gets the first result sooner, on the GPU.

    python benchmarks/ptx_jit.py [N]          (default N = 7; needs a GPU)

NVRTC's last step, ptxas, costs 9-12 ms of a new kernel's compile (benchmarks/NOTES-compile.md).
With CUJIT_NVRTC_PTX=1 cujit asks NVRTC for PTX instead of a CUBIN and the driver assembles it at
cuModuleLoadData: the same assembler, moved. The driver caches what it assembled on disk
(~/.nv/ComputeCache), so a PTX image of a kernel the machine has seen before loads cheaply, which
an honest first-kernel figure must not count. This script runs benchmarks/first_launch.py's
`first` mode (N fresh processes, empty cujit cache, axpy then hypot, best of N) four ways:

    cubin                 the default
    cubin, driver cache off
    ptx, driver cache off CUJIT_NVRTC_PTX=1 CUDA_CACHE_DISABLE=1: the driver JITs every time
    ptx, driver cache on  CUJIT_NVRTC_PTX=1 with a fresh CUDA_CACHE_PATH per run: its first
                          process JITs, the later ones may hit the driver's cache (same kernels)

and prints the first and the next kernel's milliseconds of each (first_launch.py's `ms` and
`next_ms`), then one JSON line. The switch pays only if "ptx, driver cache off" beats "cubin".
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(n, env):
    full = dict(os.environ, **env)
    out = subprocess.run([sys.executable, os.path.join(HERE, "first_launch.py"), "cujit", str(n), "first"],
                         env=full, capture_output=True, text=True)
    if out.returncode != 0:
        return {"error": out.stderr[-500:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    rows = {}
    with tempfile.TemporaryDirectory() as cache:
        configs = [
            ("cubin", {}),
            ("cubin, driver cache off", {"CUDA_CACHE_DISABLE": "1"}),
            ("ptx, driver cache off", {"CUJIT_NVRTC_PTX": "1", "CUDA_CACHE_DISABLE": "1"}),
            ("ptx, driver cache on", {"CUJIT_NVRTC_PTX": "1", "CUDA_CACHE_PATH": cache}),
        ]
        print("%-26s %10s %10s" % ("row", "first ms", "next ms"))
        for label, env in configs:
            r = run(n, env)
            rows[label] = r
            if "error" in r:
                print("%-26s failed: %s" % (label, r["error"]))
            else:
                print("%-26s %10.1f %10.1f" % (label, r["ms"], r.get("next_ms", float("nan"))))
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
