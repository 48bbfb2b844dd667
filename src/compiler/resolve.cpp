// The resolve step before typing (Program::instantiate, after lift_nested_functions): tree
// rewrites that need only names (what a name is bound to: a local, a global of the snapshot, a
// builtin), never a type, so the typer's fixed-point loop sees the rewritten tree from its first
// pass and only computes types:
//  - Python's constant folding of number literals (`1 << 63` is a uint64 literal, `10 ** -3` the
//    float 0.001): the parsed BinOps only, as CPython folds the source; `operator.lshift(1, 63)`
//    is a call Numba types as int64 << int64, never folded (fold_int_constant, typeinfer_fold.cpp);
//  - `np.newaxis` (an attribute of the global numpy module): the constant None;
//  - a call of an operator-module function the names decide (`operator.add(a, b)` with `operator`
//    the global module, `add` from `from operator import add`, `op = operator.add` a global):
//    the expression it stands for (fnval.h), and `operator.setitem(a, i, v)` on a line of its
//    own `a[i] = v`. A BinOp made so keeps the function's name (ast_nodes.def), which typing reads
//    to refuse an in-place form on an array and to leave its constant operands unfolded.
// Rewrites that need types (an operator-module function reached through a function value,
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
using Locals = std::set<std::string>;

// The global (or lifted def) a name not local to the function is bound to, or null.
const GlobalValue* global_of(const FunctionInstance& f, const std::string& name, const Locals& locals) {
  if (locals.count(name)) return nullptr;
  if (auto n = f.nested.find(name); n != f.nested.end()) return &n->second;
  auto g = f.src->globals.find(name);
  return g == f.src->globals.end() ? nullptr : &g->second;
}

// "module.attr" where `e` names a module's attribute by names alone (`np.newaxis` with `np` the
// global module, `add` from `from operator import add`), "" otherwise.
std::string module_attribute(const FunctionInstance& f, const ast::Node& e, const Locals& locals) {
  using GK = GlobalValue::Kind;
  if (e.is(ast::Kind::Name)) {
    const GlobalValue* g = global_of(f, e.name, locals);
    return g && g->kind == GK::ModuleAttr ? g->module + "." + g->attr : "";
  }
  if (e.is(ast::Kind::Attribute) && e.value()->is(ast::Kind::Name)) {
    const GlobalValue* g = global_of(f, e.value()->name, locals);
    return g && g->kind == GK::Module ? g->module + "." + e.name : "";
  }
  return "";
}

// The operator-module function call `e` is, by names ("operator.add"), or "".
std::string operator_call(const FunctionInstance& f, const ast::Node& e, const Locals& locals) {
  if (!e.is(ast::Kind::Call)) return "";
  const std::string q = module_attribute(f, *e.func(), locals);
  const BuiltinRow* b = q.empty() ? nullptr : find_builtin(q);
  return b && b->rule == Rule::Operator ? q : "";
}

// The rewrites of expression `e` and its children, outermost first.
void resolve_expr(FunctionInstance& f, ast::Node& e, const Locals& locals) {
  if (e.is(ast::Kind::BinOp) && fold_int_constant(e) == 1) return;  // now a Constant
  if (e.is(ast::Kind::Attribute) && module_attribute(f, e, locals) == "numpy.newaxis") {
    e.value().reset();  // read by role before the node becomes the constant None
    e.kind = ast::Kind::Constant;
    e.cval = ast::ConstValue{};
    return;
  }
  // A misused one (wrong arity, keywords, setitem as a value) is left for typing to report where
  // it types it, as before.
  if (const std::string q = operator_call(f, e, locals); !q.empty()) {
    rewrite_operator_call(e, q, false);  // edits the node only where it succeeds
  }
  ast::for_each_child(e, [&](ast::Node& c) { resolve_expr(f, c, locals); });
}

// Every statement of `stmts`, nested blocks included, in source order.
void resolve_block(FunctionInstance& f, std::vector<ast::NodePtr>& stmts, const Locals& locals) {
  for (auto& s : stmts) {
    // `e = ValueError("msg")` ... `raise e`: the exception made where it is raised
    // (typeinfer_exc.cpp); the assignment becomes a Pass.
    if (s->is(ast::Kind::Assign) &&
        ((s->rhs()->is(ast::Kind::Call) && s->rhs()->func()->is(ast::Kind::Name)) || s->rhs()->is(ast::Kind::Name)))
      rewrite_exception_variable(f, *s, [&](const std::string& n) { return locals.count(n) > 0; });
    // operator.setitem(a, i, v) on a line of its own: a[i] = v.
    if (s->is(ast::Kind::Expr) && operator_call(f, *s->value(), locals) == "operator.setitem")
      rewrite_setitem_statement(*s, "operator.setitem");
    if (s->is(ast::Kind::FunctionDef)) continue;  // a def left in place is resolved as its own instance
    // The statement's expressions (its blocks below): for_each_child walks body and orelse too,
    // so only the non-statement children are visited here.
    ast::for_each_child(*s, [&](ast::Node& c) {
      if (!ast::is_statement(c.kind)) resolve_expr(f, c, locals);
    });
    resolve_block(f, s->body, locals);
    resolve_block(f, s->orelse, locals);
  }
}
}  // namespace

void resolve_before_typing(FunctionInstance& f) {
  ast::Node& def = *f.mod.func;
  // A name assigned anywhere in the function is local everywhere in it, as in Python (the same
  // set Typer::run starts from).
  std::set<std::string> locals;
  for (const auto& p : def.params) locals.insert(p.name);
  assigned_names(def.body, locals);
  resolve_block(f, def.body, locals);
}

}  // namespace cujit
