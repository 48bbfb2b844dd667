// Constant folding for typing: integer literals and Python's integer arithmetic on them (global
// ints and tuples included), as shapes and literal arithmetic need it; NumPy's scalar type names.
// Split from typeinfer_builtins.cpp, which types intrinsic calls with them.
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {
bool const_int_literal(const ast::Node& n, int64_t* out) {
  if (n.is(ast::Kind::Constant) && n.cval.tag == ast::ConstValue::Tag::Int && !n.cval.big_int) {
    *out = n.cval.i;
    return true;
  }
  if (n.is(ast::Kind::UnaryOp) && n.op == ast::Op::USub && const_int_literal(*n.operand(), out)) {
    *out = -*out;
    return true;
  }
  return false;
}

namespace {
using i128 = __int128;
constexpr i128 kU64End = (i128)1 << 64;  // int literals lie in [INT64_MIN, 2**64)
constexpr i128 kBound = (i128)1 << 120;  // intermediate values (Python's are unbounded)

// The value of an int literal, a negated one, or a foldable BinOp of them (Python's semantics).
int fold_value(const ast::Node& e, i128* out) {
  using O = ast::Op;
  if (e.is(ast::Kind::Constant)) {
    if (e.cval.tag != ast::ConstValue::Tag::Int || (e.cval.big_int && !e.cval.fits_uint64)) return 0;
    *out = e.cval.big_int ? (i128)(uint64_t)e.cval.i : (i128)e.cval.i;
    return 1;
  }
  if (e.is(ast::Kind::UnaryOp) && (e.op == O::USub || e.op == O::UAdd || e.op == O::Invert)) {
    int r = fold_value(*e.operand(), out);
    if (r == 1) *out = e.op == O::USub ? -*out : e.op == O::Invert ? ~*out : *out;
    return r;
  }
  if (!e.is(ast::Kind::BinOp)) return 0;
  i128 a, b, r = 0;
  int ra = fold_value(*e.lhs(), &a);
  if (ra != 1) return ra;
  int rb = fold_value(*e.rhs(), &b);
  if (rb != 1) return rb;
  switch (e.op) {
    case O::Add: r = a + b; break;  // |a|, |b| < 2**120: no overflow
    case O::Sub: r = a - b; break;
    case O::Mult: if (__builtin_mul_overflow(a, b, &r)) return -1; break;
    case O::FloorDiv: case O::Mod: {
      if (b == 0) return 0;  // ZeroDivisionError at run time, as in Python
      i128 q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) { q -= 1; m += b; }
      r = e.op == O::FloorDiv ? q : m;
      break;
    }
    case O::Pow: {
      if (b < 0) return 0;  // a float in Python
      r = 1;
      for (i128 k = 0; k < b; ++k) {
        if (__builtin_mul_overflow(r, a, &r) || r >= kBound || r <= -kBound) return -1;
        if (r == 0 || r == 1) break;
      }
      if (r == 1 && a == -1 && b % 2) r = -1;
      break;
    }
    case O::LShift:
      if (b < 0) return 0;  // ValueError at run time
      if (a != 0 && b >= 120) return -1;
      if (__builtin_mul_overflow(a, (i128)1 << (int)(b < 120 ? b : 0), &r)) return -1;
      break;
    case O::RShift:
      if (b < 0) return 0;
      r = a >> (int)(b > 100 ? 100 : b);
      break;
    case O::BitAnd: r = a & b; break;
    case O::BitOr: r = a | b; break;
    case O::BitXor: r = a ^ b; break;
    default: return 0;  // `/` gives a float; others are not arithmetic on ints
  }
  if (r >= kBound || r <= -kBound) return -1;
  *out = r;
  return 1;
}
}  // namespace

int fold_int_constant(ast::Node& e) {
  if (!e.is(ast::Kind::BinOp)) return 0;
  i128 v;
  int r = fold_value(e, &v);
  if (r != 1) return r;
  if (v < (i128)INT64_MIN || v >= kU64End) return -1;
  e.lhs().reset();  // a BinOp's operands, read by role before the node becomes a Constant
  e.rhs().reset();
  e.kind = ast::Kind::Constant;
  e.cval = ast::ConstValue{};
  e.cval.tag = ast::ConstValue::Tag::Int;
  e.cval.big_int = v > (i128)INT64_MAX;
  e.cval.i = (int64_t)(uint64_t)v;
  return 1;
}

}  // namespace cujit
