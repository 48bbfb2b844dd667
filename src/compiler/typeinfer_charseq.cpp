// Typing of char sequences (Numba's CharSeq and UnicodeCharSeq): a record's 'S' (bytes) or 'U'
// (str) field read as a value, and the literals that meet one. What works is what numba-cuda's
// GPU target compiles without allocating: a field stored from a literal of its kind or from
// another field of its kind, compared (== != < <= > >=) with one, and len(); in @jit code a 'U'
// field also compares with any str, takes `in` (a substring test) and str(), and is returned as a str (an
// 'S' field as bytes). Everything
// else on them (str methods, concatenation, a bytes value made at run time) is refused at the line.
#include <string>

#include "compiler/typeinfer.h"

namespace cujit {

namespace {

// The code units of a literal as a field of its kind holds them: the bytes of b'..', or the code
// points of a str's UTF-8 text. -1 where it holds a NUL: Numba's length of a char sequence stops
// at its last non-NUL unit, so "ab\0" would compare as "ab".
int64_t literal_units(const ast::Node& c) {
  const std::string& s = c.cval.s;
  int64_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 0) return -1;
    if (c.cval.tag == ast::ConstValue::Tag::Bytes || ((unsigned char)s[i] & 0xC0) != 0x80) ++n;
  }
  return n;
}

bool is_literal_of(const ast::Node& n, bool unicode) {
  return n.is(ast::Kind::Constant) &&
         n.cval.tag == (unicode ? ast::ConstValue::Tag::Str : ast::ConstValue::Tag::Bytes);
}

// Retypes a str (unicode) or bytes literal as the char sequence of its units, which codegen
// writes as a cj::CharSeq (codegen_charseq.cpp); false when `n` is no literal of that kind.
bool retype_literal(const FunctionInstance& fn, ast::Node& n, bool unicode, Type* out) {
  if (!is_literal_of(n, unicode)) return false;
  const int64_t units = literal_units(n);
  if (units < 0)
    unsupported_error(fn, n, "a literal holding a NUL character does not compare with or store into a record's "
                             "string field (Numba's length of one stops at its last non-NUL character)");
  n.type = Type::charseq(unicode, (int)units);
  *out = n.type;
  return true;
}

std::string kind_name(bool unicode) { return unicode ? "str ('U')" : "bytes ('S')"; }

}  // namespace

Type bytes_literal_type(const FunctionInstance& fn, ast::Node& c) {
  Type t;
  if (!retype_literal(fn, c, false, &t)) throw InternalError("bytes_literal_type: not a bytes literal");
  return t;
}

void check_charseq_compare(const FunctionInstance& fn, const ast::Node& e, ast::Op op, ast::Node& ln, Type* l,
                           ast::Node& rn, Type* r) {
  if (!l->known() || !r->known()) return;
  const bool unicode = l->is_charseq() ? l->is_unicode_charseq() : r->is_unicode_charseq();
  // A str made at run time (@jit code only: GPU code has none) against a 'U' field: as strs.
  const bool str_value = unicode && fn.host_only &&
                         ((l->tag == Type::Tag::String && !is_literal_of(ln, true)) || (r->tag == Type::Tag::String && !is_literal_of(rn, true)));
  if (str_value) return;
  // `x in r.y` (@jit code): a substring test, as strs (Numba's makes strs, which GPU code cannot).
  if ((op == ast::Op::In || op == ast::Op::NotIn) && unicode && fn.host_only && r->is_charseq() &&
      (l->is_unicode_charseq() || l->tag == Type::Tag::String))
    return;
  if (!l->is_charseq() && !retype_literal(fn, ln, unicode, l))
    typing_error(fn, e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l->str() + " and " +
                            r->str() + ": a record's " + kind_name(unicode) + " field compares with another such field or a " +
                            (unicode ? "str" : "bytes") + " literal");
  if (!r->is_charseq() && !retype_literal(fn, rn, unicode, r))
    typing_error(fn, e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l->str() + " and " +
                            r->str() + ": a record's " + kind_name(unicode) + " field compares with another such field or a " +
                            (unicode ? "str" : "bytes") + " literal");
  if (l->is_unicode_charseq() != r->is_unicode_charseq())
    typing_error(fn, e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l->str() + " and " +
                            r->str() + " (a bytes field and a str field)");
  switch (op) {
    case ast::Op::Eq: case ast::Op::NotEq: case ast::Op::Lt: case ast::Op::LtE: case ast::Op::Gt: case ast::Op::GtE: return;
    default:
      unsupported_error(fn, e, std::string("'") + ast::op_spelling(op) + "' is not supported on a record's string field (" +
                                   l->str() + ", " + r->str() + ")");
  }
}

void check_charseq_store(const FunctionInstance& fn, const ast::Node& stmt, const Type& target, const Type& value) {
  const bool unicode = target.is_unicode_charseq();
  if (value.is_charseq() && value.is_unicode_charseq() == unicode) {
    if (stmt.is(ast::Kind::AugAssign)) unsupported_error(fn, stmt, "augmented assignment to a record's string field is not supported");
    return;
  }
  // A literal: the statement's own value (an element of a tuple unpacked into fields is not).
  Type t;
  if (stmt.is(ast::Kind::Assign) && stmt.rhs() && retype_literal(fn, *stmt.rhs(), unicode, &t)) return;
  typing_error(fn, stmt, "cannot store a " + value.str() + " into a record field of type " + target.str() + ": it takes a " +
                             std::string(unicode ? "str" : "bytes") + " literal or another record's " + kind_name(unicode) + " field");
}

}  // namespace cujit
