// Whether control can reach the end of a block, by Python's rules (typeinfer.h, can_fall_through):
// what decides if a function returns None at its end. Split from typeinfer.cpp.
#include "compiler/typeinfer.h"

namespace cujit {

namespace {
// The break statements that leave this loop: in its body, outside nested loops (a nested loop's
// else clause still belongs to this one).
bool breaks_out(const std::vector<ast::NodePtr>& stmts) {
  for (const auto& s : stmts) {
    switch (s->kind) {
      case ast::Kind::Break: return true;
      case ast::Kind::If: case ast::Kind::Try:
        if (breaks_out(s->body) || breaks_out(s->orelse)) return true;
        break;
      case ast::Kind::For: case ast::Kind::While:
        if (breaks_out(s->orelse)) return true;
        break;
      default: break;
    }
  }
  return false;
}

// 1 for a literal true test (`while True:`, `while 1:`), 0 for a literal false one, -1 otherwise.
int literal_truth(const ast::Node& e) {
  if (!e.is(ast::Kind::Constant)) return -1;
  switch (e.cval.tag) {
    case ast::ConstValue::Tag::Bool: return e.cval.b ? 1 : 0;
    case ast::ConstValue::Tag::Int: return e.cval.i != 0 || e.cval.big_int ? 1 : 0;
    case ast::ConstValue::Tag::Float: case ast::ConstValue::Tag::Imag: return e.cval.f != 0 ? 1 : 0;
    case ast::ConstValue::Tag::None: return 0;
    default: return -1;
  }
}

// Whether control never passes from `s` to the next statement (a return on every path).
bool ends(const ast::Node& s) {
  switch (s.kind) {
    case ast::Kind::Return: case ast::Kind::Raise: return true;
    case ast::Kind::Try: return !can_fall_through(s.body) && !can_fall_through(s.orelse);
    case ast::Kind::If: {
      int t = literal_truth(*s.test());  // `if True:` is folded by Python (and Numba prunes the branch)
      if (t == 1) return !can_fall_through(s.body);
      if (t == 0) return !can_fall_through(s.orelse);
      return !can_fall_through(s.body) && !can_fall_through(s.orelse);
    }
    case ast::Kind::While:
      if (breaks_out(s.body)) return false;
      if (literal_truth(*s.test()) == 1) return true;  // `while True:` leaves only by break or return
      return !s.orelse.empty() && !can_fall_through(s.orelse);
    case ast::Kind::For:
      return !breaks_out(s.body) && !s.orelse.empty() && !can_fall_through(s.orelse);
    default: return false;
  }
}
}  // namespace

bool statement_ends(const ast::Node& s) {
  return s.is(ast::Kind::Break) || s.is(ast::Kind::Continue) || ends(s);
}

bool can_fall_through(const std::vector<ast::NodePtr>& stmts) {
  for (const auto& s : stmts)
    if (ends(*s)) return false;
  return true;
}

}  // namespace cujit
