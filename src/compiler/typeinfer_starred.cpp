// `f(*expr)` where expr is not a name or a tuple display (`complex(*cmath.polar(x))`): before
// typing, the statement that evaluates it is preceded by `__cj_starN = expr` and the argument
// becomes `*__cj_starN`, whose items starred_form (typeinfer_calls.cpp) reads one by one, so
// the expression runs once. Only where that keeps Python's order of effects: the expression is
// evaluated exactly once where the statement runs (not in a conditional branch, a later operand
// of and/or, or a while test), and nothing evaluated before it in the statement can have an
// effect or raise (names, constants, attributes only). Elsewhere starred_form refuses it.
#include <string>
#include <vector>

#include "compiler/typeinfer.h"

namespace cujit {

namespace {
using ast::Kind;
using ast::Node;
using ast::NodePtr;

struct StarHoister {
  int count = 0;

  void block(std::vector<NodePtr>& stmts) {
    std::vector<NodePtr> out;
    for (auto& s : stmts) {
      std::vector<NodePtr> before;
      bool effects = false;
      switch (s->kind) {
        case Kind::Expr: case Kind::Return: walk(s->value(), &effects, &before); break;
        case Kind::If: walk(s->test(), &effects, &before); break;
        case Kind::For: walk(s->iter(), &effects, &before); break;
        case Kind::Assign: walk(s->rhs(), &effects, &before); break;  // Python evaluates it before the targets
        case Kind::AugAssign:
          if (s->target()->is(Kind::Name)) walk(s->rhs(), &effects, &before);
          break;
        default: break;
      }
      for (auto& b : before) out.push_back(std::move(b));
      block(s->body);
      block(s->orelse);
      out.push_back(std::move(s));
    }
    stmts = std::move(out);
  }

  void walk(NodePtr& e, bool* effects, std::vector<NodePtr>* before) {
    if (e) walk(*e, effects, before);
  }

  // Walks `e` in Python's order of evaluation; `effects`: something evaluated so far may have
  // an effect or raise.
  void walk(Node& e, bool* effects, std::vector<NodePtr>* before) {
    switch (e.kind) {
      case Kind::Name: case Kind::Constant: return;
      case Kind::Attribute: walk(e.value(), effects, before); return;
      case Kind::Tuple: case Kind::List:
        for (auto& x : e.elts()) walk(x, effects, before);
        if (e.is(Kind::List)) *effects = true;  // allocates
        return;
      case Kind::Call: {
        walk(e.func(), effects, before);
        for (auto& a : e.args()) {
          if (a->is(Kind::Starred) && !a->value()->is(Kind::Name) && !a->value()->is(Kind::Tuple)) {
            const bool prior = *effects;  // the expression's own effects move with it
            walk(a->value(), effects, before);
            if (!prior) hoist(*a, before);
            *effects = true;
            continue;
          }
          walk(a, effects, before);
        }
        for (auto& kw : e.keywords) walk(kw.value, effects, before);
        *effects = true;  // the call itself
        return;
      }
      case Kind::BinOp: case Kind::UnaryOp: case Kind::Compare: case Kind::Subscript: case Kind::Starred:
        ast::for_each_child(e, [&](Node& c) { walk(c, effects, before); });
        *effects = true;  // may raise (ZeroDivisionError, IndexError, ...)
        return;
      default:  // conditional evaluation (IfExp, BoolOp) and the rest: not looked into
        *effects = true;
        return;
    }
  }

  void hoist(Node& starred, std::vector<NodePtr>* before) {
    const SourceLoc loc = starred.value()->loc;
    const std::string var = "__cj_star" + std::to_string(count++);
    NodePtr assign = ast::make(Kind::Assign, loc);
    NodePtr target = ast::make(Kind::Name, loc);
    target->name = var;
    assign->targets().push_back(std::move(target));
    assign->rhs() = std::move(starred.value());
    before->push_back(std::move(assign));
    starred.value() = ast::make(Kind::Name, loc);
    starred.value()->name = var;
  }
};

}  // namespace

void hoist_starred_arguments(ast::Module& m) {
  StarHoister h;
  h.block(m.func->body);
}

}  // namespace cujit
