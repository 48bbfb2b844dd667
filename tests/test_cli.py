"""python -m cujit --info: the versions, the GPU (or none), NVRTC, the host C++ compiler, the disk
cache with its size, and the environment variables, checked against this machine."""
import os
import platform
import shutil
import subprocess
import sys

import numpy as np

import cujit
from cujit import _core


def run_info(tmp_path, **env):
    full = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **env)
    p = subprocess.run([sys.executable, "-m", "cujit", "--info"], capture_output=True, text=True, env=full,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    rows = {}
    label = None
    for line in p.stdout.splitlines():
        if not line.startswith(" "):
            label = line.split("  ")[0]
        rows.setdefault(label, []).append(line[len(label):].strip() if not line.startswith(" ") else line.strip())
    return rows


def test_info_reports_this_machine(tmp_path):
    cache = tmp_path / "cache"
    (cache / "ab").mkdir(parents=True)
    (cache / "ab" / "entry.so").write_bytes(b"x" * 2048)
    rows = run_info(tmp_path, CUJIT_CACHE_DIR=str(cache), CUJIT_ENABLE_CUDASIM="1", NUMBA_DUMP_IR="1",
                    NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    assert rows["cujit"] == ["%s (%s)" % (cujit.__version__, os.path.dirname(cujit.__file__))]
    assert rows["Python"] == ["%s (%s)" % (platform.python_version(), sys.executable)]
    assert rows["NumPy"] == [np.__version__]
    if _core.gpu_available():
        assert "compute capability" in rows["GPU"][0] and "driver" in rows["GPU"][0]
    else:
        assert rows["GPU"][0].startswith("none (simulator only)")
    assert rows["Simulator"][0].startswith("on")
    nvrtc = rows["NVRTC"][0]
    try:
        # The test process can say whether NVRTC loads: CI proves GPU code builds with it.
        path = _core.toolchain_info()["nvrtc_path"]
        assert nvrtc.endswith("(%s)" % path) and os.path.exists(path)
        assert nvrtc.split()[0].replace(".", "").isdigit()
    except KeyError:
        assert nvrtc.startswith("not found")
    cxx = rows["C++ compiler"][0]
    compiler = os.environ.get("CXX", "").split() or [n for n in ("c++", "g++", "clang++") if shutil.which(n)][:1]
    if compiler:
        assert cxx.startswith(shutil.which(compiler[0]) or compiler[0])
        assert subprocess.run(compiler + ["--version"], capture_output=True, text=True).stdout.splitlines()[0] in cxx
    else:
        assert cxx.startswith("not found")
    assert rows["Disk cache"] == ["%s: 1 file, 2.0 KiB" % cache]
    env = rows["Environment"]
    assert "CUJIT_ENABLE_CUDASIM=1 (kernels and ufuncs run on the CPU simulator)" in env
    assert "CUJIT_CACHE_DIR=%s (the disk cache's folder)" % cache in env
    # Numba's variables: the ones cujit honours say what they do, the others that they are unused.
    assert any(e.startswith("NUMBA_CACHE_DIR=%s (as Numba: " % (tmp_path / "numba-cache")) for e in env)
    assert "NUMBA_DUMP_IR=1 (not used by cujit)" in env
    honoured = " ".join(rows["Numba's variables"])
    for name in ("NUMBA_CACHE_DIR", "NUMBA_DEBUG_CACHE", "NUMBA_OPT", "NUMBA_BOUNDSCHECK", "NUMBA_NUM_THREADS",
                 "NUMBA_ENABLE_CUDASIM", "NUMBA_DISABLE_JIT"):
        assert name in honoured
    assert "any other NUMBA_* variable is not used by cujit" in honoured


def test_info_with_the_cache_missing_or_disabled(tmp_path):
    rows = run_info(tmp_path, CUJIT_CACHE_DIR=str(tmp_path / "nowhere"), CUJIT_DISABLE_CACHE="1")
    assert rows["Disk cache"] == ["%s: empty (not created yet); disabled by CUJIT_DISABLE_CACHE" % (tmp_path / "nowhere")]


def cli(*args, cwd=None, **env):
    return subprocess.run([sys.executable, "-m", "cujit", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **env),
                          timeout=300)


def test_without_arguments_prints_help_and_succeeds():
    p = cli()
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: cujit") and "--info" in p.stdout and "%load_ext cujit" in p.stdout


def test_dash_s_is_info_as_numba_s(tmp_path):
    p = cli("-s", CUJIT_CACHE_DIR=str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("cujit ") and "\nNumPy " in p.stdout


def test_runs_a_numba_program_under_the_alias(tmp_path):
    # `cujit prog.py args`: the program imports numba and gets cujit; its own options stay its own.
    prog = tmp_path / "prog.py"
    prog.write_text("import sys, numba\n"
                    "from numba import njit\n"
                    "@njit\n"
                    "def twice(x):\n"
                    "    return 2 * x\n"
                    "print(numba.__name__, numba.__version__ == __import__('cujit').__version__, sys.argv[1:], "
                    "twice(int(sys.argv[1])), __name__)\n")
    p = cli(str(prog), "21", "-x", "--info", cwd=str(tmp_path), CUJIT_CACHE_DIR=str(tmp_path / "cache"))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "cujit True ['21', '-x', '--info'] 42 __main__"


def test_info_prints_every_line_of_a_toolchain_problem(tmp_path):
    # No compiler anywhere: the whole message (what to install, what was searched) is shown.
    rows = run_info(tmp_path, CXX="/nonexistent/c++", CUJIT_CACHE_DIR=str(tmp_path))
    lines = rows["C++ compiler"]
    assert lines[0].startswith("not found: no C++ compiler found")
    text = " ".join(lines)
    assert "apt-get install g++" in text and "pip install ziglang" in text and "$CXX is '/nonexistent/c++'" in text


def test_numba_cache_variables(tmp_path):
    # NUMBA_CACHE_DIR moves the disk cache (into its cujit/ folder); NUMBA_DEBUG_CACHE prints
    # each lookup and save, as Numba's [cache] lines.
    code = ("from cujit import njit\n"
            "@njit\n"
            "def inc(x):\n"
            "    return x + 1\n"
            "print(inc(1))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
               NUMBA_CACHE_DIR=str(tmp_path / "nc"), NUMBA_DEBUG_CACHE="1")
    env.pop("CUJIT_CACHE_DIR", None)
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    assert first.stdout == "2\n"
    assert "[cache] miss: %s" % (tmp_path / "nc" / "cujit") in first.stderr
    assert "[cache] saved: %s" % (tmp_path / "nc" / "cujit") in first.stderr
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0 and "[cache] hit: %s" % (tmp_path / "nc" / "cujit") in again.stderr
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=dict(env, NUMBA_DEBUG_CACHE="0"), timeout=300)
    assert quiet.returncode == 0 and "[cache]" not in quiet.stderr


def test_numba_opt_sets_the_opt_default(tmp_path):
    code = "from cujit import config; print(int(config.OPT), repr(config.OPT), config.CUDA_DEBUGINFO_DEFAULT)"
    for value, expected in (("0", "0 _OptLevel(0) 1"), ("max", "3 _OptLevel('max') 1"), ("", "3 _OptLevel(3) 1")):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), NUMBA_OPT=value,
                   NUMBA_CUDA_DEBUGINFO="1")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        assert p.returncode == 0 and p.stdout.strip() == expected, (value, p.stdout, p.stderr)
