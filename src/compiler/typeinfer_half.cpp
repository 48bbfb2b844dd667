// Typing of float16: the cuda.fp16 intrinsics, math functions given a float16, and the operators
// whose float16 result numba-cuda widens. Called from typeinfer.cpp and typeinfer_builtins.cpp.
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

Type type_fp16_call(FunctionInstance& fn, ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  using B = Builtin;
  const B id = b.id;
  const size_t want = id == B::Fp16Fma ? 3
                      : (b.rule == Rule::Fp16Compare || id == B::Fp16Add || id == B::Fp16Sub || id == B::Fp16Mul ||
                         id == B::Fp16Div || id == B::Fp16Max || id == B::Fp16Min) ? 2 : 1;
  if (args.size() != want)
    user_error(fn.mod.source, e.loc, ErrorKind::Typing,
               std::string(b.name) + "() takes " + std::to_string(want) + " argument" + (want == 1 ? "" : "s") +
                   ", got " + std::to_string(args.size()));
  // numba-cuda's signatures take float16 only; any number converts to it (hmul(x, 2) is x * 2.0).
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].is_scalar())
      user_error(fn.mod.source, e.args()[i]->loc, ErrorKind::Typing,
                 std::string(b.name) + "() needs float16 numbers, got " + args[i].str());
  return Type::scalar_of(b.rule == Rule::Fp16Compare ? Scalar::Bool : Scalar::Float16);
}

Scalar float16_math_result(const BuiltinRow& b, bool gpu) {
  using B = Builtin;
  switch (b.id) {
    case B::MathSqrt: case B::MathExp: case B::MathExp2: case B::MathLog: case B::MathLog2: case B::MathLog10:
    case B::MathSin: case B::MathCos: case B::MathFabs:
      return Scalar::Float16;
    case B::MathFloor: case B::MathCeil: case B::MathTrunc:
      return gpu ? Scalar::Float16 : Scalar::Int64;
    default:
      return Scalar::Float32;  // through numba-cuda's float32 signature
  }
}

void check_float16_numpy(FunctionInstance& fn, ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  if (std::string(b.name).rfind("numpy.", 0) != 0) return;
  for (size_t i = 0; i < args.size(); ++i)
    if ((args[i].is_scalar() || args[i].is_array()) && args[i].scalar == Scalar::Float16)
      user_error(fn.mod.source, e.args()[i]->loc, ErrorKind::Unsupported,
                 std::string("np.") + (b.name + 6) + "() on float16 is not supported (numba-cuda refuses it too); "
                 "convert to float32 first, or use math." + (b.name + 6) + " or cuda.fp16");
}

Type float16_binop_type(ast::Op op, Scalar x, Scalar y) {
  using O = ast::Op;
  // numba-cuda computes // and % on float16 in float32, and ** on float16 in float32 at least
  // (float16 ** int is float32, where float32 ** int stays float32).
  auto widen = [](Scalar s) { return s == Scalar::Float16 ? Scalar::Float32 : s; };
  switch (op) {
    case O::FloorDiv: case O::Mod: return Type::scalar_of(widen(arith_result(x, y)));
    case O::Pow:
      if (x == Scalar::Float16 && !is_float(y)) return Type::scalar_of(Scalar::Float32);
      return Type::scalar_of(widen(promote(x, y)));
    default: return Type::unknown();
  }
}

}  // namespace cujit
