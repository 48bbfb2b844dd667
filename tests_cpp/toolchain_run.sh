#!/usr/bin/env bash
# Builds and runs tests_cpp/toolchain_test.cpp against the toolchain sources (src/toolchain), with
# a scratch folder that is removed afterwards. Needs only g++ (cujit declares NVRTC's types itself);
# libnvrtc is found at run time like in the extension (no GPU needed). Where the CUDA Toolkit's
# headers exist, also checks cujit's declarations of the driver and NVRTC against them
# (cuda_decls_check.cpp).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CUDA_INC=""
for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
  if [ -n "$d" ] && [ -f "$d/include/nvrtc.h" ]; then CUDA_INC="$d/include"; break; fi
done

BUILD="$ROOT/build/tests_cpp"
mkdir -p "$BUILD"
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/cujit-toolchain-test-XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

if [ -n "$CUDA_INC" ] && [ -f "$CUDA_INC/cuda.h" ]; then
  ${CXX_FOR_TESTS:-g++} -std=c++17 -Wall -Wextra -I "$ROOT/src" -I "$CUDA_INC" \
    "$ROOT/tests_cpp/cuda_decls_check.cpp" -o "$BUILD/cuda_decls_check"
  "$BUILD/cuda_decls_check"
else
  echo "cuda_decls_check: skipped (no CUDA Toolkit headers: set CUDA_HOME)"
fi

${CXX_FOR_TESTS:-g++} -std=c++17 -O1 -g -Wall -Wextra -I "$ROOT/src" \
  "$ROOT/src/toolchain/cache.cpp" "$ROOT/src/toolchain/nvrtc.cpp" "$ROOT/src/toolchain/nvrtc_pch.cpp" \
  "$ROOT/src/toolchain/host_compiler.cpp" "$ROOT/tests_cpp/toolchain_test.cpp" \
  -o "$BUILD/toolchain_test" -ldl -pthread
"$BUILD/toolchain_test" "$SCRATCH"
