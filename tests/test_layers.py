"""src/'s folders depend one way (tools/check_layers.py; docs/ARCHITECTURE.md, "Layout")."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "check_layers.py")


def run(src):
    return subprocess.run([sys.executable, SCRIPT, src], capture_output=True, text=True)


def test_the_tree_keeps_the_order():
    r = run(os.path.join(ROOT, "src"))
    assert r.returncode == 0, r.stdout


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def test_an_include_upwards_is_refused(tmp_path):
    # The cycle this check was written against: the toolchain including the runtime's header.
    write(str(tmp_path / "runtime" / "errors.h"), "#pragma once\n")
    write(str(tmp_path / "runtime" / "launch.h"), '#include "toolchain/nvrtc.h"\n')
    write(str(tmp_path / "toolchain" / "nvrtc.h"), '#include "runtime/errors.h"\n')
    r = run(str(tmp_path))
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "toolchain/nvrtc.h:1: src/toolchain may not include src/runtime (order, bottom first: abi, compiler, "
        'toolchain, runtime, src/, bindings): #include "runtime/errors.h"'
    ]


def test_python_outside_the_bindings_is_refused(tmp_path):
    write(str(tmp_path / "runtime" / "device_array.h"), "#include <pybind11/pybind11.h>\n")
    write(str(tmp_path / "bindings" / "kernel.cpp"), "#include <pybind11/pybind11.h>\n")
    r = run(str(tmp_path))
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "runtime/device_array.h:1: Python headers belong in src/bindings only: #include <pybind11/pybind11.h>"
    ]


def test_a_new_folder_must_be_placed(tmp_path):
    write(str(tmp_path / "lowering" / "x.cpp"), "\n")
    r = run(str(tmp_path))
    assert r.returncode == 1 and "src/lowering is not in tools/check_layers.py's LAYERS" in r.stdout


def test_the_cuda_toolkits_headers_are_refused(tmp_path):
    # The extension builds without the CUDA Toolkit (issue 21): its own declarations stand in.
    write(str(tmp_path / "runtime" / "driver.h"), "#include <cuda.h>\n")
    write(str(tmp_path / "toolchain" / "nvrtc.cpp"), "// <nvrtc.h> is described here\n#include <nvrtc.h>\n")
    r = run(str(tmp_path))
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("runtime/driver.h:1: the CUDA Toolkit's headers are not needed")
    assert lines[1].startswith("toolchain/nvrtc.cpp:2: ")
