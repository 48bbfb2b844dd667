"""Build step (CMake target host_pch_seed): the host compiler's precompiled preludes, made when cujit
is built, so that the first @jit function of a machine whose cache is empty compiles against a
ready header (issue 23) instead of parsing the whole prelude while the header is built beside it.

    python tools/build_host_seed.py --extension PATH/_core*.so --python-dir python --out DIR

Runs a few small programs (one per prelude variant a typical first program uses: a @jit
function, one calling NumPy's array functions, a CPU @vectorize ufunc, a simulated kernel) with
the freshly built extension, an empty cache and CUJIT_HOST_PCH=wait, then copies what the cache
then holds for the compiler found now into DIR, laid out as the cache: each <key>.h, its
<key>.h.gch and the .gch's checksum (<key>.h.gch.sum), and the compiler's flag probe answers
(<key>.flag). At run time (toolchain/cache.h, seed_dir) these are read beside the extension. The
keys name the prelude text, every flag and the compiler (its command and --version line), so a
user whose compiler or flags differ never meets them; GCC checks each header again when it is
used (-Werror=invalid-pch), and its checksum is checked first.

Never fails the build: with no GCC (clang's headers are another format), or when anything goes
wrong, DIR is left empty and cujit works as without it.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

PROGRAM = r'''
import math
import numpy as np
import cujit
from cujit import cuda, jit, vectorize


@jit
def seed_scalar(x, y):
    return math.sqrt(x * x + y * y)


@jit
def seed_numpy(a):
    return np.sum(a, axis=0)


@vectorize
def seed_ufunc(x, y):
    return x + y


@cuda.jit
def seed_kernel(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


assert seed_scalar(3.0, 4.0) == 5.0
assert seed_numpy(np.ones((2, 2))).tolist() == [2.0, 2.0]
assert seed_ufunc(np.ones(2), np.ones(2)).tolist() == [2.0, 2.0]
a = np.zeros(4)
seed_kernel[1, 4](a)
assert a.tolist() == [1.0] * 4
'''

KEEP = (".h", ".h.gch", ".h.gch.sum", ".flag")


def stage_package(python_dir, extension, stage):
    """A copy of the cujit package with this build's extension in it (a scikit-build build keeps
    the extension in its build folder, apart from the Python sources)."""
    pkg = os.path.join(stage, "cujit")
    shutil.copytree(os.path.join(python_dir, "cujit"), pkg,
                    ignore=shutil.ignore_patterns("_core*.so", "_host_pch*", "__pycache__"))
    shutil.copy2(extension, pkg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--extension", required=True)
    ap.add_argument("--python-dir", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    final = os.path.abspath(args.out)
    # Filled beside the final folder, then swapped in: a process compiling meanwhile (a test run
    # during a rebuild) finds the old seed or the new one, not a half-copied file.
    out = final + ".new"
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    start = time.time()
    try:
        return fill(args, out, start)
    finally:
        old = final + ".old"
        shutil.rmtree(old, ignore_errors=True)
        if os.path.isdir(final):
            os.rename(final, old)
        os.rename(out, final)
        shutil.rmtree(old, ignore_errors=True)


def fill(args, out, start):
    with tempfile.TemporaryDirectory(prefix="cujit-seed-") as tmp:
        stage, cache = os.path.join(tmp, "stage"), os.path.join(tmp, "cache")
        stage_package(os.path.abspath(args.python_dir), os.path.abspath(args.extension), stage)
        env = dict(os.environ, PYTHONPATH=stage, CUJIT_CACHE_DIR=cache, CUJIT_HOST_PCH="wait",
                   CUJIT_HOST_PCH_SEED="0", NUMBA_ENABLE_CUDASIM="1", PYTHONWARNINGS="ignore")
        for name in ("CUJIT_DISABLE_CACHE", "CUJIT_DEBUG", "CUJIT_DEBUG_CACHE", "NUMBA_DEBUG_CACHE"):
            env.pop(name, None)
        r = subprocess.run([sys.executable, "-c", PROGRAM], env=env, cwd=tmp,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("host_pch_seed: not made (cujit works without it, compiling its first @jit "
                  "function more slowly):\n" + r.stderr[-2000:], file=sys.stderr)
            return 0
        copied = 0
        for folder, _, names in os.walk(cache):
            for name in names:
                if ".tmp." in name or not name.endswith(KEEP):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), cache)
                os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
                shutil.copyfile(os.path.join(folder, name), os.path.join(out, rel))
                copied += 1
    headers = sum(1 for _, _, names in os.walk(out) for n in names if n.endswith(".h.gch"))
    print("host_pch_seed: %d precompiled prelude(s), %d files in %s (%.1f s)"
          % (headers, copied, out[:-len(".new")], time.time() - start))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # an unwritable folder, a missing temp dir: never fail the build
        print("host_pch_seed: not made (%s: %s); cujit works without it" % (type(e).__name__, e),
              file=sys.stderr)
        sys.exit(0)
