"""Many Python threads and several processes at once (issue 8). Each case runs in a fresh process
with a time limit, so a hang fails the test instead of the suite.

- 8 threads each launch the same 100 distinct kernels (distinct sources, so 100 separate compiles
  into an empty disk cache), each thread starting at a different kernel: threads compile different
  programs at once and race to compile, load and launch the same one. Every result is checked, and
  the cache afterwards holds exactly 100 programs. On the simulator and, where one exists, the GPU.
- Two processes fill one disk cache at the same time with overlapping programs; afterwards every
  entry is valid and a third process finds all of them (it compiles nothing)."""
import os
import subprocess
import sys
import textwrap

KERNELS = 100
THREADS = 8
# Four kinds of body, each kernel with its own constant: the generated programs all differ.
# Each expression means the same for int64 in C++ and for Python's ints at these sizes.
BODIES = ["v * %d + i", "v + %d - i * 3", "(v ^ %d) + i * i", "v - %d * (i + 1)"]


def kernel_module(kernels):
    """The source of a program defining kernels k0...k<n-1> and the expected value of each."""
    lines = ["import numpy as np", "from cujit import cuda", ""]
    for k in range(kernels):
        body = BODIES[k % len(BODIES)] % (k + 1)
        lines += ["@cuda.jit", "def k%d(a, v):" % k, "    i = cuda.grid(1)", "    if i < a.size:",
                  "        a[i] = %s" % body, "",
                  "def e%d(v, i):" % k, "    return %s" % body, ""]
    lines.append("KERNELS = [%s]" % ", ".join("(k%d, e%d)" % (k, k) for k in range(kernels)))
    return "\n".join(lines) + "\n"


THREADS_MAIN = textwrap.dedent("""
    import threading
    import time
    import numpy as np
    from cujit import cuda
    from kernels import KERNELS

    errors = []
    start = threading.Barrier(THREADS)

    def work(t):
        try:
            start.wait()
            n = len(KERNELS)
            for j in range(n):
                k = (j + t * n // THREADS) % n  # each thread starts elsewhere in the list
                kern, expect = KERNELS[k]
                v = t * 1000 + k
                d = cuda.to_device(np.zeros(8, np.int64))
                kern[1, 8](d, v)
                got = d.copy_to_host().tolist()
                want = [expect(v, i) for i in range(8)]
                if got != want:
                    errors.append((t, k, got, want))
        except Exception as e:  # reported below, with the thread
            errors.append((t, repr(e)))

    t0 = time.perf_counter()
    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("seconds: %.1f" % (time.perf_counter() - t0))
    print("errors:", errors[:5], len(errors))
""")

FILL = textwrap.dedent("""
    import sys
    import numpy as np
    from cujit import cuda

    def make(c):
        @cuda.jit
        def kern(a):
            a[0] = c
        return kern

    # Both processes build forms 0-11; each also has four of its own.
    own = int(sys.argv[1])
    for c in list(range(12)) + [100 + own * 10 + j for j in range(4)]:
        d = cuda.to_device(np.zeros(1))
        make(c)[1, 1](d)
        assert d.copy_to_host()[0] == c
    print("ok")
""")


def sim_env(tmp_path):
    # PYTHONPATH: the children import the cujit this process imported, from any folder.
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"), CUJIT_CHECK_PTX="0",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("CUJIT_DISABLE_CACHE", None)
    return env


def write(tmp_path, name, code):
    # cujit compiles from source files, so each program is a file.
    path = tmp_path / name
    path.write_text(code)
    return str(path)


def test_eight_threads_launch_a_hundred_distinct_kernels(tmp_path, target):
    write(tmp_path, "kernels.py", kernel_module(KERNELS))
    script = write(tmp_path, "threads.py", "THREADS = %d\n" % THREADS + THREADS_MAIN)
    env = sim_env(tmp_path)
    if target == "gpu":
        env.pop("CUJIT_ENABLE_CUDASIM")
        env.pop("NUMBA_ENABLE_CUDASIM", None)
    r = subprocess.run([sys.executable, script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "errors: [] 0" in r.stdout, r.stdout
    # Each kernel was compiled once, into the empty cache: .cpp beside each host build, .cu beside
    # each NVRTC build.
    sources = list((tmp_path / "cache").rglob("*.cpp" if target == "sim" else "*.cu"))
    assert len(sources) == KERNELS, r.stdout


def test_two_processes_fill_one_cache(tmp_path):
    script = write(tmp_path, "fill.py", FILL)
    env = sim_env(tmp_path)
    procs = [subprocess.Popen([sys.executable, script, str(k)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for k in (0, 1)]
    for p in procs:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0 and "ok" in out, err[-3000:]
    cache = tmp_path / "cache"
    libraries = sorted(p for p in cache.rglob("*.so"))
    assert len(libraries) == 12 + 8  # the shared forms once each, despite the race
    assert not [p for p in cache.rglob("*") if ".tmp" in p.name]  # no temporary files left
    # A third process finds every entry valid: a damaged one would be removed and rebuilt.
    before = {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}
    r = subprocess.run([sys.executable, script, "0"], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()} == before
