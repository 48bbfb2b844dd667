// Python exceptions that compiled code raised (raise statements, assert, the run-time checks of
// @jit code): made here from the build's class table and the values the code handed over.
#pragma once
#include <cstdint>

#include "pipeline.h"

namespace cujit {

/// The record a @jit entry point returns when its function raised: the layout of cj::PyError
/// (prelude/host_services.h), which must change with it.
struct ExcRecord {
  struct Arg {
    int32_t tag, pad;
    int64_t i;
    double f, g;
    const char* s;
  };
  const char* type;
  const char* msg;
  int32_t cls, base_only, nargs, pad;
  Arg args[8];
};

/// Raises (as py::error_already_set) the exception `r` describes, for a function of build `b`.
[[noreturn]] void raise_cpu_exception(const Build& b, const ExcRecord& r);

/// Raises the exception of raise site `site` of kernel build `b`, run by `thread` of `block`,
/// with numba-cuda's message: "In function 'f', file F, line N, tid=[z, y, x] ctaid=[z, y, x]",
/// then ": " and the first argument when there are arguments.
[[noreturn]] void raise_kernel_exception(const Build& b, int site, const uint32_t thread[3], const uint32_t block[3]);

}  // namespace cujit
