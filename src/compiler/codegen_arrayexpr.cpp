// Code for the whole-array expressions the lowering stage fused (lower.cpp, ArrayExpr nodes):
// one call of prelude/host_arrays.h's array_expr_new/_out/_inplace with a lambda that computes
// one element from the elements of the inputs. The element expression is ufunc calls on numbers,
// written by codegen_ufunc.cpp's scalar path, so each operation computes in its NumPy loop's
// types (int8 + int8 wraps in int8, int / int is float64) as Numba's ufunc loops do.
#include <string>

#include "compiler/codegen_emitter.h"

namespace cujit {
namespace detail {

std::string Emitter::array_expr(const ast::Node& e, const std::string& target) {
  if (!prog_.host_only) throw InternalError("codegen: an array expression outside @jit code");
  const std::string prefix = "cj_e" + std::to_string(e.cval.i) + "_";
  const std::string R = scalar_cpp(e.type.scalar);
  std::string params, args;
  auto param = [&](const Type& t, const std::string& name) {
    params += (params.empty() ? "" : ", ") + std::string(scalar_cpp(t.scalar)) + " " + name;
  };
  if (e.cval.b) {  // in place: the target is input 0 and the output
    param(e.type, prefix + "t");
    args += ", " + target;
  }
  for (size_t i = 0; i < e.inputs().size(); ++i) {
    param(e.inputs()[i]->type, prefix + std::to_string(i));
    args += ", " + expr(*e.inputs()[i]);
  }
  // The element's value in the result's dtype (an out= array's takes the loop's result
  // same_kind, as NumPy casts it).
  const std::string f = "[&](" + params + ") { return (" + R + ")(" + expr(*e.element()) + "); }";
  // @jit(parallel=True): the loop runs on OpenMP threads, as Numba's parfors run it.
  const std::string par = prog_.parallel ? "true" : "false";
  if (e.cval.b) {
    const char* fn = e.cval.s == "rhs_expr" ? "cj::array_expr_inplace_expr<" : "cj::array_expr_inplace<";
    return fn + par + ">(" + f + args + ")";
  }
  if (e.out()) return "cj::array_expr_out<" + par + ">(" + expr(*e.out()) + ", " + f + args + ")";
  allocates_ = true;
  return "cj::array_expr_new<" + par + ", " + R + ", " + std::to_string(e.type.ndim) + ">(" + f + args + ")";
}

// np.where and np.clip on elements (inside an array expression's loop).
std::string Emitter::elementwise_call(const ast::Node& e, Builtin b) {
  if (b == Builtin::NpWhere && e.args().size() == 1) {  // np.nonzero's (codegen_numpy.cpp): new arrays
    allocates_ = true;
    return numpy_call(e, b);
  }
  if (!e.type.is_scalar()) throw InternalError("codegen: np.where/np.clip left unfused");
  const Type& r = e.type;
  if (b == Builtin::NpWhere)
    return "(" + truth(*e.args()[0]) + " ? " + arg(e, 1, r) + " : " + arg(e, 2, r) + ")";
  // np.clip(x, lo, hi): NumPy's minimum(maximum(x, lo), hi), NaN propagating; a None bound is
  // no bound.
  std::string v = arg(e, 0, r);
  if (e.args()[1]->type.tag != Type::Tag::None) v = "cj::uf_maximum(" + v + ", " + arg(e, 1, r) + ")";
  if (e.args()[2]->type.tag != Type::Tag::None) v = "cj::uf_minimum(" + v + ", " + arg(e, 2, r) + ")";
  return v;
}

}  // namespace detail
}  // namespace cujit
