// Code for NumPy ufunc calls (typeinfer_ufunc.cpp chose each call's loop): on numbers, the
// scalar implementation called with the loop's input types; on arrays in GPU code, prelude/ufuncs.h's
// broadcasting loop over that implementation into out= (@jit code's are array expressions:
// lower.cpp fuses them, codegen_arrayexpr.cpp writes them).
#include <string>
#include <vector>

#include "compiler/builtins.h"
#include "compiler/codegen.h"
#include "compiler/diagnostics.h"

namespace cujit {

std::string ufunc_code(const FunctionInstance& fn, const ast::Node& e, Builtin b, const std::vector<std::string>& args,
                       bool host_only, bool* allocates) {
  auto it = fn.ufunc_loops.find(&e);
  if (it == fn.ufunc_loops.end()) throw InternalError("codegen: a ufunc call without its loop");
  const UfuncLoop& loop = it->second;
  const std::string sp = builtin_spelling(b), R = scalar_cpp(loop.out[0]);
  const size_t nin = loop.in.size();
  if (e.type.is_scalar()) {
    std::string s = "((" + R + ")" + sp + "(";
    for (size_t i = 0; i < nin; ++i) {
      // A 0-d array input (all inputs are numbers or 0-d: the result is a number, as Numba's): its element.
      const bool zero_d = i < e.args().size() && e.args()[i]->type.is_array() && e.args()[i]->type.ndim == 0;
      s += (i ? ", " : "") + std::string("(") + scalar_cpp(loop.in[i]) + ")(" + (zero_d ? "*(" + args[i] + ").data" : args[i]) + ")";
    }
    return s + "))";
  }
  // The element function: the loop's input types in, its output type back.
  std::string f = "[](", call = sp + "(";
  for (size_t i = 0; i < nin; ++i) {
    f += (i ? ", " : "") + std::string(scalar_cpp(loop.in[i])) + " x" + std::to_string(i);
    call += (i ? ", x" : "x") + std::to_string(i);
  }
  f += ") { return (" + R + ")" + call + "); }";
  // A shape mismatch raises ValueError in @jit code and stops a simulated launch with it.
  const std::string err = error_policy(host_only);
  std::string inputs;
  for (size_t i = 0; i < nin; ++i) inputs += ", " + args[i];
  if (args.size() > nin) return "cj::ufunc_apply<" + err + ">(" + args[nin] + ", " + f + inputs + ")";
  (void)allocates;  // a new array: @jit code's are array expressions (lower.cpp, codegen_arrayexpr.cpp)
  throw InternalError("codegen: a ufunc call that makes an array outside an array expression");
}

std::string reduce_code(const ast::Node& e, Builtin b, const std::string& array, bool host_only) {
  const std::string err = error_policy(host_only);
  return std::string(builtin_spelling(b)) + "<" + err + ", " + scalar_cpp(e.type.scalar) + ">(" + array + ")";
}

}  // namespace cujit
