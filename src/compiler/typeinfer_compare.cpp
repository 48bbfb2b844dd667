// `==` and `!=` between values of unrelated types, as Numba types them: they are not errors
// but constants (Numba's str, None and dict equality overloads answer for any other operand), so
// `s == 1` is False and `x != None` True. `<` and the other orders stay refused, as in Numba.
#include "compiler/typeinfer_rewrites.h"

namespace cujit {

namespace {

bool is_str(const Type& t) {
  return t.tag == Type::Tag::String || (t.is_optional() && t.elems[0].tag == Type::Tag::String);
}

}  // namespace

int fixed_equality(const Type& l, ast::Op op, const Type& r) {
  if (!l.known() || !r.known()) return -1;
  // Numba's ListType comparisons (==, !=, <, ... alike) answer False for anything on the right
  // that is no ListType: `typed_list == [1, 2]` and `typed_list != [1, 2]` are both False.
  if (l.is_typed_list() && !r.is_typed_list() && op != ast::Op::In && op != ast::Op::NotIn && op != ast::Op::Is &&
      op != ast::Op::IsNot)
    return 0;
  if (op != ast::Op::Eq && op != ast::Op::NotEq) return -1;
  if (l.is_charseq() || r.is_charseq()) return -1;  // a record's string field compares by value (typeinfer_charseq.cpp)
  const int differ = op == ast::Op::Eq ? 0 : 1;
  // Numba's unicode equality: one side a str (optional or not), the other anything else.
  if (is_str(l) != is_str(r)) return differ;
  // Its None equality: None against None, or against a value that is not optional (an optional
  // compares at run time: none_against_optional).
  const bool ln = l.tag == Type::Tag::None, rn = r.tag == Type::Tag::None;
  if (ln && rn) return 1 - differ;
  if ((ln && !r.is_optional()) || (rn && !l.is_optional())) return differ;
  // Its dict equality answers for a dict on the left whatever the right is.
  if (l.is_dict() && !r.is_dict()) return differ;
  return -1;
}

bool none_against_optional(const Type& l, ast::Op op, const Type& r) {
  if (op != ast::Op::Eq && op != ast::Op::NotEq) return false;
  return (l.tag == Type::Tag::None && r.is_optional()) || (r.tag == Type::Tag::None && l.is_optional());
}

int fixed_contains(const Type& item, ast::Op op, const Type& container) {
  if (op != ast::Op::In && op != ast::Op::NotIn) return -1;
  // Numba's `in` on a UniTuple or a list compares with ==; where that is a constant False for
  // every item, so is the answer (`s in (1, 2)`).
  if (!(container.is_list() || (container.is_tuple() && !container.elems.empty()))) return -1;
  for (const auto& e : container.elems)
    if (e != container.elems[0] || fixed_equality(item, ast::Op::Eq, e) != 0) return -1;
  return op == ast::Op::In ? 0 : 1;
}

}  // namespace cujit
