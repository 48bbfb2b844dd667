// Dicts and sets in @jit code (Numba's typed dict and set; CPU only): literals, dict() and set(),
// the key and value types of `{}` and `set()` taken from their first insertion (the name they are
// assigned to keeps a hint, FunctionInstance::dict_types, as Numba's type variables), d[k],
// d[k] = v, del d[k], the methods (Rule::DictOp builtins; `d.get(k)` is rewritten as
// `dict.get(d, k)`), set operators. codegen_dicts.cpp writes their code; prelude/host_dict.h
// runs it.
#include <map>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_refusals.h"

namespace cujit {

namespace {
using ast::Kind;
using ast::Node;

using detail::refuse;  // typeinfer_refusals.h
using detail::typing;

using detail::is_int;

// A key hashes as Python's: numbers (not complex), bools, str (CPython's hash, host_str.h) and
// tuples of them.
bool key_ok(const Type& t) {
  if (t.tag == Type::Tag::String) return true;
  if (t.is_scalar()) return t.name.empty() && (is_integral(t.scalar) || is_float(t.scalar));
  if (!t.is_tuple() || t.elems.empty()) return false;
  for (const auto& e : t.elems)
    if (!key_ok(e)) return false;
  return true;
}
bool value_ok(const Type& t) {
  return t.is_scalar() || t.is_tuple() || t.is_array() || t.is_dict() || t.is_set() || t.is_record() || t.tag == Type::Tag::String ||
         t.is_typed_list();
}

// Whether a key of type `from` is looked up in (or an item added to a set of) type `to`: the
// same type, or a number that widens into it. A stored key or value is cast as Numba's typed
// dict casts it (typed_stores_into: 5 into an int32 dict too; 2.5 into an int64 one refused).
bool stores_into(const Type& from, const Type& to) {
  if (from == to) return true;
  if (from.is_scalar() && to.is_scalar()) return unify(from, to) == to;
  if (from.is_tuple() && to.is_tuple() && from.elems.size() == to.elems.size()) {
    for (size_t i = 0; i < from.elems.size(); ++i)
      if (!stores_into(from.elems[i], to.elems[i])) return false;
    return true;
  }
  return false;
}

std::string sig(const std::string& f, const std::vector<Type>& args) {
  std::string s = "No implementation of function Function(<built-in function " + f + ">) found for signature:\n \n >>> " + f + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].str();
  return s + ")";
}

void check_key(const SourceFile& src, const Node& at, const Type& k) {
  if (!key_ok(k))
    refuse(src, at, "a dict key or set item of type " + k.str() +
                        " is not supported in compiled code (numbers, bools, str and tuples of them are)");
}
void check_value(const SourceFile& src, const Node& at, const Type& v) {
  if (v.is_list() && !v.typed) typing(src, at, v.str() + " as value is forbidden");  // Numba's words (a typed.List is fine)
  if (!value_ok(v)) refuse(src, at, "a dict cannot hold a " + v.str() + " value in compiled code");
}

Type unify_or(const SourceFile& src, const Node& at, const Type& a, const Type& b, const char* what) {
  if (!a.known()) return b;
  if (!b.known()) return a;
  Type u = unify(a, b);
  if (!u.known() || u.is_optional()) typing(src, at, std::string("cannot unify ") + a.str() + " and " + b.str() + " for the " + what);
  return u;
}

// The hint of the container named by `self`, given its first types where they are unknown.
void widen(FunctionInstance& fn, const Node& self, const Type& key, const Type& value) {
  if (!self.is(Kind::Name)) return;
  auto it = fn.dict_types.find(self.name);
  if (it == fn.dict_types.end()) return;
  Type& h = it->second;
  if (!h.elems[0].known() && key.known()) h.elems[0] = key;
  if (h.is_dict() && !h.elems[1].known() && value.known()) h.elems[1] = value;
}

void not_in_gpu_code(const FunctionInstance& fn, const Node& at, const std::string& what) {
  if (!fn.host_only)
    refuse(fn.mod.source, at, what + " not supported in " + fn.compiled_as +
                                  " (dicts and sets exist in CPU code only, as in numba-cuda); use arrays");
}

// The type a `{}`/`set()` named by the assignment takes: its hint's.
Type hinted(FunctionInstance& fn, const Node& e, Type t) {
  if (e.name.empty()) return t;
  auto [it, fresh] = fn.dict_types.emplace(e.name, t);
  if (fresh) return t;
  Type& h = it->second;
  if (h.tag != t.tag) return t;  // the name holds a dict somewhere, a set elsewhere: the literal's own
  for (size_t i = 0; i < t.elems.size(); ++i) {
    if (!h.elems[i].known()) h.elems[i] = t.elems[i];
    else if (t.elems[i].known() && h.elems[i] != t.elems[i]) return t;  // another literal's type
  }
  return h;
}

}  // namespace

Type type_dict_literal(FunctionInstance& fn, ast::Node& e, const std::vector<Type>& items) {
  const SourceFile& src = fn.mod.source;
  not_in_gpu_code(fn, e, e.is(Kind::Dict) ? "dict literals are" : "set literals are");
  const bool is_set = e.is(Kind::Set);
  const auto& nodes = is_set ? e.elts() : e.keys_values();
  Type k = Type::unknown(), v = Type::unknown();
  const size_t step = is_set ? 1 : 2;
  for (size_t i = 0; i < items.size(); i += step) {
    if (!items[i].known() || (!is_set && !items[i + 1].known())) return Type::unknown();
    check_key(src, *nodes[i], items[i]);
    k = unify_or(src, *nodes[i], k, items[i], is_set ? "items of a set" : "keys of a dict");
    if (!is_set) {
      check_value(src, *nodes[i + 1], items[i + 1]);
      v = unify_or(src, *nodes[i + 1], v, items[i + 1], "values of a dict");
    }
  }
  return hinted(fn, e, is_set ? Type::set(k) : Type::dict(k, v));
}

void check_dicts_known(const FunctionInstance& fn, const ast::Node& e) {
  const Type& t = e.type;
  if ((t.is_dict() && (!t.elems[0].known() || !t.elems[1].known())) || (t.is_set() && !t.elems[0].known())) {
    const std::string name = e.name.empty() ? "" : " '" + e.name + "'";
    typing(fn.mod.source, e,
           "Cannot infer the type of variable" + name + ", have imprecise type: " + t.str() +
               " (nothing is inserted into it: Numba needs the key and value types; insert into it, or give it an item)");
  }
}

const char* dict_method_builtin(const Type& self, const std::string& method) {
  static const std::map<std::string, const char*> d = {
      {"get", "dict.get"}, {"pop", "dict.pop"}, {"popitem", "dict.popitem"}, {"setdefault", "dict.setdefault"},
      {"update", "dict.update"}, {"clear", "dict.clear"}, {"copy", "dict.copy"}, {"keys", "dict.keys"},
      {"values", "dict.values"}, {"items", "dict.items"}};
  static const std::map<std::string, const char*> s = {
      {"add", "set.add"}, {"remove", "set.remove"}, {"discard", "set.discard"}, {"pop", "set.pop"},
      {"update", "set.update"}, {"clear", "set.clear"}, {"copy", "set.copy"}, {"union", "set.union"},
      {"intersection", "set.intersection"}, {"difference", "set.difference"},
      {"symmetric_difference", "set.symmetric_difference"}, {"issubset", "set.issubset"},
      {"issuperset", "set.issuperset"}, {"isdisjoint", "set.isdisjoint"},
      {"intersection_update", "set.intersection_update"}, {"difference_update", "set.difference_update"},
      {"symmetric_difference_update", "set.symmetric_difference_update"}};
  const auto& m = self.is_dict() ? d : s;
  if (!self.is_dict() && !self.is_set()) return nullptr;
  auto it = m.find(method);
  return it == m.end() ? nullptr : it->second;
}

Type type_dict_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  const SourceFile& src = fn.mod.source;
  const std::string name = b.name;
  not_in_gpu_code(fn, call, name + "() is");
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      typing(src, call, name + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                            " argument(s), " + std::to_string(args.size()) + " given");
  };
  if (name == "hash") {
    arity(1, 1);
    if (args[0].tag == Type::Tag::String) return Type::scalar_of(Scalar::Int64);  // CPython's str hash (host_str.h)
    check_key(src, *call.args()[0], args[0]);
    return Type::scalar_of(Scalar::Int64);
  }
  if (b.id == Builtin::TypedDictEmpty) {  // typeinfer_typed.cpp
    Type t = type_typed_dict_call(fn, call, b, args);
    check_key(src, *call.args()[0], t.elems[0]);
    check_value(src, *call.args()[1], t.elems[1]);
    return t;
  }
  if (b.id == Builtin::TypedDict) {  // typed.Dict(): as dict(), typed by its first insertion
    type_typed_dict_call(fn, call, b, args);
    return hinted(fn, call, Type::dict(Type::unknown(), Type::unknown()));
  }
  if (name == "dict") {
    if (!call.keywords.empty()) typing(src, call, sig("dict", args) + " (dict() with keywords is not supported)");
    arity(0, 1);
    if (args.empty()) return hinted(fn, call, Type::dict(Type::unknown(), Type::unknown()));
    if (!args[0].is_dict()) typing(src, call, sig("dict", args) + " (dict() of a dict is, or no argument)");
    return args[0];
  }
  if (name == "set") {
    arity(0, 1);
    if (args.empty()) return hinted(fn, call, Type::set(Type::unknown()));
    if (args[0].is_list() && !args[0].elems[0].known()) return Type::unknown();  // a list not typed yet
    Type item = args[0].tag == Type::Tag::Iterator ? Type::unknown() : iteration_item(args[0]);
    if (args[0].is_dict() || !item.known() || args[0].is_array())
      typing(src, call, "No implementation of function set() for a " + args[0].str() + " (it takes a list, a set, a tuple of one type or a range)");
    check_key(src, *call.args()[0], item);
    return Type::set(item);
  }
  // Methods: args[0] is the container.
  const Type& c = args[0];
  const std::string m = name.substr(name.find('.') + 1);
  const Type K = c.elems[0];
  const Type V = c.is_dict() ? c.elems[1] : Type::unknown();
  auto key_arg = [&](size_t i) {
    if (K.known() && !stores_into(args[i], K)) typing(src, *call.args()[i], sig(name, args));
  };
  if (c.is_dict()) {
    if (m == "setdefault") {
      arity(3, 3);
      check_key(src, *call.args()[1], args[1]);
      check_value(src, *call.args()[2], args[2]);
      widen(fn, *call.args()[0], args[1], args[2]);
      if (!K.known() || !V.known()) return Type::unknown();
      key_arg(1);
      if (!typed_stores_into(args[1], K) || !typed_stores_into(args[2], V)) typing(src, *call.args()[2], sig(name, args));
      return V;
    }
    if (m == "update") {
      arity(2, 2);
      if (!args[1].is_dict()) typing(src, *call.args()[1], sig(name, args) + " (update() takes a dict)");
      widen(fn, *call.args()[0], args[1].elems[0], args[1].elems[1]);
      if (K.known() && V.known() && args[1].elems[0].known() &&
          !(typed_stores_into(args[1].elems[0], K) && typed_stores_into(args[1].elems[1], V)))
        typing(src, call, sig(name, args));
      return Type::none();
    }
    if (m == "clear") {
      arity(1, 1);
      return Type::none();
    }
    if (!K.known() || !V.known()) return Type::unknown();  // `{}` not typed yet
    if (m == "get" || m == "pop") {
      arity(m == "get" ? 2 : 2, 3);
      key_arg(1);
      if (args.size() == 2) return m == "get" ? Type::optional(V) : V;
      if (args[2].tag == Type::Tag::None) return Type::optional(V);
      if (stores_into(args[2], V)) return V;
      Type u = unify(V, args[2]);
      if (!u.known() || u.is_optional() || !args[2].is_scalar()) typing(src, *call.args()[2], sig(name, args));
      return u;
    }
    if (m == "popitem") {
      arity(1, 1);
      return Type::tuple({K, V});
    }
    if (m == "copy") {
      arity(1, 1);
      return c;
    }
    arity(1, 1);
    if (m == "keys") return Type::list(K);
    if (m == "values") return Type::list(V);
    if (m == "items") return Type::list(Type::tuple({K, V}));
    typing(src, call, "Unknown attribute '" + m + "' of type " + c.str());
  }
  // Sets.
  if (m == "add") {
    arity(2, 2);
    check_key(src, *call.args()[1], args[1]);
    widen(fn, *call.args()[0], args[1], Type::unknown());
    if (K.known()) key_arg(1);
    return Type::none();
  }
  if (m == "update") {
    arity(2, 2);
    Type item = args[1].tag == Type::Tag::Iterator ? Type::unknown() : iteration_item(args[1]);
    if (!args[1].is_set()) typing(src, *call.args()[1], sig(name, args) + " (update() takes a set here)");
    widen(fn, *call.args()[0], item, Type::unknown());
    if (K.known() && item.known() && !stores_into(item, K)) typing(src, call, sig(name, args));
    return Type::none();
  }
  if (m == "clear") {
    arity(1, 1);
    return Type::none();
  }
  if (!K.known()) return Type::unknown();
  if (m == "remove" || m == "discard") {
    arity(2, 2);
    key_arg(1);
    return Type::none();
  }
  if (m == "pop") {  // Numba's table order (host_dict.h)
    arity(1, 1);
    return K;
  }
  if (m == "copy") {
    arity(1, 1);
    return Type::set(K);
  }
  // Set algebra: another set of the same item type.
  arity(2, 2);
  if (args[1].is_set() && !args[1].elems[0].known()) return Type::unknown();  // `set()` not typed yet
  if (!args[1].is_set() || !args[1].elems[0].known()) typing(src, *call.args()[1], sig(name, args) + " (it takes a set)");
  if (args[1].elems[0] != K) typing(src, call, sig(name, args) + " (sets of different item types)");
  if (m == "issubset" || m == "issuperset" || m == "isdisjoint") return Type::scalar_of(Scalar::Bool);
  if (m.size() > 7 && m.substr(m.size() - 7) == "_update") return Type::none();
  return Type::set(K);
}

Type type_dict_subscript(FunctionInstance& fn, ast::Node& e, const Type& d, const Type& key) {
  const SourceFile& src = fn.mod.source;
  if (e.index()->is(Kind::Tuple)) e.index()->type = key;  // d[i, j]: the key is the tuple (subscript() typed its items)
  if (d.is_set()) typing(src, e, "'set' object is not subscriptable");
  if (e.index()->is(Kind::Slice)) typing(src, e, sig("getitem", {d, Type::none()}));
  if (!d.elems[0].known()) return d.elems[1];
  if (!stores_into(key, d.elems[0])) typing(src, e, sig("getitem", {d, key}));
  return d.elems[1];
}

void check_dict_store(FunctionInstance& fn, const ast::Node& stmt, ast::Node& target, const Type& value) {
  const SourceFile& src = fn.mod.source;
  const Type& d = target.value()->type;
  if (d.is_set()) typing(src, stmt, "'set' object does not support item assignment");
  if (stmt.is(Kind::AugAssign) && !d.elems[0].known()) return;
  const Type key = target.index()->type;
  if (!key.known() || !value.known()) return;
  check_key(src, *target.index(), key);
  check_value(src, stmt, value);
  widen(fn, *target.value(), key, value);
  if (d.elems[0].known() && d.elems[1].known() && !(typed_stores_into(key, d.elems[0]) && typed_stores_into(value, d.elems[1])))
    typing(src, stmt, sig("setitem", {d, key, value}));
  if (d.elems[0].known() && d.elems[1].known()) {  // stores Numba casts with a NumbaTypeSafetyWarning
    warn_unsafe_store(fn, key, d.elems[0]);
    warn_unsafe_store(fn, value, d.elems[1]);
  }
}

void check_dict_delete(FunctionInstance& fn, const ast::Node& target) {
  const SourceFile& src = fn.mod.source;
  const Type& d = target.value()->type;
  if (d.is_set()) typing(src, target, "'set' object doesn't support item deletion");
  if (d.elems[0].known() && !stores_into(target.index()->type, d.elems[0])) typing(src, target, sig("delitem", {d, target.index()->type}));
}

Type set_binop_type(FunctionInstance& fn, const ast::Node& at, ast::Op op, const Type& a, const Type& b) {
  const SourceFile& src = fn.mod.source;
  const bool algebra = op == ast::Op::BitOr || op == ast::Op::BitAnd || op == ast::Op::Sub || op == ast::Op::BitXor;
  if (algebra && a.is_set() && b.is_set()) {
    if (!a.elems[0].known()) return b;
    if (!b.elems[0].known()) return a;
    if (a.elems[0] == b.elems[0]) return Type::set(a.elems[0]);
  }
  typing(src, at, std::string("unsupported operand type(s) for ") + ast::op_spelling(op) + ": '" + a.str() + "' and '" + b.str() + "'");
}

bool dict_comparison_ok(const Type& l, ast::Op op, const Type& r) {
  // A `{}` or `set()` not typed yet: a later pass decides.
  for (const Type* t : {&l, &r})
    if ((t->is_dict() || t->is_set()) && !t->elems[0].known()) return true;
  if (op == ast::Op::In || op == ast::Op::NotIn)
    return (r.is_dict() || r.is_set()) && (!r.elems[0].known() || stores_into(l, r.elems[0]));
  if (l.is_dict() && r.is_dict()) return (op == ast::Op::Eq || op == ast::Op::NotEq) && l == r;
  if (l.is_set() && r.is_set())
    return l.elems[0] == r.elems[0] && (op == ast::Op::Eq || op == ast::Op::NotEq || op == ast::Op::Lt || op == ast::Op::LtE ||
                                         op == ast::Op::Gt || op == ast::Op::GtE);
  return false;
}

}  // namespace cujit
