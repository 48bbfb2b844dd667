// Code generation of the Rule::NpLib calls (typed in typeinfer_nplib.cpp): np.sort and the other
// sorting, searching and counting functions (prelude/host_nplib.h), np.dot/np.vdot/`@` and
// np.linalg through LAPACK (prelude/host_linalg.h), np.random.shuffle/permutation. Each is one
// prelude call; the string options (kind=, side=) were checked by typing and become constants.
#include <string>

#include "compiler/codegen.h"

namespace cujit {

namespace {
// A string literal argument's text, or `dflt` where it was left out (or given as None).
std::string literal(const ast::Node& e, size_t i, const char* dflt) {
  if (i >= e.args().size() || e.args()[i]->type.tag == Type::Tag::None) return dflt;
  return e.args()[i]->cval.s;
}
bool given(const ast::Node& e, size_t i) { return i < e.args().size() && e.args()[i]->type.tag != Type::Tag::None; }
}  // namespace

std::string nplib_call_code(const ast::Node& e, Builtin b, const ExprCode& expr) {
  using B = Builtin;
  const std::string sp = builtin_row(b).spelling;
  auto arg = [&](size_t i) { return expr(*e.args()[i]); };
  switch (b) {
    case B::NpSort: case B::ArraySortM: case B::NpUnique: case B::NpFlip: case B::NpFliplr: case B::NpFlipud:
    case B::NpTrace: case B::NpLinalgInv: case B::NpLinalgDet: case B::NpLinalgCholesky: case B::NpShuffle:
    case B::NpPermutation:
      return sp + "(" + arg(0) + ")";
    case B::NpArgsort: return sp + "(" + arg(0) + ", " + (literal(e, 1, "quicksort") == "mergesort" ? "true" : "false") + ")";
    case B::NpSearchsorted:
      return sp + "(" + arg(0) + ", " + arg(1) + ", " + (literal(e, 2, "left") == "right" ? "true" : "false") + ")";
    case B::NpDiff: return sp + "(" + arg(0) + ", (int64_t)(" + (given(e, 1) ? arg(1) : std::string("1")) + "))";
    case B::NpBincount: {
      const std::string minlength = "(int64_t)(" + (given(e, 2) ? arg(2) : std::string("0")) + ")";
      if (given(e, 1)) return "cj::np_bincount_w(" + arg(0) + ", " + arg(1) + ", " + minlength + ")";
      return sp + "(" + arg(0) + ", " + minlength + ")";
    }
    case B::NpOuter: return sp + "<" + cpp_type(Type::scalar_of(e.type.scalar)) + ">(" + arg(0) + ", " + arg(1) + ")";
    case B::NpDot: case B::NpVdot: case B::NpLinalgSolve: return sp + "(" + arg(0) + ", " + arg(1) + ")";
    default: break;
  }
  return linalg_call_code(e, b, expr);  // codegen_linalg.cpp
}

}  // namespace cujit
