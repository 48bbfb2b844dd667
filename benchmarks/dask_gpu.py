"""Dask on the GPU: the course's hidden layer over blocks, on a dask_cuda.LocalCUDACluster (one
worker process per GPU) beside the same work in one process without Dask.

    python benchmarks/dask_gpu.py [--n N] [--blocks B] [--write]
    CUJIT_ENABLE_CUDASIM=1 python benchmarks/dask_gpu.py --sim   # a check on a CPU machine

Each block's inputs are made where the block is computed (a NumPy generator seeded by the
block's number, so both runs compute the same numbers), run through the section-1 layer (three
CUDA ufuncs, host arrays in, a host array out) and reduced to its sum, so that no large array
crosses a process boundary: the figures compare the GPU work and Dask's overhead, not pickling of
data. Where CuPy is installed, a second workload keeps each block on the device: CuPy makes the
inputs, the ufuncs take them through __cuda_array_interface__, CuPy sums the result.

Times are wall clock, best of --repeat runs after a warm-up run (which compiles, in this process
and in each worker; the workers find the code in the disk cache). --write puts the table into
benchmarks/RESULTS.md's "dask-gpu" section. --sim uses distributed.LocalCluster with two worker
processes on the simulator at a small n (no GPU needed; nothing is written).

Needs dask, distributed and (for the GPU run) dask-cuda; cujit itself never imports them.
"""
import argparse
import math
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

from cujit import cuda, vectorize  # noqa: E402


@vectorize(["float32(float32)"], target="cuda")
def normalize(grayscales):
    return grayscales / 255


@vectorize(["float32(float32, float32)"], target="cuda")
def weigh(values, weights):
    return values * weights


@vectorize(["float32(float32)"], target="cuda")
def activate(values):
    return (math.exp(values) - math.exp(-values)) / (math.exp(values) + math.exp(-values))


def host_block(index, size):
    """One block of the layer from host arrays, as the course's assessment: its sum."""
    rng = np.random.default_rng(index)
    greyscales = np.floor(rng.uniform(0, 255, size).astype(np.float32))
    weights = rng.normal(0.5, 0.1, size).astype(np.float32)
    g = cuda.to_device(greyscales)
    w = cuda.to_device(weights)
    scratch = cuda.device_array_like(g)
    result = cuda.device_array_like(g)
    normalize(g, out=scratch)
    weigh(scratch, w, out=result)
    activate(result, out=scratch)
    return float(scratch.copy_to_host().sum(dtype=np.float64))


def cupy_block(index, size):
    """The same block kept on the device: CuPy arrays in, through __cuda_array_interface__."""
    import cupy
    rs = cupy.random.RandomState(index)
    greyscales = cupy.floor(rs.uniform(0, 255, size, dtype=cupy.float32))
    weights = rs.normal(0.5, 0.1, size, dtype=cupy.float32)
    scratch = cupy.empty_like(greyscales)
    result = cupy.empty_like(greyscales)
    normalize(greyscales, out=scratch)
    weigh(scratch, weights, out=result)
    activate(result, out=scratch)
    return float(scratch.sum(dtype=cupy.float64))


def one_process(work, blocks, size):
    return sum(work(i, size) for i in range(blocks))


def on_cluster(client, work, blocks, size):
    import dask
    parts = [dask.delayed(work)(i, size) for i in range(blocks)]
    return client.compute(dask.delayed(sum)(parts)).result()


def best(fn, repeat):
    fn()  # warm-up: compiles (here, or in each worker)
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), value


def measure(args):
    import dask
    import distributed
    size = args.n // args.blocks
    workloads = [("host arrays in and out", host_block)]
    try:
        import cupy  # noqa: F401
        if not args.sim:
            workloads.append(("CuPy blocks on the device", cupy_block))
    except ImportError:
        pass
    if args.sim:
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=40)
        kind = "distributed.LocalCluster, 2 worker processes (simulator)"
    else:
        import dask_cuda
        cluster = dask_cuda.LocalCUDACluster(dashboard_address=None, silence_logs=40)
        kind = "dask_cuda.LocalCUDACluster"
    rows = []
    with cluster, distributed.Client(cluster) as client:
        workers = len(client.scheduler_info()["workers"])
        for label, work in workloads:
            t1, v1 = best(lambda: one_process(work, args.blocks, size), args.repeat)
            t2, v2 = best(lambda: on_cluster(client, work, args.blocks, size), args.repeat)
            same = math.isclose(v1, v2, rel_tol=1e-9)
            rows.append((label, t1, t2, same))
            print("%s: one process %.3f s, cluster %.3f s, same sums: %s" % (label, t1, t2, same),
                  flush=True)
    lines = ["- device: %s; %s with %d worker(s)" % (_device_name(), kind, workers),
             "- date: %s" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
             "- software: Python %s, NumPy %s, dask %s, distributed %s%s" % (
                 platform.python_version(), np.__version__, dask.__version__,
                 distributed.__version__, _dask_cuda_version()),
             "",
             "| workload (hidden layer, n = %s in %d blocks, each block's sum; best of %d) | one process, no Dask | %s | cluster / one process |"
             % ("{:,}".format(args.n), args.blocks, args.repeat, kind.split(",")[0]),
             "| --- | --- | --- | --- |"]
    for label, t1, t2, same in rows:
        lines.append("| %s | %.3f s | %.3f s%s | %.2fx |" % (label, t1, t2, "" if same else " (WRONG)",
                                                           t2 / t1))
    return "\n".join(lines)


def _device_name():
    if cuda.simulator_enabled():
        return "the CUDA simulator (%d CPUs)" % (os.cpu_count() or 0)
    name = cuda.get_current_device().name
    return "%s x %d" % (name.decode() if isinstance(name, bytes) else name, len(cuda.gpus))


def _dask_cuda_version():
    try:
        import dask_cuda
        return ", dask-cuda %s" % dask_cuda.__version__
    except ImportError:
        return ""


def write(text):
    from results_md import replace_section
    replace_section("<!-- begin dask-gpu: written by benchmarks/dask_gpu.py -->", "<!-- end dask-gpu -->",
                    "## Dask on the GPU: LocalCUDACluster beside one process\n\n" + text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=None, help="neurons in all (default 100,000,000; --sim 200,000)")
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sim", action="store_true", help="LocalCluster on the simulator, small n")
    parser.add_argument("--write", action="store_true", help="write the table into RESULTS.md")
    args = parser.parse_args()
    if args.sim and not cuda.simulator_enabled():
        sys.exit("--sim: set CUJIT_ENABLE_CUDASIM=1 (the workers read it from the environment)")
    if args.n is None:
        args.n = 200_000 if args.sim else 100_000_000
    text = measure(args)
    print(text)
    if args.write and not args.sim:
        write(text)


if __name__ == "__main__":
    main()
