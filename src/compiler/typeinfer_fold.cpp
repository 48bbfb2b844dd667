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
  if (n.is(ast::Kind::UnaryOp) && n.op == ast::Op::USub && const_int_literal(*n.a, out)) {
    *out = -*out;
    return true;
  }
  return false;
}

bool numpy_scalar_from_name(const std::string& name, Scalar* out) {
  // NumPy's own meaning of a name, where Numba's aliases differ: numba.byte is uint8 and
  // numba.float_ float32, but np.byte is int8 and np.float_ float64.
  static const std::pair<const char*, Scalar> names[] = {
      {"bool", Scalar::Bool},       {"bool_", Scalar::Bool},        {"b1", Scalar::Bool},
      {"int8", Scalar::Int8},       {"int16", Scalar::Int16},       {"int32", Scalar::Int32},
      {"int64", Scalar::Int64},     {"uint8", Scalar::UInt8},       {"uint16", Scalar::UInt16},
      {"uint32", Scalar::UInt32},   {"uint64", Scalar::UInt64},     {"float32", Scalar::Float32},
      {"float64", Scalar::Float64}, {"i1", Scalar::Int8},           {"i2", Scalar::Int16},
      {"i4", Scalar::Int32},        {"i8", Scalar::Int64},          {"u1", Scalar::UInt8},
      {"u2", Scalar::UInt16},       {"u4", Scalar::UInt32},         {"u8", Scalar::UInt64},
      {"f4", Scalar::Float32},      {"f8", Scalar::Float64},        {"int", Scalar::Int64},
      {"float", Scalar::Float64},   {"int_", Scalar::Int64},        {"intp", Scalar::Int64},
      {"uintp", Scalar::UInt64},    {"byte", Scalar::Int8},         {"ubyte", Scalar::UInt8},
      {"short", Scalar::Int16},     {"ushort", Scalar::UInt16},     {"intc", Scalar::Int32},
      {"uintc", Scalar::UInt32},    {"longlong", Scalar::Int64},    {"ulonglong", Scalar::UInt64},
      {"single", Scalar::Float32},  {"double", Scalar::Float64},    {"float_", Scalar::Float64},
      {"float16", Scalar::Float16}, {"f2", Scalar::Float16},        {"half", Scalar::Float16},
  };
  for (const auto& [n, s] : names)
    if (name == n) { *out = s; return true; }
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
    int r = fold_value(*e.a, out);
    if (r == 1) *out = e.op == O::USub ? -*out : e.op == O::Invert ? ~*out : *out;
    return r;
  }
  if (!e.is(ast::Kind::BinOp)) return 0;
  i128 a, b, r = 0;
  int ra = fold_value(*e.a, &a);
  if (ra != 1) return ra;
  int rb = fold_value(*e.b, &b);
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
  e.kind = ast::Kind::Constant;
  e.cval = ast::ConstValue{};
  e.cval.tag = ast::ConstValue::Tag::Int;
  e.cval.big_int = v > (i128)INT64_MAX;
  e.cval.i = (int64_t)(uint64_t)v;
  e.a.reset();
  e.b.reset();
  return 1;
}

}  // namespace cujit
