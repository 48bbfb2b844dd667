// Code for np.expand_dims, np.atleast_1d/2d/3d, np.swapaxes, np.moveaxis, np.repeat, np.take,
// np.flatnonzero, np.array_equal, np.digitize, np.convolve and np.correlate (typed in
// typeinfer_npshape.cpp): each one call of prelude/host_npshape.h's cj::np_* functions.
#include <string>

#include "compiler/codegen.h"

namespace cujit {

std::string npshape_call_code(const ast::Node& e, Builtin b, const ExprCode& expr) {
  using B = Builtin;
  const std::string sp = builtin_row(b).spelling;
  auto arg = [&](size_t i) { return expr(*e.args()[i]); };
  auto i64 = [&](size_t i) { return "(int64_t)(" + arg(i) + ")"; };
  switch (b) {
    case B::NpExpandDims: return sp + "(" + arg(0) + ", " + i64(1) + ")";
    case B::NpAtleast1d: case B::NpAtleast2d: case B::NpAtleast3d: {
      const std::string m = b == B::NpAtleast1d ? "1" : b == B::NpAtleast2d ? "2" : "3";
      if (!e.type.is_tuple()) return sp + "<" + m + ">(" + arg(0) + ")";
      std::string s = "[&] { " + cpp_type(e.type) + " cj_r; ";
      for (size_t i = 0; i < e.args().size(); ++i) s += "cj_r.f" + std::to_string(i) + " = " + sp + "<" + m + ">(" + arg(i) + "); ";
      return s + "return cj_r; }()";
    }
    case B::NpSwapaxes: case B::NpMoveaxis: return sp + "(" + arg(0) + ", " + i64(1) + ", " + i64(2) + ")";
    case B::NpRepeat: {
      const bool counts = e.args()[1]->type.is_array();
      return sp + "(" + arg(0) + ", " + (counts ? arg(1) : i64(1)) + ")";
    }
    case B::NpTake: return sp + "(" + arg(0) + ", " + (e.args()[1]->type.is_array() ? arg(1) : i64(1)) + ")";
    case B::NpFlatnonzero: return sp + "(" + arg(0) + ")";
    case B::NpArrayEqual:
      if (!e.args()[0]->type.is_array() && !e.args()[1]->type.is_array()) return "cj::uf_equal(" + arg(0) + ", " + arg(1) + ")";
      return sp + "(" + arg(0) + ", " + arg(1) + ")";
    case B::NpDigitize:
      return sp + "(" + arg(0) + ", " + arg(1) + ", " + (arg_given(e, 2) ? "(bool)(" + arg(2) + ")" : std::string("false")) + ")";
    case B::NpConvolve: case B::NpCorrelate: {
      // Numba's inner product: from the int 0 (int64) for integers and bool, in R for floats.
      const Scalar r = e.type.scalar;
      const std::string R = cpp_type(Type::scalar_of(r));
      const std::string acc = is_inexact(r) ? R : "int64_t";
      const std::string mode = arg_given(e, 2) ? e.args()[2]->cval.s : (b == B::NpConvolve ? "full" : "valid");
      return sp + "<" + R + ", " + acc + ">(" + arg(0) + ", " + arg(1) + ", \"" + mode + "\")";
    }
    default: break;
  }
  return linalg_call_code(e, b, expr);  // codegen_linalg.cpp
}

}  // namespace cujit
