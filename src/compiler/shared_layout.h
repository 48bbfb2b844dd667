// The layout of static cuda.shared.array storage on the GPU. A compiler that owns an array's
// layout may pad its rows, so that a warp reading down a column (a leading index that varies
// with threadIdx.x, as `tile[tx, k]`) hits 32 distinct banks instead of one. Padding is only
// done where nothing can observe the physical layout: the array is only indexed element by
// element, its shape read, or atomically updated, in the function that declares it. Decided
// from the typed program (docs/ARCHITECTURE.md, "Shared arrays' layout"); the simulator keeps the
// plain C layout, so results are the same on both targets.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "compiler/typeinfer.h"

namespace cujit {

/// How one static cuda.shared.array call is laid out on the GPU.
struct SharedLayout {
  int64_t row = 0;      // elements per row of the storage (> the last dimension); 0: plain C layout
  std::string reason;   // one line for the generated code's comment (CUJIT_DEBUG=3, inspect_llvm)
};

/// For each static cuda.shared.array call of `f` with two or more dimensions: its GPU layout and
/// why. The rule: an even row length of 4-byte or wider elements read down a column gets one
/// element more (16 -> 17 float32). CUJIT_SHARED_PAD (read at each compile) overrides it for
/// measurements: "0" never pads, k > 0 pads every array that is safe to pad by k elements.
/// `spare_bytes`: how much static shared memory the padding of this function may add (the
/// program must stay within the 48 KiB a kernel's static shared memory may hold).
std::unordered_map<const ast::Node*, SharedLayout> plan_shared_layouts(const FunctionInstance& f, int64_t spare_bytes);

}  // namespace cujit
