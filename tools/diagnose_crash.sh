#!/usr/bin/env bash
# Builds _core with AddressSanitizer in build/asan and runs a Python snippet under it, to get a
# C++ stack trace for a crash seen only on another machine.  Usage: tools/diagnose_crash.sh 'code'
set -u
cd "$(dirname "$0")/.."
PY=${PY:-python3}
cmake -S . -B build/asan -DPython_EXECUTABLE=$PY -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUJIT_STATIC_LIBSTDCXX=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
  -DCUJIT_OUTPUT_DIR=$PWD/build/asan/pkg/cujit >/dev/null && cmake --build build/asan -j "$(nproc)" >/dev/null || exit 1
mkdir -p build/asan/pkg/cujit && cp -r python/cujit/*.py python/cujit/cuda build/asan/pkg/cujit/
LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libstdc++.so)" ASAN_OPTIONS=detect_leaks=0 \
  PYTHONPATH=$PWD/build/asan/pkg $PY -c "$1"
