// Complex numbers' intrinsics for codegen.cpp: complex(), cmath, np.real/imag/conj, and the
// complex cases of abs() and z.conjugate(). The arithmetic itself is the prelude's (complex.h).
#include "compiler/codegen_values.h"

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"

namespace cujit {

std::string emit_complex_builtin(const ast::Node& e, Builtin b, const ValueContext& cx) {
  const BuiltinRow& row = builtin_row(b);
  const Type& r = e.type;
  auto arg = [&](size_t i, const Type& to) { return cx.convert(cx.expr(*e.args()[i]), e.args()[i]->type, to); };
  auto a0 = [&]() -> const Type& { return e.args()[0]->type; };
  if (b == Builtin::Conjugate) return is_complex(a0().scalar) ? "cj::conj(" + cx.expr(*e.args()[0]) + ")" : cx.expr(*e.args()[0]);
  if (b == Builtin::Abs || b == Builtin::NpAbs) {
    if (is_complex(a0().scalar)) return "cj::abs(" + cx.expr(*e.args()[0]) + ")";
    return b == Builtin::NpAbs ? "cj::abs(" + arg(0, r) + ")" : "";
  }
  if (row.rule != Rule::Complex) return "";
  using B = Builtin;
  switch (b) {
    case B::ComplexFn:
      if (e.args().size() == 1) return arg(0, r);
      return cx.type(r) + "(" + arg(0, Type::scalar_of(complex_part(r.scalar))) + ", " + arg(1, Type::scalar_of(complex_part(r.scalar))) + ")";
    case B::CmathPhase: case B::CmathIsnan: case B::CmathIsinf: case B::CmathIsfinite:
      // Of a complex, or of a real as the real function (cmath.isnan(x) is math.isnan(x)).
      if (is_complex(a0().scalar)) return std::string(row.spelling) + "(" + cx.expr(*e.args()[0]) + ")";
      return std::string(row.spelling) + "(" + arg(0, Type::scalar_of(is_float(a0().scalar) ? a0().scalar : Scalar::Float64)) + ")";
    case B::CmathPolar: {
      const Type z = Type::scalar_of(complex_of(a0().scalar));
      const std::string t = "cj_pz" + std::to_string((*cx.tmp)++);
      return "([&]() { auto " + t + " = " + arg(0, z) + "; return " + cx.type(r) + "{cj::abs(" + t + "), cj::phase(" + t + ")}; }())";
    }
    case B::CmathRect: {
      const Type f = Type::scalar_of(complex_part(r.scalar));
      return "cj::rect(" + arg(0, f) + ", " + arg(1, f) + ")";
    }
    case B::CmathLog:
      // log(z) / log(base): in @jit code a base of 1 raises ZeroDivisionError, as in Numba.
      if (e.args().size() == 2 && cx.python_errors) return "cj::py_truediv(cj::log(" + arg(0, r) + "), cj::log(" + arg(1, r) + "))";
      if (e.args().size() == 2) return "cj::log(" + arg(0, r) + ", " + arg(1, r) + ")";
      return "cj::log(" + arg(0, r) + ")";
    case B::NpReal: case B::NpImag:
      if (is_complex(a0().scalar)) return std::string(row.spelling) + "(" + cx.expr(*e.args()[0]) + ")";
      if (b == B::NpReal) return cx.expr(*e.args()[0]);
      return "((" + cx.type(r) + ")0)";
    case B::NpConj: case B::NpConjugate:
      return is_complex(a0().scalar) ? "cj::conj(" + cx.expr(*e.args()[0]) + ")" : cx.expr(*e.args()[0]);
    default:  // cmath's functions of one number: of it as complex
      return std::string(row.spelling) + "(" + arg(0, r) + ")";
  }
}


// a.real / a.imag of an array, typed by complex_array_attr: the prelude's view of the parts.
std::string emit_complex_array_attr(const Type& v, const std::string& name, const std::string& a) {
  if (!is_complex(v.scalar)) return a;  // a real array's .real
  return "cj::complex_part_view(" + a + ", " + (name == "imag" ? "1" : "0") + ")";
}

}  // namespace cujit
