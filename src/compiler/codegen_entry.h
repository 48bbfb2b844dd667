// Entry points of generated code (codegen_entry.cpp); used by codegen.cpp only.
#pragma once
#include <functional>
#include <string>

#include "compiler/codegen.h"

namespace cujit {

/// What an entry point needs from the emitter that wrote the program's functions.
struct EntryContext {
  Target target;
  bool uses_barrier;  // a kernel syncs: the simulator runs its threads as fibers
  bool allocates;     // some function makes arrays: NumPy loops free them after each element
  std::function<std::string(const Type&)> type;  // C++ spelling, defining tuple structs on demand
  std::string co_frame = "";  // the simulator's kernel is a coroutine on frames of this struct (codegen_simco.cpp)
  bool reads_strides = false;  // some function reads an array's .strides or .flags
};

/// The extern "C" wrapper of `ep` around its typed function `f`; "" where `ep` has none on
/// cx.target (CPU-only kinds on the GPU).
std::string emit_entry(const EntryPoint& ep, const FunctionInstance& f, const EntryContext& cx);

/// The element function and loop of a FusedUfunc entry (codegen_fuse.cpp).
std::string emit_fused_entry(const EntryPoint& ep, const Program& prog, const EntryContext& cx);

}  // namespace cujit
