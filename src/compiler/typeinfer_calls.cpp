// Calls of compiled functions bound as Python binds them, as Numba folds them (its
// fold_arguments): `f(*t)` spreads a tuple's items, keywords go to the parameters they name, a
// parameter left out gets its default, and the extra positional arguments of a `*args` function
// become one tuple. The call's tree is rewritten once, in the calling instance's own copy, into a
// call with one positional argument per parameter, which the rest of the compiler already knows.
//
// Recursion, as Numba types it: a call of an instance that is still being typed (directly, or
// through other functions) has the type the instance's returns give so far
// (FunctionInstance::partial_ret: the returns that do not recurse, on the first pass), or its
// declared type; the passes repeat until that type stops changing. A call through other
// functions made before any return is typed makes those functions wait (PendingRecursion):
// they are typed again on the next pass of the one they wait on. A recursion with no return
// that does not recurse is Numba's "cannot type infer runaway recursion"; a call typed with a
// type the function does not end up returning, "Return type of recursive function does not
// converge" (check_recursive_uses).
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_typer.h"

#include <functional>
#include <algorithm>
#include <exception>
#include <map>

#include "compiler/fnval.h"
#include "compiler/overloads.h"

#include <set>
#include <string>
#include <utility>

namespace cujit {

namespace {

using ast::Node;
using ast::NodePtr;
using K = ast::Kind;


/// Whether `n` is a default written as a constant (a number, a bool, None, a negated number, a
/// tuple of these): its value does not depend on where it is written, so a caller may copy it.
bool literal_default(const Node& n) {
  if (n.is(K::Constant)) return n.cval.tag != ast::ConstValue::Tag::Str;
  if (n.is(K::UnaryOp) && (n.op == ast::Op::USub || n.op == ast::Op::UAdd)) return literal_default(*n.operand());
  if (n.is(K::Tuple)) {
    for (const auto& e : n.elts())
      if (!literal_default(*e)) return false;
    return true;
  }
  return false;
}

NodePtr constant_node(SourceLoc at, ast::ConstValue v) {
  NodePtr n = ast::make(K::Constant, at);
  n->cval = std::move(v);
  return n;
}

/// The expression a caller passes for parameter `p` of `callee` that it left out: the value
/// Python evaluated at the def (the snapshot's " default <name>"), as a literal where it is a
/// Python number, bool or None, else as a global of the caller's that holds it; for a nested def
/// (no snapshot of its own), the default as written, which must be a constant.
NodePtr default_argument(FunctionInstance& fn, const Node& call, const FunctionSource& callee, const ast::Param& p) {
  using GK = GlobalValue::Kind;
  auto g = callee.globals.find(" default " + p.name);
  if (g != callee.globals.end()) {
    const GlobalValue& v = g->second;
    ast::ConstValue cv;
    switch (v.kind) {
      case GK::Int: cv.tag = ast::ConstValue::Tag::Int, cv.i = v.i; return constant_node(call.loc, cv);
      case GK::Float: cv.tag = ast::ConstValue::Tag::Float, cv.f = v.f; return constant_node(call.loc, cv);
      case GK::Bool: cv.tag = ast::ConstValue::Tag::Bool, cv.b = v.i != 0; return constant_node(call.loc, cv);
      case GK::NoneValue: return constant_node(call.loc, cv);
      default: break;
    }
    // A NumPy scalar, a tuple, an array, an enum member...: typed as such a global is.
    const std::string name = "__cj_default_" + std::to_string(fn.nested.size()) + "_" + p.name;
    fn.nested[name] = v;
    NodePtr n = ast::make(K::Name, call.loc);
    n->name = name;
    return n;
  }
  if (!literal_default(*p.dflt))
    user_error(fn.mod.source, call.loc, ErrorKind::Unsupported,
               "the default value of parameter '" + p.name + "' of the nested function " + callee.name +
                   "() is not a constant (a number, bool, None or a tuple of them); pass the argument");
  NodePtr n = ast::clone(*p.dflt);
  n->loc = call.loc;
  return n;
}

}  // namespace

NodePtr starred_form(FunctionInstance& fn, const Node& call, const std::function<Type(Node&)>& type_of, bool* known) {
  *known = true;
  bool any = false;
  for (const auto& a : call.args()) any = any || a->is(K::Starred);
  if (!any) return nullptr;
  // Every starred value's type first: the form is made once, when all of them are known.
  for (const auto& a : call.args()) {
    if (!a->is(K::Starred) || a->value()->is(K::Tuple)) continue;
    Node& value = *a->value();
    const Type t = type_of(value);
    if (!t.known()) {
      *known = false;
      continue;
    }
    if (!t.is_tuple())
      typing_error(fn, value, "argument unpacking (*) of a " + t.str() + ": only tuples can be unpacked into a call");
    if (!value.is(K::Name))  // its items are read one by one: evaluating it once each would repeat its effects
      user_error(fn.mod.source, value.loc, ErrorKind::Unsupported,
                 "argument unpacking (*) of an expression is not supported; assign the tuple to a variable first");
  }
  if (!*known) return nullptr;
  NodePtr form = clone_for_rewrite(fn, call);
  std::vector<NodePtr> out;
  for (size_t k = 0; k < form->args().size(); ++k) {
    NodePtr& a = form->args()[k];
    if (!a->is(K::Starred)) {
      out.push_back(std::move(a));
      continue;
    }
    Node& value = *a->value();
    if (value.is(K::Tuple)) {  // f(*(x, y)): the items themselves
      for (auto& item : value.elts()) out.push_back(std::move(item));
      continue;
    }
    const Type t = call.args()[k]->value()->type;  // typed above, on the call's own node
    for (size_t i = 0; i < t.elems.size(); ++i) {
      NodePtr item = ast::make(K::Subscript, value.loc);
      item->value() = ast::clone(value);
      item->value()->type = Type::unknown();
      ast::ConstValue c;
      c.tag = ast::ConstValue::Tag::Int;
      c.i = (int64_t)i;
      item->index() = constant_node(value.loc, c);
      out.push_back(std::move(item));
    }
  }
  form->args() = std::move(out);
  return form;
}

void bind_user_call(FunctionInstance& fn, Node& call, const FunctionSource& callee, const Node& def) {
  if (fn.bound_calls.count(&call)) return;
  const std::vector<ast::Param>& params = def.params;
  size_t star = params.size();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].star) star = i;
  const size_t positional = star;  // parameters a positional argument can fill
  // The common case: as many positional arguments as parameters, no *args, no keywords.
  if (star == params.size() && call.keywords.empty() && call.args().size() == params.size()) {
    fn.bound_calls.insert(&call);
    return;
  }
  const std::string who = callee.name + "()";
  std::vector<NodePtr> slots(params.size());
  std::vector<NodePtr> extra;
  for (size_t i = 0; i < call.args().size(); ++i) {
    if (i < positional) slots[i] = std::move(call.args()[i]);
    else if (star < params.size()) extra.push_back(std::move(call.args()[i]));
    else
      typing_error(fn, call, who + " takes " + std::to_string(positional) + " positional argument" +
                                 (positional == 1 ? "" : "s") + " but " + std::to_string(call.args().size()) +
                                 (call.args().size() == 1 ? " was" : " were") + " given");
  }
  for (auto& kw : call.keywords) {
    size_t i = 0;
    while (i < params.size() && (params[i].name != kw.name || params[i].star)) ++i;
    if (i == params.size()) typing_error(fn, *kw.value, who + " got an unexpected keyword argument '" + kw.name + "'");
    if (slots[i]) typing_error(fn, *kw.value, who + " got multiple values for argument '" + kw.name + "'");
    slots[i] = std::move(kw.value);
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < params.size(); ++i) {
    if (slots[i]) continue;
    if (i == star) {  // the extra positional arguments, as one tuple (Numba's StarArgTuple)
      slots[i] = ast::make(K::Tuple, call.loc);
      for (auto& e : extra) slots[i]->elts().push_back(std::move(e));
    } else if (params[i].dflt) {
      slots[i] = default_argument(fn, call, callee, params[i]);
    } else {
      missing.push_back(params[i].name);
    }
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t i = 0; i < missing.size(); ++i)
      names += (i == 0 ? "" : i + 1 == missing.size() ? (missing.size() == 2 ? " and " : ", and ") : ", ") + ("'" + missing[i] + "'");
    typing_error(fn, call, who + " missing " + std::to_string(missing.size()) + " required positional argument" +
                               (missing.size() == 1 ? "" : "s") + ": " + names);
  }
  call.args() = std::move(slots);
  call.keywords.clear();
  fn.bound_calls.insert(&call);
}

void check_recursive_uses(Program& prog, int idx) {
  FunctionInstance& f = *prog.fns[idx];
  const Type ret = f.ret.tag == Type::Tag::Void ? Type::none() : f.ret;
  for (const auto& u : f.recursive_uses) {
    const FunctionInstance& caller = *prog.fns[u.caller];
    if (caller.failed || u.used == ret) continue;
    user_error(caller.mod.source, u.call->loc, ErrorKind::Typing,
               "Return type of recursive function does not converge: " + f.src->name + "() was typed as returning " +
                   u.used.str() + " here, but returns " + ret.str());
  }
  f.recursive_uses.clear();
}

namespace detail {

Type Typer::call_user(ast::Node& e, const Type& callee, const std::vector<Type>&) {
  auto src = prog_.sources[callee.user_fn];
  const ast::Module callee_mod = parse_function(prog_, *src);
  const std::vector<ast::Param>& params = callee_mod.func->params;
  // Keywords, defaults and *args: one argument per parameter from here on.
  bind_user_call(fn(), e, *src, *callee_mod.func);
  std::vector<Type> args;
  for (auto& a : e.args()) {
    // An optional argument is unwrapped (TypeError where it is None). Numba passes it on to a
    // compiled callee, which could test it for None; cujit's parameters are never optional.
    Type t = operand(*a);
    // A list, dict or set whose items a later append or insertion types (`l = []`, `List()`):
    // the callee is typed once they are known, not instantiated for the undefined item type.
    std::function<bool(const Type&)> complete = [&](const Type& x) {
      if (!x.known()) return false;
      if (x.is_list() || x.is_set() || x.is_dict() || x.is_tuple())
        for (const auto& y : x.elems)
          if (!complete(y)) return false;
      return true;
    };
    if (!complete(t)) return Type::unknown();
    args.push_back(t);
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].tag == Type::Tag::String) refuse_gpu_string(fn(), *e.args()[i]);  // a str: @jit code only
    else if (args[i].tag == Type::Tag::Module || args[i].tag == Type::Tag::Iterator)
      unsupported(*e.args()[i], "passing a " + args[i].str() + " to a function is not supported");
  // A constant passed for a parameter that sizes an array is known to the callee (fnval.h).
  std::map<std::string, GlobalValue> consts;
  const std::set<std::string> sizing = shape_params(*callee_mod.func);
  for (size_t i = 0; i < params.size(); ++i) {
    GlobalValue g;
    if (sizing.count(params[i].name) && fold_constant_argument(fn(), *e.args()[i], &g)) consts[params[i].name] = g;
  }
  Type declared_ret = Type::unknown();  // cuda.jit(sigs, device=True): Numba casts to the chosen one
  std::string why;
  std::vector<Type> call_args = declared_call_types(prog_.declared[callee.user_fn], args, src->name, &declared_ret, &why);
  if (!why.empty()) error(e, why);
  int idx;
  try {
    try {
      idx = prog_.instantiate(src, call_args, declared_ret, Role::Device, consts);
    } catch (CompileError&) {
      const std::exception_ptr first = std::current_exception();
      // Where the plain types fail, Numba retries with the constant arguments as literals, and
      // prunes the branches their `if`s rule out (fnval.h, branch_params). Else the callee's own
      // error stands, at its own line.
      bool retry = false;
      for (const auto& p : branch_params(*callee_mod.func)) {
        size_t i = 0;
        while (params[i].name != p) ++i;
        GlobalValue g;
        if (!consts.count(p) && fold_constant_argument(fn(), *e.args()[i], &g)) consts[p] = g, retry = true;
      }
      if (!retry) throw;
      try {
        idx = prog_.instantiate(src, call_args, declared_ret, Role::Device, consts);
      } catch (CompileError&) {
        std::rethrow_exception(first);  // the plain types' error: the constants did not help
      }
    }
  } catch (const PendingRecursion& p) {
    return wait_on(e, p.waits_on);
  }
  if (idx < 0) error(e, "cannot type infer runaway recursion: " + src->name + "() keeps calling itself with new argument types");
  if (prog_.fns[idx]->typing) return recursive_call(e, idx);
  Resolved r{Resolved::Kind::UserFunction};
  r.instance = idx;
  fn().resolved[&e] = r;
  Type ret = prog_.fns[idx]->ret;
  return ret.tag == Type::Tag::Void ? Type::none() : ret;
}

/// A call of instance `idx`, which is being typed (this one or one that called its way here).
Type Typer::recursive_call(ast::Node& e, int idx) {
  FunctionInstance& callee = *prog_.fns[idx];
  callee.recursed = true;
  const Type used = callee.declared_ret.known() ? callee.declared_ret : callee.partial_ret;
  if (!used.known()) return wait_on(e, idx);
  Resolved r{Resolved::Kind::UserFunction};
  r.instance = idx;
  fn().resolved[&e] = r;
  if (final_) callee.recursive_uses.push_back({used, &e, self_});
  return used.tag == Type::Tag::Void ? Type::none() : used;
}

/// The call `e` needs the return type of instance `idx`, being typed and not known yet: this pass
/// leaves the call untyped, and the passes end by waiting on the outermost such instance.
Type Typer::wait_on(ast::Node& e, int idx) {
  if (final_)
    error(e, "cannot type infer runaway recursion: no return of " + prog_.fns[idx]->src->name +
                 "() that does not recurse gives its type");
  pending_ = pending_ < 0 ? idx : std::min(pending_, idx);
  return Type::unknown();
}

/// The type the returns of this pass give (the known ones), kept in the instance for its
/// recursive calls; whether it changed.
bool Typer::partial_return() {
  FunctionInstance& f = fn();
  Type r = Type::unknown();
  bool none = !ssa_.cur.dead;  // the end is reachable: None
  for (const auto& [t, at] : returns_) {
    if (t.tag == Type::Tag::None) none = true;
    if (!t.known() || t.tag == Type::Tag::None) continue;
    const Type u = r.known() ? unify(r, t) : t;
    if (u.known()) r = u;
  }
  Type p = r;
  if (r.known() && none && prog_.may_be_optional() && !r.is_optional()) p = Type::optional(r);
  if (!r.known() && none && f.role != Role::Kernel) p = Type::none();
  if (f.role == Role::Kernel) p = Type::none();
  const bool changed = !(p == f.partial_ret);
  f.partial_ret = p;
  return changed;
}

}  // namespace detail
}  // namespace cujit
