// Code generation of np.linalg's decompositions and the functions built on them (typed in
// typeinfer_linalg.cpp; prelude/host_linalg_decomp.h runs them). Each is one prelude call; a
// tuple result's struct (emitted by the caller) is the call's first template argument, and
// the optional arguments left out get Numba's defaults here.
#include <string>

#include "compiler/codegen.h"

namespace cujit {

std::string linalg_call_code(const ast::Node& e, Builtin b, const ExprCode& expr) {
  using B = Builtin;
  const std::string sp = builtin_row(b).spelling;
  auto arg = [&](size_t i) { return expr(*e.args()[i]); };
  auto real = [&](size_t i, const char* dflt) { return arg_given(e, i) ? "(double)(" + arg(i) + ")" : std::string(dflt); };
  const std::string tup = e.type.is_tuple() ? "<" + cpp_type(e.type) + ">" : "";
  switch (b) {
    case B::NpLinalgEig: case B::NpLinalgEigh: case B::NpLinalgQr: case B::NpLinalgSlogdet:
    case B::NpLinalgEigvals: case B::NpLinalgEigvalsh:
      return sp + tup + "(" + arg(0) + ")";
    case B::NpLinalgSvd:
      return sp + tup + "(" + arg(0) + ", " + (arg_given(e, 1) ? "(bool)(" + arg(1) + ")" : std::string("true")) + ")";
    case B::NpLinalgLstsq: return sp + tup + "(" + arg(0) + ", " + arg(1) + ", " + real(2, "-1.0") + ")";
    case B::NpLinalgPinv: return sp + "(" + arg(0) + ", " + real(1, "1e-15") + ")";
    case B::NpLinalgMatrixPower: return sp + "(" + arg(0) + ", (int64_t)(" + arg(1) + "))";
    case B::NpLinalgMatrixRank: return sp + "(" + arg(0) + ", " + (arg_given(e, 1) ? "true" : "false") + ", " + real(1, "0.0") + ")";
    case B::NpLinalgNorm: {
      if (!arg_given(e, 1)) return sp + "(" + arg(0) + ")";
      const Type& o = e.args()[1]->type;
      // A string order ('fro', ...) equals no number: NaN takes the matrix norm's ValueError.
      if (o.tag == Type::Tag::String) return "cj::linalg_norm_ord(" + arg(0) + ", __builtin_nan(\"\"), false)";
      return "cj::linalg_norm_ord(" + arg(0) + ", " + real(1, "0.0") + ", " + (is_integral(o.scalar) ? "true" : "false") + ")";
    }
    case B::NpLinalgCond: {
      if (!arg_given(e, 1)) return sp + "(" + arg(0) + ", 0, 0.0)";
      if (e.args()[1]->type.tag == Type::Tag::String) return sp + "(" + arg(0) + ", 2, 0.0)";
      return sp + "(" + arg(0) + ", 1, " + real(1, "0.0") + ")";
    }
    default: break;
  }
  throw InternalError(std::string("codegen: no code for ") + builtin_row(b).name);
}

}  // namespace cujit
