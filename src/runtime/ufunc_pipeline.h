// The staged host path of CUDA ufunc calls: calls whose inputs or result are host arrays move
// through the pinned staging set of memory.h instead of one device array per operand.
//
// A call is planned (plan_host_path) as one or more chunks of the element range. For each chunk,
// every host input's piece is memcpy'd into one pinned staging buffer, packed one after the
// other (with the size-1 operands, the scalars), and moved by one cuMemcpyHtoDAsync into a device
// "slot" laid out the same way; the ufunc loop runs over the chunk, reading the slot and the
// device operands at the chunk's offset; one cuMemcpyDtoHAsync brings the result piece back into
// the staging buffer, from which it is memcpy'd into the host result.
//  - A small call (up to HostPathConfig::small_max staged bytes) is one chunk: one allocation, one copy in, one launch, one copy out, one
//    synchronise (instead of an allocation, a copy and a synchronise per operand). One chunk may
//    broadcast freely, since each operand is staged whole with its own shape.
//  - A large call (split_min to split_max staged bytes) is split into chunks that
//    pipeline on the GPU: chunk k+1's copy in (its own stream), chunk k's loop (the caller's
//    stream) and chunk k-1's copy out (a third stream) overlap, with events between them; four
//    buffers and four slots are in flight. Only element-wise calls split: every array operand
//    has the result's element count and C order, or one element.
// The planning and the order of the steps are shared by both backends: on the simulator the
// same chunks run with plain memcpy as the copies (only when HostPathConfig::simulator is set,
// which the tests do; the simulator normally reads host arrays in place), so CI checks the chunk
// arithmetic that the GPU runs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/memory.h"

namespace cujit::rt {

class LoadedModule;

/// Tuning of the host path; the defaults and the measurements behind them are in ufunc_pipeline.cpp.
struct HostPathConfig {
  size_t small_max = 0;    // staged bytes up to which a call moves as one chunk (any broadcasting)
  size_t split_min = 0;    // staged bytes from which an element-wise call is pipelined in chunks...
  size_t split_max = 0;    // ...up to this; a call outside both ranges takes the general path
  size_t first_chunk = 0;  // a split call's first chunk, in staged bytes; each next one doubles...
  size_t max_chunk = 0;    // ...up to this (at most StagingLease::kBytes)
  bool gpu = true;          // take the host path on the GPU (off: benchmarks compare the general path)
  bool simulator = false;  // take the host path on the simulator too (tests)
};
HostPathConfig host_path_config();
/// Throws std::invalid_argument for a zero chunk, first_chunk > max_chunk, or max_chunk or
/// small_max past the staging buffer size.
void set_host_path_config(const HostPathConfig& c);

/// Counters since the process started (tests check which path a call took).
struct HostPathStats {
  int64_t calls = 0;        // calls that took the host path
  int64_t split_calls = 0;  // of which split into more than one chunk
  int64_t chunks = 0;       // chunks run, over all calls
  int64_t direct_out_calls = 0;  // calls whose host result was DMA'd into directly (a pinned block)
};
HostPathStats host_path_stats();
/// Tests: draining chunk `chunk` of every split call throws std::runtime_error (-1: never), to
/// check that a failure part-way lets go of the staging set and the drain thread.
void set_host_path_drain_failure(int chunk);

/// One operand of a call (an input, or the result), as the loop reads it.
struct HostOperand {
  bool host = false;             // C-contiguous host memory, staged; else device memory, used in place
  char* data = nullptr;          // element [0, 0, ...]
  std::vector<int64_t> shape;    // the operand's own shape (it broadcasts to the call's)
  std::vector<int64_t> strides;  // bytes; device operands only (host ones are C-ordered)
  int64_t itemsize = 0;
};

/// The chunks of a call, and where each staged operand lies in a staging buffer / slot.
struct HostPathPlan {
  struct Chunk {
    int64_t begin = 0, end = 0;   // elements of the result
    std::vector<size_t> offset;   // per operand: byte offset in the buffer (staged operands only)
    std::vector<size_t> bytes;    // per operand: bytes staged (0 for device operands)
    size_t in_bytes = 0;          // the inputs' span [0, in_bytes): one copy in
  };
  bool split = false;             // element-wise chunks; else one chunk of whole operands
  std::vector<Chunk> chunks;
  size_t slot_bytes = 0;          // the largest chunk's span, rounded up to the alignment
};

/// Plans a call of `ops` (inputs, then the result) over the broadcast `shape`, whose element
/// count is positive. False when the call should take the general path: its staged bytes are
/// outside both ranges of the config, or in the split range but it cannot split (broadcasting, a
/// device operand not C-contiguous) or a chunk cannot hold one element.
bool plan_host_path(const std::vector<HostOperand>& ops, const std::vector<int64_t>& shape,
                    const HostPathConfig& config, HostPathPlan* plan);

/// Runs ufunc loop `symbol` of `mod` as planned, on `stream`. The host result (if the result is
/// staged) is written when it returns; a device result may still be being computed on `stream`.
/// Returns false, having done nothing, when another thread holds the GPU's staging set (the
/// caller then takes the general path). Throws what the copies, allocations and launch throw.
bool run_host_path(LoadedModule& mod, const std::string& symbol, const std::vector<HostOperand>& ops,
                   const std::vector<int64_t>& shape, const HostPathPlan& plan, void* stream);

}  // namespace cujit::rt
