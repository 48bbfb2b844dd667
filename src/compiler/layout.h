// How a value of a compiled type lies in memory: the one description shared by the generated
// code and the runtime. Tuples are C structs of their items in order (each at the next offset
// its alignment allows, an empty one a struct of one byte, as C++ lays out an empty struct);
// arrays are cj::Array<T, N> (data, shape[N], strides[N]); scalars their C type. The runtime
// marshals tuple arguments (bindings/marshal.cpp) and reads results (bindings/cpu.cpp) with it,
// and codegen follows each tuple struct with static_asserts of these offsets, so the compiler
// that builds the generated code proves that both agree.
#pragma once
#include <cstddef>
#include <vector>

#include "compiler/types.h"

namespace cujit {

struct Layout {
  size_t size = 0;
  size_t align = 1;
  std::vector<size_t> offsets;  // tuples: where each item starts
};

/// The layout of a value of type `t`; size 0 for a type with no run-time value.
Layout value_layout(const Type& t);

}  // namespace cujit
