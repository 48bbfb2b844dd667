// Typing of operators, subscripts, array methods and calls (Typer, typeinfer_typer.h): calls of
// user functions instantiate them here; intrinsics go on to typeinfer_builtins.cpp. Split from
// typeinfer.cpp.
#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>
#include <utility>

#include "compiler/record_views.h"
#include "compiler/typeinfer_typer.h"
#include "compiler/builtins.h"
#include "compiler/libdevice.h"
#include "compiler/overloads.h"
#include "compiler/fnval.h"
#include "compiler/parallel.h"

namespace cujit {
namespace detail {

Type Typer::unary(ast::Node& e) {
  if (e.op == ast::Op::USub && e.operand()->is(ast::Kind::Constant) && e.operand()->cval.tag == ast::ConstValue::Tag::Int &&
      e.operand()->cval.big_int) {
    // Python folds -9223372036854775808 into one int64 constant before Numba sees it; any
    // other negated literal beyond int64 fits no integer type.
    expr(*e.operand());
    if ((uint64_t)e.operand()->cval.i != (uint64_t)1 << 63) error(e, "integer literal too large for int64");
    return Type::scalar_of(Scalar::Int64);
  }
  Type a = e.op == ast::Op::Not ? expr(*e.operand()) : operand(*e.operand());
  if (!a.known()) return a;
  if (e.op == ast::Op::Not) {
    if (a.is_list() || a.is_dict() || a.is_set() || a.is_tuple()) {  // not l: len(l) == 0 (truth() rewrites l)
      truth(*e.operand());
      return Type::scalar_of(Scalar::Bool);
    }
    if (a.tag == Type::Tag::String) {  // not s: s is empty
      refuse_gpu_string(fn(), e);
      return Type::scalar_of(Scalar::Bool);
    }
    if (a.is_optional()) error(e, "'not' of a value that may be None (" + a.str() + ") is not supported; compare it with None (`is None`)");
    if ((!a.is_scalar() && a.tag != Type::Tag::None) || (a.is_scalar() && is_time(a.scalar)))  // Numba: no truth of a time
      error(e, "'not' is not supported on a " + a.str());
    return Type::scalar_of(Scalar::Bool);
  }
  if (a.is_array()) return type_array_operator(fn(), e, e.op, true, {a}, false);  // -a is np.negative(a)
  if (!a.is_scalar())
    error(e, std::string("bad operand type for unary ") + ast::op_spelling(e.op) + ": '" + a.str() + "'");
  Scalar s = a.scalar;
  if (is_time(s)) {  // -td and +td keep the type (NaT stays NaT); a datetime has neither
    if (is_timedelta(s) && e.op != ast::Op::Invert) return a;
    error(e, std::string("bad operand type for unary ") + ast::op_spelling(e.op) + ": '" + a.str() + "'");
  }
  if (e.op == ast::Op::Invert) {
    if (!is_integral(s)) error(e, "bad operand type for unary ~: '" + a.str() + "'");
    if (s == Scalar::Bool) return a;  // NumPy's ~ on booleans is logical not
    return Type::scalar_of(arith_result(s, s));
  }
  if (is_inexact(s)) return a;
  return Type::scalar_of(arith_result(s, s));  // -int8 is int64, as Numba types it
}

Type Typer::binop_type(const ast::Node& at, ast::Op op, const Type& a, const Type& b) {
  using O = ast::Op;
  auto bad = [&]() -> Type {
    error(at, std::string("unsupported operand type(s) for ") + ast::op_spelling(op) + ": '" +
                  a.str() + "' and '" + b.str() + "'");
  };
  if (a.is_list() || b.is_list()) return list_binop_type(fn(), at, op, a, b);  // typeinfer_lists.cpp
  if (a.is_set() || b.is_set() || a.is_dict() || b.is_dict()) return set_binop_type(fn(), at, op, a, b);  // typeinfer_dicts.cpp
  if (a.is_tuple() && b.is_tuple() && op == O::Add) {
    if (a.is_named_tuple() || b.is_named_tuple())  // Numba has no + with a named tuple
      error(at, "No implementation of function Function(<built-in function add>) found for signature: add(" + a.str() +
                    ", " + b.str() + ")");
    std::vector<Type> e = a.elems;
    e.insert(e.end(), b.elems.begin(), b.elems.end());
    return Type::tuple(e);
  }
  if (a.tag == Type::Tag::String || b.tag == Type::Tag::String) return str_binop_type(fn(), at, op, a, b);  // typeinfer_strings.cpp
  if (op == O::MatMult && a.is_array() && b.is_array()) return type_matmul(fn(), at, a, b);  // typeinfer_numpy.cpp
  if (!a.is_scalar() || !b.is_scalar()) {
    if (a.is_array() || b.is_array())  // NumPy's ufunc for the operator (typeinfer_arrayexpr.cpp)
      return type_array_operator(fn(), at, op, false, {a, b}, at.is(ast::Kind::AugAssign));
    return bad();
  }
  Scalar x = a.scalar, y = b.scalar;
  if (is_time(x) || is_time(y)) {  // datetime64/timedelta64: their own operators and units
    std::string why;
    Type t = time_binop_type(op, x, y, &why);
    if (!t.known() && !why.empty())
      error(at, std::string("unsupported operand type(s) for ") + ast::op_spelling(op) + ": '" + a.str() + "' and '" +
                    b.str() + "': " + why);
    return t.known() ? t : bad();
  }
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

static bool is_ellipsis(const ast::Node& n) { return n.is(ast::Kind::Name) && n.name == "..."; }

// a[..., 0], a[...], a[0, ...]: the parser's `...` (a Name) becomes the full slices it stands
// for, as many as the array's axes left over by the other indices (None takes none), as NumPy
// and Numba read it; the rewritten index then types and emits as written-out slices would.
// Returns a refusal's message ("" when none): `*unsup` says whether it is an UnsupportedError.
static std::string expand_ellipsis(ast::Node& e, const Type& base, bool* unsup) {
  *unsup = true;
  std::vector<ast::Node*> items;
  if (e.index()->is(ast::Kind::Tuple)) for (auto& x : e.index()->elts()) items.push_back(x.get());
  else items.push_back(e.index().get());
  int ellipses = 0, used = 0;
  for (auto* x : items) {
    if (is_ellipsis(*x)) ++ellipses;
    else if (!(x->is(ast::Kind::Constant) && x->cval.tag == ast::ConstValue::Tag::None)) ++used;
  }
  if (ellipses == 0) return "";
  if (!base.is_array()) return *unsup = false, "'...' (Ellipsis) indexes arrays only, not " + base.str();
  if (ellipses > 1) return *unsup = false, "an index can only have a single ellipsis ('...')";
  int fill = std::max(0, base.ndim - used);
  std::vector<ast::NodePtr> out;
  std::vector<ast::NodePtr> old;
  if (e.index()->is(ast::Kind::Tuple)) old = std::move(e.index()->elts());
  else old.push_back(std::move(e.index()));
  for (auto& x : old) {
    if (!is_ellipsis(*x)) { out.push_back(std::move(x)); continue; }
    for (int k = 0; k < fill; ++k) out.push_back(ast::make(ast::Kind::Slice, x->loc));
  }
  if (out.empty()) return "a[...] of a 0-d array is not supported";
  if (out.size() == 1) {
    e.index() = std::move(out[0]);
  } else {
    ast::NodePtr t = ast::make(ast::Kind::Tuple, e.loc);
    t->elts() = std::move(out);
    e.index() = std::move(t);
  }
  return "";
}

Type Typer::subscript(ast::Node& e) {
  Type base = expr(*e.value());
  bool unsup;
  if (!base.known()) {
  } else if (std::string msg = expand_ellipsis(e, base, &unsup); !msg.empty()) {
    if (unsup) unsupported(e, msg);
    error(e, msg);
  } else if (e.index()->is(ast::Kind::Tuple) ? std::any_of(e.index()->elts().begin(), e.index()->elts().end(), [](auto& x) { return is_ellipsis(*x); })
                                           : is_ellipsis(*e.index()))
    return Type::unknown();  // expanded once the array's type is known
  if (base.is_record()) return expr(*e.index()), record_field_type(record_field_at(fn(), *e.index(), base), base.readonly);  // r['x'], r[0]
  if (base.is_record_array() && e.index()->is(ast::Kind::Constant) && e.index()->cval.tag == ast::ConstValue::Tag::Str) {
    Type field;  // a['x'] of an array of records: the field's view (typeinfer_records.cpp)
    expr(*e.index());
    if (!record_array_field(fn(), *e.index(), base, e.index()->cval.s, &field))
      record_field(fn(), *e.index(), Type::record_of(base.record), e.index()->cval.s);  // "Record has no field ..."
    return field;
  }
  std::vector<ast::Node*> idx;
  if (e.index()->is(ast::Kind::Tuple)) for (auto& x : e.index()->elts()) idx.push_back(x.get());
  else idx.push_back(e.index().get());
  std::vector<Type> it;
  bool known = base.known();
  for (auto* x : idx) {
    if (x->is(ast::Kind::Slice)) {
      for (ast::Node* part : {x->lower().get(), x->upper().get(), x->step().get()}) {
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
  if (is_flat_iter(base)) {  // a.flat[k]: the k-th element in C order (negatives from the end, as NumPy)
    if (idx.size() != 1 || idx[0]->is(ast::Kind::Slice))
      unsupported(e, "a.flat takes one integer index; slices and tuples of a flat iterator are not supported");
    if (!(it[0].is_scalar() && is_integer(it[0].scalar))) error(*idx[0], "a.flat index must be an integer, not " + it[0].str());
    return element_type(base.elems[0]);
  }
  if (base.tag == Type::Tag::Module && base.name.rfind("enum:", 0) == 0) {  // Color["red"]
    if (idx.size() != 1 || !idx[0]->is(ast::Kind::Constant) || idx[0]->cval.tag != ast::ConstValue::Tag::Str)
      error(e, "an enum class is indexed by a member's name, a constant string");
    return enum_member_of(e, base.name.substr(5), idx[0]->cval.s);
  }
  if (base.tag == Type::Tag::String) {  // typeinfer_strings.cpp
    if (idx.size() != 1) error(e, "string indices must be integers or slices, not tuple");
    return type_str_subscript(fn(), e, it[0]);
  }
  if (base.is_dict() || base.is_set()) {  // typeinfer_dicts.cpp
    if (idx.size() != 1) return type_dict_subscript(fn(), e, base, Type::tuple(it));
    return type_dict_subscript(fn(), e, base, it[0]);
  }
  if (base.is_list()) {  // typeinfer_lists.cpp
    if (idx.size() != 1) error(e, "list indices must be integers or slices, not tuple");
    return type_list_subscript(fn(), e, base, it[0]);
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
  if (Type t = type_fancy_index(fn(), e, base, it); t.known()) return t;  // a[idx], a[mask]: typeinfer_numpy.cpp
  if (idx.size() == 1 && it[0].is_tuple() && !e.index()->is(ast::Kind::Tuple)) {  // a[t]: a[t[0], t[1], ...]
    if (it[0].elems.empty()) unsupported(e, "indexing an array with an empty tuple is not supported");
    it = it[0].elems;
    idx.assign(it.size(), idx[0]);
  }
  // None (np.newaxis) makes a new axis of length 1 and takes none of the array's.
  int new_axes = 0;
  for (size_t i = 0; i < idx.size(); ++i) new_axes += !idx[i]->is(ast::Kind::Slice) && it[i].tag == Type::Tag::None;
  if ((int)idx.size() - new_axes > base.ndim)
    error(e, "too many indices for " + base.str() + ": " + std::to_string(idx.size() - new_axes) + " given");
  int kept = base.ndim - ((int)idx.size() - new_axes);
  bool leading_ints = true, any_slice = false;
  for (size_t i = 0; i < idx.size(); ++i) {
    if (idx[i]->is(ast::Kind::Slice) || it[i].tag == Type::Tag::None) { any_slice = true; ++kept; continue; }
    if (any_slice) leading_ints = false;
    if (!(it[i].is_scalar() && (is_integer(it[i].scalar) || it[i].scalar == Scalar::Bool)))
      error(*idx[i], "array indices must be integers, not " + it[i].str());
  }
  if (kept == 0) return element_type(base);
  if (kept > 8) unsupported(e, "the view would have more than 8 dimensions");
  Type v = base;
  v.ndim = kept;
  v.layout = (base.layout == 'C' && leading_ints && !any_slice) ? 'C' : 'A';
  return v;
}

// a.sum(), a.mean(), a.min(), a.max(), a.copy() on an array are np.sum(a) and so on: the call's
// new form (FunctionInstance::rewrites) is a call of that function with the array first. Typing
// records it and types it in the call's place; the lowering stage puts it in the tree.
void Typer::array_method(ast::Node& e) {
  if (!e.func()->is(ast::Kind::Attribute) || fn().rewrites.count(&e)) return;
  static const std::map<std::string, std::string> methods = {
      {"sum", "numpy.sum"}, {"mean", "numpy.mean"}, {"min", "numpy.min"}, {"max", "numpy.max"},
      {"prod", "numpy.prod"}, {"var", "numpy.var"}, {"std", "numpy.std"}, {"argmin", "numpy.argmin"},
      {"argmax", "numpy.argmax"}, {"all", "numpy.all"}, {"any", "numpy.any"},
      {"copy", "numpy.copy"}, {"view", "array.view"}, {"sort", "array.sort"}, {"argsort", "numpy.argsort"}, {"cumsum", "numpy.cumsum"}, {"cumprod", "numpy.cumprod"},
      {"reshape", "numpy.reshape"}, {"ravel", "numpy.ravel"}, {"flatten", "array.flatten"},
      {"transpose", "numpy.transpose"}, {"astype", "array.astype"}, {"fill", "array.fill"}, {"item", "array.item"},
      {"nonzero", "numpy.nonzero"}, {"repeat", "numpy.repeat"}, {"take", "numpy.take"}};
  // The call of builtin `callee` with the receiver first, recorded as e's form.
  auto method_form = [&](const std::string& callee) {
    ast::NodePtr form = clone_for_rewrite(fn(), e);
    ast::NodePtr self = std::move(form->func()->value());
    ast::NodePtr f = ast::make(ast::Kind::Name, e.func()->loc);
    f->name = callee;
    form->func() = std::move(f);
    form->args().insert(form->args().begin(), std::move(self));
    record_form(fn(), e, std::move(form));
  };
  const std::string& m_name = e.func()->name;
  if (m_name == "sync" && expr(*e.func()->value()).tag == Type::Tag::GridGroup)  // g.sync() of cuda.cg.this_grid()
    return method_form("cuda.cg.GridGroup.sync");
  // l.append(x) and the other list methods: list.append(l, x) (typeinfer_lists.cpp).
  if (const char* lm = list_method_builtin(m_name); lm && expr(*e.func()->value()).is_list()) return method_form(lm);
  // s.upper() and the other str methods: str.upper(s) (typeinfer_strings.cpp).
  if (const char* sm = str_method_builtin(m_name); sm && expr(*e.func()->value()).tag == Type::Tag::String)
    return method_form(sm);
  // d.get(k) and the other dict and set methods: dict.get(d, k) (typeinfer_dicts.cpp).
  if (const char* dm = dict_method_builtin(expr(*e.func()->value()), m_name)) return method_form(dm);
  // Methods of numbers: x.bit_count(), x.conjugate() (Numba's; is_integer() it has not).
  static const std::map<std::string, std::string> number_methods = {
      {"bit_count", "int.bit_count"}, {"conjugate", "float.conjugate"}};
  auto m = methods.find(m_name);
  auto nm = number_methods.find(m_name);
  if (m == methods.end() && nm == number_methods.end()) return;
  Type v = expr(*e.func()->value());
  if (nm != number_methods.end()) {
    if (!v.is_scalar()) return;
    m = nm;
  } else if (!v.is_array()) {
    return;
  }
  method_form(m->second);
}

Type Typer::call(ast::Node& e) {
  array_method(e);
  if (auto r = fn().rewrites.find(&e); r != fn().rewrites.end()) return set(e, expr(*r->second));  // its method's form
  Type callee = expr(*e.func());
  // f(*t): the call with t's items as arguments, once t's type is known (typeinfer_calls.cpp).
  bool known_items = true;
  if (ast::NodePtr form = starred_form(fn(), e, [this](ast::Node& n) { return expr(n); }, &known_items))
    return expr_as(e, std::move(form));
  if (!known_items) return Type::unknown();
  bool keywords_bound = false;
  if (callee.tag == Type::Tag::Function && callee.user_fn < 0)
    if (const BuiltinRow* b = find_builtin(callee.name)) keywords_bound = bind_builtin_keywords(fn(), e, *b);
  std::vector<Type> args;
  bool known = callee.known();
  for (auto& a : e.args()) {
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
  if (callee.tag == Type::Tag::DType && callee.record) error(e, "a record type (" + callee.record->spelling + ") cannot be called");
  if (callee.is_type_object()) error(e, "the type " + callee.elems[0].str() + " cannot be called in compiled code");
  if (callee.tag == Type::Tag::DType) {
    if (args.size() != 1 || !e.keywords.empty()) error(e, std::string(scalar_name(callee.scalar)) + "() takes exactly one argument");
    if (!args[0].is_scalar()) error(*e.args()[0], std::string("cannot convert a ") + args[0].str() + " to " + scalar_name(callee.scalar));
    return Type::scalar_of(callee.scalar);
  }
  if (callee.tag == Type::Tag::Module && callee.name.rfind("ntclass:", 0) == 0)  // P(1, y=2.5)
    return type_named_tuple_call(fn(), e, fn().src->globals.at(callee.name.substr(8)), args);
  if (callee.tag != Type::Tag::Function) error(e, "'" + callee.str() + "' object is not callable");
  if (callee.user_fn >= 0) return call_user(e, callee, args);
  if (!keywords_bound && !e.keywords.empty() && callee.name != "print" && callee.name != "cuda.local.array" &&
      callee.name != "cuda.shared.array")
    unsupported(e.keywords[0].value ? *e.keywords[0].value : e, "keyword arguments are not supported for " + callee.name + "()");
  if (callee.name.rfind("cuda.libdevice.", 0) == 0)
    if (const LibdeviceFn* ld = find_libdevice(callee.name.substr(15))) return type_libdevice_call(fn(), e, *ld, args);
  const BuiltinRow* b = find_builtin(callee.name);
  if (!b) error(e, "unknown function " + callee.name);
  if (b->rule == Rule::Operator) {  // operator.add(a, b) is a + b (fnval.h), named by a function value
    // (one the names decide was rewritten before typing: resolve.cpp)
    // (typing records the BinOp, Compare, UnaryOp or Subscript as the call's new form)
    ast::NodePtr form = clone_for_rewrite(fn(), e);
    std::string why = rewrite_operator_call(*form, callee.name, false);
    if (!why.empty()) error(e, why);
    return expr_as(e, std::move(form));
  }
  check_record_operands(fn(), e, callee.name, args);
  return type_builtin_call(fn(), e, *b, args);
}

}  // namespace detail
}  // namespace cujit
