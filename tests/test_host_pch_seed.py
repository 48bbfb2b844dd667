"""The host prelude precompiled at build time (issue 23; tools/build_host_seed.py, read from
cujit/_host_pch beside the extension, toolchain/cache.h seed_dir): a fresh process with an empty
cache compiles its first @jit function through it, with the same machine code as from the whole
text; another compiler, a damaged file and a header GCC finds invalid all fall back to the cache's
own header (built in the background as before) and still give the right result. Each step runs
in a fresh process with its own cache folder."""
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import cujit
from cujit import _core

PACKAGE = Path(cujit.__file__).resolve().parent
SEED = PACKAGE / "_host_pch"

pytestmark = [
    pytest.mark.skipif("clang" in _core.toolchain_info().get("host_compiler_version", ""),
                       reason="the precompiled prelude is GCC's"),
    pytest.mark.skipif(not list(SEED.rglob("*.h.gch")),
                       reason="built without the seed (CUJIT_HOST_PCH_SEED=OFF)"),
]

PROGRAM = textwrap.dedent("""
    import math
    import numpy as np
    from cujit import njit

    @njit
    def hypot(x, y):
        x = abs(x)
        y = abs(y)
        t = min(x, y)
        x = max(x, y)
        t = t / x
        return x * math.sqrt(1 + t * t)

    @njit
    def trace(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += np.tanh(a[i, i])
        return a + s

    assert hypot(3.0, 4.0) == 5.0
    a = np.arange(16.0).reshape(4, 4) / 16
    assert np.array_equal(trace(a), a + np.tanh(np.diagonal(a)).sum())
    print("ok")
""")


def run(tmp_path, cache, **env):
    script = tmp_path / "prog.py"
    script.write_text(PROGRAM)
    full = dict(os.environ, CUJIT_CACHE_DIR=str(cache), PYTHONPATH=str(PACKAGE.parent),
                CUJIT_DEBUG_CACHE="1")
    # $CXX stays: the seed was made by the build with the same environment's compiler (the GPU
    # machine sets CXX=/opt/gcc/bin/g++; another compiler never uses the seed, as a test below shows).
    for name in ("CUJIT_DISABLE_CACHE", "CUJIT_HOST_PCH", "CUJIT_HOST_PCH_SEED"):
        full.pop(name, None)
    full.update(env)
    r = subprocess.run([sys.executable, str(script)], env=full, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    return r.stderr


def files(cache, suffix):
    return sorted(p for p in cache.rglob("*" + suffix) if p.is_file())


def seed_hits(log, ext):
    return [line for line in log.splitlines() if line.startswith("[cache] seed hit") and line.endswith(ext)]


def background_build_started(cache, timeout=600):
    """The cache's own header: its build claimed (or done); waits for it to end, so that the
    temporary folder is not removed under it."""
    started = bool(files(cache, ".building") or files(cache, ".h.gch"))
    end = time.time() + timeout
    while files(cache, ".building") and time.time() < end:
        time.sleep(0.1)
    return started


def wrapper(tmp_path, name, body=""):
    """A compiler of its own identity (its path is part of every key): g++ behind a script."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + 'exec %s "$@"\n' % shutil.which("g++"))
    path.chmod(0o755)
    return path


def copy_seed(tmp_path):
    dest = tmp_path / "seed"
    shutil.copytree(SEED, dest)
    return dest


def test_an_empty_cache_compiles_through_the_seed(tmp_path):
    cache = tmp_path / "cache"
    log = run(tmp_path, cache)
    assert seed_hits(log, ".h.gch") and seed_hits(log, ".flag"), log
    # Nothing built into the cache but the two modules: no header, no flag probe.
    assert files(cache, ".h.gch") == [] and files(cache, ".building") == [] and files(cache, ".flag") == []
    assert len(files(cache, ".so")) == 2


def test_it_serves_where_the_cache_is_disabled(tmp_path):
    log = run(tmp_path, tmp_path / "cache", CUJIT_DISABLE_CACHE="1")
    assert seed_hits(log, ".h.gch") and seed_hits(log, ".flag"), log
    assert not (tmp_path / "cache").exists()


def test_the_machine_code_is_the_same_as_without_it(tmp_path):
    from test_host_pch import section
    seeded, whole = tmp_path / "a", tmp_path / "b"
    run(tmp_path, seeded)
    run(tmp_path, whole, CUJIT_HOST_PCH="0")
    a, b = files(seeded, ".so"), files(whole, ".so")
    assert [p.name for p in a] == [p.name for p in b] and len(a) == 2
    for x, y in zip(a, b):
        for name in (".text", ".rodata"):
            assert section(x, name) == section(y, name), (x.name, name)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_another_compiler_does_not_use_it(tmp_path):
    cache = tmp_path / "cache"
    log = run(tmp_path, cache, CXX=str(wrapper(tmp_path, "other-c++")))
    assert seed_hits(log, ".h.gch") == [] and seed_hits(log, ".flag") == [], log
    assert background_build_started(cache)  # the cache's own header, as without a seed


@pytest.mark.parametrize("damage", ["overwritten", "truncated"])
def test_a_damaged_header_is_not_used(tmp_path, damage):
    seed = copy_seed(tmp_path)
    for gch in files(seed, ".h.gch"):
        size = gch.stat().st_size
        if damage == "truncated":
            os.truncate(gch, size // 2)
        else:  # the same size, 4 KiB in the middle changed: GCC itself may not notice
            with open(gch, "r+b") as f:
                f.seek(size // 2)
                f.write(bytes(4096))
    cache = tmp_path / "cache"
    log = run(tmp_path, cache, CUJIT_HOST_PCH_SEED=str(seed))
    assert seed_hits(log, ".h.gch") == [] and seed_hits(log, ".flag"), log
    assert background_build_started(cache)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_header_gcc_finds_invalid_is_forgotten(tmp_path):
    """A seed whose checksum is right but which GCC will not use (here: made with another
    -m option than the one the compiler of the same identity uses now): GCC would parse the
    header's text instead, correct but slow; -Werror=invalid-pch makes that an error, the module
    compiles from the whole text, and the cache remembers not to use that header again."""
    odd = wrapper(tmp_path, "c++", 'if [ -n "$CJ_TEST_ODD" ]; then set -- "$@" -mno-red-zone; fi\n')
    made = tmp_path / "made"  # a cache, laid out as a seed is
    run(tmp_path, made, CXX=str(odd), CUJIT_HOST_PCH="wait", CUJIT_HOST_PCH_SEED="0")
    assert files(made, ".h.gch.sum")
    cache = tmp_path / "cache"
    log = run(tmp_path, cache, CXX=str(odd), CUJIT_HOST_PCH_SEED=str(made), CJ_TEST_ODD="1")
    assert seed_hits(log, ".h.gch"), log  # its checksum is right ...
    assert files(cache, ".seedbad")  # ... but GCC refused it
    log = run(tmp_path, cache, CXX=str(odd), CUJIT_HOST_PCH_SEED=str(made), CJ_TEST_ODD="1")
    assert seed_hits(log, ".h.gch") == [], log  # not tried again
    assert background_build_started(cache)
