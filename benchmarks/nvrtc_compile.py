"""Where a new kernel's NVRTC time goes, in one warm process (no GPU needed).

    python benchmarks/nvrtc_compile.py [REPEATS] [ARCH] [--cpu]     (defaults: 7, sm_90)

Generates the programs of benchmarks/first_launch.py's two kernels (axpy, hypot) as cujit does
(`_core.generate_kernel_source`) and compiles each with `_core.nvrtc_compile`, which runs NVRTC as
a kernel launch does but without the disk cache. Every compile gets a different source (a unique
`__device__` variable at the end), so nothing can be served from any cache. Rows, each the median
(and best) of REPEATS compiles in milliseconds, taken round robin over the rows:

    cujit (PCH)        what a launch does now: the prelude as a header, its precompiled header
                       made by this process's first compile and used by the later ones
    cujit, no PCH      the same options (-minimal) without the precompiled header
    before             the options before precompiled headers: no -minimal, no PCH
    PTX only           cujit (PCH) for compute_XY: all but ptxas
    front end only     cujit (PCH) with -fdevice-syntax-only: parsing and templates only
    prelude only       axpy's prelude and an empty kernel: what the prelude costs with nothing else
                       (a program's prelude holds only the optional parts its code names)
    headerless         the kernel written as plain CUDA C++ without prelude (as CuPy's RawKernel)
    empty              an empty kernel without prelude: NVRTC's fixed cost

The first (creating) compile of the precompiled header is reported apart ("pch create"). With
--trace, each row's last compile also writes NVRTC's per-phase time trace
(-fdevice-time-trace) and its main phases are printed; each traced compile runs in a process of its
own after one untraced compile, without precompiled headers (CUJIT_NVRTC_PCH=0): NVRTC refuses a
PCH made with other options anyway, and NVRTC 13.0's profiler fails ("ptxas fatal: Parsed trace
file not in expected format"), aborts or crashes on the second traced compile of a process. Prints a table, then one JSON line with the medians.
benchmarks/NOTES-compile.md has the figures and what they mean.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from cujit import _core  # noqa: E402

AXPY = '''def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]
'''
HYPOT = '''def hypot(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sqrt(x[i] * x[i] + y[i] * y[i])
'''
HEADERLESS = {
    "axpy": r'''extern "C" __global__ void axpy(float* out, double a, const float* x, const float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)(a * x[i] + y[i]);
}
''',
    "hypot": r'''extern "C" __global__ void hypot_(float* out, const float* x, const float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sqrtf(x[i] * x[i] + y[i] * y[i]);
}
''',
}
EMPTY = 'extern "C" __global__ void empty_kernel() {}\n'


def generated(name, text, args, globs):
    f = _core.FunctionSource(name, text, "/tmp/%s_mod.py" % name, 1)
    f.set_globals(globs)
    return _core.generate_kernel_source(f, args, True)


_serial = [0]


def unique(src):
    _serial[0] += 1
    return src + "\n__device__ int cj_bench_unique_%d;\n" % _serial[0]


# --cpu: process CPU time instead of wall time (NVRTC runs on the calling thread), which a loaded
# machine moves far less (benchmarks/NOTES-compile.md's issue 23 figures).
CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


def timed(src, arch, options=(), pch=True, minimal=True):
    t0 = CLOCK()
    r = _core.nvrtc_compile(unique(src), arch, list(options), pch, minimal)
    return (CLOCK() - t0) * 1e3, r


def trace_phases(src, arch, options, pch, minimal):
    phases = ("CUDA C++ Front-End", "Processing Header File", "LibNVVM", "NVVM Module Linker",
              "NVVM Optimizer", "Total PTXAS Time")
    with tempfile.TemporaryDirectory() as d:
        base = os.path.join(d, "trace")
        _core.nvrtc_compile(unique(src), arch, list(options) + ["-fdevice-time-trace=" + base], pch, minimal)
        files = [os.path.join(d, f) for f in os.listdir(d)]
        if not files:
            return {}
        text = open(files[0]).read()
    events = json.JSONDecoder().raw_decode(text)[0]
    events = events["traceEvents"] if isinstance(events, dict) else events
    total = {p: 0.0 for p in phases}
    for e in events:
        if e.get("ph") == "X" and e.get("name") in total:
            total[e["name"]] += e["dur"] / 1e3
    return total


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    trace = "--trace" in sys.argv
    if "--trace-one" in sys.argv:
        repeats, arch = 1, args[2]
    else:
        repeats = int(args[0]) if args else 7
        arch = args[1] if len(args) > 1 else "sm_90"
    ptx_arch = "compute_" + arch.split("_")[1]
    cuda = ("module", "cuda")
    programs = {
        "axpy": generated("axpy", AXPY, ["float32[::1]", "float64", "float32[::1]", "float32[::1]"], {"cuda": cuda}),
        "hypot": generated("hypot", HYPOT, ["float32[::1]", "float32[::1]", "float32[::1]"],
                           {"cuda": cuda, "math": ("module", "math")}),
    }
    cut = programs["axpy"].index("// Generated by cujit")
    prelude_text = programs["axpy"][:cut]

    # NVRTC's first compile in a process loads the library and its builtins: not a new kernel's cost.
    _core.nvrtc_compile(EMPTY, arch, [], False, False)
    create_ms, r = (0.0, {"pch": ""}) if "--trace-one" in sys.argv else timed(programs["axpy"], arch)
    pch_created = r["pch"] == "created"

    rows = [
        ("cujit (PCH)", lambda k: (programs[k], arch, (), True, True)),
        ("cujit, no PCH", lambda k: (programs[k], arch, (), False, True)),
        ("before", lambda k: (programs[k], arch, (), False, False)),
        ("PTX only", lambda k: (programs[k], ptx_arch, (), True, True)),
        ("front end only", lambda k: (programs[k], ptx_arch, ("-fdevice-syntax-only",), True, True)),
        ("prelude only", lambda k: (prelude_text + EMPTY, arch, (), True, True)),
        ("headerless", lambda k: (HEADERLESS[k], arch, (), False, False)),
        ("empty", lambda k: (EMPTY, arch, (), False, False)),
    ]
    result = {"arch": arch, "repeats": repeats, "pch_create_ms": round(create_ms, 2), "pch": pch_created}
    if "--trace-one" in sys.argv:  # a child of --trace: one row's phases, as one JSON line
        label, k = args[0], args[1]
        src, a, opts, pch, minimal = dict(rows)[label](k)
        print(json.dumps(trace_phases(src, a, opts, pch, minimal)))
        return
    cases = [(label, k) + make(k) for label, make in rows for k in ("axpy", "hypot")]
    for _, _, src, a, opts, pch, minimal in cases:
        timed(src, a, opts, pch, minimal)  # a row's first compile makes its options' precompiled header
    # Round robin, so that a busy moment of the machine slows every row alike.
    times = {c[:2]: [] for c in cases}
    roles = {c[:2]: set() for c in cases}
    for _ in range(repeats):
        for label, k, src, a, opts, pch, minimal in cases:
            ms, r = timed(src, a, opts, pch, minimal)
            times[label, k].append(ms)
            roles[label, k].add(r["pch"] or "-")
    print("%-16s %-6s %10s %8s  %s" % ("row", "kernel", "median ms", "best ms", "pch"))
    for label, k, src, a, opts, pch, minimal in cases:
        med = statistics.median(times[label, k])
        result["%s/%s" % (label, k)] = round(med, 2)
        print("%-16s %-6s %10.1f %8.1f  %s" % (label, k, med, min(times[label, k]), ",".join(sorted(roles[label, k]))))
        if trace:
            env = dict(os.environ, CUJIT_NVRTC_PCH="0")
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--trace-one", label, k, arch],
                                 env=env, capture_output=True, text=True)
            ph = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else {}
            print("    " + (", ".join("%s %.1f" % (n, v) for n, v in ph.items()) or "trace failed: " + out.stderr[-200:]))
    print("pch create (first compile of the process, axpy): %.1f ms" % create_ms)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
