#!/usr/bin/env bash
# Builds cujit._core with AddressSanitizer and UBSan (the CMake option CUJIT_SANITIZE) in build/asan,
# beside the ordinary build (build/local, whose extension sits in python/cujit/). This one goes to
# build/asan/pkg/cujit/ next to a fresh copy of the Python package, so PYTHONPATH=build/asan/pkg
# imports it and neither build overwrites the other. Run programs against it with tools/asan_run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-$(cat .python-path 2>/dev/null || command -v python3)}
DIR=build/asan
GEN=""; command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"
# RelWithDebInfo: -O2 keeps the suite's time reasonable, -g gives reports file:line frames.
# (Configured again when the folder holds another configuration, e.g. an older recipe's.)
grep -q '^CUJIT_SANITIZE:BOOL=ON' $DIR/CMakeCache.txt 2>/dev/null || cmake -S . -B $DIR $GEN -DPython_EXECUTABLE="$PY" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCUJIT_SANITIZE=ON -DCUJIT_OUTPUT_DIR="$PWD/$DIR/pkg/cujit" >/dev/null
cmake --build $DIR -j "${JOBS:-$(nproc)}"
# The Python files are copied, not linked: some tests resolve cujit.__file__ to find the package,
# and a link would lead them back to python/cujit and the other build.
find $DIR/pkg/cujit -mindepth 1 -maxdepth 1 ! -name '_core*.so' -exec rm -rf {} +
tar -C python -cf - --exclude='_core*.so' --exclude=__pycache__ cujit | tar -C $DIR/pkg -xf -
