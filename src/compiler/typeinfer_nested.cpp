// Nested functions (`def inner(...)` inside a compiled function), lifted out of the tree before
// typing, as Numba turns them into functions of their own (its closure inlining and
// make_function passes). For each nested def, in source order:
//
// - its captured names: the names it reads (nested defs in it included) that the enclosing
//   function binds (parameters, assignments, loop targets, other nested defs);
// - if the function is only ever called directly (`inner(x)`), each captured name becomes an
//   extra trailing parameter, and every direct call passes the enclosing variable's value at the
//   call, as Python's closures read it then;
// - if it escapes (passed as a value: `consumer(inner, x)`), its captured names must be constants,
//   as Numba requires: a name assigned once, a number, becomes a global constant of the nested
//   function; anything else is refused with Numba's messages;
// - the def statement becomes `inner = __cj_def_<line>_<col>`, a global naming a FunctionSource
//   whose tree is the lifted def (FunctionSource::tree), so the rest of the compiler sees a
//   function value bound to a local, which it already knows.
//
// The nested FunctionSources are made once per program and enclosing source (Program::nested),
// so every instance of the enclosing function names the same ones.
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_rewrites.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace cujit {

namespace {

using ast::Node;
using ast::NodePtr;
using K = ast::Kind;

using ast::target_names;

/// The names `stmts` bind, nested defs' names included but not what is inside them.
void bound(const std::vector<NodePtr>& stmts, std::set<std::string>& out) {
  for (const auto& s : stmts) {
    if (s->is(K::FunctionDef)) { out.insert(s->name); continue; }
    if (s->is(K::Assign)) for (const auto& t : s->targets()) target_names(*t, out);
    if (s->is(K::AugAssign) || s->is(K::For)) target_names(*s->target(), out);
    ast::named_expr_targets(*s, out);
    bound(s->body, out);
    bound(s->orelse, out);
  }
}

std::set<std::string> locals_of(const Node& def) {
  std::set<std::string> b;
  for (const auto& p : def.params) b.insert(p.name);
  bound(def.body, b);
  return b;
}

std::set<std::string> free_names(const Node& def);

/// The names `n` reads; for a nested def, the names it reads from outside.
void reads(const Node& n, std::set<std::string>& out) {
  if (n.is(K::FunctionDef)) {
    for (const auto& x : free_names(n)) out.insert(x);
    return;
  }
  if (n.is(K::Name)) out.insert(n.name);
  ast::for_each_child(n, [&](const Node& c) { reads(c, out); });
}

std::set<std::string> free_names(const Node& def) {
  std::set<std::string> r;
  for (const auto& s : def.body) reads(*s, r);
  for (const auto& b : locals_of(def)) r.erase(b);
  return r;
}

/// Whether `name` is used other than as the callee of a call in `n` (nested defs that bind the
/// name themselves aside).
bool escapes(const Node& n, const std::string& name, bool callee = false) {
  if (n.is(K::FunctionDef) && locals_of(n).count(name)) return false;
  if (n.is(K::Name)) return n.name == name && !callee;
  const Node* func = n.is(K::Call) ? n.func().get() : nullptr;  // a call's callee is no escape
  bool found = false;
  ast::for_each_child(n, [&](const Node& c) { found = found || escapes(c, name, &c == func); });
  return found;
}

/// The definitions of `name` in `def` (not inside nested defs): how many, and the value of the
/// last plain assignment.
int definitions(const Node& def, const std::string& name, const Node** value) {
  int n = 0;
  for (const auto& p : def.params) n += p.name == name;
  std::vector<const std::vector<NodePtr>*> todo{&def.body};
  while (!todo.empty()) {
    const auto* stmts = todo.back();
    todo.pop_back();
    for (const auto& s : *stmts) {
      std::set<std::string> t;
      if (s->is(K::FunctionDef)) { n += s->name == name; continue; }
      if (s->is(K::Assign)) {
        for (const auto& x : s->targets()) {
          t.clear();
          target_names(*x, t);
          if (t.count(name)) { ++n; *value = x->is(K::Name) ? s->rhs().get() : nullptr; }
        }
      }
      if (s->is(K::AugAssign) || s->is(K::For)) {
        target_names(*s->target(), t);
        if (t.count(name)) { ++n; *value = nullptr; }
      }
      t.clear();
      for_each_child(*s, [&](const Node& c) { if (!c.is(K::FunctionDef)) ast::named_expr_targets(c, t); });
      if (t.count(name)) { n += 2; *value = nullptr; }  // `(name := v)`: not a constant (counted as two: it may run more than once)
      todo.push_back(&s->body);
      todo.push_back(&s->orelse);
    }
  }
  return n;
}

/// A number literal (or a negated one) as a constant global; false for anything else.
bool constant_value(const Node& v, GlobalValue* out) {
  const Node* e = &v;
  bool neg = false;
  if (e->is(K::UnaryOp) && e->op == ast::Op::USub && e->operand()) neg = true, e = e->operand().get();
  if (!e->is(K::Constant)) return false;
  switch (e->cval.tag) {
    case ast::ConstValue::Tag::Int:
      if (e->cval.big_int) return false;
      out->kind = GlobalValue::Kind::Int;
      out->i = neg ? -e->cval.i : e->cval.i;
      return true;
    case ast::ConstValue::Tag::Float:
      out->kind = GlobalValue::Kind::Float;
      out->f = neg ? -e->cval.f : e->cval.f;
      return true;
    case ast::ConstValue::Tag::Bool:
      if (neg) return false;
      out->kind = GlobalValue::Kind::Bool;
      out->i = e->cval.b;
      return true;
    default: return false;
  }
}

struct Lifter {
  Program& prog;
  const FunctionSource& top;  // the function whose text holds every nested def

  /// Appends the captured names to every direct call of `name` in `n` (not where a nested def
  /// binds `name` itself). `shadow`: names bound by the nested defs around `n`.
  void pass_captured(Node& n, const std::string& name, const std::vector<std::string>& captured,
                     const SourceFile& src, std::set<std::string> shadow = {}) {
    if (n.is(K::FunctionDef)) {
      const std::set<std::string> b = locals_of(n);
      if (b.count(name)) return;
      shadow.insert(b.begin(), b.end());
    }
    if (n.is(K::Call) && n.func()->is(K::Name) && n.func()->name == name) {
      for (const auto& c : captured) {
        if (shadow.count(c))
          user_error(src, n.loc, ErrorKind::Unsupported,
                     "this call of the nested function '" + name + "' is in a function that binds '" + c +
                         "', a name '" + name + "' reads from the function around it: not supported; rename it");
        NodePtr arg = ast::make(K::Name, n.loc);
        arg->name = c;
        // By name: the call's own arguments are bound to the def's parameters first (its
        // defaults and *args included, bind_user_call), the captured ones after them.
        n.keywords.push_back(ast::Keyword{c, n.loc, std::move(arg)});
      }
    }
    ast::for_each_child(n, [&](Node& c) { pass_captured(c, name, captured, src, shadow); });
  }

  /// Lifts the nested defs of `def` (whose globals are `globals`), adding a global per def to
  /// `placeholders`.
  void lift(Node& def, const std::map<std::string, GlobalValue>& globals,
            std::map<std::string, GlobalValue>& placeholders, const SourceFile& src) {
    const std::set<std::string> locals = locals_of(def);
    lift_block(def, def.body, locals, globals, placeholders, src);
  }

  void lift_block(Node& def, std::vector<NodePtr>& stmts, const std::set<std::string>& locals,
                  const std::map<std::string, GlobalValue>& globals,
                  std::map<std::string, GlobalValue>& placeholders, const SourceFile& src) {
    for (auto& sp : stmts) {
      Node& s = *sp;
      if (!s.is(K::FunctionDef)) {
        lift_block(def, s.body, locals, globals, placeholders, src);
        lift_block(def, s.orelse, locals, globals, placeholders, src);
        continue;
      }
      std::vector<std::string> captured;
      for (const auto& n : free_names(s)) if (locals.count(n)) captured.push_back(n);
      // It calls itself: its own name is a cell of the enclosing function, which Numba refuses
      // (cujit would pass the function to itself as a captured value at each call).
      if (std::find(captured.begin(), captured.end(), s.name) != captured.end())
        user_error(src, s.loc, ErrorKind::Unsupported,
                   "Unsupported use of cell variable encountered: the nested function '" + s.name +
                       "' calls itself; a recursive function must be defined at module level");
      std::map<std::string, GlobalValue> consts;
      bool escaping = false;
      for (const auto& st : def.body) escaping = escaping || escapes(*st, s.name);
      if (escaping) {  // passed as a value: Numba captures constants only
        for (const auto& c : captured) {
          const Node* value = nullptr;
          const int n = definitions(def, c, &value);
          GlobalValue g;
          if (n > 1)
            user_error(src, s.loc, ErrorKind::Typing,
                       "Cannot capture a constant value for variable '" + c + "' as there are multiple definitions present.");
          if (!value || !constant_value(*value, &g))
            user_error(src, s.loc, ErrorKind::Typing,
                       "Cannot capture the non-constant value associated with variable '" + c + "' in a function that may escape.");
          consts[c] = g;
        }
      } else {  // called directly: the captured values are passed at each call
        for (const auto& c : captured) s.params.push_back(ast::Param{c, s.loc});
        for (auto& st : def.body) pass_captured(*st, s.name, captured, src);
      }
      const std::string key = "__cj_def_" + std::to_string(s.loc.line) + "_" + std::to_string(s.loc.col);
      std::shared_ptr<FunctionSource>& ns = prog.nested[{&top, key}];
      if (!ns) {
        ns = std::make_shared<FunctionSource>();
        ns->name = s.name;
        ns->source = top.source;
        ns->globals = globals;
        for (auto& [n, g] : consts) ns->globals[n] = g;
        auto tree = std::make_shared<Node>(K::FunctionDef, s.loc);
        *tree = std::move(s);
        lift(*tree, ns->globals, ns->globals, src);
        ns->tree = tree;
      }
      GlobalValue g;
      g.kind = GlobalValue::Kind::Function;
      g.fn = ns;
      placeholders[key] = g;
      // The def statement becomes `name = <the lifted function>`.
      const SourceLoc loc = sp->loc;
      const std::string name = ns->name;
      NodePtr bind = ast::make(K::Assign, loc);
      NodePtr target = ast::make(K::Name, loc);
      target->name = name;
      NodePtr value = ast::make(K::Name, loc);
      value->name = key;
      bind->targets().push_back(std::move(target));
      bind->rhs() = std::move(value);
      sp = std::move(bind);
    }
  }
};

bool has_nested_def(const std::vector<NodePtr>& stmts) {
  for (const auto& s : stmts)
    if (s->is(K::FunctionDef) || has_nested_def(s->body) || has_nested_def(s->orelse)) return true;
  return false;
}

}  // namespace

ast::Module parse_function(Program& prog, const FunctionSource& src) {
  if (src.tree) return ast::Module{src.source, ast::clone(*src.tree)};
  auto it = prog.trees.find(&src);
  if (it == prog.trees.end()) {
    if (!prog.parser) throw InternalError("typing " + src.name + "(): the parse stage handed over no tree (pipeline.cpp)");
    it = prog.trees.emplace(&src, std::make_shared<const ast::Module>(prog.parser(src.source))).first;
  }
  ast::Module m{it->second->source, ast::clone(*it->second->func)};
  desugar_comprehensions_and_builtins(m, sum_is_builtin(src, *m.func));  // comprehensions and sum() into loops (typeinfer_lists.cpp)
  hoist_starred_arguments(m);  // f(*expr): expr evaluated once (typeinfer_starred.cpp)
  return m;
}

void lift_nested_functions(Program& prog, FunctionInstance& f) {
  if (!has_nested_def(f.mod.func->body)) return;
  Lifter l{prog, *f.src};
  l.lift(*f.mod.func, f.src->globals, f.nested, f.mod.source);
}

}  // namespace cujit
