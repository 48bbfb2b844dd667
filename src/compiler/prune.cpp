// Dead-branch pruning before typing (resolve_before_typing calls prune_dead_branches), as Numba's
// DeadBranchPrune pass (numba/core/analysis.py, dead_branch_prune) does before its type inference:
// an `if`, a `while` or an `x if c else y` whose test is known when this instance is compiled
// keeps only the branch taken, so the other one is neither typed nor generated, and code there
// that would not type is fine. Numba's rules, which decide what "known" means:
//  - a test that is a constant: a literal, a global (or closure) constant, a local assigned once
//    in the whole function and from a constant (Numba's get_definition follows a variable with a
//    single definition), `not` of one (CPython folds `not` into the jump);
//  - a comparison of two such constants (`if DEBUG == 2:`);
//  - a comparison of a parameter with None (`is`, `is not`, `==`, `!=`) where the parameter, never
//    assigned in the function, is None in this instance (None passed, or its default None
//    omitted): Numba's prune_by_type. A parameter of another type is not known here; typing
//    prunes `x is None` of a non-optional one (fnval.h, constant_branch), as before.
//  - `a and b` / `a or b` decided by one known operand whose predecessors have no effect (the
//    branch of CPython's jump on it is pruned).
// The instance has its own copy of the tree, and its argument types, so this specialises per
// argument types. Statements after one that never falls through (return, raise, break,
// continue, or a block ending so) are unreachable and dropped too, as Numba never sees them.
#include <set>
#include <string>

#include "compiler/fnval.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_ssa.h"

namespace cujit {

namespace {
using ast::Kind;
using ast::Op;

// A value known before typing.
struct Known {
  enum class Tag { Unknown, None, Number, Str } tag = Tag::Unknown;
  long double num = 0;
  std::string str;
};

struct Pruner {
  FunctionInstance& f;
  std::set<std::string> locals;             // every name bound in the function (shadows a global)
  std::map<std::string, int> definitions;   // how many times each name is bound
  std::map<std::string, const ast::Node*> single;  // a name bound once, by `name = <expr>`: that expr
  std::map<std::string, Type> none_params;  // parameters never rebound whose type is None here
  int depth = 0;

  void count_target(const ast::Node& t, const ast::Node* value) {
    std::set<std::string> names;
    ast::target_names(t, names);
    for (const auto& n : names) {
      ++definitions[n];
      locals.insert(n);
      if (value && t.is(Kind::Name)) single[n] = value;
    }
  }

  void count(const ast::Node& n) {
    if (n.is(Kind::Assign)) {
      const bool one = n.targets().size() == 1;
      for (const auto& t : n.targets()) count_target(*t, one ? n.rhs().get() : nullptr);
    } else if (n.is(Kind::AugAssign) || n.is(Kind::For) || n.is(Kind::Comprehension) || n.is(Kind::NamedExpr)) {
      if (n.target()) count_target(*n.target(), nullptr);
    }
    ast::for_each_child(n, [&](const ast::Node& c) { count(c); });
  }

  static Known number(long double x) {
    Known k;
    k.tag = Known::Tag::Number;
    k.num = x;
    return k;
  }

  Known global(const GlobalValue& g) {
    using GK = GlobalValue::Kind;
    Known k;
    switch (g.kind) {
      case GK::Int: case GK::Bool: return number((long double)g.i);
      case GK::Float: return number((long double)g.f);
      case GK::NoneValue: k.tag = Known::Tag::None; return k;
      case GK::Scalar:
        if (is_complex(g.scalar)) return k;
        return number(is_float(g.scalar) ? (long double)g.f
                      : g.scalar == Scalar::UInt64 ? (long double)g.u : (long double)g.i);
      case GK::Opaque:
        if (g.attr.rfind("str:", 0) == 0) {
          k.tag = Known::Tag::Str;
          k.str = g.attr.substr(4);
        }
        return k;
      default: return k;
    }
  }

  // The value of `e` if it is a constant by Numba's rules (find_const), else Unknown.
  Known value(const ast::Node& e) {
    Known k;
    if (e.is(Kind::Constant)) {
      switch (e.cval.tag) {
        case ast::ConstValue::Tag::None: k.tag = Known::Tag::None; return k;
        case ast::ConstValue::Tag::Bool: return number(e.cval.b);
        case ast::ConstValue::Tag::Int: return e.cval.big_int ? k : number((long double)e.cval.i);
        case ast::ConstValue::Tag::Float: return number((long double)e.cval.f);
        case ast::ConstValue::Tag::Str: k.tag = Known::Tag::Str; k.str = e.cval.s; return k;
        default: return k;
      }
    }
    // `1 >> 5`, `+(-1 >> 5)`: CPython folds literal arithmetic before Numba sees the bytecode.
    if (long double folded = 0; fold_literal_number(e, &folded)) return number(folded);
    if (e.is(Kind::UnaryOp) && e.op == Op::USub) {  // `-1`: one constant in CPython's bytecode
      Known v = value(*e.operand());
      if (v.tag == Known::Tag::Number) v.num = -v.num;
      else v.tag = Known::Tag::Unknown;
      return v;
    }
    if (!e.is(Kind::Name)) return k;
    if (auto p = none_params.find(e.name); p != none_params.end()) {
      k.tag = Known::Tag::None;
      return k;
    }
    if (locals.count(e.name)) {
      auto s = single.find(e.name);
      if (s == single.end() || definitions[e.name] != 1 || depth > 8) return k;
      ++depth;
      Known v = value(*s->second);
      --depth;
      return v;
    }
    auto g = f.src->globals.find(e.name);
    if (g == f.src->globals.end()) return k;
    return global(g->second);
  }

  // Whether evaluating `e` can have no effect (a test before the one that decides an and/or).
  static bool pure(const ast::Node& e) {
    switch (e.kind) {
      case Kind::Name: case Kind::Constant: return true;
      case Kind::UnaryOp: return pure(*e.operand());
      case Kind::Compare: {
        if (!pure(*e.lhs())) return false;
        for (const auto& c : e.comparators()) if (!pure(*c)) return false;
        return true;
      }
      case Kind::BoolOp: {
        for (const auto& v : e.values()) if (!pure(*v)) return false;
        return true;
      }
      default: return false;
    }
  }

  static int compare(Op op, const Known& x, const Known& y) {
    using T = Known::Tag;
    if (x.tag == T::Unknown || y.tag == T::Unknown) return -1;
    if (x.tag == T::None || y.tag == T::None) {  // None against anything: identity and equality
      const bool same = x.tag == y.tag;
      switch (op) {
        case Op::Is: case Op::Eq: return same;
        case Op::IsNot: case Op::NotEq: return !same;
        default: return -1;  // None < 1 raises in Python: Numba does not prune it
      }
    }
    if (x.tag != y.tag) {  // a str and a number: only (in)equality is defined
      if (op == Op::Eq) return 0;
      if (op == Op::NotEq) return 1;
      return -1;
    }
    auto order = [&](int c) -> int {
      switch (op) {
        case Op::Eq: return c == 0;
        case Op::NotEq: return c != 0;
        case Op::Lt: return c < 0;
        case Op::LtE: return c <= 0;
        case Op::Gt: return c > 0;
        case Op::GtE: return c >= 0;
        default: return -1;  // `is` of numbers or strs depends on CPython's object caching
      }
    };
    if (x.tag == T::Number) return order(x.num < y.num ? -1 : x.num > y.num ? 1 : 0);
    return order(x.str.compare(y.str));
  }

  // 1 or 0 where the test `e` is known true or false in this instance, else -1.
  int truth(const ast::Node& e) {
    if (e.is(Kind::UnaryOp) && e.op == Op::Not) {
      const int t = truth(*e.operand());
      return t < 0 ? -1 : !t;
    }
    if (e.is(Kind::Compare)) {
      if (e.ops.size() != 1) return -1;
      return compare(e.ops[0], value(*e.lhs()), value(*e.comparators()[0]));
    }
    if (e.is(Kind::BoolOp)) {
      // `a and b`: false at the first operand known false whose predecessors have no effect;
      // true when every operand is known true. `or` the other way round.
      const bool is_and = e.op == Op::And;
      bool all = true, clean = true;
      for (const auto& v : e.values()) {
        const int t = truth(*v);
        if (t == (is_and ? 0 : 1) && clean) return t;
        if (t != (is_and ? 1 : 0)) all = false;
        clean = clean && pure(*v);
      }
      return all ? (is_and ? 1 : 0) : -1;
    }
    const Known k = value(e);
    switch (k.tag) {
      case Known::Tag::None: return 0;
      case Known::Tag::Number: return k.num != 0;
      case Known::Tag::Str: return !k.str.empty();
      default: return -1;
    }
  }

  // `x if c else y` of a known c, anywhere in `n`'s expressions: the branch taken.
  void exprs(ast::Node& n) {
    while (n.is(Kind::IfExp)) {
      const int t = truth(*n.test());
      if (t < 0) break;
      ast::NodePtr live = std::move(t ? n.if_true() : n.if_false());
      forget_nodes(f, n);
      n = std::move(*live);
    }
    ast::for_each_child(n, [&](ast::Node& c) {
      if (!c.is(Kind::FunctionDef)) exprs(c);
    });
  }

  void block(std::vector<ast::NodePtr>& stmts) {
    std::vector<ast::NodePtr> out;
    for (auto& s : stmts) {
      if (!out.empty() && statement_ends(*out.back())) {  // unreachable: never typed, never generated
        forget_nodes(f, *s);
        continue;
      }
      const bool cond = s->is(Kind::If) || s->is(Kind::While);
      const int t = cond ? truth(*s->test()) : -1;
      if (t >= 0 && !(s->is(Kind::While) && t == 1)) {
        // The branch taken replaces the statement (Python has no block scope); a `while` whose
        // test is false runs its else clause only.
        std::vector<ast::NodePtr> live = std::move(t && s->is(Kind::If) ? s->body : s->orelse);
        forget_nodes(f, *s);
        block(live);
        for (auto& l : live) {
          if (!out.empty() && statement_ends(*out.back())) break;
          out.push_back(std::move(l));
        }
        continue;
      }
      exprs(*s);  // also walks nested blocks' expressions; their statements come next
      block(s->body);
      block(s->orelse);
      out.push_back(std::move(s));
    }
    stmts = std::move(out);
  }
};
}  // namespace

void prune_dead_branches(FunctionInstance& f) {
  ast::Node& def = *f.mod.func;
  Pruner p{f, {}, {}, {}, {}};
  for (const auto& prm : def.params) {
    p.locals.insert(prm.name);
    ++p.definitions[prm.name];
  }
  for (const auto& s : def.body) p.count(*s);
  for (size_t i = 0; i < def.params.size() && i < f.arg_types.size(); ++i)
    if (!def.params[i].star && f.arg_types[i].tag == Type::Tag::None && p.definitions[def.params[i].name] == 1)
      p.none_params[def.params[i].name] = f.arg_types[i];
  p.block(def.body);
}

}  // namespace cujit
