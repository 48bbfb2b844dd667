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
///  - apply_typing_rewrites: each new form typing recorded for a node (FunctionInstance::rewrites:
///    `op(a, b)` through a local `op = operator.add` is a + b, f(*t) takes t's items, `a[idx] op= v`
///    with an array index is a[idx] = a[idx] op v, `l.append(x)` is list.append(l, x)) takes the
///    node's place in the tree;
///  - fuse_array_expressions: each maximal whole-array expression (operators on arrays, NumPy
///    ufuncs, np.where, np.clip) becomes one ArrayExpr node: one loop over the broadcast shape
///    with no temporary arrays, as Numba's array-expression rewrite makes; `a += expr` on an
///    array becomes that loop writing into `a`.
void lower(Program& prog, const LowerOptions& options);

}  // namespace cujit
