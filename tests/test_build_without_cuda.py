"""cujit builds with no CUDA Toolkit on the machine (issue 21), and the build runs @jit, a CPU ufunc
and a simulated kernel. The toolkit is really hidden, not just left off a path: the test runs in
a mount namespace of its own (`unshare -rm`, an unprivileged user namespace) where a tmpfs covers
every /usr/local/cuda* folder (and $CUDA_HOME), and any cuda.h / nvrtc.h / cuda_runtime.h left on
the compiler's include path is covered by a header that is an #error; the namespace first proves
that `#include <cuda.h>` and `#include <nvrtc.h>` fail, then configures and builds the extension
into a temporary folder under build/ (with ccache where it is installed: paths relative to the
checkout, so the compile of `make build` is reused) and runs a program with that build.

It builds the extension once more (seconds with ccache hits, about 3 CPU-minutes without), so it
is not part of `make test`; `make test-install` runs it (CI does). It skips, saying why, only
where the machine does not permit `unshare -rm` (user namespaces turned off)."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("CUJIT_TEST_PIP_INSTALL") != "1",
                                reason="slow (builds the extension): run by make test-install")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = ("cuda.h", "nvrtc.h", "cuda_runtime.h", "cuda_runtime_api.h")

PROGRAM = r'''
import os, sys
import numpy as np
import cujit
from cujit import cuda, njit, vectorize

assert cujit._core.__file__.startswith(sys.argv[1]), cujit._core.__file__

@njit
def poly(x):
    return x * x + 2 * x + 1

@vectorize(["float64(float64, float64)"])
def hyp(a, b):
    return (a * a + b * b) ** 0.5

@cuda.jit
def bump(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += i

a = np.zeros(8)
bump[1, 8](a)
print(poly(3), hyp(np.array([3.0, 5.0]), np.array([4.0, 12.0])).tolist(), a.tolist(), cuda.simulator_enabled())
'''

# Run inside the namespace: hide, prove it hidden, build, run. $1: the stub header; the folders
# and files to hide follow the variables below.
SCRIPT = r'''
set -eu
for d in $HIDE_DIRS; do mount -t tmpfs none "$d"; done
for f in $HIDE_FILES; do mount --bind "$STUB" "$f"; done
for h in cuda.h nvrtc.h; do
  if printf '#include <%s>\n' "$h" | "$CXX_PROBE" -x c++ -E - >/dev/null 2>&1; then
    echo "the CUDA Toolkit is still visible: #include <$h> works" >&2; exit 3
  fi
done
[ ! -e /usr/local/cuda/include/cuda.h ] || { echo "/usr/local/cuda/include/cuda.h still visible" >&2; exit 3; }
cmake -S "$SRC" -B "$BUILD" $GEN -DPython_EXECUTABLE="$PY" -DCMAKE_BUILD_TYPE=Release \
  -DCUJIT_OUTPUT_DIR="$PKG/cujit" $LAUNCHER >/dev/null
cmake --build "$BUILD" -j "$JOBS"
PYTHONPATH="$PKG" "$PY" "$PROGRAM" "$PKG/cujit"
PYTHONPATH="$PKG" "$PY" -m cujit --info >"$BUILD/info.txt"
'''


def _compiler():
    return os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")


def _include_dirs(cxx):
    p = subprocess.run([cxx, "-x", "c++", "-E", "-v", "-"], input="", capture_output=True, text=True)
    m = re.search(r"#include <\.\.\.> search starts here:\n(.*?)End of search list", p.stderr, re.S)
    return [l.strip() for l in m.group(1).splitlines()] if m else []


def _what_to_hide(cxx):
    """(folders to cover with a tmpfs, header files to cover with the #error stub)."""
    dirs = []
    for d in glob.glob("/usr/local/cuda*") + [os.environ.get(v, "") for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")]:
        real = os.path.realpath(d) if d else ""
        if real and os.path.isdir(real) and real not in dirs:
            dirs.append(real)
    files = []
    for inc in _include_dirs(cxx):
        for h in HEADERS:
            real = os.path.realpath(os.path.join(inc, h))
            if os.path.isfile(real) and not any(real.startswith(d + "/") for d in dirs) and real not in files:
                files.append(real)
    return dirs, files


def _unshare_permitted():
    if not shutil.which("unshare"):
        return "unshare (util-linux) is not installed"
    p = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs none /mnt"], capture_output=True, text=True)
    if p.returncode != 0:
        return "this machine does not permit `unshare -rm` with a tmpfs mount (%s)" % (p.stderr.strip() or p.returncode)
    return None


def test_builds_and_runs_with_the_cuda_toolkit_hidden(tmp_path):
    cxx = _compiler()
    if cxx is None:
        pytest.skip("no C++ compiler: tests/test_hidden_compiler.py covers that machine")
    why = _unshare_permitted()
    if why:
        pytest.skip("cannot hide the CUDA Toolkit: " + why)
    hide_dirs, hide_files = _what_to_hide(cxx)
    stub = tmp_path / "hidden.h"
    stub.write_text("#error hidden by tests/test_build_without_cuda.py\n")
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    # The build folder sits two levels under the checkout, as build/local does, so that ccache
    # (CCACHE_BASEDIR: paths made relative) finds make build's compiles of the same sources.
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    build = tempfile.mkdtemp(prefix="nocuda-", dir=os.path.join(ROOT, "build"))
    pkg = tmp_path / "pkg"
    shutil.copytree(os.path.join(ROOT, "python", "cujit"), pkg / "cujit",
                    ignore=shutil.ignore_patterns("_core*.so", "__pycache__", "include"))
    # No CUJIT_CHECK_PTX (the suite sets it): that check compiles for the GPU with NVRTC, which
    # went with the toolkit.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUJIT_CHECK_PTX")}
    env.update(
        HIDE_DIRS=" ".join(hide_dirs), HIDE_FILES=" ".join(hide_files), STUB=str(stub), CXX_PROBE=cxx,
        SRC=ROOT, BUILD=build, PKG=str(pkg), PY=sys.executable, PROGRAM=str(program),
        GEN="-G Ninja" if shutil.which("ninja") else "",
        LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache" if shutil.which("ccache") else "",
        CCACHE_BASEDIR=ROOT, JOBS=str(os.cpu_count() or 2),
        CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"),  # compiled for real
        NUMBA_CUDA_WARN_ON_IMPLICIT_COPY="0", NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS="0",
    )
    try:
        r = subprocess.run(["unshare", "-rm", "bash", "-c", SCRIPT], env=env, capture_output=True, text=True,
                           timeout=1800)
        assert r.returncode == 0, "hid %s and %s\n%s\n%s" % (hide_dirs, hide_files, r.stdout[-3000:], r.stderr[-3000:])
        lines = [l for l in r.stdout.splitlines() if l.startswith("16 ")]
        assert lines == ["16 [5.0, 13.0] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0] True"], r.stdout[-3000:]
        with open(os.path.join(build, "info.txt")) as f:
            info = f.read()
        assert str(pkg / "cujit") in info, info
        # No NVRTC from the toolkit (a pip-installed one may remain): --info says so in full, the
        # places tried and the fix.
        if "NVRTC              not found" in info:
            assert "Tried:" in info and "pip install nvidia-cuda-nvrtc" in info, info
    finally:
        shutil.rmtree(build, ignore_errors=True)
