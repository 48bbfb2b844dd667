#!/usr/bin/env bash
# Builds and runs tests_cpp/parser_test.cpp against the front end (diagnostics, lexer, parser,
# ast). ast.cpp prints types with Type::str(), so types.cpp is linked; where it does not exist yet,
# a stub of Type::str() is written to the build folder instead. Extra compiler flags (for example
# -fsanitize=address,undefined) can be passed in CXXFLAGS_FOR_TESTS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build/tests_cpp"
mkdir -p "$BUILD"

TYPES="$ROOT/src/compiler/types.cpp"
if [ ! -f "$TYPES" ]; then
  TYPES="$BUILD/types_stub.cpp"
  cat > "$TYPES" <<'STUB'
#include "compiler/types.h"
std::string cujit::Type::str() const { return "?"; }
STUB
fi

# shellcheck disable=SC2086
${CXX_FOR_TESTS:-g++} -std=c++17 -O1 -g -Wall -Wextra ${CXXFLAGS_FOR_TESTS:-} -I "$ROOT/src" \
  "$ROOT/src/compiler/diagnostics.cpp" "$ROOT/src/compiler/lexer.cpp" \
  "$ROOT/src/compiler/parser.cpp" "$ROOT/src/compiler/parser_desugar.cpp" "$ROOT/src/compiler/ast.cpp" "$TYPES" \
  "$ROOT/tests_cpp/parser_test.cpp" -o "$BUILD/parser_test"
"$BUILD/parser_test"
