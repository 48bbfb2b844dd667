"""Many Python threads and several processes at once (issue 8). Each case runs in a fresh process
with a time limit, so a hang fails the test instead of the suite.

- 8 threads each make and launch 100 kernels (800 dispatchers; their sources take 16 forms, so
  the host compiler runs 16 times while every thread races to compile, load and launch), and
  every result is checked.
- Two processes fill one disk cache at the same time with overlapping programs; afterwards every
  entry is valid and a third process finds all of them (it compiles nothing)."""
import os
import subprocess
import sys
import textwrap

THREADS = textwrap.dedent("""
    import threading
    import numpy as np
    from cujit import cuda

    def make(k):
        form = k % 16
        # The closure constant is part of the generated code: 16 distinct programs.
        @cuda.jit
        def kern(a, v):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = v * 2 + form
        return kern

    errors = []

    def work(t):
        try:
            for n in range(100):
                k = make(t * 100 + n)
                d = cuda.to_device(np.zeros(8))
                k[1, 8](d, n)
                expect = n * 2 + (t * 100 + n) % 16
                got = d.copy_to_host()
                if not (got == expect).all():
                    errors.append((t, n, got[0], expect))
        except Exception as e:  # reported below, with the thread
            errors.append((t, repr(e)))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
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
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"), CUJIT_CHECK_PTX="0")
    env.pop("CUJIT_DISABLE_CACHE", None)
    return env


def write(tmp_path, name, code):
    # cujit compiles from source files, so each program is a file.
    path = tmp_path / name
    path.write_text(code)
    return str(path)


def test_eight_threads_launch_a_hundred_kernels_each(tmp_path):
    script = write(tmp_path, "threads.py", THREADS)
    r = subprocess.run([sys.executable, script], env=sim_env(tmp_path), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "errors: [] 0" in r.stdout, r.stdout


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
