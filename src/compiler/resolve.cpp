// The resolve step before typing (Program::instantiate, after lift_nested_functions): tree
// rewrites that need only names (what a name is bound to: a local, a global of the snapshot, a
// builtin), never a type, so the typer's fixed-point loop sees the rewritten tree from its first
// pass and only computes types. Rewrites that need types (operator-module calls through a function
// value, literal_unroll over a heterogeneous tuple, `a[idx] op= v` with an array index, methods
// rewritten by their receiver's type) stay in typing: docs/ARCHITECTURE.md, "Deviations".
#include <set>
#include <string>

#include "compiler/typeinfer.h"
#include "compiler/typeinfer_excvar.h"
#include "compiler/typeinfer_ssa.h"

namespace cujit {

namespace {
// Every statement of `stmts`, nested blocks included, in source order.
void resolve_block(FunctionInstance& f, std::vector<ast::NodePtr>& stmts, const std::set<std::string>& locals) {
  for (auto& s : stmts) {
    // `e = ValueError("msg")` ... `raise e`: the exception made where it is raised
    // (typeinfer_exc.cpp); the assignment becomes a Pass.
    if (s->is(ast::Kind::Assign) &&
        ((s->rhs()->is(ast::Kind::Call) && s->rhs()->func()->is(ast::Kind::Name)) || s->rhs()->is(ast::Kind::Name)))
      rewrite_exception_variable(f, *s, [&](const std::string& n) { return locals.count(n) > 0; });
    resolve_block(f, s->body, locals);
    resolve_block(f, s->orelse, locals);
  }
}
}  // namespace

void resolve_before_typing(FunctionInstance& f) {
  prune_dead_branches(f);
  ast::Node& def = *f.mod.func;
  // A name assigned anywhere in the function is local everywhere in it, as in Python (the same
  // set Typer::run starts from).
  std::set<std::string> locals;
  for (const auto& p : def.params) locals.insert(p.name);
  assigned_names(def.body, locals);
  resolve_block(f, def.body, locals);
}

}  // namespace cujit
