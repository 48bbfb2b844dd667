"""make bench: every benchmark, for cujit and its anchors, each tool in its own process, on the
machine's GPU. Writes a table to benchmarks/RESULTS.md (device, date, absolute figures, ratios).

    python benchmarks/run.py            # the full sizes; writes the GPU section of RESULTS.md
    python benchmarks/run.py --small    # each benchmark's small size; prints the table only
                                        # (with CUJIT_ENABLE_CUDASIM=1 NUMBA_ENABLE_CUDASIM=1
                                        # it checks the scripts on the simulators)
    python benchmarks/run.py --sim      # the simulator benchmarks (SIM_BENCHMARKS), on a CPU
                                        # machine; writes the simulator section of RESULTS.md
                                        # (with --small: small sizes, printed only)

RESULTS.md holds one section per mode between marker comments; a run rewrites its own section
and keeps the other, so the GPU table and the simulator table can come from different machines.

Each benchmark is a script `benchmarks/X.py TOOL N [ARGS...]` that prints one JSON line with at
least "best_s" and "correct" and the figure named in its entry of BENCHMARKS below. To add one,
write the script and append an entry (its `tools` say which of TOOLS it has a version for; the
others get a "-" cell, and a table shows only the tools some benchmark of it has). A tool that
cannot run (CuPy is not installed, a simulator lacks a feature, no GPU for the raw C++ loop)
gets an "error: ..." cell with the last line the script wrote to stderr.
"""
import datetime
import json
import os
import platform
import subprocess
import sys
from importlib import metadata
from typing import Dict, NamedTuple, Tuple, Union

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "RESULTS.md")
TOOLS = ("cujit", "numba", "cupy", "raw")
# raw: a C++ loop over the CUDA driver API (raw_launch.cpp), the floor for what Python adds.
TOOL_NAMES = {"cujit": "cujit", "numba": "numba-cuda", "cupy": "CuPy", "raw": "raw C++"}


class Benchmark(NamedTuple):
    script: str  # a file in benchmarks/, run as `script TOOL N *args`
    label: str  # the workload cell; {n} is the size the script reports (or was given)
    key: str  # the JSON field shown in the table (and divided for the ratio column)
    fmt: str  # how to format that field: "%.2f ..." formats the key; "%(field).2f ..." or
    #           "{field:,.0f} ..." formats the script's whole JSON object, for a cell that shows
    #           more than one figure
    goal: str  # the goal cell
    n: Union[int, Dict[str, int]]  # the size for a full run; a dict gives each tool its own
    #                                (a rate measured on a slow tool with a smaller workload)
    small_n: Union[int, Dict[str, int]]  # the size for --small (fits the simulators)
    args: Tuple[str, ...] = ()  # further arguments after N
    tools: Tuple[str, ...] = ("cujit", "numba")  # the tools the script has a version for
    anchor: str = ""  # a tool the goal is stated against: the goal cell adds cujit / anchor


BENCHMARKS = [
    Benchmark("hidden_layer.py", "hidden layer, n = {n:,}, host in/out (best of 5)",
              "best_s", "%.3f s", "under 1 s (course)", 100_000_000, 100_000),
    Benchmark("ufunc_fusion.py", "hidden layer, n = {n:,}, device arrays, the course's three ufunc calls "
              "with out= then synchronize, fused (CUJIT_FUSE=0: unfused, same process; best of 10)",
              "out_fused_s", "%(out_fused_s).4f s fused, %(out_unfused_s).4f s unfused (%(out_speedup).2fx; "
              "chain without out= %(chain_speedup).2fx)", "fused faster than unfused, bit-identical",
              100_000_000, 100_000, (), ("cujit",)),
    Benchmark("matmul.py", "tiled matmul (shared memory, TPB = 16), {n} x {n} float32, device arrays, "
              "kernel time (best of 5)", "tflops", "%.2f TFLOP/s",
              "numba-cuda about 7.0 TFLOP/s on an H100", 4096, 16),
    Benchmark("histogram.py", "histogram, n = {n:,} int32 into 256 bins, global atomics, device "
              "arrays, kernel time (best of 5)", "gelems", "%.2f Gelem/s",
              "numba-cuda about 8.1 Gelem/s", 100_000_000, 1024, ("global",)),
    Benchmark("histogram.py", "histogram, n = {n:,} int32 into 256 bins, shared-memory privatised "
              "bins, device arrays, kernel time (best of 5)", "gelems", "%.2f Gelem/s",
              "-", 100_000_000, 1024, ("shared",)),
    Benchmark("transpose.py", "transpose through a 32 x 32 shared tile read down its columns, {n} x {n} "
              "float32, device arrays, kernel time (best of 5)", "gbps", "%.0f GB/s",
              "cujit pads the tile's rows (33 float32); numba-cuda keeps 32", 8192, 64),
    Benchmark("reduce.py", "cuda.reduce sum, n = {n:,} float32 on the device, result to the host "
              "(best of 20 calls)", "gbps", "%.0f GB/s",
              "above 2,500 GB/s (numba-cuda about 232 GB/s)", 100_000_000, 100_000),
    Benchmark("transfer.py", "host <-> device copy, {n:,} bytes (float32), pageable host arrays, "
              "into existing arrays, slower direction (best of 5 each way)", "gbps",
              "%(gbps).1f GB/s (H2D %(h2d_gbps).1f, D2H %(d2h_gbps).1f)",
              "within 1.5x of pinned (row below)", 400_000_000, 4_000_000, ("pageable",),
              ("cujit", "numba", "cupy")),
    Benchmark("transfer.py", "host <-> device copy, {n:,} bytes (float32), pinned host arrays, "
              "into existing arrays, slower direction (best of 5 each way)", "gbps",
              "%(gbps).1f GB/s (H2D %(h2d_gbps).1f, D2H %(d2h_gbps).1f)",
              "-", 400_000_000, 4_000_000, ("pinned",), ("cujit", "numba", "cupy")),
    Benchmark("alloc.py", "device_array of {n:,} bytes (float32) and its free, per call (mean of "
              "1,000 in a loop, best of 5 loops)", "us", "%.2f us",
              "under 5 us (numba-cuda about 100 us)", 4_000_000, 4_000_000, (),
              ("cujit", "numba", "cupy")),
    Benchmark("ufunc_add.py", "ufunc add (vectorize, target='cuda'), n = {n:,} float32 device "
              "arrays into a device array, 12 bytes an element; in brackets a D2D copy of n "
              "float32, 8 bytes an element (best of 10 each)", "gbps",
              "%(gbps).0f GB/s (%(pct_of_copy).0f%% of copy, %(copy_gbps).0f GB/s)",
              "at least 95% of a D2D copy (numba-cuda 2,092 GB/s, copy 2,930 GB/s)",
              100_000_000, 100_000, (), ("cujit", "numba", "cupy")),
    # Issue 6: what a call costs where the work is small, and what compiling costs.
    Benchmark("launch.py", "launch of an almost empty kernel, k[1, 32](d_a): one float32 device "
              "array (mean of {n:,} launches in a loop, best of 5 loops)", "us", "%.2f us",
              "at most 1.25x raw C++ (numba-cuda 30 us)", 10_000, 50, ("1array",),
              ("cujit", "numba", "cupy", "raw"), "raw"),
    Benchmark("launch.py", "launch of an almost empty kernel, k[1, 32](d_a, d_b, d_c, 1.0, 2): "
              "three float32 device arrays and two scalars (mean of {n:,} launches in a loop, best "
              "of 5 loops)", "us", "%.2f us", "at most 1.25x raw C++ (numba-cuda 54 us)", 10_000,
              50, ("3arrays2scalars",), ("cujit", "numba", "cupy", "raw"), "raw"),
    Benchmark("ufunc_call.py", "CUDA ufunc add(d_a, d_b, out=d_c), n = {n:,} float32 device "
              "arrays, per call (mean of 1,000 calls in a loop, best of 5 loops)", "us", "%.1f us",
              "at most 8 us (numba-cuda 104 us)", 100_000, 1_000, ("device_add",),
              ("cujit", "numba", "cupy")),
    Benchmark("ufunc_call.py", "CUDA ufunc add(a, b), {n} x {n} int64 host arrays, result to the "
              "host, per call (mean of 1,000 calls in a loop, best of 5 loops)", "us", "%.1f us",
              "at most 40 us (numba-cuda 560 us)", 4, 4, ("host_add_int64",),
              ("cujit", "numba", "cupy")),
    Benchmark("ufunc_call.py", "CUDA ufunc gaussian_pdf(x, mean, sigma) (the course's), n = {n:,} "
              "float32 host array, float32 mean and sigma, result to the host, per call (mean of "
              "20 calls, best of 5 loops)", "ms", "%.2f ms", "at most 1.0 ms (numba-cuda 2.57 ms)",
              1_000_000, 10_000, ("gaussian_pdf",), ("cujit", "numba", "cupy")),
    Benchmark("first_launch.py", "first new kernel (axpy) of a warm process, empty cache, "
              "decoration to result on the host; then the next new kernel (hypot) in the same "
              "process (best of {n} fresh processes)", "ms",
              "%(ms).1f ms, next %(next_ms).1f ms",
              "first at most 0.10 s, next at most 0.03 s (numba-cuda 1.34 s)", 3, 2, ("first",),
              ("cujit", "numba", "cupy")),
    Benchmark("first_launch.py", "the same first kernel (axpy) in a new process, disk cache warm "
              "(@cuda.jit(cache=True)), decoration to result on the host (best of {n} processes)",
              "ms", "%.1f ms", "at most 5 ms", 3, 2, ("cached",), ("cujit", "numba", "cupy")),
    Benchmark("import_time.py", "import in a fresh process (cujit: import cujit; numba-cuda: "
              "import numba, from numba import cuda; CuPy: import cupy), NumPy's import included "
              "(best of {n} processes)", "ms", "%.0f ms", "at most 0.15 s (numba-cuda 1.1 s)",
              5, 2, (), ("cujit", "numba", "cupy")),
    # The CPU target (issue 5): the numba column is Numba's CPU compiler on the same machine.
    Benchmark("cpu.py", "CPU: @jit monte_carlo_pi(n = {n:,}) with random.random (best of 20)",
              "ms", "%.2f ms", "at or under Numba (0.56: 11.4 ms on 2 cores)", 1_000_000, 10_000,
              ("monte_carlo_pi",)),
    Benchmark("cpu.py", "CPU: @vectorize cpu_gaussian_pdf over {n:,} float32, float32 mean and "
              "sigma (best of 20)", "ms", "%.2f ms", "at or under Numba (6.1 ms on 2 cores)",
              1_000_000, 10_000, ("gaussian_pdf",)),
    Benchmark("cpu.py", "CPU: first call of a new @jit function (hypot), empty cache, decoration "
              "to result", "ms", "%.0f ms", "at or under Numba (0.32 s)", 1, 1, ("compile",)),
    Benchmark("cpu.py", "CPU: the same in a second process, disk cache warm (@jit(cache=True))",
              "ms", "%.1f ms", "under 20 ms", 1, 1, ("cached",)),
]

# python benchmarks/run.py --sim: the simulators on the CPU machine the command runs on (the
# scripts switch them on themselves). Numba's simulator runs a Python thread per CUDA thread,
# so it gets a smaller workload: the figure is a rate, and the cell says the size.
SIM_BENCHMARKS = [
    Benchmark("sim.py", "axpy kernel out[i] = a * x[i] + y[i], float32, blocks of 256 (best of 3 "
              "launches)", "threads_per_s", "{threads_per_s:,.0f} threads/s (n = {n:,})",
              "at least 5,000,000 threads/s (Numba 0.56: 5,400)", {"cujit": 1 << 24, "numba": 4096},
              {"cujit": 1 << 16, "numba": 512}, ("axpy",)),
    Benchmark("sim.py", "block reduction: blocks of 256 sum their values in shared memory, "
              "cuda.syncthreads() after the loads and after each of the 8 levels (best of 3 "
              "launches)", "threads_per_s", "{threads_per_s:,.0f} threads/s (n = {n:,})",
              "at least 10,000,000 threads/s (issue 23; Numba 0.56: 553)", {"cujit": 1 << 20, "numba": 1024},
              {"cujit": 1 << 12, "numba": 256}, ("reduce",)),
]


def run(script, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, os.path.join(HERE, script), *args], capture_output=True, text=True, env=env, timeout=900)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:] or ["no output"]}
    return json.loads(lines[-1])


def device_name():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.strip()
        return out or "unknown"
    except OSError:
        return "no GPU (nvidia-smi not found)"


def size_for(n, tool):
    """A benchmark's size for `tool` (n is one size for all tools or a dict by tool)."""
    return n[tool] if isinstance(n, dict) else n


def row(bench, small, tools):
    """Runs one benchmark with each of its tools and returns its table row (the columns of
    `tools`)."""
    n = bench.small_n if small else bench.n
    results = {}
    for tool in tools:
        if tool in bench.tools:
            results[tool] = run(bench.script, tool, str(size_for(n, tool)), *bench.args)
            print(bench.script, *bench.args, tool, results[tool], flush=True)
        else:
            results[tool] = None

    def cell(r):
        if r is None:
            return "-"
        if "error" in r:
            return "error: %s" % r["error"][0][:80]
        try:
            if "{" in bench.fmt:
                text = bench.fmt.format(**r)
            else:
                text = bench.fmt % r if "%(" in bench.fmt else bench.fmt % r[bench.key]
        except (KeyError, TypeError, ValueError) as e:
            return "error: bad output (%s)" % e
        return text + ("" if r.get("correct") else " (WRONG)")

    def ratio(tool):
        c, other = results.get("cujit") or {}, results.get(tool) or {}
        if bench.key not in c or bench.key not in other or not other[bench.key]:
            return None
        x = c[bench.key] / other[bench.key]
        return ("%.0fx" if x >= 100 else "%.2fx" if x >= 0.01 else "%.4fx") % x

    goal = bench.goal
    if bench.anchor:
        goal += "; cujit / %s: %s" % (TOOL_NAMES[bench.anchor], ratio(bench.anchor) or "-")
    sizes = [r["n"] for r in results.values() if r and "n" in r]
    label = bench.label.format(n=sizes[0] if sizes else size_for(n, "cujit"))
    cells = " | ".join(cell(results[tool]) for tool in tools)
    return "| %s | %s | %s | %s |" % (label, cells, ratio("numba") or "-", goal)


def table(benchmarks, small):
    """The table's lines: a column for each tool that some benchmark has a version for."""
    tools = [t for t in TOOLS if any(t in b.tools for b in benchmarks)]
    rows = [row(b, small, tools) for b in benchmarks]
    return ["| workload | %s | cujit / numba-cuda | goal |" % " | ".join(TOOL_NAMES[t] for t in tools),
            "| --- |" + " --- |" * (len(tools) + 2)] + rows


# What the figures mean, kept with the script so every run's RESULTS.md carries it.
NOTES = [
    "- Matmul and histograms run the same kernel source under both tools, so equal figures are",
    "  expected: both compile through the CUDA toolchain's optimiser. The issue's 8.1 Gelem/s for",
    "  numba-cuda's global-atomic histogram came from other data; on this data (uniform over 256",
    "  bins, so every bin is contended) numba-cuda itself reaches the figure in the table.",
    "- cuda.reduce: one launch of SMs x 4 blocks with eight loads in flight per thread, the last",
    "  block folding the partials; numba-cuda launches 64 blocks, then a second pass. About 35 us",
    "  of each call is Python and launch overhead (measured with n = 1,000); the kernel itself",
    "  streams at about 3 TB/s.",
    "- Host <-> device copies (transfer.py): one 400 MB float32 array each way, from and into",
    "  arrays allocated and written before timing (no first-touch page faults measured), each copy",
    "  synchronised; H2D is d.copy_to_device(h), D2H d.copy_to_host(h_out) (CuPy: d.set(h),",
    "  d.get(out=h_out)). The cell's figure is the slower direction's best of 5, the two",
    "  directions in brackets. Pageable rows use NumPy arrays; pinned rows cuda.pinned_array",
    "  (CuPy: cupyx.empty_pinned). Every D2H result is compared in full with the source.",
    "- device_array (alloc.py): 1,000 times `a = cuda.device_array(1_000_000, np.float32); del a`",
    "  (CuPy: cupy.empty), then numba-cuda's queue of deferred frees is flushed and the device",
    "  synchronised inside the timed region, so every free is counted; the cell is the loop's",
    "  time / 1,000, best of 5 loops. CuPy allocates from its memory pool, its default. The",
    "  device's free memory is checked not to shrink over the loops (no leak).",
    "- ufunc add (ufunc_add.py): add(d_a, d_b, out=d_c) synchronised, best of 10, counting 12",
    "  bytes an element (two reads, one write); CuPy runs cupy.add(a, b, out=c). In the same",
    "  process a device-to-device copy of n float32 (d_copy.copy_to_device(d_a); CuPy:",
    "  cupy.copyto), counting 8 bytes an element, gives the copy figure in brackets; the",
    "  percentage (pct_of_copy in the JSON) is the add's GB/s over the copy's, which the goal",
    "  asks to be at least 95%. Each tool's own copy is the bar, so a slow copy flatters its",
    "  tool: on an H100 numba-cuda's copy_to_device between device arrays ran at about 1,820",
    "  GB/s, while cudaMemcpy (CuPy's copyto) ran at about 2,880 GB/s, the issue's 2,930, so",
    "  numba-cuda's add can reach over 100% of its copy.",
    "- Launch (launch.py): k[1, 32](args) of a kernel whose first thread adds to element 0 of",
    "  each array, 10,000 times in a Python loop, then one synchronize; the cell is the loop's",
    "  time / 10,000, best of 5 loops, so it is the host's cost of a launch wherever that is",
    "  above the GPU's own time for a tiny kernel. The scalars are a Python float and int. CuPy",
    "  launches the same kernels as cupy.RawKernel objects (arrays passed as pointers). raw C++ is",
    "  raw_launch.cpp, built with g++ by launch.py: the same kernels compiled by NVRTC to a cubin",
    "  and cuLaunchKernel in a C++ loop, arrays passed as cujit passes them (pointer, shape,",
    "  stride); the goal cell ends with cujit / raw C++.",
    "- CUDA ufunc calls (ufunc_call.py): the mean of a loop of calls (1,000; 20 for gaussian_pdf)",
    "  ending with a synchronize, best of 5 loops. Device add: device inputs and out=, nothing",
    "  copied. 4 x 4 int64: host inputs, the result returned as a NumPy array (two copies in, one",
    "  out, each call). gaussian_pdf: the course's code over 10^6 float32 host values with",
    "  np.float32 mean and sigma (4 MB in and 4 MB out each call, pageable). CuPy runs cupy.add,",
    "  and for gaussian_pdf an ElementwiseKernel with the same double-precision exponent, with",
    "  cupy.asarray and cupy.asnumpy around the call for host data.",
    "- First launch (first_launch.py): fresh processes that have imported the tool and copied the",
    "  inputs to the device (so the context exists) time from importing a module file holding one",
    "  @cuda.jit(cache=True) kernel to its result on the host: axpy over 1,024 float32, then in",
    "  the same process a second, different kernel (hypot), the \"next\". Caches start empty",
    "  (CUJIT_CACHE_DIR, NUMBA_CACHE_DIR and CUPY_CACHE_DIR in a new folder for each process). The",
    "  cached row: one process fills the caches, then new processes time axpy again. CuPy compiles",
    "  the same kernels written in CUDA C++ (RawKernel) with NVRTC: what NVRTC alone costs.",
    "- Import (import_time.py): time.perf_counter around the import statements in a new",
    "  interpreter, the bytecode already cached (one untimed process runs first); NumPy's own",
    "  import is counted for every tool.",
    "- CPU rows (cpu.py): the numba column is Numba's own CPU compiler (the numba package that",
    "  numba-cuda runs on), in its own process on the same machine. monte_carlo_pi and",
    "  cpu_gaussian_pdf are the course's code (a lazy @vectorize, called with float32 x, mean and",
    "  sigma); compile is decoration plus first call of hypot in a fresh process with an empty",
    "  cache; cached repeats that in a second process with the disk cache the first one filled",
    "  (Numba needs cache=True for that; both use it). Tool imports are not counted.",
]


SIM_NOTES = [
    "- Simulators (sim.py): each tool in its own process on this machine, the kernels' inputs",
    "  already in (simulated) device arrays; one warm-up launch of a single block (cujit compiles",
    "  the kernel with the host C++ compiler there), then the launch up to cuda.synchronize(),",
    "  best of 3. Numba's simulator runs every CUDA thread as a Python thread, so it is given a",
    "  smaller n (in the cell); the figure is threads per second either way. The goals' Numba",
    "  figures are Numba 0.56's simulator on another machine; the numba-cuda column is the",
    "  version above, on this one.",
    "- The block reduction's kernel runs as a stackless coroutine (issue 23; before, every thread",
    "  was a fiber: 0.30-0.35M threads/s against the coroutine's 5.4-6.0M, back to back on this",
    "  machine under a load average of 17, where the fibers' figure without load was 1.7M).",
]

HEADER = [
    "# Benchmark results", "",
    "Two sections, each written by its own run of benchmarks/run.py, which rewrites only its own:",
    "the GPU benchmarks (`make bench`, `python benchmarks/run.py`) and the simulators on a CPU",
    "machine (`python benchmarks/run.py --sim`). Each tool runs in its own process; all figures in",
    "one table come from the same run on the same machine. The ratio divides the cujit figure by",
    "the numba-cuda one: below 1 is better for cujit where the figure is a time, above 1 where it",
    "is a rate. A \"-\" cell: the benchmark has no version for that tool.", "",
]


# Sections written by hand (what bounds a missed goal, from a profile); runs keep them as they are.
HAND_SECTIONS = ("missed",)


def markers(name):
    if name in HAND_SECTIONS:
        return "<!-- begin %s: written by hand, kept by benchmarks/run.py -->" % name, "<!-- end %s -->" % name
    return "<!-- begin %s: written by benchmarks/run.py -->" % name, "<!-- end %s -->" % name


def write_section(name, lines):
    """Replaces section `name` of RESULTS.md in place (results_md.py: the rest of the file stays)."""
    from results_md import replace_section
    begin, end = markers(name)
    replace_section(begin, end, "\n".join(lines), header="\n".join(HEADER) + "\n")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def versions():
    """The versions of Python and of the installed tools, as one line."""
    found = {}
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower()
        if name in ("numpy", "numba", "numba-cuda") or name.startswith("cupy"):
            found.setdefault(name, dist.version)
    names = {"numpy": "NumPy", "numba": "numba", "numba-cuda": "numba-cuda"}
    parts = ["Python %s" % platform.python_version()]
    parts += ["%s %s" % (names.get(k, "CuPy (%s)" % k), v) for k, v in sorted(found.items())]
    return ", ".join(parts)


def main():
    small = "--small" in sys.argv[1:]
    sim = "--sim" in sys.argv[1:]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if sim:
        name, rows = "sim", table(SIM_BENCHMARKS, small)
        text = ["## Simulators (CPU machine)", "",
                "- machine: %s, %d logical CPUs (no GPU used); load average %.1f when the run "
                "began (other work on the machine slows the figures)" % (cpu_name(), os.cpu_count() or 0, load),
                "- date: %s" % now, "- software: %s" % versions(), ""] + rows + [
                    "", "Notes:", ""] + SIM_NOTES
    else:
        name, rows = "gpu", table(BENCHMARKS, small)
        text = ["## GPU", "", "- device: %s" % device_name(), "- date: %s" % now,
                "- software: %s" % versions(), ""] + rows + ["", "Notes:", ""] + NOTES
    if not small:
        write_section(name, text)
    print("\n".join(text))


if __name__ == "__main__":
    main()
