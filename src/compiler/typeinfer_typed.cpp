// numba.typed.List and numba.typed.Dict made in @jit code (CPU only): `List()`, `List(iterable)`,
// `List.empty_list(item_type)`, `Dict()`, `Dict.empty(key_type, value_type)`. A typed.List is a
// list of its own type (Type::typed_list, Numba's ListType: no `+`, no `*`, never equal to a
// reflected list); a typed.Dict is the dict every `{}` already is (Numba's DictType). A `List()`
// or `Dict()` assigned to a name takes its types from the first insertion, as Numba refines its
// ListType[undefined]; later insertions are cast into them or refused as Numba refuses them
// (typeinfer_lists.cpp's widen_hint and typed_item_store). Returned to Python, the bindings
// wrap the container in a typed.List / typed.Dict (bindings/cpu.cpp, typed_containers.cpp).
#include <algorithm>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_refusals.h"

namespace cujit {

namespace {
using detail::refuse;
using detail::typing;

// The type a type object argument names: types.int64, np.float32, types.unicode_type, a global
// type object (ListType(int64), UniTuple(int64, 2)).
Type named_type(const FunctionInstance& fn, const ast::Node& at, const Type& t, const char* what) {
  if (t.is_type_object()) return t.elems[0];
  if (t.tag == Type::Tag::DType && !t.record) return Type::scalar_of(t.scalar);
  typing(fn.mod.source, at, std::string(what) + " must be a type (types.int64, types.unicode_type, ...), not " + t.str());
}

void typed_not_in_gpu_code(const FunctionInstance& fn, const ast::Node& at, const std::string& what) {
  if (!fn.host_only)
    refuse(fn.mod.source, at, what + "() is not supported in " + fn.compiled_as +
                                  " (typed containers exist in CPU code only, as in numba-cuda)");
}
}  // namespace

bool typed_list_item_ok(const Type& t) {
  if (t.is_list()) return t.typed;  // Numba's ListType holds typed lists, never reflected ones
  return t.is_scalar() || t.is_tuple() || t.is_array() || t.is_dict() || t.is_record() || t.tag == Type::Tag::String;
}

bool typed_stores_into(const Type& from, const Type& to) {
  if (from == to) return true;
  if (from.is_scalar() && to.is_scalar()) {
    // Numba's _sentry_safe_cast: a safe conversion, or an unsafe one between integers, integer
    // to float, float to float, complex to complex, or into a bool (a warning there); float to
    // integer and complex to real are refused.
    const Scalar f = from.scalar, t = to.scalar;
    if (!from.name.empty() || !to.name.empty()) return false;  // an IntEnum member keeps its class
    if (unify(from, to) == to || t == Scalar::Bool) return true;
    if (is_integral(f) && (is_integral(t) || is_float(t))) return true;
    if (is_float(f) && is_float(t)) return true;
    return is_complex(f) && is_complex(t);
  }
  if (from.is_tuple() && to.is_tuple() && from.elems.size() == to.elems.size()) {
    for (size_t i = 0; i < from.elems.size(); ++i)
      if (!typed_stores_into(from.elems[i], to.elems[i])) return false;
    return true;
  }
  return false;
}

namespace {
// Numba's safe and promoting conversions between numbers (numba/core/typeconv/rules.py); a
// conversion is safe where a chain of these leads from one type to the other.
bool typed_numba_safe_cast(Scalar from, Scalar to) {
  using S = Scalar;
  static const std::pair<S, S> edges[] = {
      {S::Bool, S::Int8},      {S::Bool, S::UInt8},      {S::Int8, S::Int16},      {S::UInt8, S::UInt16},
      {S::Int16, S::Int32},    {S::UInt16, S::UInt32},   {S::Int32, S::Int64},     {S::UInt32, S::UInt64},
      {S::UInt8, S::Int16},    {S::UInt16, S::Int32},    {S::UInt32, S::Int64},    {S::Int8, S::Float16},
      {S::Int16, S::Float32},  {S::Int32, S::Float64},   {S::Int64, S::Float64},   {S::UInt64, S::Float64},
      {S::Float16, S::Float32}, {S::Float32, S::Float64}, {S::Float32, S::Complex64}, {S::Float64, S::Complex128},
      {S::Complex64, S::Complex128}};
  std::vector<S> todo{from}, seen{from};
  while (!todo.empty()) {
    const S s = todo.back();
    todo.pop_back();
    if (s == to) return true;
    for (const auto& [a, b] : edges)
      if (a == s && std::find(seen.begin(), seen.end(), b) == seen.end()) {
        seen.push_back(b);
        todo.push_back(b);
      }
  }
  return false;
}
}  // namespace

void warn_unsafe_store(FunctionInstance& fn, const Type& from, const Type& to) {
  if (!from.is_scalar() || !to.is_scalar() || !from.name.empty() || !to.name.empty()) return;
  if (from.scalar == to.scalar || typed_numba_safe_cast(from.scalar, to.scalar)) return;
  const std::string m = "unsafe cast from " + from.str() + " to " + to.str() + ". Precision may be lost.";
  auto& w = fn.type_safety_warnings;
  if (std::find(w.begin(), w.end(), m) == w.end()) w.push_back(m);
}

Type type_typed_list_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  const SourceFile& src = fn.mod.source;
  typed_not_in_gpu_code(fn, call, b.name);
  if (b.id == Builtin::TypedListEmpty) {
    if (args.empty() || args.size() > 2)
      typing(src, call, "empty_list() takes the item type (and an optional allocated=), " + std::to_string(args.size()) + " given");
    Type item = named_type(fn, *call.args()[0], args[0], "empty_list()'s item_type");
    if (!typed_list_item_ok(item)) refuse(src, *call.args()[0], "a typed.List cannot hold a " + item.str() + " in compiled code");
    return Type::typed_list(item);
  }
  if (args.size() > 1 || !call.keywords.empty()) typing(src, call, "List() takes at most one argument (an iterable)");
  if (args.empty()) {  // ListType[undefined] until the first append of the name it is assigned to
    if (call.name.empty()) return Type::typed_list(Type::unknown());
    return Type::typed_list(fn.list_items[call.name]);
  }
  const Type& it = args[0];
  if (it.is_list() && !it.elems[0].known()) return Type::unknown();  // a list not typed yet
  Type item = it.tag == Type::Tag::Iterator || it.is_dict() ? Type::unknown() : iteration_item(it);
  if (!item.known()) typing(src, *call.args()[0], "List() argument must be iterable (a list, range, array, str or tuple of one type), not " + it.str());
  if (!typed_list_item_ok(item)) refuse(src, call, "a typed.List cannot hold a " + item.str() + " in compiled code");
  return Type::typed_list(item);
}

Type type_typed_dict_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  const SourceFile& src = fn.mod.source;
  typed_not_in_gpu_code(fn, call, b.name);
  if (b.id == Builtin::TypedDictEmpty) {
    if (args.size() < 2 || args.size() > 3)
      typing(src, call, "Dict.empty() takes the key and value types (and an optional n_keys=), " + std::to_string(args.size()) + " given");
    Type k = named_type(fn, *call.args()[0], args[0], "Dict.empty()'s key_type");
    Type v = named_type(fn, *call.args()[1], args[1], "Dict.empty()'s value_type");
    return Type::dict(k, v);  // keys and values checked as a dict literal's (type_dict_call's caller)
  }
  if (!args.empty() || !call.keywords.empty())
    refuse(src, call, "numba.typed.Dict() with arguments is not supported in compiled code; make it with Dict() or "
                      "Dict.empty(key_type, value_type) and insert into it");
  return Type::unknown();  // typeinfer_dicts.cpp types it as dict(): from the first insertion
}

}  // namespace cujit
