#!/usr/bin/env bash
# Builds _core with AddressSanitizer and UBSan in build/asan (tools/asan_build.sh) and runs a Python
# snippet under it, to get a C++ stack trace for a crash seen only on another machine.
# Usage: tools/diagnose_crash.sh 'code'
set -u
cd "$(dirname "$0")/.."
PY=${PY:-python3}
PY=$PY tools/asan_build.sh >/dev/null || exit 1
tools/asan_run.sh "$PY" -c "$1"
