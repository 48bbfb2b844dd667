// Typing of statements (Typer, typeinfer_typer.h): blocks, if/while/for (literal_unroll and
// prange included), truth values, assignment targets and the function's return type. Split
// from typeinfer.cpp.
#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>
#include <utility>

#include "compiler/typeinfer_rewrites.h"
#include "compiler/typeinfer_typer.h"
#include "compiler/builtins.h"
#include "compiler/libdevice.h"
#include "compiler/overloads.h"
#include "compiler/fnval.h"
#include "compiler/parallel.h"

namespace cujit {
namespace detail {

void Typer::block(std::vector<ast::NodePtr>& stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (stmts[i]->is(ast::Kind::For)) unroll_literal(stmts, i);  // may rewrite and restart
    stmt(*stmts[i]);
    if (ends_block(fn(), *stmts[i])) return;  // what follows is pruned: neither typed nor generated
  }
}

void Typer::unroll_literal(std::vector<ast::NodePtr>& stmts, size_t i) {
  ast::Node& s = *stmts[i];
  if (!s.iter()->is(ast::Kind::Call) || s.iter()->args().size() != 1 || !s.iter()->keywords.empty()) return;
  const ast::Node& callee = *s.iter()->func();
  if (!callee.is(ast::Kind::Name) && !(callee.is(ast::Kind::Attribute) && callee.name == "literal_unroll")) return;
  const Type c = expr(*s.iter()->func());
  const BuiltinRow* b = c.tag == Type::Tag::Function ? find_builtin(c.name) : nullptr;
  if (!b || b->rule != Rule::LiteralUnroll) return;
  ast::Node& arg = *s.iter()->args()[0];
  const Type t = expr(arg);
  if (!t.known()) return;  // a later pass knows it
  bool same = true;  // a tuple of one type, or an array or a list, loops as it is (as in Numba)
  for (const auto& e : t.elems) same = same && e == t.elems[0];
  const bool any = callee.is(ast::Kind::Name) && callee.name == kUnrollAny;  // sum()'s loop: anything iterable
  if (unroll_depth_ && !(any && same)) unsupported(s, "Nesting of literal_unroll is unsupported");
  bool param = false;
  for (const auto& p : fn().mod.func->params) param = param || (arg.is(ast::Kind::Name) && p.name == arg.name);
  if (!t.is_tuple() && param && !any)
    unsupported(arg, "Invalid use of literal_unroll with a function argument, only tuples are supported as function arguments, found " + t.str());
  // Recorded only: Program::instantiate rewrites the loop (apply_unroll_decisions) and types the
  // function again, since the copies of the body are new code.
  fn().unrolls[&s] = same ? 0 : t.elems.size();
  throw RestartTyping{};
}

// Every node kind has a case here and there is no `default:`: a new kind fails to compile until
// it is handled (ast_cases.inc names the other category's kinds).
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
namespace {
// Whether subscript `e` (typed) has an integer or boolean array among its indices.
bool has_array_index(const ast::Node& e) {
  const ast::Node& ix = *e.index();
  if (ix.type.is_array()) return true;
  if (ix.is(ast::Kind::Tuple))
    for (const auto& i : ix.elts())
      if (i->type.is_array()) return true;
  return false;
}
}  // namespace

void Typer::stmt_as(ast::Node& s, ast::NodePtr form) {
  ast::Node& f = *form;
  record_form(fn(), s, std::move(form));
  stmt(f);
}

void Typer::stmt(ast::Node& s) {
  using K = ast::Kind;
  // A statement typing gave a new form on an earlier pass is typed as that form (typed_form).
  if (auto r = fn().rewrites.find(&s); r != fn().rewrites.end()) return stmt(*r->second);
  switch (s.kind) {
    case K::Expr: {
      if (s.value()->is(K::Constant) && s.value()->cval.tag == ast::ConstValue::Tag::Str) return;  // docstring
      if (s.value()->is(K::Call)) {  // operator.setitem(a, i, v) on a line of its own is a[i] = v
        array_method(*s.value());  // g.sync(), a.sum(): the method's form first (its callee is no attribute)
        ast::Node& call = typed_form(fn(), *s.value());
        Type c = call.is(K::Call) ? expr(*call.func()) : Type::unknown();
        if (c.tag == Type::Tag::Function && c.name == "operator.setitem") {
          ast::NodePtr form = ast::make(K::Expr, s.loc);
          form->value() = clone_for_rewrite(fn(), call);
          if (rewrite_setitem_statement(*form, c.name)) return stmt_as(s, std::move(form));
        }
      }
      expr(*s.value());
      return;
    }
    case K::Assign: {
      Type v = expr(*s.rhs());
      // A variable may hold an optional value; an array element holds the value (unwrapped).
      for (auto& t : s.targets())
        if (!t->is(K::Name)) v = unwrapped(*s.rhs(), v);
      long double c;  // `a = 1`: a test of this version of a is known (static_truth)
      const bool constant = static_number(*s.rhs(), fn(), ssa_, &c);
      for (auto& t : s.targets()) {
        assign(*t, v, s);
        if (constant && t->is(K::Name)) ssa_.set_constant(t->name, c);
      }
      return;
    }
    case K::AugAssign: {
      Type cur = expr(*s.target());
      // a[idx] op= v with an integer or boolean array index: a[idx] is a new array
      // (typeinfer_numpy.cpp), so changing it in place would change that copy only, a lost update.
      // Numba's meaning is getitem, op, setitem: the statement becomes a[idx] = a[idx] op v.
      // Typing records that form (FunctionInstance::rewrites); the lowering stage puts it in.
      if (s.target()->is(K::Subscript) && has_array_index(*s.target())) {
        ast::NodePtr combined = ast::make(K::BinOp, s.loc);
        combined->op = s.op;
        combined->lhs() = clone_for_rewrite(fn(), *s.target());
        combined->rhs() = clone_for_rewrite(fn(), *s.rhs());
        ast::NodePtr form = ast::make(K::Assign, s.loc);
        form->targets().push_back(clone_for_rewrite(fn(), *s.target()));
        form->rhs() = std::move(combined);
        return stmt_as(s, std::move(form));
      }
      if (cur.is_optional())
        unsupported(*s.target(), "augmented assignment to a variable that may be None (" + cur.str() + ") is not supported; assign it a value first");
      Type v = operand(*s.rhs());
      Type r = (cur.known() && v.known()) ? binop_type(s, s.op, cur, v) : Type::unknown();
      if ((r.is_list() && cur.is_list()) || (r.is_set() && cur.is_set())) r = cur;  // l += m extends l itself: it keeps its type
      s.type = r;
      assign(*s.target(), r, s);
      return;
    }
    case K::Return: {
      Type v = s.value() ? expr(*s.value()) : Type::none();
      if (fn().role == Role::Kernel && s.value() && !(v.tag == Type::Tag::None))
        error(s, "a kernel cannot return a value (it returns " + v.str() +
                     "); write results into an array argument");
      if (v.tag == Type::Tag::Iterator)  // it has no run-time form: iterate it where it is made
        unsupported(*s.value(), "returning " + v.name + "() from a function is not supported; use it in a for loop");
      // A return no path reaches (after a return, in a branch a constant test never takes)
      // does not type the result, as in Numba, which never sees it.
      if (ssa_.cur.dead) fn().dead_returns.insert(&s);
      else returns_.push_back({v, &s});
      ssa_.cur.dead = true;
      return;
    }
    case K::If: {
      truth(*s.test());
      // A constant parameter's test (fnval.h): only the branch taken is typed and generated.
      if (const int live = constant_branch(fn(), *s.test()); live >= 0) {
        block(live ? s.body : s.orelse);
        return;
      }
      // A constant test (`if True:`, `if DEBUG:`) takes one branch only: Numba prunes the other.
      const int known = static_truth(*s.test(), fn(), ssa_);
      const Env before = ssa_.cur;
      ssa_.cur.dead = ssa_.cur.dead || known == 0;
      block(s.body);
      Env then_env = std::exchange(ssa_.cur, before);
      ssa_.cur.dead = ssa_.cur.dead || known == 1;
      block(s.orelse);
      ssa_.end_if(s, std::move(then_env));
      return;
    }
    case K::While: {
      ssa_.enter_loop(s);
      truth(*s.test());
      Env head = ssa_.cur;
      const int known = static_truth(*s.test(), fn(), ssa_);
      ssa_.cur.dead = ssa_.cur.dead || known == 0;  // `while False:` never runs its body
      block(s.body);
      ssa_.end_body(s, std::move(head));
      ssa_.cur.dead = ssa_.cur.dead || known == 1;  // `while True:` ends only by break
      block(s.orelse);
      ssa_.exit_loop(s);
      return;
    }
    case K::For: {
      // `for x in {1, 2, 3}`: CPython makes a frozenset constant of the display, which fixes
      // the set's order (codegen_dicts.cpp reads this mark).
      if (s.iter()->is(K::Set)) s.iter()->cval.b = true;
      Type it = expr(*s.iter());
      Type elem = Type::unknown();
      if (it.tag == Type::Tag::Range || it.tag == Type::Tag::Iterator) elem = iteration_item(it);
      else if (it.is_array()) {
        if (it.ndim == 1) elem = element_type(it);
        else { elem = it; elem.ndim -= 1; elem.layout = it.layout == 'C' ? 'C' : 'A'; }
      } else if (it.is_list() || it.is_dict() || it.is_set()) {  // a dict: its keys, in insertion order; a set: Numba's table order (host_dict.h)
        elem = it.elems[0];
      } else if (it.tag == Type::Tag::String) {  // each character, a str of one code point
        refuse_gpu_string(fn(), *s.iter());
        elem = it;
      } else if (it.is_tuple()) {
        // Only a homogeneous tuple iterates (Numba's UniTuple; `getiter` of Tuple(float64, int64) is
        // refused there): codegen reads items by index from the one item type.
        bool same = true;
        for (const auto& e : it.elems) {
          same = same && e == it.elems[0];
          elem = unify(elem, e);
        }
        if (!it.elems.empty() && (!elem.known() || !same))
          unsupported(*s.iter(), "iterating over a heterogeneous tuple (" + it.str() +
                                     ") is not supported; use literal_unroll(t), as in Numba");
      } else if (it.known()) {
        error(*s.iter(), "cannot iterate over a value of type " + it.str());
      }
      ssa_.enter_loop(s);
      Env head = ssa_.cur;
      assign(*s.target(), elem, s);  // at the start of each iteration
      const bool unrolled = is_unroll_index(*s.target());
      unroll_depth_ += unrolled;
      // In parallel code the outermost prange loops run on OpenMP threads; nested ones, and
      // prange elsewhere, are plain ranges (as in Numba).
      const bool parallel = prog_.parallel && fn().host_only && prange_depth_ == 0 && is_prange(*s.iter());
      prange_depth_ += parallel;
      block(s.body);
      prange_depth_ -= parallel;
      unroll_depth_ -= unrolled;
      ssa_.end_body(s, std::move(head));
      block(s.orelse);
      ssa_.exit_loop(s);
      if (parallel && final_) prange_loops_.push_back(&s);
      return;
    }
    case K::Pass: return;
    case K::Delete:  // del d[k] (typeinfer_dicts.cpp), del l[i]
      for (auto& t : s.targets()) {
        expr(*t);
        const Type& base = t->value()->type;
        if (base.is_dict() || base.is_set()) check_dict_delete(fn(), *t);
        else if (base.is_list() && !t->index()->is(K::Slice)) continue;
        else if (base.known()) unsupported(*t, "'del' of an item of a " + base.str() + " is not supported (of a dict's or a list's is)");
      }
      return;
    case K::Raise:  // typeinfer_exc.cpp; like a return, the path ends here
      type_raise(prog_, fn(), s, [&](ast::Node& e) { return expr(e); },
                 [&](const std::string& n) { return fn().locals.count(n) > 0; });
      ssa_.cur.dead = true;
      return;
    case K::Try: {  // typeinfer_exc.cpp: the handler may start anywhere in the body
      check_try(prog_, fn(), s);
      const Env before = ssa_.cur;
      block(s.body);
      Env body_end = ssa_.cur;
      ssa_.cur = ssa_.merge(&s, 1, {{before, {&s, Edge::LoopEntry}}, {body_end, {&s, Edge::Jump}}});
      ssa_.cur.dead = before.dead;
      auto type_before = [&](const std::string& n) {
        auto v = before.vars.find(n);
        return v == before.vars.end() ? Type::unknown() : ssa_.type(v->second);
      };
      for (const auto& n : try_unsettled_names(fn(), s, type_before, final_)) ssa_.cur.vars.erase(n);
      block(s.orelse);
      ssa_.end_if(s, std::move(body_end));
      return;
    }
    case K::Break: ssa_.leave_loop({&s, Edge::Jump}); return;
    case K::Continue:
      ssa_.back_edge({&s, Edge::Jump});
      ssa_.cur.dead = true;
      return;
    case K::FunctionDef:
#define CUJIT_AST_CASES_OF Expr
#include "compiler/ast_cases.inc"
      unsupported(s, std::string("'") + ast::kind_name(s.kind) + "' statements are not supported");
  }
}
#pragma GCC diagnostic pop

bool Typer::is_prange(const ast::Node& iter) {
  if (!iter.is(ast::Kind::Call)) return false;
  auto r = fn().resolved.find(iter.func().get());
  return r != fn().resolved.end() && r->second.kind == Resolved::Kind::Builtin && r->second.builtin == Builtin::Prange;
}

Type Typer::unwrapped(ast::Node& e, Type t) {
  if (!t.is_optional()) return t;
  fn().unwrap.insert(&e);
  e.type = t.elems[0];
  return e.type;
}

void Typer::truth(ast::Node& e) {
  Type t = expr(e);
  if (t.is_list() || t.is_dict() || t.is_set() || t.is_tuple()) {  // `if l:` is `if len(l) != 0:`, as in Python
    forget_nodes(fn(), e);
    ast::NodePtr l = std::make_unique<ast::Node>(std::move(e));
    ast::NodePtr len = ast::make(ast::Kind::Call, l->loc), callee = ast::make(ast::Kind::Name, l->loc),
                 zero = ast::make(ast::Kind::Constant, l->loc);
    callee->name = "len";
    len->func() = std::move(callee);
    len->args().push_back(std::move(l));
    zero->cval.tag = ast::ConstValue::Tag::Int;
    zero->cval.i = 0;
    ast::Node cmp(ast::Kind::Compare, len->loc);
    cmp.lhs() = std::move(len);
    cmp.ops = {ast::Op::NotEq};
    cmp.comparators().push_back(std::move(zero));
    e = std::move(cmp);
    t = expr(e);
  }
  if (t.is_optional())  // Numba has no truth() of an optional either
    error(e, "the truth value of a value that may be None (" + t.str() + ") is not supported; compare it with None (`is None`)");
  if (t.tag == Type::Tag::String && fn().host_only) return;  // a str is true when not empty
  if (t.known() && ((!t.is_scalar() && t.tag != Type::Tag::None) || (t.is_scalar() && is_time(t.scalar))))
    error(e, "the truth value of a " + t.str() + " is not defined here; compare it with something");
}

void Typer::assign(ast::Node& target, const Type& v, const ast::Node& stmt) {
  using K = ast::Kind;
  switch (target.kind) {
    case K::Name: {
      int ver = ssa_.assign(target, v);
      // The target of `x += y` keeps the type of the version it reads (codegen's operand).
      if (!stmt.is(K::AugAssign)) target.type = ssa_.type(ver);
      fn().resolved[&target] = Resolved{Resolved::Kind::Local};
      return;
    }
    case K::Tuple: {
      if (!v.known()) {
        for (auto& e : target.elts()) assign(*e, Type::unknown(), stmt);
        return;
      }
      if (!v.is_tuple())
        error(stmt, "cannot unpack a non-tuple value of type " + v.str());
      if (v.elems.size() != target.elts().size())
        error(stmt, "cannot unpack " + std::to_string(v.elems.size()) + " values into " +
                        std::to_string(target.elts().size()) + " targets");
      for (size_t i = 0; i < target.elts().size(); ++i) assign(*target.elts()[i], v.elems[i], stmt);
      target.type = v;
      return;
    }
    case K::Subscript: {
      Type t = expr(target);
      Type base = target.value()->type;
      if (is_flat_iter(base)) base = base.elems[0];  // a.flat[k] = v stores into a's element
      if (base.is_record() || t.is_record()) return check_record_store(fn(), stmt, base, t, v);  // r['x'] = v, a[i] = r
      if (base.is_list()) return check_list_store(fn(), stmt, target, v);  // typeinfer_lists.cpp
      if (base.is_dict() || base.is_set()) return check_dict_store(fn(), stmt, target, v);  // typeinfer_dicts.cpp
      if (base.known() && !base.is_array())
        error(target, "'" + base.str() + "' does not support item assignment");
      if (base.is_array() && base.readonly)
        error(target, readonly_store_message(base));
      if (t.known() && v.known()) {
        if (t.is_record_array()) unsupported(stmt, "assigning to a slice of a record array is not supported; assign its records one by one");
        if (t.is_array()) {
          // a[i, :] = x fills the view; a[1:n] = b copies b into it, broadcast as NumPy does.
          if (stmt.is(ast::Kind::AugAssign) && !fn().ufunc_loops.count(&stmt))  // a[i] += v: in place (lower.cpp)
            unsupported(stmt, "augmented assignment to a slice (" + t.str() + ") is not supported; use a loop");
          if (v.is_array() && v.ndim > t.ndim)
            error(stmt, "cannot assign a " + v.str() + " to a slice with fewer dimensions (" + t.str() + ")");
          if (!v.is_scalar() && !v.is_array())
            error(stmt, "cannot assign a " + v.str() + " to a slice of " + base.str());
        } else if (!v.is_scalar()) {
          error(stmt, "cannot store a " + v.str() + " into an element of " + base.str());
        }
        // Numba has no setitem of a complex value into an array of reals.
        const Scalar vs = v.is_array() || v.is_scalar() ? v.scalar : Scalar::Bool;
        if ((v.is_array() || v.is_scalar()) && is_complex(vs) && !is_complex(base.scalar))
          error(stmt, "cannot store a " + v.str() + " into an element of " + base.str() +
                          " (a complex number does not convert to a real one)");
        // Numba stores a datetime64/timedelta64 only into an array of exactly its type (no unit
        // conversion) and nothing else into such an array.
        if ((v.is_array() || v.is_scalar()) && (is_time(vs) || is_time(base.scalar)) && vs != base.scalar)
          error(stmt, "cannot store a " + v.str() + " into an element of " + base.str() +
                          " (Numba converts no datetime64/timedelta64 unit or number on a store)");
      }
      return;
    }
    case K::Attribute:
      if (Type t = expr(target); target.value()->type.is_record()) return check_record_store(fn(), stmt, target.value()->type, t, v);  // r.x = v
      unsupported(target, "assigning to an attribute is not supported");
    default:
      error(target, "cannot assign to this expression");
  }
}

void Typer::finish_return(const ast::Node& def) {
  FunctionInstance& f = fn();
  Type ret = Type::unknown();
  bool has_value = false, has_none = false;
  for (auto& [t, at] : returns_) {
    if (t.tag == Type::Tag::None) { has_none = true; continue; }
    if (!t.known()) error(*at, "could not infer the type of the returned value");
    has_value = true;
    if (f.declared_ret.known()) {
      if (!value_converts(t, f.declared_ret))  // Numba: "No conversion from int64 to UniTuple(float64 x 2)"
        error(*at, "cannot return a " + t.str() + " from a function declared to return " +
                       (f.declared_ret.tag == Type::Tag::Void ? std::string("none") : f.declared_ret.str()));
      continue;
    }
    Type u = unify(ret, t);
    if (!u.known()) error(*at, "cannot unify the return types " + ret.str() + " and " + t.str());
    ret = u;
  }
  if (f.role == Role::Kernel) { f.ret = Type::void_(); return; }
  // Falling off the end returns None, as in Python.
  // Whether the walk's end is reachable: can_fall_through, with constant tests pruned.
  const bool falls_off = !ssa_.cur.dead;
  has_none = has_none || falls_off;
  const std::string where = falls_off ? "can reach its end without a return (returning None)"
                                      : "returns None on some paths";
  if (f.declared_ret.known() && f.declared_ret.tag != Type::Tag::Void) {
    if (!has_value) error(def, def.name + "() must return a " + f.declared_ret.str() + " value");
    if (has_none)  // Numba: "No conversion from none to int64"
      error(def, "No conversion from none to " + f.declared_ret.str() + ": " + def.name + "() " + where +
                     " but its signature returns " + f.declared_ret.str() + "; return a value on every path");
    f.ret = f.declared_ret;
    return;
  }
  if (has_value && (has_none || ret.is_optional())) {
    // Numba types the result as optional: the value, or None.
    if (f.role == Role::Ufunc)
      error(def, "No conversion from none to " + ret.str() + ": " + def.name + "() " + where +
                     ", and a ufunc needs a value for every element; return a value on every path");
    if (!prog_.may_be_optional())
      unsupported(def, def.name + "() " + where + " and returns " + ret.str() +
                           " on others: Numba makes its result optional (" + Type::optional(ret).str() +
                           "), which cujit supports in @jit code only (not in GPU code or ufuncs); "
                           "return a value on every path");
    f.ret = Type::optional(ret);
    return;
  }
  f.ret = has_value ? ret : Type::void_();
}

}  // namespace detail
}  // namespace cujit
