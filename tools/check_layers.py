#!/usr/bin/env python3
"""Checks that src/'s folders depend one way, in the pipeline's order (docs/ARCHITECTURE.md,
"Layout"): a file may include its own folder's headers and those of folders below it, never one
above, so no two folders include each other. Python (pybind11, Python.h, NumPy's C API) is only
for src/bindings. No file includes the CUDA Toolkit's headers: the extension builds without the
toolkit (runtime/cuda_types.h and toolchain/nvrtc_types.h declare what cujit uses). Run from anywhere: `python3 tools/check_layers.py [SRC]`; prints each include
that breaks the order and exits 1, or exits 0. tests/test_layers.py runs it.
"""
import os
import re
import sys

# Bottom first. "" is src/ itself (pipeline.h/.cpp). The prelude is text put in front of
# generated code, never compiled into the extension: it includes no file of the project (the
# ABI header reaches it by concatenation, src/pipeline.cpp with_prelude).
LAYERS = ["abi", "compiler", "toolchain", "runtime", "", "bindings"]
ISOLATED = {"prelude"}
PYTHON_ONLY_IN = "bindings"
PYTHON_HEADERS = re.compile(r"#\s*include\s*[<\"](pybind11/|Python\.h|numpy/|structmember\.h)")
# The toolkit's headers the extension must build without (the prelude's GPU side is compiled by
# NVRTC, which needs none of them either).
CUDA_HEADERS = re.compile(r"#\s*include\s*[<\"](cuda\.h|cudaProfiler\.h|nvrtc\.h|cuda_runtime[a-z_]*\.h|cuda_fp16\.h|cuda_bf16\.h)[>\"]")
INCLUDE = re.compile(r"#\s*include\s*\"([^\"]+)\"")
SOURCES = (".h", ".cpp", ".def")


def folder_of(relpath):
    """The layer a path under src/ belongs to: its first folder, or "" for a file of src/ itself."""
    parts = relpath.split("/")
    return parts[0] if len(parts) > 1 else ""


def check(src):
    """Every broken rule under `src`, as 'file:line: message' strings."""
    problems = []
    rank = {name: i for i, name in enumerate(LAYERS)}
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            mine = folder_of(rel)
            if mine not in rank and mine not in ISOLATED:
                problems.append(f"{rel}: folder src/{mine} is not in tools/check_layers.py's LAYERS")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    if PYTHON_HEADERS.search(line) and mine != PYTHON_ONLY_IN:
                        problems.append(f"{rel}:{lineno}: Python headers belong in src/{PYTHON_ONLY_IN} only: {line.strip()}")
                    if CUDA_HEADERS.search(line):
                        problems.append(f"{rel}:{lineno}: the CUDA Toolkit's headers are not needed to build cujit; "
                                        f"declare what is used in runtime/cuda_types.h or toolchain/nvrtc_types.h: {line.strip()}")
                    m = INCLUDE.search(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if "/" not in target and os.path.exists(os.path.join(root, target)):
                        continue  # a header beside this file
                    theirs = folder_of(target)
                    if not os.path.exists(os.path.join(src, target)):
                        continue  # not the project's (a system header in quotes, a generated file)
                    if mine in ISOLATED:
                        problems.append(f"{rel}:{lineno}: src/{mine} includes no project file: {line.strip()}")
                    elif theirs == mine:
                        continue
                    elif theirs in ISOLATED or theirs not in rank or rank[theirs] > rank[mine]:
                        problems.append(f"{rel}:{lineno}: src/{mine or '.'} may not include src/{theirs or '.'} "
                                        f"(order, bottom first: {', '.join(l or 'src/' for l in LAYERS)}): {line.strip()}")
    return problems


def main(argv):
    src = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    problems = check(os.path.normpath(src))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
