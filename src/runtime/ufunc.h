// CUDA ufunc mechanics that need no Python: NumPy broadcasting of operand shapes, merging of
// dimensions the memory layout allows, and the packed UfuncArgs block the generated loop reads
// (src/prelude/common.h). The bindings (bindings/ufunc.cpp) classify Python arguments and move
// data; this file decides what the loop sees.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "abi/cujit_abi.h"

namespace cujit::rt {

/// One operand as the loop will read or write it: base pointer, shape and byte strides.
struct Operand {
  char* data = nullptr;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

/// The broadcast shape of `shapes` (NumPy rules). Throws std::invalid_argument naming the shapes
/// when they do not broadcast.
std::vector<int64_t> broadcast_shapes(const std::vector<std::vector<int64_t>>& shapes);

/// The UfuncArgs<N> block for `ops` (inputs, then the output, whose shape is `shape`), as 64-bit
/// words in cj::UfuncArgs's layout (src/abi/cujit_abi.h), with broadcast dimensions given stride 0 and dimensions merged
/// where every operand allows it (a C-contiguous launch becomes one dimension). Sets `*n` to the
/// element count. Throws std::invalid_argument past kMaxDims dimensions.
std::vector<int64_t> pack_ufunc_args(const std::vector<int64_t>& shape, const std::vector<Operand>& ops,
                                     int64_t* n);

constexpr int kUfuncMaxDims = cj::kMaxDims;

}  // namespace cujit::rt
