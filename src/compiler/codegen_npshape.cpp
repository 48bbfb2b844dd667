// Code for np.expand_dims, np.atleast_1d/2d/3d, np.swapaxes, np.moveaxis, np.repeat, np.take,
// np.kron, np.flatnonzero, np.array_equal, np.digitize, np.convolve and np.correlate (typed in
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
    case B::NpSwapaxes: return sp + "(" + arg(0) + ", " + i64(1) + ", " + i64(2) + ")";
    case B::NpMoveaxis: {
      if (!e.args()[1]->type.is_tuple() && !e.args()[2]->type.is_tuple())
        return sp + "(" + arg(0) + ", " + i64(1) + ", " + i64(2) + ")";
      // Tuples of axes (an int is a tuple of one): each as an int64 array, one slot more than its
      // length, so an empty tuple is an array too.
      std::string s = "[&] { auto cj_a = " + arg(0) + "; ";
      std::string k[2];
      for (size_t i = 1; i < 3; ++i) {
        const Type& t = e.args()[i]->type;
        const std::string v = "cj_ax" + std::to_string(i);
        if (!t.is_tuple()) {
          s += "const int64_t " + v + "[2] = {" + i64(i) + ", 0}; ";
          k[i - 1] = "1";
          continue;
        }
        s += "const auto " + v + "t = " + arg(i) + "; (void)" + v + "t; const int64_t " + v + "[" +
             std::to_string(t.elems.size() + 1) + "] = {";
        for (size_t j = 0; j < t.elems.size(); ++j) s += "(int64_t)" + v + "t.f" + std::to_string(j) + ", ";
        s += "0}; ";
        k[i - 1] = std::to_string(t.elems.size());
      }
      return s + "return cj::np_moveaxis_tuples<" + k[0] + ", " + k[1] + ">(cj_a, cj_ax1, cj_ax2); }()";
    }
    case B::NpRepeat: {
      const bool counts = e.args()[1]->type.is_array();
      return sp + "(" + arg(0) + ", " + (counts ? arg(1) : i64(1)) + ")";
    }
    case B::NpTake: {
      if (!arg_given(e, 2)) return sp + "(" + arg(0) + ", " + (e.args()[1]->type.is_array() ? arg(1) : i64(1)) + ")";
      const Type& t = e.args()[1]->type;
      if (t.is_array()) return "cj::np_take_axis(" + arg(0) + ", " + arg(1) + ", " + i64(2) + ")";
      if (!t.is_tuple()) return "cj::np_take_axis_one(" + arg(0) + ", " + i64(1) + ", " + i64(2) + ")";
      std::string s = "[&] { auto cj_a = " + arg(0) + "; const auto cj_it = " + arg(1) + "; const int64_t cj_iv[] = {";
      for (size_t j = 0; j < t.elems.size(); ++j) s += (j ? ", " : "") + std::string("(int64_t)cj_it.f") + std::to_string(j);
      return s + "}; return cj::np_take_axis(cj_a, cj::Array<const int64_t, 1>{cj_iv, {" + std::to_string(t.elems.size()) +
             "}, {8}}, " + i64(2) + "); }()";
    }
    case B::NpKron: {
      // The block products in the two dtypes' promotion, stored into a's dtype (Numba's).
      const Type& a = e.args()[0]->type;
      const Type& b = e.args()[1]->type;
      const std::string P = cpp_type(Type::scalar_of(promote(a.scalar, b.scalar)));
      return sp + "<" + cpp_type(Type::scalar_of(e.type.scalar)) + ", " + P + ", " + std::to_string(e.type.ndim) + ">(" + arg(0) +
             ", " + arg(1) + ")";
    }
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
