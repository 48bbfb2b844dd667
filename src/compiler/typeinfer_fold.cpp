// Constant folding for typing: number literals and Python's compile-time arithmetic on them (global
// ints and tuples included), as shapes and literal arithmetic need it; NumPy's scalar type names.
// Split from typeinfer_builtins.cpp, which types intrinsic calls with them.
#include <cmath>
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"
#include "compiler/fnval.h"

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
constexpr i128 kFoldExactInt = (i128)1 << 53;   // ints a double holds exactly

// A constant as CPython's compile-time folding sees it: an int, a float, or (only as a result:
// a negative float to a fractional power) a complex.
struct FoldNum {
  enum { Int, Float, Complex } tag = Int;
  i128 i = 0;
  double f = 0.0, im = 0.0;
  double as_float() const { return tag == Int ? (double)i : f; }  // correctly rounded
};

// CPython's float floor division and modulo (fold_float_divmod): the result takes the divisor's sign.
void fold_float_divmod(double a, double b, double* q, double* m) {
  double mod = std::fmod(a, b), div = (a - mod) / b;
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
  } else {
    mod = std::copysign(0.0, b);
  }
  double fl;
  if (div != 0.0) {
    fl = std::floor(div);
    if (div - fl > 0.5) fl += 1.0;
  } else {
    fl = std::copysign(0.0, a / b);
  }
  *q = fl;
  *m = mod;
}

// Python's `a ** b` on floats (fold_float_pow): 1 folded, 0 where Python raises (0.0 to a negative
// power), the result of a negative base to a fractional power is complex (CPython's c_pow).
int fold_float_pow(double a, double b, FoldNum* out) {
  if (a == 0.0 && b < 0.0) return 0;  // ZeroDivisionError at run time
  if (a < 0.0 && std::isfinite(a) && std::isfinite(b) && b != std::floor(b)) {
    double len = std::pow(std::hypot(a, 0.0), b), phase = std::atan2(0.0, a) * b;
    out->tag = FoldNum::Complex;
    out->f = len * std::cos(phase);
    out->im = len * std::sin(phase);
    return 1;
  }
  out->tag = FoldNum::Float;
  out->f = std::pow(a, b);
  return 1;
}

int fold_float(ast::Op op, double a, double b, FoldNum* out) {
  using O = ast::Op;
  out->tag = FoldNum::Float;
  switch (op) {
    case O::Add: out->f = a + b; return 1;
    case O::Sub: out->f = a - b; return 1;
    case O::Mult: out->f = a * b; return 1;
    case O::Div: if (b == 0.0) return 0; out->f = a / b; return 1;
    case O::FloorDiv: case O::Mod: {
      if (b == 0.0) return 0;  // ZeroDivisionError at run time
      double q, m;
      fold_float_divmod(a, b, &q, &m);
      out->f = op == O::FloorDiv ? q : m;
      return 1;
    }
    case O::Pow: return fold_float_pow(a, b, out);
    default: return 0;  // shifts and bit operations on floats raise TypeError in Python
  }
}

// The value of a number literal, a negated one, or a foldable BinOp of them (Python's semantics):
// 1 folded, 0 not a constant Python folds, -1 an int too large for Numba.
int fold_value(const ast::Node& e, FoldNum* out) {
  using O = ast::Op;
  if ((e.is(ast::Kind::BinOp) || e.is(ast::Kind::UnaryOp)) && e.name == kOperatorCall) return 0;  // fnval.h
  if (e.is(ast::Kind::Constant)) {
    if (e.cval.tag == ast::ConstValue::Tag::Float) {
      out->tag = FoldNum::Float;
      out->f = e.cval.f;
      return 1;
    }
    if (e.cval.tag != ast::ConstValue::Tag::Int || (e.cval.big_int && !e.cval.fits_uint64)) return 0;
    out->tag = FoldNum::Int;
    out->i = e.cval.big_int ? (i128)(uint64_t)e.cval.i : (i128)e.cval.i;
    return 1;
  }
  if (e.is(ast::Kind::UnaryOp) && (e.op == O::USub || e.op == O::UAdd || e.op == O::Invert)) {
    int r = fold_value(*e.operand(), out);
    if (r != 1) return r;
    if (out->tag == FoldNum::Int) out->i = e.op == O::USub ? -out->i : e.op == O::Invert ? ~out->i : out->i;
    else if (out->tag == FoldNum::Float && e.op == O::USub) out->f = -out->f;
    else if (out->tag != FoldNum::Float || e.op == O::Invert) return 0;  // ~1.5: TypeError
    return 1;
  }
  if (!e.is(ast::Kind::BinOp)) return 0;
  FoldNum x, y;
  int ra = fold_value(*e.lhs(), &x);
  if (ra != 1) return ra;
  int rb = fold_value(*e.rhs(), &y);
  if (rb != 1) return rb;
  if (x.tag == FoldNum::Complex || y.tag == FoldNum::Complex) return 0;  // typed at run time
  if (x.tag == FoldNum::Float || y.tag == FoldNum::Float) return fold_float(e.op, x.as_float(), y.as_float(), out);
  i128 a = x.i, b = y.i, r = 0;
  switch (e.op) {
    case O::Add: r = a + b; break;  // |a|, |b| < 2**120: no overflow
    case O::Sub: r = a - b; break;
    case O::Mult: if (__builtin_mul_overflow(a, b, &r)) return -1; break;
    case O::Div:  // true division of ints gives a float (correctly rounded: exact operands only)
      if (b == 0 || a >= kFoldExactInt || a <= -kFoldExactInt || b >= kFoldExactInt || b <= -kFoldExactInt) return 0;
      return fold_float(e.op, (double)a, (double)b, out);
    case O::FloorDiv: case O::Mod: {
      if (b == 0) return 0;  // ZeroDivisionError at run time, as in Python
      i128 q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) { q -= 1; m += b; }
      r = e.op == O::FloorDiv ? q : m;
      break;
    }
    case O::Pow: {
      // A negative exponent makes a float in Python (`10 ** -3` is 0.001, not 0): both operands
      // become floats first, as CPython's long_pow does.
      if (b < 0) return fold_float_pow((double)a, (double)b, out);
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
    default: return 0;  // `@` and the rest are not arithmetic on ints
  }
  if (r >= kBound || r <= -kBound) return -1;
  out->tag = FoldNum::Int;
  out->i = r;
  return 1;
}

ast::NodePtr fold_float_node(double v, SourceLoc loc, bool imag) {
  ast::NodePtr c = ast::make(ast::Kind::Constant, loc);
  c->cval.tag = imag ? ast::ConstValue::Tag::Imag : ast::ConstValue::Tag::Float;
  c->cval.f = v;
  return c;
}
}  // namespace

bool int_constant_too_large(const ast::Node& e) {
  if (!e.is(ast::Kind::BinOp) || !e.name.empty()) return false;
  FoldNum v;
  const int r = fold_value(e, &v);
  return r == -1 || (r == 1 && v.tag == FoldNum::Int && (v.i < (i128)INT64_MIN || v.i >= kU64End));
}

bool fold_literal_number(const ast::Node& e, long double* out) {
  if (!e.is(ast::Kind::BinOp) && !e.is(ast::Kind::UnaryOp)) return false;
  FoldNum v;
  if (fold_value(e, &v) != 1) return false;
  if (v.tag == FoldNum::Int) *out = (long double)v.i;
  else if (v.tag == FoldNum::Float) *out = (long double)v.f;
  else return false;
  return true;
}

int fold_int_constant(ast::Node& e) {
  if (!e.is(ast::Kind::BinOp)) return 0;
  FoldNum v;
  int r = fold_value(e, &v);
  if (r != 1) return r;
  if (v.tag == FoldNum::Int && (v.i < (i128)INT64_MIN || v.i >= kU64End)) return -1;
  e.lhs().reset();  // a BinOp's operands, read by role before the node becomes a Constant
  e.rhs().reset();
  if (v.tag == FoldNum::Complex) {  // re + imj, which typing makes the complex128 (re, im)
    e.op = ast::Op::Add;
    e.lhs() = fold_float_node(v.f, e.loc, false);
    e.rhs() = fold_float_node(v.im, e.loc, true);
    return 0;
  }
  e.kind = ast::Kind::Constant;
  e.cval = ast::ConstValue{};
  if (v.tag == FoldNum::Float) {
    e.cval.tag = ast::ConstValue::Tag::Float;
    e.cval.f = v.f;
    return 1;
  }
  e.cval.tag = ast::ConstValue::Tag::Int;
  e.cval.big_int = v.i > (i128)INT64_MAX;
  e.cval.i = (int64_t)(uint64_t)v.i;
  return 1;
}

}  // namespace cujit
