#!/usr/bin/env bash
# Builds and runs tests_cpp/toolchain_test.cpp against the toolchain sources (src/toolchain), with
# a scratch folder that is removed afterwards. Needs g++ and the CUDA headers (for nvrtc.h's types);
# libnvrtc is found at run time like in the extension (no GPU needed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CUDA_INC=""
for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
  if [ -n "$d" ] && [ -f "$d/include/nvrtc.h" ]; then CUDA_INC="$d/include"; break; fi
done
if [ -z "$CUDA_INC" ]; then echo "toolchain_run.sh: nvrtc.h not found (set CUDA_HOME)" >&2; exit 1; fi

BUILD="$ROOT/build/tests_cpp"
mkdir -p "$BUILD"
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/cujit-toolchain-test-XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

${CXX_FOR_TESTS:-g++} -std=c++17 -O1 -g -Wall -Wextra -I "$ROOT/src" -I "$CUDA_INC" \
  "$ROOT/src/toolchain/cache.cpp" "$ROOT/src/toolchain/nvrtc.cpp" "$ROOT/src/toolchain/nvrtc_pch.cpp" \
  "$ROOT/src/toolchain/host_compiler.cpp" "$ROOT/tests_cpp/toolchain_test.cpp" \
  -o "$BUILD/toolchain_test" -ldl -pthread
"$BUILD/toolchain_test" "$SCRATCH"
