"""NVRTC's precompiled header for the prelude (src/toolchain/nvrtc_pch.h): NVRTC's background
thread writes it while the first compile of a prelude goes on without it (toolchain/nvrtc.cpp's
PCH maker), later compiles load it, the output is the same as without it, a changed file is
dropped without failing the compile, and the files are process scratch (gone at exit, not in the
disk cache). The table's own tests run with CUJIT_NVRTC_PCH_BACKGROUND=0 (the compile that finds
no PCH writes it itself), which makes them deterministic. Each test runs in a fresh process: the
PCH table is per process. Needs NVRTC 12.8+ (no GPU)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The children import the cujit this process imported (make test-asan runs another build).
import cujit  # noqa: E402

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(cujit.__file__)))

# Generates the programs of two kernels as cujit does, then runs STEPS (Python text) with
# compile(name, pch=True) -> the binding's dict, and prints the PCH counters as JSON.
HARNESS = textwrap.dedent('''
    import json, os, sys
    from cujit import _core

    def program(name, body, args):
        f = _core.FunctionSource(name, "def %s(out, x, y):\\n" % name + body, "/tmp/%s.py" % name, 1)
        f.set_globals({"cuda": ("module", "cuda"), "math": ("module", "math")})
        return _core.generate_kernel_source(f, args, True)

    ARGS = ["float32[::1]"] * 3
    PROGRAMS = {
        "add": program("add", "    i = cuda.grid(1)\\n    if i < out.size:\\n        out[i] = x[i] + y[i]\\n", ARGS),
        "hyp": program("hyp", "    i = cuda.grid(1)\\n    if i < out.size:\\n"
                              "        out[i] = math.sqrt(x[i] * x[i] + y[i] * y[i])\\n", ARGS),
    }

    def compile(name, pch=True, arch="compute_90"):
        return _core.nvrtc_compile(PROGRAMS[name], arch, [], pch)

    version = tuple(int(p) for p in _core.toolchain_info()["nvrtc_version"].split("."))
    if version < (12, 8):
        print(json.dumps({"skip": "NVRTC %d.%d has no precompiled headers" % version}))
        sys.exit(0)
    out = {}
''')


def run(steps, tmp_path, **env):
    script = HARNESS + textwrap.dedent(steps) + "\nout['stats'] = _core.nvrtc_pch_stats()\nprint(json.dumps(out))\n"
    full_env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=PACKAGE_PARENT, **env)
    for name, default in (("CUJIT_NVRTC_PCH", None), ("CUJIT_NVRTC_PCH_BACKGROUND", "0"), ("CUJIT_NVRTC_PCH_WAIT", None)):
        if name not in env:
            full_env.pop(name, None)
            if default is not None:
                full_env[name] = default
    r = subprocess.run([sys.executable, "-c", script], env=full_env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    if "skip" in result:
        pytest.skip(result["skip"])
    return result


def test_first_compile_creates_the_pch_and_the_next_uses_it(tmp_path):
    out = run('''
        a = compile("add"); b = compile("hyp")
        out["roles"] = [a["pch"], b["pch"]]
        out["files_during"] = _core.nvrtc_pch_stats()["files"]
        out["same_output"] = b["image"] == compile("hyp", pch=False)["image"]
        out["no_pch_role"] = compile("add", pch=False)["pch"]
    ''', tmp_path)
    assert out["roles"] == ["created", "used"]
    folder = out["stats"]["folder"]
    assert os.path.dirname(folder) == str(tmp_path) and os.path.basename(folder).startswith("cujit-pch-")
    assert len(out["files_during"]) == 1 and out["files_during"][0].startswith(folder)
    assert out["same_output"] and out["no_pch_role"] == ""
    assert out["stats"]["created"] == 1 and out["stats"]["used"] == 1
    # Process scratch: the folder goes with the process.
    assert not os.path.exists(folder)


def test_the_background_thread_writes_the_pch_the_next_compile_uses(tmp_path):
    # The default: the first compile of a prelude does not pay for writing its PCH.
    out = run('''
        a = compile("add")
        out["idle"] = _core._nvrtc_background_idle(300)
        b = compile("hyp")
        out["roles"] = [a["pch"], b["pch"]]
        out["same_output"] = b["image"] == compile("hyp", pch=False)["image"]
    ''', tmp_path, CUJIT_NVRTC_PCH_BACKGROUND="1")
    assert out["idle"] and out["roles"] == ["", "used"] and out["same_output"]
    assert out["stats"]["created"] == 1 and out["stats"]["used"] == 1 and out["stats"]["failed"] == 0
    assert not os.path.exists(out["stats"]["folder"])


def test_a_compile_waits_for_the_pch_being_written_as_long_as_CUJIT_NVRTC_PCH_WAIT_says(tmp_path):
    # The warm-up's job is queued first, so the compile finds the PCH being made (or not yet
    # reserved, and then hands its own creation over): with no wait it never uses it.
    out = run('''
        _core._nvrtc_warmup("compute_90", wait=False)
        out["roles"] = [compile("add")["pch"]]
        out["idle"] = _core._nvrtc_background_idle(300)
        out["roles"].append(compile("hyp")["pch"])
    ''', tmp_path, CUJIT_NVRTC_PCH_BACKGROUND="1", CUJIT_NVRTC_PCH_WAIT="0")
    assert out["idle"] and out["roles"] == ["", "used"]
    assert out["stats"]["created"] == 1 and out["stats"]["used"] == 1
    # With a long wait, a compile that finds it being made waits and uses it.
    out = run('''
        a = compile("add")
        out["roles"] = [a["pch"], compile("hyp")["pch"]]
    ''', tmp_path, CUJIT_NVRTC_PCH_BACKGROUND="1", CUJIT_NVRTC_PCH_WAIT="60000")
    assert out["roles"] == ["", "used"]


def test_compiles_after_shutdown_write_their_own_pch(tmp_path):
    # Exit began: the background thread takes no new job, so a compile writes the PCH itself.
    out = run('''
        _core._shutdown()
        out["roles"] = [compile("add")["pch"], compile("hyp")["pch"]]
    ''', tmp_path, CUJIT_NVRTC_PCH_BACKGROUND="1")
    assert out["roles"] == ["created", "used"]


@pytest.mark.parametrize("delay", [0.0, 0.05])
def test_exit_cancels_the_pch_being_written(tmp_path, delay):
    # _core._shutdown (atexit) cancels the running job through NVRTC's flow callback instead of
    # letting exit wait for a PCH nobody will use; the job ends either way, recorded as made or
    # failed, and nothing is left behind.
    out = run('''
        import time
        _core._nvrtc_warmup("compute_90", wait=False)
        time.sleep(%r)
        _core._shutdown()
        out["idle"] = _core._nvrtc_background_idle(0)
    ''' % delay, tmp_path, CUJIT_NVRTC_PCH_BACKGROUND="1")
    assert out["idle"]
    assert out["stats"]["created"] + out["stats"]["failed"] <= 1
    assert not any(p.name.startswith("cujit-pch-") for p in tmp_path.iterdir())


def test_each_arch_has_its_own_pch(tmp_path):
    out = run('''
        out["roles"] = [compile("add", arch=a)["pch"] for a in ("compute_90", "sm_90", "compute_90", "sm_90")]
    ''', tmp_path)
    assert out["roles"] == ["created", "created", "used", "used"]
    assert out["stats"]["created"] == 2


@pytest.mark.parametrize("damage", ["garbage", "same_size", "removed"])
def test_a_changed_pch_file_is_dropped_and_the_compile_succeeds(tmp_path, damage):
    # NVRTC maps the file and crashes on a truncated or altered one: cujit must notice first.
    out = run('''
        compile("add")
        path = _core.nvrtc_pch_stats()["files"][0]
        damage = %r
        if damage == "garbage":
            open(path, "wb").write(b"not a pch" * 10)
        elif damage == "same_size":
            size = os.path.getsize(path)
            with open(path, "r+b") as f:
                f.seek(size // 2); f.write(b"\\xff" * 4096)
            st = os.stat(path); os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1000))
        else:
            os.remove(path)
        r = compile("hyp")
        out["role"] = r["pch"]
        out["same_output"] = r["image"] == compile("hyp", pch=False)["image"]
        out["next"] = compile("add")["pch"]
    ''' % damage, tmp_path)
    # Dropped, then made again by that very compile; the one after uses the new file.
    assert out["role"] == "created" and out["same_output"] and out["next"] == "used"
    assert out["stats"]["discarded"] == 1 and out["stats"]["created"] == 2


def test_switched_off_by_CUJIT_NVRTC_PCH(tmp_path):
    out = run('''
        out["roles"] = [compile("add")["pch"], compile("hyp")["pch"]]
    ''', tmp_path, CUJIT_NVRTC_PCH="0")
    assert out["roles"] == ["", ""]
    assert out["stats"]["folder"] == "" and not out["stats"]["enabled"]
    assert not any(p.name.startswith("cujit-pch-") for p in tmp_path.iterdir())


def test_folders_of_dead_processes_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / ("cujit-pch-%s-abcdef" % dead.stdout.strip())
    stale.mkdir()
    (stale / "x.pch").write_bytes(b"old")
    alive = tmp_path / ("cujit-pch-%d-abcdef" % os.getpid())  # this test's own process runs
    alive.mkdir()
    run('compile("add")', tmp_path)
    assert not stale.exists() and alive.exists()


def test_kernels_use_it_with_the_disk_cache_off(tmp_path):
    # Through the pipeline (the simulator's PTX check compiles each kernel with NVRTC), with the
    # disk cache off: the PCH is not a cache entry, so it still works and nothing is written there.
    program = textwrap.dedent('''
        import numpy as np
        from cujit import cuda

        @cuda.jit
        def add(out, x):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = x[i] + 1

        @cuda.jit
        def twice(out, x):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = 2 * x[i]

        x = np.arange(8.0); out = np.zeros(8)
        add[1, 8](out, x); assert (out == x + 1).all()
        twice[1, 8](out, x); assert (out == 2 * x).all()
    ''')
    cache = tmp_path / "cache"
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=PACKAGE_PARENT, CUJIT_ENABLE_CUDASIM="1",
               CUJIT_CHECK_PTX="1", CUJIT_DEBUG="1", CUJIT_DISABLE_CACHE="1", CUJIT_CACHE_DIR=str(cache),
               CUJIT_NVRTC_PCH_WAIT="60000")  # the second kernel waits for the PCH the first one handed over
    env.pop("CUJIT_NVRTC_PCH", None)
    env.pop("CUJIT_NVRTC_PCH_BACKGROUND", None)
    path = tmp_path / "prog.py"  # cujit reads kernels' source from their file
    path.write_text(program)
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stderr.splitlines() if "precompiled header" in l]
    if not lines:
        version = subprocess.run([sys.executable, "-c", "from cujit import _core; print(_core.toolchain_info()['nvrtc_version'])"],
                                 env=env, capture_output=True, text=True).stdout.strip()
        if tuple(int(p) for p in version.split(".")) < (12, 8):
            pytest.skip("NVRTC %s has no precompiled headers" % version)
    # The first kernel's compile handed its PCH to the background thread (nothing to report).
    assert [l.split()[-1] for l in lines] == ["used"], r.stderr
    assert not cache.exists() or not any(cache.rglob("*"))


def test_warmup_writes_the_pch_that_the_first_kernel_uses(tmp_path):
    # What the process's first GPU context starts in a thread (bindings/common.cpp): NVRTC loaded
    # and the prelude's PCH written for the device's arch and the default options.
    out = run('''
        _core._nvrtc_warmup("compute_90")
        out["after_warmup"] = _core.nvrtc_pch_stats()["created"]
        out["roles"] = [compile("add")["pch"], compile("hyp")["pch"]]
    ''', tmp_path)
    assert out["after_warmup"] == 1
    assert out["roles"] == ["used", "used"]
    assert out["stats"]["created"] == 1 and out["stats"]["used"] == 2


def test_a_process_may_end_while_the_warmup_runs(tmp_path):
    out = run('''
        _core._nvrtc_warmup("compute_90", wait=False)
    ''', tmp_path)
    folder = out["stats"]["folder"]
    assert folder == "" or not os.path.exists(folder)  # joined at exit, then the folder removed
    assert not any(p.name.startswith("cujit-pch-") for p in tmp_path.iterdir())


def test_warmup_is_off_with_CUJIT_NVRTC_PCH_0(tmp_path):
    out = run('''
        _core._nvrtc_warmup("compute_90")
        out["roles"] = [compile("add")["pch"]]
    ''', tmp_path, CUJIT_NVRTC_PCH="0")
    assert out["roles"] == [""] and out["stats"]["created"] == 0


def test_a_compile_during_the_warmup_waits_for_its_pch(tmp_path):
    # The kernel's compile first lets the warm-up reserve the PCH it is about to write (the
    # warm-up may still be loading NVRTC), then waits for it and uses it: one file is made, and a
    # second warm-up finds it.
    out = run('''
        _core._nvrtc_warmup("compute_90", wait=False)
        out["roles"] = [compile("add")["pch"]]
        _core._nvrtc_warmup("compute_90")  # waits until the thread is idle
        out["roles"].append(compile("hyp")["pch"])
    ''', tmp_path, CUJIT_NVRTC_PCH_BACKGROUND="1")
    assert out["roles"] == ["used", "used"]
    assert out["stats"]["created"] == 1 and out["stats"]["failed"] == 0 and out["stats"]["used"] == 2


def test_a_process_that_loads_nvrtc_in_the_warmup_may_end_while_it_runs(tmp_path):
    # A GPU process whose kernels are in the disk cache does not load NVRTC before its first
    # context starts the warm-up, so the warm-up thread is what loads libnvrtc: its static
    # destructors, registered after cujit's, ran at exit() while the thread was inside NVRTC, and
    # the process ended with SIGSEGV (every time here, before _core._shutdown waited for it).
    # Nothing in the child loads NVRTC before the warm-up.
    script = "from cujit import _core\n_core._nvrtc_warmup('sm_90', wait=False)\n"
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=PACKAGE_PARENT)
    env.pop("CUJIT_NVRTC_PCH", None)
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert not any(p.name.startswith("cujit-pch-") for p in tmp_path.iterdir())


def test_no_warmup_starts_after_shutdown(tmp_path):
    out = run('''
        _core._shutdown()
        _core._nvrtc_warmup("compute_90")
        out["created"] = _core.nvrtc_pch_stats()["created"]
    ''', tmp_path)
    assert out["created"] == 0
