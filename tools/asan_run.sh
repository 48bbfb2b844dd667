#!/usr/bin/env bash
# Runs a command against the sanitizer build of tools/asan_build.sh:  tools/asan_run.sh CMD ARGS...
# Python itself is not instrumented, so the runtimes _core was linked with are preloaded, in the
# order ASan needs (libasan first; libstdc++ before _core is loaded, so that ASan's __cxa_throw
# interceptor finds the real one). Child processes inherit all of it: Python subprocesses import
# the same build, and the host compiler runs with the runtimes preloaded (harmless, uninstrumented).
# Kernels the simulator compiles at run time are not instrumented either: they are user code built
# by the host compiler, and cujit's own C++ is what this build checks.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORE=$(ls "$ROOT"/build/asan/pkg/cujit/_core*.so 2>/dev/null | head -1)
[ -n "$CORE" ] || { echo "asan_run: no sanitizer build; run tools/asan_build.sh (make test-asan)" >&2; exit 2; }
lib() { ldd "$CORE" | awk -v n="$1" '$1 ~ "^"n"\\.so" {print $3}'; }
PRELOAD="$(lib libasan) $(lib libubsan) $(lib libstdc\\+\\+)"
export LD_PRELOAD="${PRELOAD}${LD_PRELOAD:+ $LD_PRELOAD}"
export PYTHONPATH="$ROOT/build/asan/pkg${PYTHONPATH:+:$PYTHONPATH}"
# detect_leaks=0: CPython keeps much of what it allocates until exit, by design.
# allocator_may_return_null=1: a request too large fails as glibc's does (null, ENOMEM) instead of
#   aborting; cujit reports it as CudaOutOfMemoryError (tests/test_devices.py asks for 1 PiB).
# protect_shadow_gap=0: the CUDA driver maps memory where ASan would otherwise reserve the gap.
# Options already in ASAN_OPTIONS / UBSAN_OPTIONS come after these, so they win.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:protect_shadow_gap=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
exec "$@"
