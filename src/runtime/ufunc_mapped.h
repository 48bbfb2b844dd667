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

/// Runs ufunc loop `symbol` of `mod` over the one chunk of `plan` through mapped pinned memory,
/// on `stream`; the host result is written when it returns. False, having done nothing, when
/// another thread holds the staging set or the device cannot map it (the caller then takes the
/// staged path). Throws what the launch and the synchronisation throw.
bool run_mapped(LoadedModule& mod, const std::string& symbol, const std::vector<HostOperand>& ops,
                const std::vector<int64_t>& shape, const HostPathPlan& plan, void* stream);

}  // namespace cujit::rt
