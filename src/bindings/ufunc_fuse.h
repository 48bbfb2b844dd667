// Fusion of CUDA ufunc calls on device arrays (docs/ARCHITECTURE.md, "Fused CUDA ufunc calls"):
// a call whose operands are cujit's own device arrays is deferred; its result is a *pending*
// write (the expression tree and where it goes); a later call reading that result extends the
// tree; the tree runs as one loop the moment anything else could observe the memory it writes or
// reads (fuse::observe, called wherever a binding hands a device array to other work).
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "pipeline.h"
#include "runtime/device_array.h"
#include "runtime/driver.h"
#include "runtime/launch.h"

namespace cujit {

/// A CUDA ufunc's compiled state, shared by its CudaUfunc and the pending calls that name it.
struct UfuncCore {
  std::shared_ptr<FunctionSource> src;
  std::vector<Signature> sigs;
  UfuncBuild build;
  uint64_t id = 0;  // names the ufunc in fused kernels' cache keys
  std::mutex mu;
  // [d] the GPU module of device d's context, [rt::kMaxDevices] the simulator's.
  std::shared_ptr<rt::LoadedModule> modules[rt::kMaxDevices + 1];
  rt::LoadedModule& module(rt::Backend b);
};

namespace fuse {

/// Pending writes registered (some may be stale); observe's fast exit.
extern size_t g_pending;
void observe_slow(const rt::DeviceArray& a);
/// `a`'s memory is about to be read or written by other work: every pending write into it, and
/// every pending call reading it, runs first.
inline void observe(const rt::DeviceArray& a) {
  if (g_pending) observe_slow(a);
}
/// As observe, and `a`'s address leaves cujit (CUDA array interface, DLPack, a pointer): from now
/// on calls on its memory are not deferred, since other code may read or write it at any time.
void escape(const rt::DeviceArray& a);
/// Runs every pending write (synchronize, stream and event operations).
void flush_all();
/// CUJIT_FUSE is not 0 (read once; _core._set_fusion changes it for tests).
bool enabled();

/// An operand of a CUDA ufunc call: a device array, a scalar, or a host array (`host`).
struct Input {
  std::shared_ptr<rt::DeviceArray> dev;
  pybind11::object scalar;
  bool host = false;
};

/// Defers the call of signature `variant` of `core` when it can be: returns the result (`out`,
/// or a new array whose write is pending), or a null object when the call must run now (the
/// caller's path, which also raises every error).
pybind11::object try_defer(const std::shared_ptr<UfuncCore>& core, int variant, const std::vector<Input>& in,
                           const std::shared_ptr<rt::DeviceArray>& out, bool host_out, rt::Backend backend,
                           const pybind11::object& stream_obj, void* stream);

/// A deferred call that an identical next call can stand on (issue 23: the per-call cost of a
/// loop like `add(d_a, d_b, out=d_c)`). Such a call runs the previous call's pending write into
/// d_c and registers an identical one; when that write is the only pending one, `repeat` does
/// the same by launching it and leaving it registered, with no new tree, registry scan or packing.
struct Repeat {
  std::weak_ptr<const void> pending;           // the registered write (a Pending)
  std::shared_ptr<rt::LoadedModule> module;    // its loop's module, when it was described
  const std::string* symbol = nullptr;         // the loop (the core's variant, alive with the ufunc)
  const std::vector<std::string>* files = nullptr;  // for simulator errors
  std::vector<int64_t> packed;                 // the loop's UfuncArgs words (pack_ufunc_args)
  int64_t n = 0;
};
/// After try_defer deferred a call into `out` (its result): describes the write it registered
/// when that write reads only leaves (a single call). False when it cannot be repeated.
bool describe_last(const rt::DeviceArray& out, Repeat* r);
/// When the registry holds exactly `r`'s write and nothing else, its device and module still
/// current: launches it (what the next identical call's try_defer would run) and keeps it
/// registered, standing for the new call's write. False, having done nothing, otherwise.
bool repeat(Repeat& r);

void define_fusion(pybind11::module_& m);

}  // namespace fuse
}  // namespace cujit
