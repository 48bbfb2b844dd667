// The CUDA simulator's scheduler: runs simulated work (ufunc element ranges, kernel blocks) on
// the CPU's cores. The generated host code does the per-thread work (src/prelude/host.h); this
// only splits ranges over threads and carries the first C++ exception back to the caller.
#pragma once
#include <cstdint>
#include <functional>

namespace cujit::rt {

/// Calls body(begin, end) over disjoint pieces of [0, n) on a pool of hardware_concurrency threads
/// (one piece, on the calling thread, when n is small). Rethrows the first exception.
/// Throws rt::Interrupted when the interrupt hook reported a signal while it ran (the pieces stop
/// at their next block or loop back-edge, see sim_poll).
void parallel_for(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body);

/// Ctrl-C. The runtime knows nothing of Python: the bindings install `can_poll` (is this the
/// thread that Python's signal handlers run on?) and `poll` (runs pending handlers with the GIL
/// taken; true when one raised, its exception kept for the bindings to raise).
struct InterruptHooks {
  bool (*can_poll)();
  bool (*poll)();
};
void set_interrupt_hooks(InterruptHooks hooks);

/// The word simulated code reads at every block start and loop back-edge (HostServices::sim_flags):
/// nonzero sends it to sim_poll. Bit 1: stop (a signal handler raised). Bit 2: the polling thread
/// should poll (set every 100 ms by a ticker thread while a polling thread runs simulated code).
int* sim_flags();
/// Called by simulated code when sim_flags() is nonzero; returns 1 when the code must stop.
int sim_poll();

}  // namespace cujit::rt
