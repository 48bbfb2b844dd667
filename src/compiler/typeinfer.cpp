// Type inference with Numba's rules.
//
// Each FunctionInstance is typed by walking its body repeatedly. Each assignment defines a version
// of its variable with the value's type, and where versions meet (after an if, at a loop's head)
// a join holds their unification (Numba's SSA form and phis: typeinfer_ssa.h); the walk repeats
// until no version's type changes. Reading a variable before any typed assignment is
// tolerated on early passes (loops carry types backwards) and an error on the last one. Calls to
// other cujit functions instantiate them for the argument types at the call (device functions
// are specialised per call signature, as Numba does). Every error here points at a token.
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_ssa.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>
#include <utility>

#include "compiler/builtins.h"
#include "compiler/libdevice.h"
#include "compiler/overloads.h"
#include "compiler/fnval.h"
#include "compiler/parallel.h"
#include "compiler/parser.h"

namespace cujit {


Type type_of_global(const GlobalValue& g) {
  switch (g.kind) {
    case GlobalValue::Kind::Int: return Type::scalar_of(Scalar::Int64);
    case GlobalValue::Kind::Float: return Type::scalar_of(Scalar::Float64);
    case GlobalValue::Kind::Bool: return Type::scalar_of(Scalar::Bool);
    case GlobalValue::Kind::Scalar: return Type::scalar_of(g.scalar);
    case GlobalValue::Kind::Module: return Type::module(g.module);
    case GlobalValue::Kind::DType: return Type::dtype(g.scalar);
    case GlobalValue::Kind::EnumMember:
      return Type::enum_member(g.type_name, type_of_global(g.elems[0]), g.i != 0);
    case GlobalValue::Kind::Tuple: {
      std::vector<Type> items;
      for (const auto& x : g.elems) items.push_back(type_of_global(x));
      return Type::tuple(items);
    }
    case GlobalValue::Kind::Array: {  // a constant: read-only
      Type t = Type::array(g.scalar, (int)g.shape.size(), 'C');
      t.readonly = true;
      return t;
    }
    default: return Type::unknown();
  }
}

namespace {

std::string constant_literal(const GlobalValue& g) {
  switch (g.kind) {
    case GlobalValue::Kind::Int: return int_literal(Scalar::Int64, g.i, 0);
    case GlobalValue::Kind::Float: return float64_literal(g.f);
    case GlobalValue::Kind::Bool: return g.i ? "true" : "false";
    case GlobalValue::Kind::Scalar:
      if (g.scalar == Scalar::Bool) return g.i ? "true" : "false";
      if (g.scalar == Scalar::Float64) return float64_literal(g.f);
      if (g.scalar == Scalar::Float32) return "((float)" + float64_literal(g.f) + ")";
      if (is_complex(g.scalar))
        return std::string(scalar_cpp(g.scalar)) + "(" + float64_literal(g.f) + ", " + float64_literal(g.f_im) + ")";
      if (g.scalar == Scalar::Float16) return "((cj::f16)" + float64_literal(g.f) + ")";  // exact: g.f is a half
      return int_literal(g.scalar, g.i, g.u);
    case GlobalValue::Kind::EnumMember: return constant_literal(g.elems[0]);  // its value
    case GlobalValue::Kind::Tuple: {  // a nested tuple: its struct's aggregate initialiser
      std::string s = "{";
      for (size_t i = 0; i < g.elems.size(); ++i) s += (i ? ", " : "") + constant_literal(g.elems[i]);
      return s + "}";
    }
    default: throw InternalError("constant_literal of a non-constant");
  }
}

/// Types one FunctionInstance. See the file comment for the algorithm.
class Typer {
 public:
  Typer(Program& prog, int self)
      : prog_(prog), self_(self), ssa_(prog.fns[self]->mod.source, prog.optionals) {}

  void run() {
    FunctionInstance& fn = *prog_.fns[self_];
    ast::Node& def = *fn.mod.func;
    if (def.params.size() != fn.arg_types.size()) {
      error(def, std::string(fn.role == Role::Ufunc ? "the signature gives " : "called with ") +
                     std::to_string(fn.arg_types.size()) + " argument(s) but " + def.name +
                     "() takes " + std::to_string(def.params.size()));
    }
    // A name assigned anywhere in the function is local everywhere in it, as in Python.
    std::set<std::string> names;
    for (const auto& p : def.params) names.insert(p.name);
    assigned_names(def.body, names);
    for (const auto& n : names) fn.locals[n] = Type::unknown();
    for (int pass = 0; pass < 32; ++pass) {
      final_ = false;
      walk(def);
      if (!ssa_.changed()) break;
    }
    final_ = true;
    walk(def);
    finish_return(def);
    ssa_.finish(fn);
    // The plans name the loops' C++ variables, known only now.
    for (const ast::Node* loop : prange_loops_) fn.parallel_loops[loop] = plan_parallel_loop(*loop, fn);
  }

 private:
  Program& prog_;
  int self_;
  bool final_ = false;
  std::vector<std::pair<Type, const ast::Node*>> returns_;
  int prange_depth_ = 0;  // parallel prange loops around the statement being typed
  Versions ssa_;          // every local's versions and where the walk is (typeinfer_ssa.h)
  std::vector<const ast::Node*> prange_loops_;  // parallel prange loops (final pass)

  void walk(ast::Node& def) {
    ssa_.begin_walk(def, fn().arg_types);
    returns_.clear();
    fn().dead_returns.clear();
    prange_loops_.clear();
    block(def.body);
  }

  FunctionInstance& fn() { return *prog_.fns[self_]; }
  const SourceFile& src() { return fn().mod.source; }

  [[noreturn]] void error(const ast::Node& at, const std::string& msg) {
    user_error(src(), at.loc, ErrorKind::Typing, msg);
  }
  [[noreturn]] void unsupported(const ast::Node& at, const std::string& msg) {
    user_error(src(), at.loc, ErrorKind::Unsupported, msg);
  }

  // ---- statements -----------------------------------------------------------------------------
  void block(std::vector<ast::NodePtr>& stmts) {
    for (size_t i = 0; i < stmts.size(); ++i) {
      if (stmts[i]->is(ast::Kind::For)) unroll_literal(stmts, i);  // may rewrite and restart
      stmt(*stmts[i]);
    }
  }

  // `for x in literal_unroll(t)`: a heterogeneous tuple t is rewritten into one copy of the body
  // per item (typeinfer_unroll.cpp), and typing starts again; anything else loops as usual.
  int unroll_depth_ = 0;  // rewritten loops around the statement being typed
  void unroll_literal(std::vector<ast::NodePtr>& stmts, size_t i) {
    ast::Node& s = *stmts[i];
    if (!s.b->is(ast::Kind::Call) || s.b->list.size() != 1 || !s.b->keywords.empty()) return;
    const ast::Node& callee = *s.b->a;
    if (!callee.is(ast::Kind::Name) && !(callee.is(ast::Kind::Attribute) && callee.name == "literal_unroll")) return;
    const Type c = expr(*s.b->a);
    const BuiltinRow* b = c.tag == Type::Tag::Function ? find_builtin(c.name) : nullptr;
    if (!b || b->rule != Rule::LiteralUnroll) return;
    ast::Node& arg = *s.b->list[0];
    const Type t = expr(arg);
    if (!t.known()) return;  // a later pass knows it
    if (unroll_depth_) unsupported(s, "Nesting of literal_unroll is unsupported");
    bool param = false;
    for (const auto& p : fn().mod.func->params) param = param || (arg.is(ast::Kind::Name) && p.name == arg.name);
    if (!t.is_tuple() && param)
      unsupported(arg, "Invalid use of literal_unroll with a function argument, only tuples are supported as function arguments, found " + t.str());
    bool same = true;  // a tuple of one type, or an array or a list, loops as it is (as in Numba)
    for (const auto& e : t.elems) same = same && e == t.elems[0];
    if (same) s.b = std::move(s.b->list[0]);
    else rewrite_literal_unroll(stmts, i, t.elems.size(), fn().unrolled++);
    throw RestartTyping{};
  }

  void stmt(ast::Node& s) {
    using K = ast::Kind;
    switch (s.kind) {
      case K::Expr: {
        if (s.a->is(K::Constant) && s.a->cval.tag == ast::ConstValue::Tag::Str) return;  // docstring
        if (s.a->is(K::Call)) {  // operator.setitem(a, i, v) on a line of its own is a[i] = v
          array_method(*s.a);  // g.sync(), a.sum(): the method's rewrite first (its callee is no attribute)
          Type c = expr(*s.a->a);
          if (c.tag == Type::Tag::Function && c.name == "operator.setitem") {
            forget_nodes(fn(), *s.a);  // the call's nodes go: no resolution may outlive them
            if (rewrite_setitem_statement(s, c.name)) return stmt(s);
          }
        }
        expr(*s.a);
        return;
      }
      case K::Assign: {
        Type v = expr(*s.b);
        // A variable may hold an optional value; an array element holds the value (unwrapped).
        for (auto& t : s.list)
          if (!t->is(K::Name)) v = unwrapped(*s.b, v);
        long double c;  // `a = 1`: a test of this version of a is known (static_truth)
        const bool constant = static_number(*s.b, fn(), ssa_, &c);
        for (auto& t : s.list) {
          assign(*t, v, s);
          if (constant && t->is(K::Name)) ssa_.set_constant(t->name, c);
        }
        return;
      }
      case K::AugAssign: {
        Type cur = expr(*s.a);
        if (cur.is_optional())
          unsupported(*s.a, "augmented assignment to a variable that may be None (" + cur.str() + ") is not supported; assign it a value first");
        Type v = operand(*s.b);
        Type r = (cur.known() && v.known()) ? binop_type(s, s.op, cur, v) : Type::unknown();
        s.type = r;
        assign(*s.a, r, s);
        return;
      }
      case K::Return: {
        Type v = s.a ? expr(*s.a) : Type::none();
        if (fn().role == Role::Kernel && s.a && !(v.tag == Type::Tag::None))
          error(s, "a kernel cannot return a value (it returns " + v.str() +
                       "); write results into an array argument");
        if (v.tag == Type::Tag::Iterator)  // it has no run-time form: iterate it where it is made
          unsupported(*s.a, "returning " + v.name + "() from a function is not supported; use it in a for loop");
        // A return no path reaches (after a return, in a branch a constant test never takes)
        // does not type the result, as in Numba, which never sees it.
        if (ssa_.cur.dead) fn().dead_returns.insert(&s);
        else returns_.push_back({v, &s});
        ssa_.cur.dead = true;
        return;
      }
      case K::If: {
        truth(*s.a);
        // A constant parameter's test (fnval.h): only the branch taken is typed and generated.
        if (const int live = constant_branch(fn(), *s.a); live >= 0) {
          block(live ? s.body : s.orelse);
          return;
        }
        // A constant test (`if True:`, `if DEBUG:`) takes one branch only: Numba prunes the other.
        const int known = static_truth(*s.a, fn(), ssa_);
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
        truth(*s.a);
        Env head = ssa_.cur;
        const int known = static_truth(*s.a, fn(), ssa_);
        ssa_.cur.dead = ssa_.cur.dead || known == 0;  // `while False:` never runs its body
        block(s.body);
        ssa_.end_body(s, std::move(head));
        ssa_.cur.dead = ssa_.cur.dead || known == 1;  // `while True:` ends only by break
        block(s.orelse);
        ssa_.exit_loop(s);
        return;
      }
      case K::For: {
        Type it = expr(*s.b);
        Type elem = Type::unknown();
        if (it.tag == Type::Tag::Range || it.tag == Type::Tag::Iterator) elem = iteration_item(it);
        else if (it.is_array()) {
          if (it.ndim == 1) elem = element_type(it);
          else { elem = it; elem.ndim -= 1; elem.layout = it.layout == 'C' ? 'C' : 'A'; }
        } else if (it.is_tuple()) {
          for (const auto& e : it.elems) elem = unify(elem, e);
          if (!elem.known() && !it.elems.empty()) unsupported(*s.b, "iterating over a heterogeneous tuple is not supported");
        } else if (it.known()) {
          error(*s.b, "cannot iterate over a value of type " + it.str());
        }
        ssa_.enter_loop(s);
        Env head = ssa_.cur;
        assign(*s.a, elem, s);  // at the start of each iteration
        const bool unrolled = is_unroll_index(*s.a);
        unroll_depth_ += unrolled;
        // In parallel code the outermost prange loops run on OpenMP threads; nested ones, and
        // prange elsewhere, are plain ranges (as in Numba).
        const bool parallel = prog_.parallel && fn().host_only && prange_depth_ == 0 && is_prange(*s.b);
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
        for (const auto& n : try_unsettled_names(s, type_before)) ssa_.cur.vars.erase(n);
        block(s.orelse);
        ssa_.end_if(s, std::move(body_end));
        return;
      }
      case K::Break: ssa_.leave_loop({&s, Edge::Jump}); return;
      case K::Continue:
        ssa_.back_edge({&s, Edge::Jump});
        ssa_.cur.dead = true;
        return;
      default: unsupported(s, std::string("'") + ast::kind_name(s.kind) + "' statements are not supported");
    }
  }

  bool is_prange(const ast::Node& iter) {
    if (!iter.is(ast::Kind::Call)) return false;
    auto r = fn().resolved.find(iter.a.get());
    return r != fn().resolved.end() && r->second.kind == Resolved::Kind::Builtin && r->second.builtin == Builtin::Prange;
  }

  /// `e` typed where its value is used (an operand, an argument, an index, a stored value): an
  /// optional value is unwrapped there (FunctionInstance::unwrap).
  Type operand(ast::Node& e) { return unwrapped(e, expr(e)); }
  Type unwrapped(ast::Node& e, Type t) {
    if (!t.is_optional()) return t;
    fn().unwrap.insert(&e);
    e.type = t.elems[0];
    return e.type;
  }

  void truth(ast::Node& e) {
    Type t = expr(e);
    if (t.is_optional())  // Numba has no truth() of an optional either
      error(e, "the truth value of a value that may be None (" + t.str() + ") is not supported; compare it with None (`is None`)");
    if (t.known() && !t.is_scalar() && t.tag != Type::Tag::None)
      error(e, "the truth value of a " + t.str() + " is not defined here; compare it with something");
  }

  void assign(ast::Node& target, const Type& v, const ast::Node& stmt) {
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
          for (auto& e : target.list) assign(*e, Type::unknown(), stmt);
          return;
        }
        if (!v.is_tuple())
          error(stmt, "cannot unpack a non-tuple value of type " + v.str());
        if (v.elems.size() != target.list.size())
          error(stmt, "cannot unpack " + std::to_string(v.elems.size()) + " values into " +
                          std::to_string(target.list.size()) + " targets");
        for (size_t i = 0; i < target.list.size(); ++i) assign(*target.list[i], v.elems[i], stmt);
        target.type = v;
        return;
      }
      case K::Subscript: {
        Type t = expr(target);
        Type base = target.a->type;
        if (base.is_record() || t.is_record()) return check_record_store(fn(), stmt, base, t, v);  // r['x'] = v, a[i] = r
        if (base.known() && !base.is_array())
          error(target, "'" + base.str() + "' does not support item assignment");
        if (base.is_array() && base.readonly)
          error(target, readonly_store_message(base));
        if (t.known() && v.known()) {
          if (t.is_record_array()) unsupported(stmt, "assigning to a slice of a record array is not supported; assign its records one by one");
          if (t.is_array()) {
            // a[i, :] = x fills the view; a[1:n] = b copies b into it, broadcast as NumPy does.
            if (stmt.is(ast::Kind::AugAssign))
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
        }
        return;
      }
      case K::Attribute:
        if (Type t = expr(target); target.a->type.is_record()) return check_record_store(fn(), stmt, target.a->type, t, v);  // r.x = v
        unsupported(target, "assigning to an attribute is not supported");
      default:
        error(target, "cannot assign to this expression");
    }
  }

  void finish_return(const ast::Node& def) {
    FunctionInstance& f = fn();
    Type ret = Type::unknown();
    bool has_value = false, has_none = false;
    for (auto& [t, at] : returns_) {
      if (t.tag == Type::Tag::None) { has_none = true; continue; }
      if (!t.known()) error(*at, "could not infer the type of the returned value");
      has_value = true;
      if (f.declared_ret.known()) {
        if (f.declared_ret.is_scalar() && !t.is_scalar())
          error(*at, "cannot return a " + t.str() + " from a function declared to return " + f.declared_ret.str());
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
      if (!prog_.optionals)
        unsupported(def, def.name + "() " + where + " and returns " + ret.str() +
                             " on others: Numba makes its result optional (" + Type::optional(ret).str() +
                             "), which cujit supports in @jit code only (not in GPU code or ufuncs); "
                             "return a value on every path");
      f.ret = Type::optional(ret);
      return;
    }
    f.ret = has_value ? ret : Type::void_();
  }

  // ---- expressions ----------------------------------------------------------------------------
  Type set(ast::Node& e, Type t) {
    e.type = t;
    return t;
  }

  Type expr(ast::Node& e) {
    using K = ast::Kind;
    switch (e.kind) {
      case K::Constant: return set(e, constant(e));
      case K::Name: return set(e, name(e));
      case K::Attribute: return set(e, attribute(e));
      case K::BinOp: {
        if (int f = fold_int_constant(e)) {  // Python's constant folding (`1 << 63` is uint64)
          if (f < 0) error(e, "integer constant too large for int64 or uint64");
          return set(e, constant(e));
        }
        Type a = operand(*e.a), b = operand(*e.b);
        if (!a.known() || !b.known()) return set(e, Type::unknown());
        return set(e, binop_type(e, e.op, a, b));
      }
      case K::UnaryOp: return set(e, unary(e));
      case K::BoolOp: {
        Type r = Type::unknown();
        bool all_known = true;
        for (auto& v : e.list) {
          Type t = expr(*v);
          if (!t.known()) { all_known = false; continue; }
          if (!t.is_scalar()) error(*v, "'and'/'or' on a " + t.str() + " is not supported");
          r = unify(r, t);
        }
        return set(e, all_known ? r : Type::unknown());
      }
      case K::Compare: {
        Type l = expr(*e.a);
        bool ok = l.known();
        ast::Node* ln = e.a.get();
        for (size_t i = 0; i < e.list.size(); ++i) {
          Type r = expr(*e.list[i]);
          ast::Op op = e.ops[i];
          if (op != ast::Op::Is && op != ast::Op::IsNot) {  // x < y uses the values: unwrapped
            l = unwrapped(*ln, l);
            r = unwrapped(*e.list[i], r);
          }
          ln = e.list[i].get();
          if ((op == ast::Op::In || op == ast::Op::NotIn) && l.known() && r.known() && !tuple_comparison_ok(l, op, r))
            error(e, "No implementation of function contains found for signature: contains(" + r.str() + ", " + l.str() +
                         "): 'in' takes a tuple of items of one type that compare with " + l.str());
          if (op == ast::Op::Is || op == ast::Op::IsNot) {
            if (l.tag != Type::Tag::None && r.tag != Type::Tag::None && l.known() && r.known() && !(l.is_enum() && r.is_enum()))
              unsupported(e, "'is' is only supported against None");
            if ((l.is_optional() && r.tag != Type::Tag::None) || (r.is_optional() && l.tag != Type::Tag::None))
              unsupported(e, "'is' is only supported against None");
          } else if (l.known() && r.known() && (!l.is_scalar() || !r.is_scalar()) && !tuple_comparison_ok(l, op, r) &&
                     !(l == r && l.tag == Type::Tag::EnumMember && (op == ast::Op::Eq || op == ast::Op::NotEq))) {
            error(e, std::string("'") + ast::op_spelling(op) + "' is not supported between " +
                         l.str() + " and " + r.str());
          } else if (l.known() && r.known() && (is_complex(l.scalar) || is_complex(r.scalar)) && op != ast::Op::Eq &&
                     op != ast::Op::NotEq) {
            error(e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l.str() + " and " +
                         r.str() + ": complex numbers have no order");
          }
          ok = ok && r.known();
          l = r;
        }
        return set(e, ok ? Type::scalar_of(Scalar::Bool) : Type::unknown());
      }
      case K::IfExp: {
        truth(*e.a);
        Type a = expr(*e.b), b = expr(*e.c);
        if (!a.known() || !b.known()) return set(e, a.known() ? a : b);
        Type u = unify(a, b);
        if (u.is_optional() && !prog_.optionals) u = Type::unknown();  // None and a value: @jit code only
        if (!u.known()) error(e, "the two branches of this conditional expression have types " + a.str() + " and " + b.str() + ", which cannot be unified");
        return set(e, u);
      }
      case K::Tuple: {
        std::vector<Type> el;
        bool ok = true;
        for (auto& x : e.list) {
          Type t = expr(*x);
          ok = ok && t.known();
          // Tuples hold values: numbers, arrays, tuples (a string or a module has no run-time form).
          if (t.tag == Type::Tag::String || t.tag == Type::Tag::Module || t.tag == Type::Tag::Function ||
              t.tag == Type::Tag::DType || t.tag == Type::Tag::Range || t.tag == Type::Tag::Void ||
              t.tag == Type::Tag::Iterator)
            unsupported(*x, "a tuple cannot hold a " + t.str() + " in compiled code");
          el.push_back(t);
        }
        return set(e, ok ? Type::tuple(el) : Type::unknown());
      }
      case K::Subscript: return set(e, subscript(e));
      case K::Call: return set(e, call(e));
      case K::List:
        unsupported(e, "list literals are not supported in " + fn().compiled_as + (fn().host_only ? " yet" : "") +
                           "; use a tuple, or an array (" + (fn().host_only ? "np.empty" : "cuda.local.array") + ")");
      case K::Dict: unsupported(e, "dict literals are not supported in " + fn().compiled_as + (fn().host_only ? " yet" : ""));
      case K::Slice: error(e, "a slice is only allowed inside []");
      default: unsupported(e, std::string("'") + ast::kind_name(e.kind) + "' expressions are not supported");
    }
  }

  Type constant(ast::Node& e) {
    using T = ast::ConstValue::Tag;
    switch (e.cval.tag) {
      case T::Int:
        // Numba types an int literal that only fits 64 bits unsigned (0x9E3779B97F4A7C15) as uint64.
        if (e.cval.big_int && !e.cval.fits_uint64) error(e, "integer literal too large for int64 or uint64");
        return Type::scalar_of(e.cval.big_int ? Scalar::UInt64 : Scalar::Int64);
      case T::Float: return Type::scalar_of(Scalar::Float64);
      case T::Imag: return Type::scalar_of(Scalar::Complex128);
      case T::Bool: return Type::scalar_of(Scalar::Bool);
      case T::None: return Type::none();
      case T::Str: return Type::string();
    }
    return Type::unknown();
  }

  Type name(ast::Node& e) {
    FunctionInstance& f = fn();
    if (f.locals.count(e.name)) {
      f.resolved[&e] = Resolved{Resolved::Kind::Local};
      auto v = ssa_.cur.vars.find(e.name);
      if (v == ssa_.cur.vars.end()) {  // maybe assigned later in a loop: only the final pass decides
        if (final_) error(e, "NameError: local variable '" + e.name + "' is used before it is assigned");
        return Type::unknown();
      }
      ssa_.read(&e, v->second);
      return ssa_.type(v->second);
    }
    if (auto n = f.nested.find(e.name); n != f.nested.end()) return global(e, n->second);  // a lifted def
    auto g = f.src->globals.find(e.name);
    if (g != f.src->globals.end()) return global(e, g->second);
    if (const BuiltinRow* b = find_builtin(e.name)) {
      Resolved r{Resolved::Kind::Builtin};
      r.builtin = b->id;
      f.resolved[&e] = r;
      return Type::function(b->name);
    }
    if (e.name == "None") return Type::none();
    // Not known yet: maybe assigned later in a loop. Only the final pass decides.
    if (final_) {
      python_builtin(e);
      error(e, "NameError: name '" + e.name + "' is not defined");
    }
    return Type::unknown();
  }

  // A Python builtin cujit lacks exists all the same: "not supported", never "not defined".
  void python_builtin(const ast::Node& e) {
    static const std::set<std::string> numba_supports = {  // Numba's supported builtins
        "chr", "dict", "divmod", "enumerate", "filter", "getattr", "hasattr", "hash",
        "isinstance", "iter", "list", "map", "next", "ord", "pow", "repr", "set", "slice",
        "sorted", "str", "sum", "tuple", "type", "zip"};
    static const std::set<std::string> others = {
        "aiter", "all", "anext", "any", "ascii", "bin", "breakpoint", "bytearray", "bytes", "callable",
        "classmethod", "compile", "copyright", "credits", "delattr", "dir", "eval", "exec", "exit",
        "format", "frozenset", "globals", "help", "hex", "id", "input", "issubclass", "license",
        "locals", "memoryview", "object", "oct", "open", "property", "quit", "reversed", "setattr",
        "staticmethod", "super", "vars"};
    if (numba_supports.count(e.name))
      unsupported(e, "the builtin " + e.name + "() is not supported in " + fn().compiled_as + " yet");
    if (others.count(e.name))
      unsupported(e, "the builtin " + e.name + "() is not supported in compiled code");
  }

  Type global(ast::Node& e, const GlobalValue& g) {
    FunctionInstance& f = fn();
    using GK = GlobalValue::Kind;
    switch (g.kind) {
      case GK::EnumClass: return Type::module("enum:" + e.name);  // Color.red, Color["red"]: enum_member_of
      case GK::Int: case GK::Float: case GK::Bool: case GK::Scalar: case GK::EnumMember: {
        Resolved r{Resolved::Kind::Constant};
        r.literal = constant_literal(g);
        f.resolved[&e] = r;
        return type_of_global(g);
      }
      case GK::Module: {
        Resolved r{Resolved::Kind::Module};
        r.name = g.module;
        f.resolved[&e] = r;
        return Type::module(g.module);
      }
      case GK::ModuleAttr: return module_attr(e, g.module, g.attr);
      case GK::DType: {
        Resolved r{Resolved::Kind::DType};
        f.resolved[&e] = r;
        return Type::dtype(g.scalar);
      }
      case GK::Function: {
        Resolved r{Resolved::Kind::UserFunction};
        f.resolved[&e] = r;
        Type t = Type::function(g.fn->name);
        t.user_fn = prog_.source_index(g.fn, g.sigs);
        return t;
      }
      case GK::Array: {
        Resolved r{Resolved::Kind::Constant};
        r.literal = "cj_const_" + f.src->name + "_" + e.name;
        f.resolved[&e] = r;
        f.const_arrays[r.literal] = &g;
        Type t = g.record ? Type::record_array(g.record, (int)g.shape.size(), 'C') : Type::array(g.scalar, (int)g.shape.size(), 'C');
        t.readonly = true;
        return t;
      }
      case GK::Tuple: {  // a constant: codegen builds the tuple from the items' literals
        Resolved r{Resolved::Kind::Constant};
        std::vector<Type> items;
        for (const auto& x : g.elems) {
          std::string item;
          if (x.kind == GK::Array) {  // a constant array, as a global one (its symbol)
            item = "cj_const_" + f.src->name + "_" + e.name + "_" + std::to_string(items.size());
            f.const_arrays[item] = &x;
          } else {
            item = constant_literal(x);
          }
          r.literal += (items.empty() ? "" : ", ") + item;
          r.items.push_back(item);
          items.push_back(type_of_global(x));
        }
        f.resolved[&e] = r;
        return Type::tuple(items);
      }
      case GK::Foreign: {  // a call types it (type_foreign_call); it is no value of its own
        record_foreign(prog_, f, e, g);
        Resolved r{Resolved::Kind::Builtin};
        r.name = g.attr;
        f.resolved[&e] = r;
        return Type::function(kForeignPrefix + g.attr);
      }
      case GK::Link:  // " link" is no Python name
      case GK::Opaque:
        error(e, "Untyped global name '" + e.name + "': cannot determine Numba type of " + g.type_name);
    }
    return Type::unknown();
  }

  // `module.attr`, from an Attribute node or a `from module import attr` global.
  Type module_attr(ast::Node& e, const std::string& module, const std::string& attr) {
    FunctionInstance& f = fn();
    std::string q = module + "." + attr;
    if (const ConstRow* c = find_constant(q)) {
      Resolved r{Resolved::Kind::Constant};
      r.literal = c->literal;
      f.resolved[&e] = r;
      return Type::scalar_of(Scalar::Float64);
    }
    if (const BuiltinRow* b = find_builtin(q)) {
      Resolved r{Resolved::Kind::Builtin};
      r.builtin = b->id;
      f.resolved[&e] = r;
      return Type::function(q);
    }
    // A module's Python function the snapshot carries under its qualified name (cuda.random.*).
    auto qualified = f.src->globals.find(q);
    if (qualified != f.src->globals.end()) return global(e, qualified->second);
    if (module == "numba" && attr == "cuda") {  // numba.cuda.grid(1) after `import numba`
      Resolved r{Resolved::Kind::Module};
      r.name = "cuda";
      f.resolved[&e] = r;
      return Type::module("cuda");
    }
    if (module == "numba" && attr == "types") {  // numba.types.float32
      Resolved r{Resolved::Kind::Module};
      r.name = "numba.types";
      f.resolved[&e] = r;
      return Type::module("numba.types");
    }
    Scalar sc;
    if (module == "numpy" ? scalar_from_numpy_name(attr, &sc) && attr != "int" && attr != "float" && attr != "bool"
                          : (module == "cuda" || module == "numba" || module == "numba.types") && scalar_from_name(attr, &sc) &&
                                attr != "int" && attr != "float" && attr != "bool") {
      f.resolved[&e] = Resolved{Resolved::Kind::DType};
      return Type::dtype(sc);
    }
    if (module == "numpy" && attr == "random") {
      Resolved r{Resolved::Kind::Module};
      r.name = "numpy.random";
      f.resolved[&e] = r;
      return Type::module("numpy.random");
    }
    if (module == "cuda.libdevice") {  // libdevice.sinf, or `from numba.cuda.libdevice import sinf`
      if (!find_libdevice(attr)) error(e, "Unknown attribute '" + attr + "' of module 'numba.cuda.libdevice'");
      f.resolved[&e] = Resolved{Resolved::Kind::Builtin};
      return Type::function(q);
    }
    if (module == "cuda") {
      // CPU code has no thread, block or warp to ask about (Numba: a TypingError); the simulator's
      // values must not leak into a @jit function as a silent 0.
      if (f.host_only && (attr == "threadIdx" || attr == "blockIdx" || attr == "blockDim" || attr == "gridDim" ||
                          attr == "laneid" || attr == "warpsize"))
        error(e, "cuda." + attr + " is GPU code: it cannot be used in " + f.compiled_as +
                     "; compile the function with " + gpu_decorator(f) + " instead");
      if (attr == "threadIdx" || attr == "blockIdx" || attr == "blockDim" || attr == "gridDim") {
        Resolved r{Resolved::Kind::CudaDim};
        r.name = attr;
        f.resolved[&e] = r;
        return Type::module("cuda." + attr);
      }
      if (attr == "local" || attr == "shared" || attr == "atomic" || attr == "const" || attr == "random" ||
          attr == "libdevice" || attr == "cg" || attr == "fp16") {
        Resolved r{Resolved::Kind::Module};
        r.name = "cuda." + attr;
        f.resolved[&e] = r;
        return Type::module("cuda." + attr);
      }
      if (attr == "laneid" || attr == "warpsize") {
        Resolved r{Resolved::Kind::CudaDim};
        r.name = attr;
        f.resolved[&e] = r;
        return Type::scalar_of(Scalar::Int32);
      }
    }
    error(e, "Unknown attribute '" + attr + "' of module '" + module + "'");
  }

  // Member `member` of the enum class held by global `var`: a constant of its value.
  Type enum_member_of(ast::Node& e, const std::string& var, const std::string& member) {
    FunctionInstance& f = fn();
    const GlobalValue& cls = f.src->globals.at(var);
    for (const auto& m : cls.elems) {
      if (m.attr != member) continue;
      Resolved r{Resolved::Kind::Constant};
      r.literal = constant_literal(m);
      f.resolved[&e] = r;
      return type_of_global(m);
    }
    error(e, "Unknown attribute '" + member + "' of type class(" + cls.type_name.substr(0, cls.type_name.find('@')) + ")");
  }

  Type attribute(ast::Node& e) {
    Type v = expr(*e.a);
    if (!v.known()) return Type::unknown();
    if (v.tag == Type::Tag::Module && v.name.rfind("enum:", 0) == 0) return enum_member_of(e, v.name.substr(5), e.name);
    if (v.is_enum()) {  // Numba: .value, and no .name
      if (e.name != "value") error(e, "Unknown attribute '" + e.name + "' of type " + v.str());
      return v.tag == Type::Tag::EnumMember ? v.elems[0] : Type::scalar_of(v.scalar);
    }
    if (v.tag == Type::Tag::Module) {
      const std::string& m = v.name;
      if (m == "cuda.local" || m == "cuda.shared" || m == "cuda.atomic" || m == "cuda.const" || m == "cuda.random" ||
          m == "cuda.libdevice" || m == "cuda.cg" || m == "cuda.fp16")
        return module_attr(e, m, e.name);
      if (m.rfind("cuda.", 0) == 0) {  // threadIdx.x and friends
        if (e.name == "x" || e.name == "y" || e.name == "z") {
          Resolved r{Resolved::Kind::CudaDim};
          r.name = m.substr(5) + "." + e.name;
          fn().resolved[&e] = r;
          return Type::scalar_of(Scalar::Int32);
        }
        error(e, "Unknown attribute '" + e.name + "' of " + m);
      }
      return module_attr(e, m, e.name);
    }
    if (v.is_array()) {
      if (e.name == "shape" || e.name == "strides")
        return Type::tuple(std::vector<Type>(v.ndim, Type::scalar_of(Scalar::Int64)));
      if (e.name == "size" || e.name == "ndim" || e.name == "itemsize" || e.name == "nbytes")
        return Type::scalar_of(Scalar::Int64);
      if (e.name == "dtype" && !v.record) return Type::dtype(v.scalar);  // a type value: cuda.local.array(n, a.dtype)
      error(e, "Unknown attribute '" + e.name + "' of type " + v.str());
    }
    if (v.is_record()) return record_field_type(record_field(fn(), e, v, e.name), v.readonly);  // r.x
    if (v.is_scalar()) {  // z.real and z.imag are floats; a real number's are itself and 0
      if (e.name == "real" || e.name == "imag") return Type::scalar_of(complex_part(v.scalar));
    }
    error(e, "Unknown attribute '" + e.name + "' of type " + v.str());
  }

  Type unary(ast::Node& e) {
    if (e.op == ast::Op::USub && e.a->is(ast::Kind::Constant) && e.a->cval.tag == ast::ConstValue::Tag::Int &&
        e.a->cval.big_int) {
      // Python folds -9223372036854775808 into one int64 constant before Numba sees it; any
      // other negated literal beyond int64 fits no integer type.
      expr(*e.a);
      if ((uint64_t)e.a->cval.i != (uint64_t)1 << 63) error(e, "integer literal too large for int64");
      return Type::scalar_of(Scalar::Int64);
    }
    Type a = e.op == ast::Op::Not ? expr(*e.a) : operand(*e.a);
    if (!a.known()) return a;
    if (e.op == ast::Op::Not) {
      if (a.is_optional()) error(e, "'not' of a value that may be None (" + a.str() + ") is not supported; compare it with None (`is None`)");
      if (!a.is_scalar() && a.tag != Type::Tag::None) error(e, "'not' is not supported on a " + a.str());
      return Type::scalar_of(Scalar::Bool);
    }
    if (!a.is_scalar())
      error(e, std::string("bad operand type for unary ") + ast::op_spelling(e.op) + ": '" + a.str() + "'");
    Scalar s = a.scalar;
    if (e.op == ast::Op::Invert) {
      if (!is_integral(s)) error(e, "bad operand type for unary ~: '" + a.str() + "'");
      if (s == Scalar::Bool) return a;  // NumPy's ~ on booleans is logical not
      return Type::scalar_of(arith_result(s, s));
    }
    if (is_inexact(s)) return a;
    return Type::scalar_of(arith_result(s, s));  // -int8 is int64, as Numba types it
  }

  Type binop_type(const ast::Node& at, ast::Op op, const Type& a, const Type& b) {
    using O = ast::Op;
    auto bad = [&]() -> Type {
      error(at, std::string("unsupported operand type(s) for ") + ast::op_spelling(op) + ": '" +
                    a.str() + "' and '" + b.str() + "'");
    };
    if (a.is_tuple() && b.is_tuple() && op == O::Add) {
      std::vector<Type> e = a.elems;
      e.insert(e.end(), b.elems.begin(), b.elems.end());
      return Type::tuple(e);
    }
    if (a.tag == Type::Tag::String || b.tag == Type::Tag::String)
      unsupported(at, "string operations are not supported in compiled code");
    if (!a.is_scalar() || !b.is_scalar()) {
      if (a.is_array() || b.is_array())
        unsupported(at, std::string("whole-array arithmetic ('") + ast::op_spelling(op) +
                            "' on " + (a.is_array() ? a.str() : b.str()) +
                            ") is not supported in " + fn().compiled_as + (fn().host_only ? " yet" : "") +
                            "; index the array element by element");
      return bad();
    }
    Scalar x = a.scalar, y = b.scalar;
    bool ints = is_integral(x) && is_integral(y);
    // Complex numbers have + - * / ** only (Numba has no floor division, modulo or bit operators
    // for them).
    if ((is_complex(x) || is_complex(y)) && op != O::Add && op != O::Sub && op != O::Mult && op != O::Div && op != O::Pow)
      return bad();
    if (x == Scalar::Float16 || y == Scalar::Float16)
      if (Type t = float16_binop_type(op, x, y); t.known()) return t;
    switch (op) {
      case O::Add: case O::Sub: case O::Mult: case O::FloorDiv: case O::Mod:
        return Type::scalar_of(arith_result(x, y));
      case O::Div:
        if (ints) return Type::scalar_of(Scalar::Float64);
        return Type::scalar_of(promote(x, y));
      case O::Pow:
        // Numba's overload resolution picks float32 ** int32 for bool ** int32 (a quirk, pinned).
        if (x == Scalar::Bool && y == Scalar::Int32) return Type::scalar_of(Scalar::Float32);
        if (ints) return Type::scalar_of(arith_result(x, y));
        if (is_float(x) && is_integral(y)) return a;  // float32 ** int stays float32 (Numba)
        return Type::scalar_of(promote(x, y));
      case O::BitAnd: case O::BitOr: case O::BitXor:
        if (!ints) return bad();
        if (x == Scalar::Bool && y == Scalar::Bool) return a;
        return Type::scalar_of(arith_result(x, y));
      case O::LShift: case O::RShift:
        if (!ints) return bad();
        return Type::scalar_of(shift_result(x));
      case O::MatMult:
        unsupported(at, "the @ operator is not supported in compiled code");
      default:
        return bad();
    }
  }

  Type subscript(ast::Node& e) {
    Type base = expr(*e.a);
    if (base.is_record()) return expr(*e.b), record_field_type(record_field_at(fn(), *e.b, base), base.readonly);  // r['x'], r[0]
    std::vector<ast::Node*> idx;
    if (e.b->is(ast::Kind::Tuple)) for (auto& x : e.b->list) idx.push_back(x.get());
    else idx.push_back(e.b.get());
    std::vector<Type> it;
    bool known = base.known();
    for (auto* x : idx) {
      if (x->is(ast::Kind::Slice)) {
        for (ast::Node* part : {x->a.get(), x->b.get(), x->c.get()}) {
          if (!part) continue;
          Type pt = operand(*part);
          if (pt.known() && !(pt.is_scalar() && is_integer(pt.scalar)) && pt.tag != Type::Tag::None)
            error(*part, "slice indices must be integers, not " + pt.str());
        }
        it.push_back(Type::none());
        continue;
      }
      Type t = operand(*x);
      known = known && t.known();
      it.push_back(t);
    }
    if (!known) return Type::unknown();
    if (base.tag == Type::Tag::Module && base.name.rfind("enum:", 0) == 0) {  // Color["red"]
      if (idx.size() != 1 || !idx[0]->is(ast::Kind::Constant) || idx[0]->cval.tag != ast::ConstValue::Tag::Str)
        error(e, "an enum class is indexed by a member's name, a constant string");
      return enum_member_of(e, base.name.substr(5), idx[0]->cval.s);
    }
    if (base.is_tuple()) {
      if (idx.size() == 1 && idx[0]->is(ast::Kind::Slice)) return tuple_slice_type(src(), *idx[0], base);
      if (idx.size() != 1) unsupported(e, "a tuple takes one index");
      const ast::Node& ix = *idx[0];
      int64_t k;
      if (const_int_literal(ix, &k)) {
        int64_t n = (int64_t)base.elems.size();
        if (k < -n || k >= n) error(ix, "tuple index " + std::to_string(k) + " out of range for a tuple of " + std::to_string(n));
        return base.elems[k < 0 ? k + n : k];
      }
      if (!(it[0].is_scalar() && is_integer(it[0].scalar))) error(ix, "tuple indices must be integers, not " + it[0].str());
      Type u = Type::unknown();
      for (auto& el : base.elems) {
        u = u.known() ? (u == el ? u : Type::unknown()) : el;
        if (!u.known())  // Numba's words, and why
          error(ix, "No implementation of function getitem found for signature: getitem(" + base.str() + ", " + it[0].str() +
                        "): a tuple of items of different types is indexed by constants only");
      }
      return u;
    }
    if (!base.is_array()) error(e, "'" + base.str() + "' object is not subscriptable");
    if (idx.size() == 1 && it[0].is_tuple() && !e.b->is(ast::Kind::Tuple)) {  // a[t]: a[t[0], t[1], ...]
      if (it[0].elems.empty()) unsupported(e, "indexing an array with an empty tuple is not supported");
      it = it[0].elems;
      idx.assign(it.size(), idx[0]);
    }
    if ((int)idx.size() > base.ndim)
      error(e, "too many indices for " + base.str() + ": " + std::to_string(idx.size()) + " given");
    int kept = base.ndim - (int)idx.size();
    bool leading_ints = true, any_slice = false;
    for (size_t i = 0; i < idx.size(); ++i) {
      if (idx[i]->is(ast::Kind::Slice)) { any_slice = true; ++kept; continue; }
      if (any_slice) leading_ints = false;
      if (!(it[i].is_scalar() && (is_integer(it[i].scalar) || it[i].scalar == Scalar::Bool)))
        error(*idx[i], "array indices must be integers, not " + it[i].str());
    }
    if (kept == 0) return element_type(base);
    Type v = base;
    v.ndim = kept;
    v.layout = (base.layout == 'C' && leading_ints && !any_slice) ? 'C' : 'A';
    return v;
  }

  // a.sum(), a.mean(), a.min(), a.max(), a.copy() on an array are np.sum(a) and so on: the call
  // is rewritten in this instance's own tree to that function with the array first.
  void array_method(ast::Node& e) {
    if (!e.a->is(ast::Kind::Attribute)) return;
    static const std::map<std::string, std::string> methods = {
        {"sum", "numpy.sum"}, {"mean", "numpy.mean"}, {"min", "numpy.min"}, {"max", "numpy.max"},
        {"prod", "numpy.prod"}, {"var", "numpy.var"}, {"std", "numpy.std"}, {"argmin", "numpy.argmin"},
        {"argmax", "numpy.argmax"}, {"all", "numpy.all"}, {"any", "numpy.any"},
        {"copy", "numpy.copy"}, {"view", "array.view"}};
    if (e.a->name == "sync" && expr(*e.a->a).tag == Type::Tag::GridGroup) {  // g.sync() of cuda.cg.this_grid()
      ast::NodePtr self = std::move(e.a->a);
      ast::NodePtr callee = ast::make(ast::Kind::Name, e.a->loc);
      callee->name = "cuda.cg.GridGroup.sync";
      e.a = std::move(callee);
      e.list.insert(e.list.begin(), std::move(self));
      return;
    }
    // Methods of numbers: x.bit_count(), x.conjugate() (Numba's; is_integer() it has not).
    static const std::map<std::string, std::string> number_methods = {
        {"bit_count", "int.bit_count"}, {"conjugate", "float.conjugate"}};
    auto m = methods.find(e.a->name);
    auto nm = number_methods.find(e.a->name);
    if (m == methods.end() && nm == number_methods.end()) return;
    Type v = expr(*e.a->a);
    if (nm != number_methods.end()) {
      if (!v.is_scalar()) return;
      m = nm;
    } else if (!v.is_array()) {
      return;
    }
    ast::NodePtr self = std::move(e.a->a);
    ast::NodePtr callee = ast::make(ast::Kind::Name, e.a->loc);
    callee->name = m->second;
    e.a = std::move(callee);
    e.list.insert(e.list.begin(), std::move(self));
  }

  Type call(ast::Node& e) {
    array_method(e);
    Type callee = expr(*e.a);
    bool keywords_bound = false;
    if (callee.tag == Type::Tag::Function && callee.user_fn < 0)
      if (const BuiltinRow* b = find_builtin(callee.name)) keywords_bound = bind_builtin_keywords(fn(), e, *b);
    std::vector<Type> args;
    bool known = callee.known();
    for (auto& a : e.list) {
      // An optional argument is unwrapped (TypeError where it is None). Numba passes it on to a
      // compiled callee, which could test it for None; cujit's parameters are never optional.
      Type t = operand(*a);
      known = known && t.known();
      args.push_back(t);
    }
    for (auto& kw : e.keywords) {
      Type t = operand(*kw.value);
      known = known && t.known();
    }
    if (!known) return Type::unknown();
    if (callee.tag == Type::Tag::Function && callee.name.rfind(kForeignPrefix, 0) == 0) {
      if (!e.keywords.empty()) unsupported(*e.keywords[0].value, "keyword arguments are not supported in calls to foreign functions");
      return type_foreign_call(prog_, fn(), e, *prog_.foreign.at(callee.name.substr(std::string(kForeignPrefix).size())).decl, args);
    }
    if (callee.tag == Type::Tag::DType) {
      if (args.size() != 1 || !e.keywords.empty()) error(e, std::string(scalar_name(callee.scalar)) + "() takes exactly one argument");
      if (!args[0].is_scalar()) error(*e.list[0], std::string("cannot convert a ") + args[0].str() + " to " + scalar_name(callee.scalar));
      return Type::scalar_of(callee.scalar);
    }
    if (callee.tag != Type::Tag::Function) error(e, "'" + callee.str() + "' object is not callable");
    if (callee.user_fn >= 0) return call_user(e, callee, args);
    if (!keywords_bound && !e.keywords.empty() && callee.name != "print" && callee.name != "cuda.local.array" &&
        callee.name != "cuda.shared.array")
      unsupported(e.keywords[0].value ? *e.keywords[0].value : e, "keyword arguments are not supported for " + callee.name + "()");
    if (callee.name.rfind("cuda.libdevice.", 0) == 0)
      if (const LibdeviceFn* ld = find_libdevice(callee.name.substr(15))) return type_libdevice_call(fn(), e, *ld, args);
    const BuiltinRow* b = find_builtin(callee.name);
    if (!b) error(e, "unknown function " + callee.name);
    if (b->rule == Rule::Operator) {  // operator.add(a, b) is a + b (fnval.h)
      if (callee.name.rfind("operator.i", 0) == 0 && callee.name != "operator.invert" && !args.empty() && !args[0].is_scalar())
        unsupported(e, callee.name + "() is supported on numbers only (on a " + args[0].str() + " it would update it in place)");
      forget_nodes(fn(), *e.a);
      std::string why = rewrite_operator_call(e, callee.name, false);
      if (!why.empty()) error(e, why);
      return expr(e);
    }
    check_record_operands(fn(), e, callee.name, args);
    return type_builtin_call(fn(), e, *b, args);
  }

  Type call_user(ast::Node& e, const Type& callee, const std::vector<Type>& args) {
    if (!e.keywords.empty()) unsupported(*e.keywords[0].value, "keyword arguments are not supported in calls to compiled functions");
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].tag == Type::Tag::Module || args[i].tag == Type::Tag::String || args[i].tag == Type::Tag::Iterator)
        unsupported(*e.list[i], "passing a " + args[i].str() + " to a function is not supported");
    auto src = prog_.sources[callee.user_fn];
    // The number of arguments is the caller's mistake: reported here, as Python reports it.
    const ast::Module callee_mod = parse_function(*src);
    const std::vector<ast::Param>& params = callee_mod.func->params;
    if (params.size() > args.size()) {
      std::string missing;
      for (size_t i = args.size(); i < params.size(); ++i) missing += (missing.empty() ? "'" : ", '") + params[i].name + "'";
      error(e, src->name + "() missing " + std::to_string(params.size() - args.size()) + " required positional argument(s): " + missing);
    }
    if (params.size() < args.size())
      error(e, src->name + "() takes " + std::to_string(params.size()) + " positional argument(s) but " +
                   std::to_string(args.size()) + " were given");
    // A constant passed for a parameter that sizes an array is known to the callee (fnval.h).
    std::map<std::string, GlobalValue> consts;
    const std::set<std::string> sizing = shape_params(*callee_mod.func);
    for (size_t i = 0; i < params.size(); ++i) {
      GlobalValue g;
      if (sizing.count(params[i].name) && fold_constant_argument(fn(), *e.list[i], &g)) consts[params[i].name] = g;
    }
    Type declared_ret = Type::unknown();  // cuda.jit(sigs, device=True): Numba casts to the chosen one
    std::string why;
    std::vector<Type> call_args = declared_call_types(prog_.declared[callee.user_fn], args, src->name, &declared_ret, &why);
    if (!why.empty()) error(e, why);
    int idx;
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
        if (!consts.count(p) && fold_constant_argument(fn(), *e.list[i], &g)) consts[p] = g, retry = true;
      }
      if (!retry) throw;
      try {
        idx = prog_.instantiate(src, call_args, declared_ret, Role::Device, consts);
      } catch (CompileError&) {
        std::rethrow_exception(first);  // the plain types' error: the constants did not help
      }
    }
    if (idx < 0) {
      error(e, "recursive calls are not supported: " + src->name + "() calls itself (directly or through another function)");
    }
    Resolved r{Resolved::Kind::UserFunction};
    r.instance = idx;
    fn().resolved[&e] = r;
    Type ret = prog_.fns[idx]->ret;
    return ret.tag == Type::Tag::Void ? Type::none() : ret;
  }
};

}  // namespace

int Program::source_index(const std::shared_ptr<FunctionSource>& src, const std::vector<std::string>& sigs) {
  std::vector<Signature> parsed;
  for (const auto& s : sigs) parsed.push_back(parse_signature(s));
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].get() != src.get() || declared[i].size() != parsed.size()) continue;
    bool same = true;
    for (size_t k = 0; same && k < parsed.size(); ++k) same = declared[i][k].str() == parsed[k].str();
    if (same) return (int)i;
  }
  sources.push_back(src);
  declared.push_back(std::move(parsed));
  return (int)sources.size() - 1;
}

int Program::instantiate(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                         const Type& declared_ret, Role role, const std::map<std::string, GlobalValue>& const_params) {
  // Constant parameters' values (ints, tuples of ints) as a key.
  auto key = [](const std::map<std::string, GlobalValue>& m) {
    std::string k;
    for (const auto& [n, g] : m) {
      k += n + "=";
      if (g.kind == GlobalValue::Kind::Tuple) for (const auto& x : g.elems) k += std::to_string(x.i) + ",";
      else k += std::to_string(g.i);
      k += ";";
    }
    return k;
  };
  const std::string want = key(const_params);
  for (size_t i = 0; i < fns.size(); ++i) {
    auto& f = *fns[i];
    if (!f.failed && f.src.get() == src.get() && f.arg_types == args && f.role == role &&
        f.declared_ret == declared_ret && key(f.const_params) == want) {
      if (f.typing) return -1;  // recursion: the caller reports it at the call
      return (int)i;
    }
  }
  for (auto& f : fns)  // any instance of the same function still being typed is recursion too
    if (f->src.get() == src.get() && f->typing && !f->failed) return -1;
  auto inst = std::make_unique<FunctionInstance>();
  inst->src = src;
  inst->mod = parse_function(*src);
  inst->arg_types = args;
  inst->const_params = const_params;
  inst->declared_ret = declared_ret;
  inst->role = role;
  inst->host_only = host_only;
  // Messages name what the user is compiling; an instance typed while another one is typing is
  // a function that one calls.
  bool entry = true;
  for (auto& f : fns) entry = entry && !f->typing;
  inst->compiled_as = role == Role::Kernel ? "a CUDA kernel"
                      : !host_only ? (role == Role::Ufunc ? "a CUDA ufunc (@vectorize(target='cuda'))" : "a CUDA device function")
                      : role == Role::Ufunc ? "a CPU ufunc (@vectorize)"
                      : entry && gufunc ? "a CPU gufunc (@guvectorize)" : "a CPU function (@jit)";
  int idx = (int)fns.size();
  inst->cpp_name = "cj_f" + std::to_string(idx) + "_" + src->name;
  inst->typing = true;
  fns.push_back(std::move(inst));
  try {
    lift_nested_functions(*this, *fns[idx]);
    for (;;) {
      try {
        Typer(*this, idx).run();
        break;
      } catch (const RestartTyping&) {  // the tree was rewritten (literal_unroll): type it again
        reset_typing(*fns[idx]);
      }
    }
  } catch (CompileError&) {
    fns[idx]->typing = false;  // left unreachable; a caller may retry with constants (call_user)
    fns[idx]->failed = true;
    throw;
  }
  fns[idx]->typing = false;
  return idx;
}

}  // namespace cujit
