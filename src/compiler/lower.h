// The lowering stage, between type inference and code generation (Halide's Lower.cpp is the
// model): a list of named passes over the typed trees of a Program, each of which rewrites the
// trees into something closer to loops and scalars, so that code generation stays small. With
// CUJIT_DEBUG=2 the trees are printed after each pass.
#pragma once
#include "compiler/typeinfer.h"

namespace cujit {

struct LowerOptions {
  bool dump = false;  // print every instance's tree after each pass (CUJIT_DEBUG=2)
};

/// Runs the lowering passes over every instance of `prog`, in order:
///  - fuse_array_expressions: each maximal whole-array expression (operators on arrays, NumPy
///    ufuncs, np.where, np.clip) becomes one ArrayExpr node: one loop over the broadcast shape
///    with no temporary arrays, as Numba's array-expression rewrite makes; `a += expr` on an
///    array becomes that loop writing into `a`.
void lower(Program& prog, const LowerOptions& options);

}  // namespace cujit
