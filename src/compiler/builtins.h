// The table of intrinsics (builtins.def) as the compiler looks it up: which builtin a qualified
// name is, its typing rule (implemented in typeinfer_builtins.cpp) and its spelling in generated code;
// and the module constants (math.pi, ...). Also the C++ spelling of constant values.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/types.h"

namespace cujit {

/// Which builtin (builtins.def) a name or attribute resolved to.
enum class Builtin {
  None,
#define BUILTIN(id, name, rule, spelling) id,
#define UFUNC(id, name, loops, spelling) id,
#define CONSTANT(name, literal)
#include "compiler/builtins.def"
#undef BUILTIN
#undef UFUNC
#undef CONSTANT
};

/// The typing rule of a builtin (the third column of builtins.def).
enum class Rule {
  MathUnary, MathToInt, MathPredicate, MathBinary, MathFrexp, MathModf, MathLdexp, IntGcd, IntBitCount, Conjugate, Abs, MinMax, Round, Divmod, CastInt, CastFloat,
  CastBool, Range, Len, Print, CudaGrid, CudaGridsize, CudaBarrier, CudaGroup, CudaVote, CudaFence, CudaShfl, CudaWarpVote, CudaMatch, CudaWarpMask, CudaBits,
  CudaBitsSame, CudaFma, CudaSelp, CacheLoad, CacheStore, ConstArray, ArrayAlloc, Atomic, AtomicInt, AtomicUnsigned, AtomicCas, Random, ArrayNew, ArrayView, ArrayReduce, ThreadId,
  Iterate, Operator, Complex, Fp16, Fp16Compare, TupleOf, LiteralUnroll, Ufunc, Time, ListOp, StrOp, DictOp, Elementwise, NpFunc,
};

struct BuiltinRow {
  Builtin id;
  const char* name;      // qualified Python name: "math.sqrt", "abs", "cuda.atomic.add"
  Rule rule;
  const char* spelling;  // the prelude function in generated code
};

struct ConstRow {
  const char* name;      // "math.pi"
  const char* literal;   // a C++ float64 literal
};

/// The row for a qualified name, or null.
const BuiltinRow* find_builtin(const std::string& name);
/// The row of a builtin.
const BuiltinRow& builtin_row(Builtin id);
/// The module constant for a qualified name, or null.
const ConstRow* find_constant(const std::string& name);
/// One loop of a NumPy ufunc (a UFUNC row of builtins.def): its input and output types.
struct UfuncLoop {
  std::vector<Scalar> in, out;
};
/// The loops of a ufunc builtin, in NumPy's order, those of types the scalar table lacks left
/// out. Empty for a builtin that is no ufunc.
const std::vector<UfuncLoop>& ufunc_loops(Builtin id);
/// NumPy's np.can_cast(from, to, 'safe') and 'same_kind' on scalar types.
bool can_cast_safe(Scalar from, Scalar to);
bool can_cast_same_kind(Scalar from, Scalar to);

/// Numba's typing of a two-argument math function (math.pow, atan2, hypot, copysign, fmod,
/// nextafter, remainder): the case of its declared list (Numba's core/typing/mathdecl.py for the
/// CPU, numba-cuda's cudamath.py for GPU code) that Numba's overload resolution picks for these
/// argument types (overloads.h: fewest unsafe, then safe, then promoting conversions; the first
/// on a tie). math.hypot(int8, float32) is float32 (int8 converts safely to float32), while
/// math.pow(float64, int64) on the CPU is the (float64, int64) case: `**`'s squaring, not pow().
/// `ok` is false where no case fits (a complex argument).
struct MathCase {
  bool ok = false;
  Scalar param_types[2] = {Scalar::Float64, Scalar::Float64};
  Scalar ret = Scalar::Float64;
};
MathCase math_binary_case(Builtin b, Scalar x, Scalar y, bool gpu);

/// The generated-code spelling of a builtin.
const char* builtin_spelling(Builtin b);

/// A float64 constant as a C++ literal (CJ_INF/CJ_NAN for the non-finite ones).
std::string float64_literal(double v);
/// An integer constant of type `s` as a C++ expression of exactly that type.
std::string int_literal(Scalar s, int64_t i, uint64_t u);

}  // namespace cujit
