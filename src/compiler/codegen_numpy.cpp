// Code for the NumPy functions and array methods of @jit code (Rule::NpFunc; typed in
// typeinfer_numpy.cpp) and for np.sum/argmin/argmax with an axis or a dtype: each is one call of a
// prelude function: cj::npa_* (prelude/host_numpy.h); sorting, searching and counting
// (host_nplib.h); np.dot/np.vdot/`@` and np.linalg through LAPACK (host_linalg.h). Tuple
// arguments (shapes, axes, the arrays of concatenate) are evaluated once, in an immediately called
// lambda; the string options (kind=, side=) were checked by typing and become constants.
#include <string>

#include "compiler/builtins.h"
#include "compiler/codegen_emitter.h"
#include "compiler/diagnostics.h"

namespace cujit {
namespace detail {

namespace {
// A string literal argument's text, or `dflt` where it was left out (or given as None).
std::string literal(const ast::Node& e, size_t i, const char* dflt) { return arg_given(e, i) ? e.args()[i]->cval.s : dflt; }
}  // namespace

// `f(prefix, t.f0, t.f1, ...)` over the tuple `tup` (code) of type tt, evaluated once.
static std::string spread(const std::string& f, const std::string& prefix, const std::string& tup, const Type& tt,
                          const std::string& item_cast = "") {
  std::string s = "[&] { const auto cj_t = " + tup + "; return " + f + "(" + prefix;
  for (size_t k = 0; k < tt.elems.size(); ++k)
    s += (k || !prefix.empty() ? ", " : "") + item_cast + "cj_t.f" + std::to_string(k);
  return s + "); }()";
}

std::string Emitter::numpy_reduce(const ast::Node& e, Builtin b) {
  const std::string R = scalar_cpp(e.type.is_array() ? e.type.scalar : e.type.scalar);
  const std::string whole = std::string(builtin_spelling(b)) + "<cj::UfErrPy, " + R + ">";
  const std::string a = expr(*e.args()[0]);
  if (!arg_given(e, 1)) return whole + "(" + a + ")";  // dtype= only
  const std::string axis = "(int64_t)(" + expr(*e.args()[1]) + ")";
  const int n = e.args()[0]->type.ndim;
  if (n == 1) {  // the axis checked first, with the function's own error (Numba's)
    const bool arg = b == Builtin::NpArgmin || b == Builtin::NpArgmax;
    return std::string("(cj::npa_axis<1") + (arg ? ", 1" : "") + ">(" + axis + "), " + whole + "(" + a + "))";
  }
  // In memory order (prelude/host_numpy.h): sums, and argmin/argmax.
  if (b == Builtin::NpSum) return "cj::npa_sum_axis<" + R + ">(" + a + ", " + axis + ")";
  if (b == Builtin::NpArgmin || b == Builtin::NpArgmax)
    return std::string("cj::npa_arg_axis<") + (b == Builtin::NpArgmax ? "true" : "false") + ", " + R + ">(" + a + ", " + axis + ")";
  return "cj::npa_reduce_axis<" + R + ">(" + a + ", " + axis + ", [](const auto& cj_v) { return " + whole + "(cj_v); })";
}

std::string Emitter::numpy_call(const ast::Node& e, Builtin b) {
  using B = Builtin;
  const std::string sp = builtin_spelling(b);
  const Type& r = e.type;
  const std::string R = r.is_array() || r.is_scalar() ? scalar_cpp(r.scalar) : "";
  const Type i64 = Type::scalar_of(Scalar::Int64), f64 = Type::scalar_of(Scalar::Float64);
  auto ax = [&](size_t i) { return expr(*e.args()[i]); };
  auto a0 = [&] { return ax(0); };
  auto int_or = [&](size_t i, const char* dflt) { return arg_given(e, i) ? arg(e, i, i64) : std::string(dflt); };
  switch (b) {
    case B::NpCumsum: case B::NpCumprod: case B::NpNancumsum: case B::NpNancumprod: {
      const int op = b == B::NpCumsum ? 0 : b == B::NpCumprod ? 1 : b == B::NpNancumsum ? 2 : 3;
      if (arg_given(e, 1)) return "cj::npa_cum_axis<" + std::to_string(op) + ", " + R + ">(" + a0() + ", " + arg(e, 1, i64) + ")";
      return "cj::npa_cum<" + std::to_string(op) + ", " + R + ">(" + a0() + ")";
    }
    case B::NpMedian: return sp + "<false>(" + a0() + ")";
    case B::NpNanmedian: return sp + "<true>(" + a0() + ")";
    case B::NpPercentile: case B::NpNanpercentile: case B::NpQuantile: case B::NpNanquantile: {
      const bool nan = b == B::NpNanpercentile || b == B::NpNanquantile;
      const std::string scale = b == B::NpPercentile || b == B::NpNanpercentile ? "100.0" : "1.0";
      const std::string N = nan ? "true" : "false";
      if (e.args()[1]->type.is_array()) return "cj::npa_percentiles<" + N + ">(" + a0() + ", " + expr(*e.args()[1]) + ", " + scale + ")";
      return "cj::npa_percentile<" + N + ">(" + a0() + ", " + arg(e, 1, f64) + ", " + scale + ")";
    }
    case B::NpNanvar: return sp + "<double>(" + a0() + ")";
    case B::NpNanstd: return "std::sqrt(" + sp + "<double>(" + a0() + "))";
    case B::NpPtp: return sp + "<" + R + ">(" + a0() + ")";
    case B::NpNanargmin: return sp + "<false>(" + a0() + ")";
    case B::NpNanargmax: return sp + "<true>(" + a0() + ")";
    case B::NpAverage:
      if (arg_given(e, 2)) return sp + "(" + a0() + ", " + expr(*e.args()[2]) + ")";
      return "cj::red_mean<cj::UfErrPy, " + R + ">(" + a0() + ")";
    case B::NpReshape: {
      const std::string M = std::to_string(r.ndim);
      if (e.args().size() == 2 && e.args()[1]->type.is_tuple())
        return spread(sp + "<" + M + ">", a0(), expr(*e.args()[1]), e.args()[1]->type, "(int64_t)");
      std::string s = sp + "<" + M + ">(" + a0();
      for (size_t i = 1; i < e.args().size(); ++i) s += ", " + arg(e, i, i64);
      return s + ")";
    }
    case B::NpRavel: case B::ArrFlatten: return sp + "(" + a0() + ")";
    case B::NpTranspose: {
      if (e.args().size() == 1 || !arg_given(e, 1)) return sp + "(" + a0() + ")";
      if (e.args()[1]->type.is_tuple())
        return spread("cj::npa_transpose_axes", a0(), expr(*e.args()[1]), e.args()[1]->type, "(int64_t)");
      std::string s = "cj::npa_transpose_axes(" + a0();
      for (size_t i = 1; i < e.args().size(); ++i) s += ", " + arg(e, i, i64);
      return s + ")";
    }
    case B::ArrAstype: return sp + "<" + R + ">(" + a0() + ")";
    case B::ArrFill: return sp + "(" + a0() + ", " + expr(*e.args()[1]) + ")";
    case B::ArrItem: return sp + "(" + a0() + ")";
    case B::NpArray: case B::NpAsarray: {
      const Type& x = e.args()[0]->type;
      if (x.is_array()) {
        if (b == B::NpAsarray && r == x) return a0();  // the argument itself
        return "cj::npa_astype<" + R + ">(" + a0() + ")";
      }
      if (x.is_tuple()) return spread("cj::npa_from_values<" + R + ">", "", expr(*e.args()[0]), x);
      return std::string(r.ndim == 2 ? "cj::npa_from_seq2<" : "cj::npa_from_seq<") + R + ">(" + a0() + ")";
    }
    case B::NpLinspace: {
      const Type t = is_complex(r.scalar) ? Type::scalar_of(Scalar::Complex128) : f64;
      return sp + "(" + arg(e, 0, t) + ", " + arg(e, 1, t) + ", " + int_or(2, "(int64_t)50") + ")";
    }
    case B::NpEye: case B::NpTri: {
      // M defaults to N: N evaluated once.
      const std::string n = arg(e, 0, i64), k = int_or(2, "(int64_t)0");
      if (arg_given(e, 1)) return sp + "<" + R + ">(" + n + ", " + arg(e, 1, i64) + ", " + k + ")";
      return "[&] { const int64_t cj_n = " + n + "; return " + sp + "<" + R + ">(cj_n, cj_n, " + k + "); }()";
    }
    case B::NpIdentity: return "[&] { const int64_t cj_n = " + arg(e, 0, i64) + "; return " + sp + "<" + R + ">(cj_n, cj_n, 0); }()";
    case B::NpTril: return sp + "<false>(" + a0() + ", " + int_or(1, "(int64_t)0") + ")";
    case B::NpTriu: return sp + "<true>(" + a0() + ", " + int_or(1, "(int64_t)0") + ")";
    case B::NpDiag: return sp + "(" + a0() + ", " + int_or(1, "(int64_t)0") + ")";
    case B::NpConcatenate: case B::NpStack: case B::NpHstack: case B::NpVstack: case B::NpColumnStack: case B::NpDstack: {
      const Type& tt = e.args()[0]->type;
      const int in = tt.elems[0].ndim;
      bool stack = b == B::NpStack;
      std::string axis = int_or(1, "(int64_t)0");
      if (b == B::NpHstack) axis = in == 1 ? "0" : "1";
      if (b == B::NpVstack) { stack = in == 1; axis = "0"; }
      if (b == B::NpColumnStack) { stack = in == 1; axis = "1"; }
      if (b == B::NpDstack) { stack = true; axis = "2"; }
      const std::string f = std::string(stack ? "cj::npa_stack<" : "cj::npa_concatenate<") + R + ", " + std::to_string(in) + ">";
      return spread(f, "(int64_t)(" + axis + ")", expr(*e.args()[0]), tt);
    }
    case B::NpSort: case B::ArraySortM: case B::NpUnique: case B::NpFlip: case B::NpFliplr: case B::NpFlipud:
    case B::NpLinalgInv: case B::NpLinalgDet: case B::NpLinalgCholesky: case B::NpShuffle:
    case B::NpPermutation:
      return sp + "(" + ax(0) + ")";
    case B::NpArgsort: return sp + "(" + ax(0) + ", " + (literal(e, 1, "quicksort") == "mergesort" ? "true" : "false") + ")";
    case B::NpSearchsorted:
      return sp + "(" + ax(0) + ", " + ax(1) + ", " + (literal(e, 2, "left") == "right" ? "true" : "false") + ")";
    case B::NpDiff: return sp + "(" + ax(0) + ", (int64_t)(" + (arg_given(e, 1) ? ax(1) : std::string("1")) + "))";
    case B::NpBincount: {
      const std::string minlength = "(int64_t)(" + (arg_given(e, 2) ? ax(2) : std::string("0")) + ")";
      if (arg_given(e, 1)) return "cj::np_bincount_w(" + ax(0) + ", " + ax(1) + ", " + minlength + ")";
      return sp + "(" + ax(0) + ", " + minlength + ")";
    }
    case B::NpOuter: return sp + "<" + cpp_type(Type::scalar_of(e.type.scalar)) + ">(" + ax(0) + ", " + ax(1) + ")";
    case B::NpDot: case B::NpVdot: case B::NpLinalgSolve: return sp + "(" + ax(0) + ", " + ax(1) + ")";
    case B::NpTrace: return sp + "(" + ax(0) + ", (int64_t)(" + (arg_given(e, 1) ? ax(1) : std::string("0")) + "))";
    case B::NpNonzero: case B::NpWhere: {  // np.where(cond): np.nonzero's (typeinfer_numpy.cpp)
      // The tuple's arrays are filled through pointers to its fields.
      const std::string T = type(r), A = type(Type::array(Scalar::Int64, 1, 'C'));
      std::string outs;
      for (size_t k = 0; k < r.elems.size(); ++k) outs += (k ? ", &cj_r.f" : "&cj_r.f") + std::to_string(k);
      return "[&] { " + T + " cj_r; " + A + "* const cj_o[] = {" + outs + "}; cj::np_nonzero(" + a0() + ", cj_o); return cj_r; }()";
    }
    case B::NpArgwhere: return sp + "(" + a0() + ")";
    case B::NpRound: case B::NpAround: {  // prelude/host_nplib.h
      const std::string d = int_or(1, "(int64_t)0");
      if (!e.args()[0]->type.is_array()) return sp + "(" + a0() + ", " + d + ")";
      if (arg_given(e, 2)) return "cj::np_round_into(" + a0() + ", " + d + ", " + ax(2) + ")";
      return "cj::np_round_arr(" + a0() + ", " + d + ")";
    }
    case B::NpRoll: return sp + "(" + a0() + ", " + arg(e, 1, i64) + ")";
    case B::NpCross: return sp + "<" + R + ">(" + a0() + ", " + ax(1) + ")";
    case B::NpInterp: return sp + "<" + R + ">(" + a0() + ", " + ax(1) + ", " + ax(2) + ")";
    case B::NpIsclose: case B::NpAllclose: {
      const Type b1 = Type::scalar_of(Scalar::Bool);
      return sp + "(" + a0() + ", " + ax(1) + ", " + (arg_given(e, 2) ? arg(e, 2, f64) : "1e-05") + ", " +
             (arg_given(e, 3) ? arg(e, 3, f64) : "1e-08") + ", " + (arg_given(e, 4) ? arg(e, 4, b1) : "false") + ")";
    }
    case B::NpHistogram: {  // a tuple (counts, edges), its fields filled through pointers
      const std::string T = type(r);
      std::string s = "[&] { " + T + " cj_r; ";
      if (arg_given(e, 1) && e.args()[1]->type.is_array()) {
        s += "cj_r.f1 = " + ax(1) + "; cj::np_histogram(&cj_r.f0, " + a0() + ", cj_r.f1); return cj_r; }()";
        return s;
      }
      const std::string bins = arg_given(e, 1) ? arg(e, 1, i64) : "(int64_t)10";
      std::string range = "false, 0.0, 0.0";
      if (arg_given(e, 2)) {
        const Type& rt = e.args()[2]->type;
        s += "const auto cj_rg = " + ax(2) + "; ";
        range = "true, " + convert("cj_rg.f0", rt.elems[0], f64) + ", " + convert("cj_rg.f1", rt.elems[1], f64);
      }
      return s + "cj::np_histogram(&cj_r.f0, &cj_r.f1, " + a0() + ", " + bins + ", " + range + "); return cj_r; }()";
    }
    default: break;
  }
  // expand_dims, repeat, ... (codegen_npshape.cpp), then np.linalg (codegen_linalg.cpp)
  return npshape_call_code(e, b, [this](const ast::Node& n) { return expr(n); });
}

}  // namespace detail
}  // namespace cujit
