#!/usr/bin/env bash
# Builds the front-end fuzz target (tests_cpp/fuzz_frontend.cpp) with clang's libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer, and runs it over tests_cpp/fuzz_corpus for SECONDS (default 20;
# make test's short run). New inputs that reach new code go to build/fuzz/corpus, not the repo.
# Without clang it says so and exits 0 only when CUJIT_FUZZ_OPTIONAL=1 (CI installs clang).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build/fuzz"
SECONDS_TO_RUN="${1:-20}"
CLANG="${CLANGXX:-clang++}"
if ! command -v "$CLANG" >/dev/null 2>&1; then
  echo "fuzz: no $CLANG (apt-get install clang)" >&2
  [ "${CUJIT_FUZZ_OPTIONAL:-}" = "1" ] && exit 0 || exit 1
fi
mkdir -p "$BUILD/corpus"
BIN="$BUILD/fuzz_frontend"
SOURCES=("$ROOT"/src/compiler/*.cpp "$ROOT/tests_cpp/fuzz_frontend.cpp")
if [ ! -x "$BIN" ] || [ -n "$(find "${SOURCES[@]}" "$ROOT"/src/compiler/*.h "$ROOT"/src/compiler/*.def -newer "$BIN" 2>/dev/null | head -1)" ]; then
  # shellcheck disable=SC2086
  "$CLANG" -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I "$ROOT/src" "${SOURCES[@]}" -o "$BIN.tmp"
  mv "$BIN.tmp" "$BIN"
fi
# -timeout: an input that takes over 10 s is a hang; -rss_limit_mb: a runaway allocation.
"$BIN" -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  "$BUILD/corpus" "$ROOT/tests_cpp/fuzz_corpus" 2>&1 | tail -20
