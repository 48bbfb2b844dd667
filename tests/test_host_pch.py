"""The host compiler's precompiled prelude (issue 23; toolchain/host_compiler.cpp): GCC compiles
the prelude once into the disk cache (<key>.h.gch), in the background while the first module of
that prelude compiles from the whole text; later modules include it and compile only their own
code; the machine code is the same as from the whole text; a damaged header is dropped and the
module still builds. Each step runs in a fresh process with its own cache folder."""
import os
import shutil
import struct
import subprocess
import sys
import textwrap
import time

import pytest

import cujit
from cujit import _core

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(cujit.__file__)))

pytestmark = pytest.mark.skipif("clang" in _core.toolchain_info().get("host_compiler_version", ""),
                                reason="the precompiled prelude is GCC's")


def program(name):
    return textwrap.dedent(f"""
        import numpy as np
        from cujit import njit

        @njit
        def {name}(a):
            trace = 0.0
            for i in range(a.shape[0]):
                trace += np.tanh(a[i, i])
            return a + trace

        a = np.arange(16.0).reshape(4, 4) / 16
        r = {name}(a)
        assert np.array_equal(r, a + np.tanh(np.diagonal(a)).sum()), r
    """)


def run(tmp_path, cache, name, **env):
    script = tmp_path / f"{name}.py"
    script.write_text(program(name))
    # CUJIT_HOST_PCH_SEED=0: the cache's own header, not the one made at build time
    # (tests/test_host_pch_seed.py).
    full = dict(os.environ, CUJIT_CACHE_DIR=str(cache), PYTHONPATH=PACKAGE_PARENT, CUJIT_HOST_PCH_SEED="0")
    full.update(env)
    full.pop("CUJIT_DISABLE_CACHE", None)
    if "CUJIT_HOST_PCH" not in env:
        full.pop("CUJIT_HOST_PCH", None)
    r = subprocess.run([sys.executable, str(script)], env=full, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def wait_for_header(cache, timeout=600):
    """The background build of the header done: its .gch there and its claim gone."""
    end = time.time() + timeout
    while time.time() < end:
        if files(cache, ".h.gch") and not files(cache, ".building"):
            return
        time.sleep(0.1)
    raise AssertionError("the precompiled prelude was not built: %s" % sorted(cache.rglob("*")))


def files(cache, suffix):
    return sorted(p for p in cache.rglob("*" + suffix) if p.is_file())


def section(path, wanted):
    """The bytes of ELF64 section `wanted` (little-endian x86-64/aarch64 objects)."""
    data = path.read_bytes()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx]
    for h in headers:
        start = names[4] + h[0]
        name = data[start:data.index(b"\0", start)].decode()
        if name == wanted:
            return data[h[4]:h[4] + h[5]]
    raise AssertionError(f"no {wanted} in {path}")


def test_prelude_is_precompiled_once_and_later_modules_use_it(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache, "first")
    wait_for_header(cache)
    gch = files(cache, ".h.gch")
    assert len(gch) == 1, gch
    stamp = gch[0].stat().st_mtime_ns
    run(tmp_path, cache, "second")  # another function, the same prelude
    assert files(cache, ".h.gch") == gch
    assert gch[0].stat().st_mtime_ns == stamp  # kept: the compile through it succeeded
    assert len(files(cache, ".so")) == 2


def test_the_machine_code_is_the_same_as_without_it(tmp_path):
    with_pch, without = tmp_path / "a", tmp_path / "b"
    run(tmp_path, with_pch, "other")  # the header is built (for the same prelude) ...
    wait_for_header(with_pch)
    run(tmp_path, with_pch, "same")  # ... and this module is compiled through it
    run(tmp_path, without, "same", CUJIT_HOST_PCH="0")
    assert len(files(with_pch, ".h.gch")) == 1 and files(without, ".h.gch") == []
    (b,) = files(without, ".so")
    a = [p for p in files(with_pch, ".so") if p.name == b.name][0]
    assert a.name == b.name  # the library's cache key does not name the header
    for name in (".text", ".rodata"):
        assert section(a, name) == section(b, name), name


def test_a_damaged_header_is_dropped_and_the_module_still_builds(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache, "first")
    wait_for_header(cache)
    (gch,) = files(cache, ".h.gch")
    gch.write_bytes(b"not a precompiled header" * 1000)
    run(tmp_path, cache, "second")
    assert len(files(cache, ".so")) == 2
    # GCC either ignored it (then it stays, harmless) or failed on it (then cujit removed it and
    # compiled the whole text); the run above succeeded either way.


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_the_first_module_does_not_wait_for_the_header(tmp_path):
    """An empty cache: the header's build is held back until the first program has finished,
    which it can only do by compiling from the whole text; the header is then completed by the
    background build (this process long gone) and used by the next program."""
    go = tmp_path / "go"
    wrapper = tmp_path / "held-c++"
    wrapper.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        case " $* " in *" -o "*.h.gch.tmp.*)
          n=0; while [ ! -e "{go}" ] && [ $n -lt 3000 ]; do sleep 0.1; n=$((n+1)); done;;
        esac
        exec {shutil.which("g++")} "$@"
    """))
    wrapper.chmod(0o755)
    cache = tmp_path / "cache"
    run(tmp_path, cache, "first", CXX=str(wrapper))
    assert files(cache, ".h.gch") == [] and len(files(cache, ".building")) == 1
    assert len(files(cache, ".so")) == 1
    go.touch()
    wait_for_header(cache)
    assert [p for p in cache.rglob("*") if ".tmp." in p.name] == []  # renamed into place
    (gch,) = files(cache, ".h.gch")
    stamp = gch.stat().st_mtime_ns
    run(tmp_path, cache, "second", CXX=str(wrapper))
    assert len(files(cache, ".so")) == 2 and gch.stat().st_mtime_ns == stamp


def test_wait_builds_the_header_first(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache, "first", CUJIT_HOST_PCH="wait")
    assert len(files(cache, ".h.gch")) == 1 and files(cache, ".building") == []
