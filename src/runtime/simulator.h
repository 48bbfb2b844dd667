// The CUDA simulator's scheduler: runs simulated work (ufunc element ranges, kernel blocks) on
// the CPU's cores. The generated host code does the per-thread work (src/prelude/host.h); this
// only splits ranges over threads and carries the first C++ exception back to the caller.
#pragma once
#include <cstdint>
#include <functional>

namespace cujit::rt {

/// Calls body(begin, end) over disjoint pieces of [0, n) on a pool of hardware_concurrency threads
/// (one piece, on the calling thread, when n is small). Rethrows the first exception.
void parallel_for(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body);

}  // namespace cujit::rt
