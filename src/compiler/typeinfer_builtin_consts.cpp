// Constant arguments of intrinsics (BuiltinTyper, typeinfer_builtin_typer.h): integer
// expressions folded with Python's semantics (the shapes of cuda.local/shared.array), dtype
// arguments and other compile-time constants. Split from typeinfer_builtins.cpp.
#include <algorithm>
#include <functional>
#include <string>

#include "compiler/typeinfer_builtin_typer.h"
#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/libdevice.h"
#include "compiler/typeinfer.h"

namespace cujit {
namespace detail {

BuiltinTyper::Fold BuiltinTyper::fold_int(const ast::Node& n, int64_t* out, const ast::Node** culprit) {
  using O = ast::Op;
  *culprit = &n;
  if (n.is(ast::Kind::Constant) && n.cval.tag == ast::ConstValue::Tag::Int) {
    if (n.cval.big_int) return Fold::Overflow;
    *out = n.cval.i;
    return Fold::Ok;
  }
  if (n.is(ast::Kind::Name)) {
    if (const ast::Node* def = single_definition(n)) {  // N = 100 in the function itself
      if (++fold_depth_ > 64) { --fold_depth_; return Fold::NotConstant; }
      Fold f = fold_int(*def, out, culprit);
      --fold_depth_;
      if (f == Fold::NotConstant) *culprit = &n;
      return f;
    }
    const GlobalValue* g = global_named(n);
    if (!g) return Fold::NotConstant;
    if (global_int(*g, out, culprit, n)) return Fold::Ok;
    return g->kind == GlobalValue::Kind::Scalar && g->scalar == Scalar::UInt64 ? Fold::Overflow : Fold::NotConstant;
  }
  if (n.is(ast::Kind::Subscript)) {  // SHAPE[0] of a global tuple
    const GlobalValue* g = global_named(*n.value());
    int64_t k;
    if (!g || g->kind != GlobalValue::Kind::Tuple || n.index()->is(ast::Kind::Slice)) return Fold::NotConstant;
    Fold f = fold_int(*n.index(), &k, culprit);
    if (f != Fold::Ok) return f;
    const int64_t len = (int64_t)g->elems.size();
    if (k < -len || k >= len) { *culprit = n.index().get(); return Fold::NotConstant; }
    return global_int(g->elems[k < 0 ? k + len : k], out, culprit, n) ? Fold::Ok : Fold::NotConstant;
  }
  if (n.is(ast::Kind::UnaryOp) && (n.op == O::USub || n.op == O::UAdd || n.op == O::Invert)) {
    int64_t a;
    Fold f = fold_int(*n.operand(), &a, culprit);
    if (f != Fold::Ok) return f;
    *culprit = &n;
    if (n.op == O::UAdd) { *out = a; return Fold::Ok; }
    if (n.op == O::Invert) { *out = ~a; return Fold::Ok; }
    return __builtin_sub_overflow((int64_t)0, a, out) ? Fold::Overflow : Fold::Ok;
  }
  if (!n.is(ast::Kind::BinOp)) return Fold::NotConstant;
  int64_t a, b;
  Fold f = fold_int(*n.lhs(), &a, culprit);
  if (f != Fold::Ok) return f;
  f = fold_int(*n.rhs(), &b, culprit);
  if (f != Fold::Ok) return f;
  *culprit = &n;
  const Fold over = Fold::Overflow;
  switch (n.op) {
    case O::Add: return __builtin_add_overflow(a, b, out) ? over : Fold::Ok;
    case O::Sub: return __builtin_sub_overflow(a, b, out) ? over : Fold::Ok;
    case O::Mult: return __builtin_mul_overflow(a, b, out) ? over : Fold::Ok;
    case O::FloorDiv: case O::Mod: {
      if (b == 0) return Fold::NotConstant;  // ZeroDivisionError in Python
      if (a == INT64_MIN && b == -1) { if (n.op == O::Mod) { *out = 0; return Fold::Ok; } return over; }
      int64_t q = a / b, r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) { --q; r += b; }  // Python floors toward -inf
      *out = n.op == O::FloorDiv ? q : r;
      return Fold::Ok;
    }
    case O::Pow: {
      if (b < 0) return Fold::NotConstant;  // a float in Python
      int64_t r = 1, base = a;  // by squaring: a few steps for any exponent
      for (int64_t e = b; e > 0; e >>= 1) {
        if ((e & 1) && __builtin_mul_overflow(r, base, &r)) return over;
        if (e > 1 && __builtin_mul_overflow(base, base, &base)) return over;
      }
      *out = r;
      return Fold::Ok;
    }
    case O::LShift:
      if (b < 0) return Fold::NotConstant;  // ValueError in Python
      if (a == 0) { *out = 0; return Fold::Ok; }
      if (b >= 63 || ((a << b) >> b) != a) return over;
      *out = a << b;
      return Fold::Ok;
    case O::RShift:
      if (b < 0) return Fold::NotConstant;
      *out = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
      return Fold::Ok;
    case O::BitAnd: *out = a & b; return Fold::Ok;
    case O::BitOr: *out = a | b; return Fold::Ok;
    case O::BitXor: *out = a ^ b; return Fold::Ok;
    default: return Fold::NotConstant;
  }
}

// The value a local name is bound to where the function binds it once, by a plain `N = value`
// (Numba infers a constant through a variable's single definition); null for parameters, names
// bound more than once (also by loops, `+=` or unpacking) and everything else.
const ast::Node* BuiltinTyper::single_definition(const ast::Node& n) {
  if (!n.is(ast::Kind::Name) || !fn().locals.count(n.name)) return nullptr;
  const ast::Node& def = *fn().mod.func;
  for (const auto& p : def.params)
    if (p.name == n.name) return nullptr;
  const ast::Node* value = nullptr;
  int count = 0;
  std::function<void(const ast::Node&)> binds = [&](const ast::Node& t) {  // an assignment target
    if (t.is(ast::Kind::Name) && t.name == n.name) ++count;
    if (t.is(ast::Kind::Tuple))
      for (const auto& x : t.elts()) binds(*x);
  };
  std::function<void(const std::vector<ast::NodePtr>&)> walk = [&](const std::vector<ast::NodePtr>& body) {
    for (const auto& st : body) {
      if (st->is(ast::Kind::Assign)) {
        for (const auto& t : st->targets()) {
          if (t->is(ast::Kind::Name) && t->name == n.name) value = st->rhs().get();
          binds(*t);
        }
      } else if (st->is(ast::Kind::AugAssign) || st->is(ast::Kind::For)) {
        binds(*st->target());
      }
      walk(st->body);
      walk(st->orelse);
    }
  };
  walk(def.body);
  return count == 1 ? value : nullptr;
}

// The global (or closure variable) a Name reads; null for locals and other expressions.
const GlobalValue* BuiltinTyper::global_named(const ast::Node& n) {
  if (!n.is(ast::Kind::Name)) return nullptr;
  auto c = fn().const_params.find(n.name);  // never assigned in the function (shape_params)
  if (c != fn().const_params.end()) return &c->second;
  if (fn().locals.count(n.name)) return nullptr;
  auto g = fn().src->globals.find(n.name);
  return g == fn().src->globals.end() ? nullptr : &g->second;
}

// A global int, or a NumPy integer scalar that fits int64 (uint64 past it does not).
bool BuiltinTyper::global_int(const GlobalValue& g, int64_t* out, const ast::Node** culprit, const ast::Node& at) {
  *culprit = &at;
  if (g.kind == GlobalValue::Kind::Int) { *out = g.i; return true; }
  if (g.kind != GlobalValue::Kind::Scalar || !is_integer(g.scalar)) return false;
  if (g.scalar == Scalar::UInt64) {
    if (g.u > (uint64_t)INT64_MAX) return false;
    *out = (int64_t)g.u;
    return true;
  }
  *out = g.i;
  return true;
}

// Why a shape's size is not a constant, for the error pointing at `at`.
std::string BuiltinTyper::not_constant(const BuiltinRow& b, const ast::Node& at) {
  std::string why = "this expression is computed at run time";
  if (at.is(ast::Kind::Name)) {
    const GlobalValue* g = global_named(at);
    if (fn().locals.count(at.name))
      why = "'" + at.name + "' is a variable that is a parameter, is assigned more than once, or holds no constant";
    else if (g) why = "'" + at.name + "' is a global " + type_of_global(*g).str() + ", not an integer";
  } else if (at.type.known() && !(at.type.is_scalar() && is_integer(at.type.scalar))) {
    why = "this is a " + at.type.str() + ", not an integer";
  } else if (at.is(ast::Kind::BinOp) || at.is(ast::Kind::Subscript)) {
    why = "this operation has no constant integer value";
  }
  return std::string(b.name) + "() needs a shape of constant integers (literals, global ints and tuples, "
                               "and arithmetic on them): " + why;
}

// The dtype of cuda.local/shared.array, written any way Numba takes it: np.float32,
// numba.float32, numba.types.float32, float32 imported from numba or cujit, or 'float32'.
Scalar BuiltinTyper::alloc_dtype(const ast::Node& dtype, const BuiltinRow& b) {
  if (dtype.type.is_type_object())
    error(dtype, std::string(b.name) + "() got the type " + dtype.type.elems[0].str() + ", which is no NumPy dtype");
  if (dtype.type.tag == Type::Tag::DType) return dtype.type.scalar;
  Scalar sc;
  if (dtype.is(ast::Kind::Constant) && dtype.cval.tag == ast::ConstValue::Tag::Str) {
    if (scalar_from_numpy_name(dtype.cval.s, &sc)) return sc;
    error(dtype, std::string(b.name) + "() got an unknown dtype name '" + dtype.cval.s + "'");
  }
  error(dtype, std::string(b.name) + "() needs a NumPy or cujit type as its dtype (np.float32, float32), got " + dtype.type.str());
}

bool BuiltinTyper::constant_argument(const ast::Node& n, GlobalValue* out) {
  if (n.is(ast::Kind::Constant) && n.cval.tag == ast::ConstValue::Tag::Bool) {
    out->kind = GlobalValue::Kind::Bool;
    out->i = n.cval.b;
    return true;
  }
  const GlobalValue* g = global_named(n);
  if (g && g->kind == GlobalValue::Kind::Bool) {
    *out = *g;
    return true;
  }
  if (g && g->kind == GlobalValue::Kind::Tuple) {
    int64_t v;
    const ast::Node* at;
    for (const auto& item : g->elems) if (!global_int(item, &v, &at, n)) return false;
    *out = *g;
    return true;
  }
  std::vector<const ast::Node*> parts;
  if (n.is(ast::Kind::Tuple)) for (auto& x : n.elts()) parts.push_back(x.get());
  else parts.push_back(&n);
  GlobalValue t;
  t.kind = GlobalValue::Kind::Tuple;
  for (auto* p : parts) {
    GlobalValue item;
    item.kind = GlobalValue::Kind::Int;
    const ast::Node* culprit;
    if (fold_int(*p, &item.i, &culprit) != Fold::Ok) return false;
    t.elems.push_back(item);
  }
  *out = n.is(ast::Kind::Tuple) ? t : t.elems[0];
  return true;
}

}  // namespace detail
}  // namespace cujit
