// The type inference's class (internal to type inference; not a public header): one Typer types
// one FunctionInstance (the algorithm: typeinfer.cpp's file comment). Its members are defined in
// five files by what they type, so that no file grows past ~1,000 lines: typeinfer.cpp (the
// passes), typeinfer_stmt.cpp (statements and assignment targets), typeinfer_expr.cpp
// (expressions: constants, names, globals, module attributes, attributes), typeinfer_ops.cpp
// (operators, subscripts, array methods, calls) and typeinfer_calls.cpp (calls of compiled
// functions: argument binding, recursion). Each member is documented at its definition.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compiler/typeinfer.h"
#include "compiler/typeinfer_ssa.h"

namespace cujit {
namespace detail {

class Typer {
 public:
  Typer(Program& prog, int self)
      : prog_(prog), self_(self), ssa_(prog.fns[self]->mod.source, prog.may_be_optional(), prog.optionals) {}
  void run();

 private:
  Program& prog_;
  int self_;
  bool final_ = false;
  std::vector<std::pair<Type, const ast::Node*>> returns_;
  int prange_depth_ = 0;  // parallel prange loops around the statement being typed
  Versions ssa_;          // every local's versions and where the walk is (typeinfer_ssa.h)
  std::vector<const ast::Node*> prange_loops_;  // parallel prange loops (final pass)
  // Recursion (typeinfer_calls.cpp): this pass typed a call of an instance being typed whose
  // return type is not known yet; -1 if none, else the outermost such instance (self_ included).
  int pending_ = -1;
  bool partial_return();
  Type recursive_call(ast::Node& e, int idx);
  Type wait_on(ast::Node& e, int idx);
  void walk(ast::Node& def);
  FunctionInstance& fn() { return *prog_.fns[self_]; }
  const SourceFile& src() { return fn().mod.source; }
  [[noreturn]] void error(const ast::Node& at, const std::string& msg);
  [[noreturn]] void unsupported(const ast::Node& at, const std::string& msg);

  // ---- statements -----------------------------------------------------------------------------
  void block(std::vector<ast::NodePtr>& stmts);

  // `for x in literal_unroll(t)`: a heterogeneous tuple t is rewritten into one copy of the body
  // per item (typeinfer_unroll.cpp), and typing starts again; anything else loops as usual.
  int conditional_ = 0;   // inside an operand of and/or after the first, or a branch of `a if c else b`
  int unroll_depth_ = 0;  // rewritten loops around the statement being typed
  void unroll_literal(std::vector<ast::NodePtr>& stmts, size_t i);
  void stmt(ast::Node& s);
  bool is_prange(const ast::Node& iter);

  /// `e` typed where its value is used (an operand, an argument, an index, a stored value): an
  /// optional value is unwrapped there (FunctionInstance::unwrap).
  Type operand(ast::Node& e) { return unwrapped(e, expr(e)); }
  Type unwrapped(ast::Node& e, Type t);
  void truth(ast::Node& e);
  void assign(ast::Node& target, const Type& v, const ast::Node& stmt);
  void finish_return(const ast::Node& def);

  // ---- expressions ----------------------------------------------------------------------------
  Type set(ast::Node& e, Type t);
  Type expr(ast::Node& e);
  // Records `form` as the new form of `e` (FunctionInstance::rewrites: the tree keeps `e`, the
  // lowering stage puts `form` there) and types it in e's place.
  Type expr_as(ast::Node& e, ast::NodePtr form);
  void stmt_as(ast::Node& s, ast::NodePtr form);
  Type constant(ast::Node& e);
  Type name(ast::Node& e);
  void python_builtin(const ast::Node& e);
  Type global(ast::Node& e, const GlobalValue& g);
  Type module_attr(ast::Node& e, const std::string& module, const std::string& attr);
  Type enum_member_of(ast::Node& e, const std::string& var, const std::string& member);
  Type attribute(ast::Node& e);
  Type unary(ast::Node& e);
  Type binop_type(const ast::Node& at, ast::Op op, const Type& a, const Type& b);
  Type subscript(ast::Node& e);
  void array_method(ast::Node& e);
  Type call(ast::Node& e);
  Type call_user(ast::Node& e, const Type& callee, const std::vector<Type>& args);
};

}  // namespace detail
}  // namespace cujit
