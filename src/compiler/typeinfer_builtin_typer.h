// The typing of intrinsic calls (internal to type inference; not a public header): one
// BuiltinTyper types the calls of one FunctionInstance. Its members are defined in three files,
// so that no file grows past ~1,000 lines: typeinfer_builtins.cpp (the typing rule of each call,
// one case per Rule, and the keyword specs), typeinfer_builtin_arrays.cpp (array allocation and
// views, random numbers) and typeinfer_builtin_consts.cpp (constant arguments: folded integers
// for shapes, dtypes, globals). Each member is documented at its definition.
#pragma once

#include <string>
#include <vector>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {
namespace detail {

class BuiltinTyper {
 public:
  explicit BuiltinTyper(FunctionInstance& fn) : fn_(fn) {}
  void arity(const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args, size_t lo, size_t hi);
  void need_numbers(const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args, bool complex_ok = false);
  void need_int(const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args, size_t i);
  Type builtin_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);

  // Constant integer expressions (shapes of cuda.local/shared.array): literals, global ints and
  // integer NumPy scalars, items of global tuples, and Python's integer arithmetic on them
  // (`TPB * 2`, `2**10`, `-1 + TPB`, `SHAPE[0]`), folded with Python's semantics. Python's ints
  // have no bound, so a value past int64 is "too large" (Overflow), never a wrapped size.
  enum class Fold { Ok, NotConstant, Overflow };
  Fold fold_int(const ast::Node& n, int64_t* out, const ast::Node** culprit);
  const ast::Node* single_definition(const ast::Node& n);
  const GlobalValue* global_named(const ast::Node& n);
  static bool global_int(const GlobalValue& g, int64_t* out, const ast::Node** culprit, const ast::Node& at);
  Type random_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
  void host_only(const ast::Node& e, const BuiltinRow& b, const char* gpu_hint);
  static constexpr const char* kArraysOnGpu =
      "GPU code makes arrays with cuda.local.array / cuda.shared.array, or takes them as arguments";
  Scalar dtype_arg(const ast::Node& at, const BuiltinRow& b, const Type& t);
  int shape_ndim(const ast::Node& at, const BuiltinRow& b, const Type& t);
  Type array_new(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
  Type gpu_copy(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
  Type array_view(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
  Type numpy_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);  // typeinfer_numpy.cpp
  Type reduce_axis(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
  Type array_alloc(ast::Node& e, const BuiltinRow& b);
  std::string not_constant(const BuiltinRow& b, const ast::Node& at);
  Scalar alloc_dtype(const ast::Node& dtype, const BuiltinRow& b);

 private:
  FunctionInstance& fn_;
  int fold_depth_ = 0;  // locals folded through their definitions (N = M, M = N stops here)
  FunctionInstance& fn() { return fn_; }
  [[noreturn]] void error(const ast::Node& at, const std::string& msg);
  [[noreturn]] void unsupported(const ast::Node& at, const std::string& msg);
  bool const_int(const ast::Node& n, int64_t* out) { return const_int_literal(n, out); }

 public:
  bool constant_argument(const ast::Node& n, GlobalValue* out);
};

}  // namespace detail
}  // namespace cujit
