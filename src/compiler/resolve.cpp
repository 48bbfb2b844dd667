// The resolve step before typing (Program::instantiate, after lift_nested_functions): tree
// rewrites that need only names (what a name is bound to: a local, a global of the snapshot, a
// builtin), never a type, so the typer's fixed-point loop sees the rewritten tree from its first
// pass and only computes types:
//  - Python's constant folding of number literals (`1 << 63` is a uint64 literal, `10 ** -3` the
//    float 0.001): the parsed BinOps only, as CPython folds the source; `operator.lshift(1, 63)`
//    is a call Numba types as int64 << int64, never folded (fold_int_constant, typeinfer_fold.cpp);
//  - `np.newaxis` (an attribute of the global numpy module): the constant None;
//  - a call of an operator-module function the names decide (`operator.add(a, b)` with `operator`
//    the global module, `add` from `from operator import add`, `op = operator.add` a global, or a
//    parameter never assigned whose argument is one: an instance is specialised per function
//    passed): the expression it stands for (fnval.h), and `operator.setitem(a, i, v)` on a line of its
//    own `a[i] = v`. A BinOp made so keeps the function's name (ast_nodes.def), which typing reads
//    to refuse an in-place form on an array and to leave its constant operands unfolded.
// Rewrites that need types (an operator-module function reached through a variable assigned one,
// literal_unroll over a heterogeneous tuple, `a[idx] op= v` with an array index, methods
// rewritten by their receiver's type) stay in typing: docs/ARCHITECTURE.md, "Deviations".
#include <set>
#include <string>

#include "compiler/builtins.h"
#include "compiler/fnval.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_excvar.h"
#include "compiler/typeinfer_ssa.h"

namespace cujit {

namespace {
// The function's local names (parameters and every name it assigns) and the assigned ones alone.
struct Names {
  std::set<std::string> locals, assigned;
};

// The global (or lifted def) a name not local to the function is bound to, or null.
const GlobalValue* global_of(const FunctionInstance& f, const std::string& name, const Names& names) {
  if (names.locals.count(name)) return nullptr;
  if (auto n = f.nested.find(name); n != f.nested.end()) return &n->second;
  auto g = f.src->globals.find(name);
  return g == f.src->globals.end() ? nullptr : &g->second;
}

// "module.attr" where `e` names a module's attribute by names alone (`np.newaxis` with `np` the
// global module, `add` from `from operator import add`), "" otherwise.
std::string module_attribute(const FunctionInstance& f, const ast::Node& e, const Names& names) {
  using GK = GlobalValue::Kind;
  if (e.is(ast::Kind::Name)) {
    const GlobalValue* g = global_of(f, e.name, names);
    return g && g->kind == GK::ModuleAttr ? g->module + "." + g->attr : "";
  }
  if (e.is(ast::Kind::Attribute) && e.value()->is(ast::Kind::Name)) {
    const GlobalValue* g = global_of(f, e.value()->name, names);
    return g && g->kind == GK::Module ? g->module + "." + e.name : "";
  }
  return "";
}

// The operator-module function a parameter the function never assigns holds (a function value
// passed to it: its argument type names the function, as every call of it is specialised per
// function passed), or "".
std::string operator_param(const FunctionInstance& f, const ast::Node& callee, const Names& names) {
  if (!callee.is(ast::Kind::Name) || names.assigned.count(callee.name)) return "";
  const auto& params = f.mod.func->params;
  for (size_t i = 0; i < params.size() && i < f.arg_types.size(); ++i) {
    if (params[i].name != callee.name) continue;
    const Type& t = f.arg_types[i];
    return !params[i].star && t.tag == Type::Tag::Function && t.user_fn < 0 && t.name.rfind("operator.", 0) == 0 ? t.name : "";
  }
  return "";
}

// The operator-module function call `e` is, by names or a parameter's type ("operator.add"), or "".
std::string operator_call(const FunctionInstance& f, const ast::Node& e, const Names& names) {
  if (!e.is(ast::Kind::Call)) return "";
  std::string q = module_attribute(f, *e.func(), names);
  if (q.empty()) q = operator_param(f, *e.func(), names);
  const BuiltinRow* b = q.empty() ? nullptr : find_builtin(q);
  return b && b->rule == Rule::Operator ? q : "";
}

// The rewrites of expression `e` and its children, outermost first.
void resolve_expr(FunctionInstance& f, ast::Node& e, const Names& names) {
  if (e.is(ast::Kind::BinOp) && fold_int_constant(e) == 1) return;  // now a Constant
  if (e.is(ast::Kind::Attribute) && module_attribute(f, e, names) == "numpy.newaxis") {
    e.value().reset();  // read by role before the node becomes the constant None
    e.kind = ast::Kind::Constant;
    e.cval = ast::ConstValue{};
    return;
  }
  // A misused one (wrong arity, keywords, setitem as a value) is left for typing to report where
  // it types it, as before.
  if (const std::string q = operator_call(f, e, names); !q.empty()) {
    rewrite_operator_call(e, q, false);  // edits the node only where it succeeds
  }
  ast::for_each_child(e, [&](ast::Node& c) { resolve_expr(f, c, names); });
}

// Every statement of `stmts`, nested blocks included, in source order.
void resolve_block(FunctionInstance& f, std::vector<ast::NodePtr>& stmts, const Names& names) {
  for (auto& s : stmts) {
    // `e = ValueError("msg")` ... `raise e`: the exception made where it is raised
    // (typeinfer_exc.cpp); the assignment becomes a Pass.
    if (s->is(ast::Kind::Assign) &&
        ((s->rhs()->is(ast::Kind::Call) && s->rhs()->func()->is(ast::Kind::Name)) || s->rhs()->is(ast::Kind::Name)))
      rewrite_exception_variable(f, *s, [&](const std::string& n) { return names.locals.count(n) > 0; });
    // operator.setitem(a, i, v) on a line of its own: a[i] = v.
    if (s->is(ast::Kind::Expr) && operator_call(f, *s->value(), names) == "operator.setitem")
      rewrite_setitem_statement(*s, "operator.setitem");
    if (s->is(ast::Kind::FunctionDef)) continue;  // a def left in place is resolved as its own instance
    // The statement's expressions (its blocks below): for_each_child walks body and orelse too,
    // so only the non-statement children are visited here.
    ast::for_each_child(*s, [&](ast::Node& c) {
      if (!ast::is_statement(c.kind)) resolve_expr(f, c, names);
    });
    resolve_block(f, s->body, names);
    resolve_block(f, s->orelse, names);
  }
}
}  // namespace

void resolve_before_typing(FunctionInstance& f) {
  prune_dead_branches(f);
  ast::Node& def = *f.mod.func;
  // A name assigned anywhere in the function is local everywhere in it, as in Python (the same
  // set Typer::run starts from).
  Names names;
  assigned_names(def.body, names.assigned);
  names.locals = names.assigned;
  for (const auto& p : def.params) names.locals.insert(p.name);
  resolve_block(f, def.body, names);
}

}  // namespace cujit
