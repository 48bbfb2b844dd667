"""The disk cache seen from Python (issue 6): a second process compiles nothing for the same
code, and code that differs only in its file name (a Jupyter cell in a new kernel is
/tmp/ipykernel_<pid>/<hash>.py) reuses the entry. The store itself (corrupt entries, concurrent
writers) is tested in tests_cpp/toolchain_test.cpp."""
import os
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import numpy as np
    from cujit import njit, cuda

    @njit
    def hypot(x, y):
        return (x * x + y * y) ** 0.5

    @cuda.jit
    def double(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= 2

    assert hypot(3.0, 4.0) == 5.0
    d = cuda.to_device(np.arange(4.0))
    double[1, 4](d)
    assert (d.copy_to_host() == np.arange(4.0) * 2).all()
    with open("/proc/self/maps") as f:
        print("nvrtc loaded:", "libnvrtc" in f.read())
""")


def run_in(path, cache):
    path.write_text(PROGRAM)
    # CUJIT_CHECK_PTX: the simulator also compiles each program to PTX with NVRTC, through the
    # cache, as GPU code is.
    # CUJIT_HOST_PCH=wait: the precompiled prelude is built before the first compile, not in the
    # background, so the cache's listing is complete when the process ends.
    env = dict(os.environ, CUJIT_CACHE_DIR=str(cache), CUJIT_ENABLE_CUDASIM="1", CUJIT_DEBUG="1",
               CUJIT_CHECK_PTX="1", CUJIT_HOST_PCH="wait")
    env.pop("CUJIT_DISABLE_CACHE", None)
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr, r.stdout


def entries(cache):
    return sorted(p.name for p in cache.rglob("*") if p.is_file())


def test_second_process_and_renamed_file_hit_the_cache(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "a").mkdir()
    first, out = run_in(tmp_path / "a" / "prog.py", cache)
    assert "host compiler" in first and "nvrtc loaded: True" in out
    filled = entries(cache)
    assert any(n.endswith(".so") for n in filled)
    # The same code from another file name: no new entries, and each build is a cache hit
    # (the host compiler stage then only loads the library).
    (tmp_path / "b").mkdir()
    again, out = run_in(tmp_path / "b" / "cell_9f2.py", cache)
    assert entries(cache) == filled
    assert again.count("host compiler") == first.count("host compiler")
    # Every build was a hit: NVRTC (a 100 MB library) was never loaded; the key names it by its
    # file, not by asking it its version.
    assert "nvrtc loaded: False" in out


def test_entries_that_are_not_regular_files_are_misses(tmp_path):
    """A FIFO in the cache hung the process on its read; a symlink to /dev/zero was read until
    memory ran out. Only regular files of a sane size are read; anything else is a miss."""
    cache = tmp_path / "cache"
    run_in(tmp_path / "prog.py", cache)
    replaced = 0
    for i, p in enumerate(sorted(q for q in cache.rglob("*") if q.is_file())):
        if p.suffix in (".cpp", ".cu"):
            continue
        p.unlink()
        if i % 2:
            os.mkfifo(p)
        else:
            p.symlink_to("/dev/zero")
        replaced += 1
    assert replaced >= 3
    env = dict(os.environ, CUJIT_CACHE_DIR=str(cache), CUJIT_ENABLE_CUDASIM="1", CUJIT_CHECK_PTX="1")
    env.pop("CUJIT_DISABLE_CACHE", None)
    (tmp_path / "prog.py").write_text(PROGRAM)
    r = subprocess.run([sys.executable, str(tmp_path / "prog.py")], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr


def dead_pid():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temporaries_are_removed(tmp_path):
    """A process killed while it compiles leaves <entry>.tmp.<pid>.* behind; the next process that
    writes to the cache removes those whose writer is gone (or that are very old), and leaves a
    live writer's alone."""
    cache = tmp_path / "cache"
    (cache / "ab").mkdir(parents=True)
    old = 2 * 3600
    dead = cache / "ab" / f"ab12.so.tmp.{dead_pid()}.77.0"
    ancient = cache / "ab" / f"ab34.cubin.tmp.{os.getpid()}.77.1"
    live = cache / "ab" / f"ab56.so.tmp.{os.getpid()}.77.2"
    recent_dead = cache / "ab" / f"ab78.so.tmp.{dead_pid()}.77.3"
    for p in (dead, ancient, live, recent_dead):
        p.write_bytes(b"x" * 100)
    for p in (dead, ancient):
        t = os.stat(p).st_mtime - old
        os.utime(p, (t, t))
    run_in(tmp_path / "prog.py", cache)
    assert not dead.exists() and not ancient.exists()
    assert live.exists() and recent_dead.exists()  # may still be being written
