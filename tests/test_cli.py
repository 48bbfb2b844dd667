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
    rows = run_info(tmp_path, CUJIT_CACHE_DIR=str(cache), CUJIT_ENABLE_CUDASIM="1", NUMBA_CUDA_DEBUGINFO="1")
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
    assert "CUJIT_ENABLE_CUDASIM=1" in env and "CUJIT_CACHE_DIR=%s" % cache in env
    assert "NUMBA_CUDA_DEBUGINFO=1 (not used by cujit)" in env


def test_info_with_the_cache_missing_or_disabled(tmp_path):
    rows = run_info(tmp_path, CUJIT_CACHE_DIR=str(tmp_path / "nowhere"), CUJIT_DISABLE_CACHE="1")
    assert rows["Disk cache"] == ["%s: empty (not created yet); disabled by CUJIT_DISABLE_CACHE" % (tmp_path / "nowhere")]


def test_without_info_prints_usage():
    p = subprocess.run([sys.executable, "-m", "cujit"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    assert p.returncode == 2 and "--info" in p.stdout
