// prange loops of @jit(parallel=True) code: which variables each OpenMP thread keeps private and
// which it reduces, decided from the loop body as Numba's parfor pass decides them.
//
// A name the body assigns is private to each thread (OpenMP firstprivate); a name the body only
// updates with `x += e`, `x -= e`, `x *= e`, `x /= e`, `x |= e`, `x &= e`, `x ^= e`, `x = x + e`,
// `x = x * e`, `x = min(x, e)` or `x = max(x, e)` is a reduction, combined with its value from
// before the loop when the loop ends. Anything that carries a value from one iteration to the
// next otherwise (reading a private name before the iteration assigns it, reading a reduction's
// running value) would give a different answer on several threads, so it is refused with the
// user's line, as are `break` and `return` out of the loop.
#pragma once
#include "compiler/typeinfer.h"

namespace cujit {

/// The plan for the prange loop `loop` (a For node of `f`, typed). Throws UnsupportedError for
/// a body that cannot run its iterations independently.
ParallelLoop plan_parallel_loop(const ast::Node& loop, const FunctionInstance& f);

}  // namespace cujit
