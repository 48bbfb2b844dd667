// The mapped path of a tiny CUDA ufunc call with a host result (issue 23: a 4 x 4 host add
// spent most of its time in the staged path's device slot, its two copies and their driver calls).
//
// The staged path (ufunc_pipeline.h) plans the call as one chunk: every host operand packed into
// a pinned staging buffer. Pinned memory from cuMemHostAlloc is mapped into the device's address
// space, so here the loop reads its host inputs from that buffer and writes its result into it
// directly, over the bus: one launch and one synchronise, with no device slot to allocate and
// free and no copy in or out. Only for a few KiB (mapped_max), where the loop's bus latency costs
// less than two copies; device operands are read in place as on the staged path. The loop, the
// operand layout and the order on the caller's stream are the staged path's, so results are the
// same bits and the call still runs after earlier work on its stream (it is synchronised anyway,
// its result being on the host).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/ufunc_pipeline.h"

namespace cujit::rt {

/// Staged bytes up to which a one-chunk call with a host result takes the mapped path (0: never),
/// and whether the simulator takes it too (tests: the same packing, with a host buffer).
struct MappedConfig {
  size_t max_bytes = 0;
  bool simulator = false;
};
MappedConfig mapped_config();
void set_mapped_config(const MappedConfig& c);
/// Calls that took the mapped path since the process started.
int64_t mapped_calls();

/// Whether a call planned as `plan` (inputs, then the result, in `ops`) takes the mapped path on
/// `backend`: one chunk, a host result, within max_bytes.
bool mapped_fits(const std::vector<HostOperand>& ops, const HostPathPlan& plan, Backend backend);

/// A mapped call as it ran, for running the same call again on other host data (the host plan
/// of bindings/ufunc.cpp): the loop's words, which address the staged operands in `dev`.
struct MappedRepeat {
  bool valid = false;   // every operand was staged (no device operand) and this describes the call
  char* host = nullptr;  // the buffer the operands were staged in (staging buffer 0, or the simulator's)
  char* dev = nullptr;   // its device address, which the words hold
  std::vector<int64_t> packed;
  int64_t n = 0;
  std::vector<size_t> offset, bytes;  // per operand (the inputs, then the result)
  size_t span = 0;                    // the staged bytes (mapped_fits's measure)
  size_t slot_bytes = 0;              // plan_host_path's measure of a one-chunk call
};

/// Runs ufunc loop `symbol` of `mod` over the one chunk of `plan` through mapped pinned memory,
/// on `stream`; the host result is written when it returns. False, having done nothing, when
/// another thread holds the staging set or the device cannot map it (the caller then takes the
/// staged path). Throws what the launch and the synchronisation throw. `rep`, when given, is
/// filled to describe the call.
bool run_mapped(LoadedModule& mod, const std::string& symbol, const std::vector<HostOperand>& ops,
                const std::vector<int64_t>& shape, const HostPathPlan& plan, void* stream,
                MappedRepeat* rep = nullptr);

/// The call `r` describes again, on the inputs' bytes at `inputs` (one per operand but the
/// result) into `result`, on `stream`. False, having done nothing, when the staging set is busy,
/// is not the buffer `r` used (a lost context made a new one), or the settings no longer send such
/// a call here (mapped_config, host_path_config's gpu / simulator and small_max).
bool run_mapped_again(LoadedModule& mod, const std::string& symbol, MappedRepeat& r, const char* const* inputs,
                      char* result, void* stream);

}  // namespace cujit::rt
