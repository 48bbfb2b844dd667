// Scalar tables, Numba's unification and promotion rules, and the signature parser.
#include "compiler/types.h"

#include <cctype>

#include "compiler/diagnostics.h"
#include <map>
#include <mutex>
#include <stdexcept>

namespace cujit {

namespace {
struct ScalarRow {
  const char* name;
  char kind;
  int size;
  int align;
  const char* dtype;
  const char* cpp;
  const char* aliases;
  const char* np_names;
};
const ScalarRow kScalars[] = {
#define SCALAR(e, name, kind, size, align, dtype, host, cpp, aliases, np_names) {name, kind, size, align, dtype, cpp, aliases, np_names},
#include "compiler/types.def"
#undef SCALAR
};
const ScalarRow& row(Scalar s) { return kScalars[static_cast<int>(s)]; }
}  // namespace

const char* scalar_name(Scalar s) { return row(s).name; }
const char* scalar_cpp(Scalar s) { return row(s).cpp; }
char scalar_kind(Scalar s) { return row(s).kind; }
int scalar_size(Scalar s) { return row(s).size; }
int scalar_align(Scalar s) { return row(s).align; }
const char* scalar_dtype_str(Scalar s) { return row(s).dtype; }
const char* scalar_aliases(Scalar s) { return row(s).aliases; }
bool is_bool(Scalar s) { return row(s).kind == 'b'; }
bool is_integer(Scalar s) { return row(s).kind == 'i' || row(s).kind == 'u'; }
bool is_signed(Scalar s) { return row(s).kind == 'i'; }
bool is_unsigned(Scalar s) { return row(s).kind == 'u'; }
bool is_float(Scalar s) { return row(s).kind == 'f'; }
bool is_complex(Scalar s) { return row(s).kind == 'c'; }
bool is_datetime(Scalar s) { return row(s).kind == 'M'; }
bool is_timedelta(Scalar s) { return row(s).kind == 'm'; }

namespace {
const char* const kUnitNames[kNumTimeUnits] = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", ""};
}  // namespace
const char* time_unit_name(int unit) { return kUnitNames[unit]; }
int time_unit_from_name(const std::string& name) {
  for (int u = 0; u < kNumTimeUnits; ++u)
    if (name == kUnitNames[u]) return u;
  return -1;
}
// types.def lists each kind's rows in unit order, generic last.
int time_unit(Scalar s) {
  return static_cast<int>(s) - static_cast<int>(is_datetime(s) ? Scalar::Datetime64_Y : Scalar::Timedelta64_Y);
}
Scalar time_scalar(bool datetime, int unit) {
  return static_cast<Scalar>(static_cast<int>(datetime ? Scalar::Datetime64_Y : Scalar::Timedelta64_Y) + unit);
}
int time_meet_unit(Scalar x, Scalar y) {
  const int a = time_unit(x), b = time_unit(y);
  if (a == kUnitGeneric) return b;
  if (b == kUnitGeneric) return a;
  const bool na = a <= kUnitM, nb = b <= kUnitM;  // Y and M: no fixed length
  const int finer = a > b ? a : b;
  if (is_datetime(x) && is_datetime(y)) return finer;
  if (is_timedelta(x) && is_timedelta(y)) return na == nb ? finer : -1;
  const bool nd = is_datetime(x) ? na : nb, nt = is_datetime(x) ? nb : na;  // the datetime's, the timedelta's
  return nt && !nd ? -1 : finer;
}
static_assert(int(Scalar::Datetime64) - int(Scalar::Datetime64_Y) == kUnitGeneric &&
              int(Scalar::Timedelta64) - int(Scalar::Timedelta64_Y) == kUnitGeneric, "types.def: one row per unit, in order");

namespace {
// Whether `name` is one of the space-separated words of `list`.
bool in_list(const std::string& name, const char* list) {
  for (const char* a = list; *a;) {
    const char* e = a;
    while (*e && *e != ' ') ++e;
    if (name.size() == size_t(e - a) && name.compare(0, name.size(), a, e - a) == 0) return true;
    a = *e ? e + 1 : e;
  }
  return false;
}

bool lookup(const std::string& name, Scalar* out, const char* ScalarRow::*names) {
  for (int i = 0; i < kNumScalars; ++i) {
    if (name == kScalars[i].name || in_list(name, kScalars[i].*names)) {
      *out = static_cast<Scalar>(i);
      return true;
    }
  }
  return false;
}
}  // namespace

bool scalar_from_name(const std::string& name, Scalar* out) { return lookup(name, out, &ScalarRow::aliases); }
bool scalar_from_numpy_name(const std::string& name, Scalar* out) { return lookup(name, out, &ScalarRow::np_names); }

bool Type::operator==(const Type& o) const {
  if (tag != o.tag) return false;
  switch (tag) {
    case Tag::Scalar: return scalar == o.scalar && name == o.name;  // name: an IntEnum's key
    case Tag::EnumMember: return elems == o.elems && name == o.name;
    case Tag::DType:
      return scalar == o.scalar && elems == o.elems && (record ? o.record && record->spelling == o.record->spelling : !o.record);
    case Tag::Array:
      if ((record == nullptr) != (o.record == nullptr) || (record && record->spelling != o.record->spelling)) return false;
      return scalar == o.scalar && ndim == o.ndim && layout == o.layout && readonly == o.readonly && unaligned == o.unaligned;
    case Tag::Record: return record->spelling == o.record->spelling;
    case Tag::Tuple:  // a named tuple's class is part of its type
      if ((tclass == nullptr) != (o.tclass == nullptr) || (tclass && tclass->key != o.tclass->key)) return false;
      return elems == o.elems;
    case Tag::List: return typed == o.typed && elems == o.elems;  // ListType is not a reflected list
    case Tag::Optional: case Tag::Dict: case Tag::Set: return elems == o.elems;
    case Tag::Iterator: return name == o.name && elems == o.elems;
    case Tag::CharSeq: return scalar == o.scalar && ndim == o.ndim;
    case Tag::Module: return name == o.name;
    case Tag::Function: return name == o.name && user_fn == o.user_fn;
    default: return true;
  }
}

namespace {
// Type::str() and Type::key(): `keyed` spells a named tuple by its class's key.
std::string spell(const Type& t, bool keyed) {
  using Tag = Type::Tag;
  auto sub = [keyed](const Type& e) { return spell(e, keyed); };
  switch (t.tag) {
    case Tag::Unknown: return "unknown";
    case Tag::Scalar: case Tag::EnumMember:
      if (t.name.empty()) return scalar_name(t.scalar);
      return std::string(t.tag == Tag::Scalar ? "IntEnum<" + std::string(scalar_name(t.scalar)) : "Enum<" + sub(t.elems[0])) + ">(" +
             t.name.substr(0, t.name.find('@')) + ")";
    case Tag::Array: {
      std::string s = "array(";
      s += t.record ? t.record->spelling : std::string(scalar_name(t.scalar));
      s += ", " + std::to_string(t.ndim) + "d, " + std::string(1, t.layout) + ")";
      if (t.unaligned) s = "unaligned " + s;
      if (t.readonly) s = "readonly " + s;
      return s;
    }
    case Tag::Tuple: {
      bool uni = !t.elems.empty();
      for (const auto& e : t.elems) uni = uni && e == t.elems[0];
      // A named tuple: Numba's NamedUniTuple "P(int64 x 2)" and NamedTuple "P(int64, float64)".
      const std::string head = t.tclass ? (keyed ? t.tclass->key : t.tclass->name) : uni ? "UniTuple" : "Tuple";
      if (uni) return head + "(" + sub(t.elems[0]) + " x " + std::to_string(t.elems.size()) + ")";
      std::string s = head + "(";
      for (size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + sub(t.elems[i]);
      return s + ")";
    }
    case Tag::None: return "none";
    case Tag::Void: return "void";
    case Tag::Module: return "Module(" + t.name + ")";
    case Tag::Function:  // a function argument's key ("g@<id>") in keys only: two functions of one name differ
      return "Function(" + (keyed ? t.name : t.name.substr(0, t.name.find('@'))) + ")";
    case Tag::DType:
      if (!t.elems.empty()) return "class(" + sub(t.elems[0]) + ")";
      return std::string("class(") + (t.record ? t.record->spelling : scalar_name(t.scalar)) + ")";
    case Tag::Range: return "range_state64";
    case Tag::String: return "unicode_type";
    case Tag::CharSeq:  // Numba's CharSeq / UnicodeCharSeq
      return std::string(t.scalar == Scalar::UInt32 ? "[unichr x " : "[char x ") + std::to_string(t.ndim) + "]";
    case Tag::GridGroup: return "GridGroup";
    case Tag::Record: return t.record->spelling;
    case Tag::Optional: return "OptionalType(" + sub(t.elems[0]) + ")";
    case Tag::List:
      if (t.typed) return "ListType[" + (t.elems[0].known() ? sub(t.elems[0]) : "undefined") + "]";
      return std::string(t.reflected ? "reflected " : "") + "list(" + (t.elems[0].known() ? sub(t.elems[0]) : "undefined") + ")";
    case Tag::Dict: {
      auto part = [&](const Type& e) { return e.known() ? sub(e) : std::string("undefined"); };
      return "DictType[" + part(t.elems[0]) + "," + part(t.elems[1]) + "]<iv=None>";
    }
    case Tag::Set:
      return std::string(t.reflected ? "reflected " : "") + "set(" + (t.elems[0].known() ? sub(t.elems[0]) : "undefined") + ")";
    case Tag::Iterator: {
      std::string s = t.name + "(";
      for (size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + sub(t.elems[i]);
      return s + ")";
    }
  }
  return "?";
}

}  // namespace

std::string Type::str() const { return spell(*this, false); }
std::string Type::key() const { return spell(*this, true); }

std::string RecordField::type_str() const {
  std::string t = !unsupported.empty() ? unsupported : type.str();
  if (shape.empty()) return t;
  std::string s = "nestedarray(" + t + ", (";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",))" : "))");
}

const RecordField* Record::find(const std::string& name) const {
  for (const auto& f : fields) if (f.name == name) return &f;
  return nullptr;
}

namespace {
std::mutex& records_mu() { static std::mutex mu; return mu; }
std::map<std::string, RecordPtr>& records_by_spelling() { static auto* m = new std::map<std::string, RecordPtr>(); return *m; }

// The record made (by make_record) with this spelling, else null.
RecordPtr record_by_spelling(const std::string& spelling) {
  std::lock_guard<std::mutex> g(records_mu());
  auto it = records_by_spelling().find(spelling);
  return it == records_by_spelling().end() ? nullptr : it->second;
}
}  // namespace

RecordPtr make_record(Record r) {
  std::string s = "Record(";
  for (size_t i = 0; i < r.fields.size(); ++i)
    s += (i ? "," : "") + r.fields[i].name + "[type=" + r.fields[i].type_str() + ";offset=" + std::to_string(r.fields[i].offset) + "]";
  r.spelling = s + ";" + std::to_string(r.size) + ";" + (r.aligned ? "True" : "False") + ")";
  auto rec = std::make_shared<const Record>(std::move(r));
  // Known by its spelling to the signature parser: a types.Record object writes its spelling
  // into signature strings (its dtype, which the spelling cannot rebuild, made it here first).
  std::lock_guard<std::mutex> g(records_mu());
  return records_by_spelling().emplace(rec->spelling, rec).first->second;
}

Type element_type(const Type& array) {
  if (!array.record) return Type::scalar_of(array.scalar);
  Type r = Type::record_of(array.record);
  r.readonly = array.readonly;  // an element of a read-only array: its fields are read-only too
  return r;
}

bool value_converts(const Type& from, const Type& to) {
  if (from.is_scalar() && to.is_scalar()) return true;
  if (from.is_named_tuple() || to.is_named_tuple()) return from == to;
  if (from.is_tuple() && to.is_tuple()) {
    if (from.elems.size() != to.elems.size()) return false;
    for (size_t i = 0; i < from.elems.size(); ++i)
      if (!value_converts(from.elems[i], to.elems[i])) return false;
    return true;
  }
  if (from.is_array() && to.is_array())  // codegen's conversion: a layout or read-only flag may differ
    return from.ndim == to.ndim && element_type(from) == element_type(to);
  return from == to;
}

Type iteration_item(const Type& it) {
  switch (it.tag) {
    case Type::Tag::Range: return Type::scalar_of(it.scalar);
    case Type::Tag::Array: {
      if (it.ndim == 1) return element_type(it);
      Type e = it;
      e.ndim -= 1;
      e.layout = it.layout == 'C' ? 'C' : 'A';
      return e;
    }
    case Type::Tag::List: return it.elems[0];
    case Type::Tag::Set: return it.elems[0];  // in Numba's table order (prelude/host_dict.h)
    case Type::Tag::String: return it;  // a str of one character
    case Type::Tag::Tuple: {
      for (const auto& e : it.elems) if (e != it.elems[0]) return Type::unknown();
      return it.elems.empty() ? Type::unknown() : it.elems[0];
    }
    case Type::Tag::Iterator: {
      if (it.name == "flat") return element_type(it.elems[0]);  // a.flat: each element in C order
      std::vector<Type> items;
      if (it.name == "enumerate") items.push_back(Type::scalar_of(Scalar::Int64));  // Numba's intp count
      for (const auto& e : it.elems) {
        items.push_back(iteration_item(e));
        if (!items.back().known()) return Type::unknown();
      }
      return Type::tuple(items);
    }
    default: return Type::unknown();
  }
}

Scalar complex_part(Scalar s) {
  if (s == Scalar::Complex64) return Scalar::Float32;
  if (s == Scalar::Complex128) return Scalar::Float64;
  return s;
}

// NumPy's promotion lattice for the scalars we have.
Scalar promote(Scalar a, Scalar b) {
  if (a == b) return a;
  // datetime64/timedelta64 do not promote with numbers (typeinfer_datetime.cpp has their rules);
  // callers check is_time first, and this keeps such a pair from meeting as a number.
  if (is_time(a) || is_time(b)) throw InternalError(std::string("promote(") + scalar_name(a) + ", " + scalar_name(b) + ")");
  if (a == Scalar::Bool) return b;
  if (b == Scalar::Bool) return a;
  char ka = scalar_kind(a), kb = scalar_kind(b);
  int sa = scalar_size(a), sb = scalar_size(b);
  if (ka == 'c' || kb == 'c') {
    // A complex type whose parts hold what the real promotion of the parts gives: complex64
    // with int16 or float32 stays complex64; with int32, int64 or float64 it is complex128.
    auto part = [](Scalar s) { return s == Scalar::Complex64 ? Scalar::Float32 : s == Scalar::Complex128 ? Scalar::Float64 : s; };
    return promote(part(a), part(b)) == Scalar::Float32 ? Scalar::Complex64 : Scalar::Complex128;
  }
  if (ka == 'f' || kb == 'f') {
    if (ka == 'f' && kb == 'f') return sa >= sb ? a : b;
    Scalar f = ka == 'f' ? a : b;
    Scalar i = ka == 'f' ? b : a;
    // float16 with int8 (or bool) stays float16, with int16 or uint8 gives float32, with wider
    // integers float64: numba-cuda's choice (NumPy would keep uint8 in float16).
    if (f == Scalar::Float16)
      return i == Scalar::Int8 ? f : (i == Scalar::Int16 || i == Scalar::UInt8) ? Scalar::Float32 : Scalar::Float64;
    // float32 holds integers of up to 16 bits exactly; wider ones need float64.
    if (f == Scalar::Float32 && scalar_size(i) <= 2) return Scalar::Float32;
    return Scalar::Float64;
  }
  if (ka == kb) return sa >= sb ? a : b;
  Scalar s = ka == 'i' ? a : b;
  Scalar u = ka == 'i' ? b : a;
  if (scalar_size(s) > scalar_size(u)) return s;
  switch (scalar_size(u)) {
    case 1: return Scalar::Int16;
    case 2: return Scalar::Int32;
    case 4: return Scalar::Int64;
    default: return Scalar::Float64;  // int64 with uint64: NumPy gives float64
  }
}

Scalar arith_result(Scalar a, Scalar b) {
  // Numba types integer arithmetic on machine integers: operands are widened to 64 bits first;
  // the result is signed if either side is (choose_result_int).
  auto widen = [](Scalar s) {
    if (s == Scalar::Bool) return Scalar::Int64;
    if (is_signed(s)) return Scalar::Int64;
    if (is_integer(s)) return Scalar::UInt64;
    return s;
  };
  if (is_integral(a) && is_integral(b)) {
    Scalar wa = widen(a), wb = widen(b);
    if (wa == Scalar::UInt64 && wb == Scalar::UInt64) return Scalar::UInt64;
    return Scalar::Int64;
  }
  return promote(a, b);
}

Scalar shift_result(Scalar a) {
  // Numba's shifts keep the left operand's signedness, widened to 64 bits; the count's type does
  // not matter (uint64 >> int64 is a logical shift giving uint64).
  return is_integer(a) && !is_signed(a) ? Scalar::UInt64 : Scalar::Int64;
}

Type unify(const Type& a, const Type& b) {
  if (!a.known()) return b;
  if (!b.known()) return a;
  if (a == b) return a;
  // None with a value, or a value that may be None with another: an optional value (Numba).
  auto holds_value = [](const Type& t) { return t.is_scalar() || t.is_tuple() || t.is_array(); };
  if (a.is_optional() || b.is_optional() || a.tag == Type::Tag::None || b.tag == Type::Tag::None) {
    const Type& x = a.is_optional() ? a.elems[0] : a;
    const Type& y = b.is_optional() ? b.elems[0] : b;
    if (x.tag == Type::Tag::None) return holds_value(y) ? Type::optional(y) : Type::unknown();
    if (y.tag == Type::Tag::None) return holds_value(x) ? Type::optional(x) : Type::unknown();
    Type u = unify(x, y);
    return u.known() ? Type::optional(u) : u;
  }
  // Numba unifies numbers as NumPy promotes them: bool and int8 give int8, int8 and uint8 give
  // int16, and int64 (or an int literal) with uint64 gives float64.
  if (a.is_scalar() && b.is_scalar()) {
    if (is_time(a.scalar) || is_time(b.scalar)) return Type::unknown();  // Numba: no unification across units
    return Type::scalar_of(promote(a.scalar, b.scalar));
  }
  // Named tuples unify only with their very type (Numba: "Cannot unify P(int64 x 2) and
  // P(float64, int64)"), and never with a plain tuple.
  if (a.is_named_tuple() || b.is_named_tuple()) return Type::unknown();
  if (a.is_tuple() && b.is_tuple() && a.elems.size() == b.elems.size()) {
    std::vector<Type> e;
    for (size_t i = 0; i < a.elems.size(); ++i) {
      Type u = unify(a.elems[i], b.elems[i]);
      if (!u.known()) return Type::unknown();
      e.push_back(u);
    }
    return Type::tuple(std::move(e));
  }
  // A list whose item type is not known yet (an empty literal) takes the other's; lists of
  // different item types do not unify (Numba neither).
  if ((a.is_list() && b.is_list()) || (a.is_set() && b.is_set())) {
    if (a.is_list() && a.typed != b.typed) return Type::unknown();  // a ListType is no reflected list
    if (!a.elems[0].known()) return b;
    if (!b.elems[0].known()) return a;
    return Type::unknown();
  }
  if (a.is_dict() && b.is_dict()) {  // likewise a dict of unknown key and value (`{}`)
    if (!a.elems[0].known()) return b;
    if (!b.elems[0].known()) return a;
    return Type::unknown();
  }
  if (a.is_array() && b.is_array() && a.scalar == b.scalar && a.ndim == b.ndim &&
      element_type(a) == element_type(b)) {
    Type t = a;
    t.unaligned = a.unaligned || b.unaligned;
    if (a.layout != b.layout) t.layout = 'A';
    t.readonly = a.readonly || b.readonly;
    return t;
  }
  return Type::unknown();
}

// ---- Signature parser -------------------------------------------------------------------------
// sig   := [type] '(' [type (',' type)*] ')'
// type  := name ['[' dim (',' dim)* ']']
//        | 'UniTuple' '(' type (',' | 'x') int ')'            Numba's spelling; cujit's str()
//        | 'Tuple' '(' '(' [type (',' type)* [',']] ')' ')'    Numba's spelling
//        | 'Tuple' '(' type (',' type)* ')'                    cujit's str() (Numba's print)
// dim   := ':' | '::1' | ':' ':' '1'
//        | 'NamedTuple' '(' str ',' str ',' '(' str* ')' ',' type ')'   a named tuple: its
//          class's key and name, its fields, and the tuple of its items (what types.NamedTuple
//          objects write: no string a user writes can name a class)
//        | 'array' '(' type ',' int 'd' ',' ('C'|'F'|'A') ')'   Numba's str(); maybe after
//          'readonly' and 'unaligned'
//        | 'Record' '(' ... ')'        Numba's str() of a Record made from a dtype (record_by_spelling)
//        | ('IntEnum' | 'Enum') '<' type '>' '(' key ')'   an enum member type (key: its class's)
//        | ('NPDatetime' | 'NPTimedelta') '(' str ')'        Numba's spelling of a unit's type
//        | 'unicode_type' | 'ListType' '[' type ']' | 'DictType' '[' type ',' type ']' ['<iv=None>']
namespace {
struct SigParser {
  const std::string& s;
  size_t p = 0;
  void ws() { while (p < s.size() && std::isspace((unsigned char)s[p])) ++p; }
  [[noreturn]] void fail(const std::string& why) {
    throw std::invalid_argument("bad type signature '" + s + "': " + why);
  }
  bool eat(char c) { ws(); if (p < s.size() && s[p] == c) { ++p; return true; } return false; }
  std::string ident() {
    ws();
    size_t b = p;
    while (p < s.size() && (std::isalnum((unsigned char)s[p]) || s[p] == '_' || s[p] == '.')) ++p;
    return s.substr(b, p - b);
  }
  Type type() {
    std::string n = ident();
    if (n.empty()) fail("expected a type name at column " + std::to_string(p));
    auto dot = n.rfind('.');
    if (dot != std::string::npos) n = n.substr(dot + 1);  // "types.float32", "np.float32"
    if (n == "void" || n == "none") return Type::void_();
    if (n == "UniTuple" || n == "Tuple") return tuple(n == "UniTuple");
    if (n == "NamedTuple") return named_tuple();
    if (n == "Record") return Type::record_of(record());
    if (n == "IntEnum" || n == "Enum") return enum_member(n == "IntEnum");
    if (n == "NPDatetime" || n == "NPTimedelta") {  // Numba's NPDatetime('s') / NPTimedelta('') spelling
      if (!eat('(')) fail("expected '(' after " + n);
      const std::string u = quoted();
      const int unit = time_unit_from_name(u);
      if (unit < 0) fail("unknown " + n + " unit '" + u + "'");
      if (!eat(')')) fail("expected ')' after the unit of " + n);
      return Type::scalar_of(time_scalar(n == "NPDatetime", unit));
    }
    if (n == "array" || n == "readonly" || n == "unaligned") return array(n);
    if (n == "unicode_type") return Type::string();
    if (n == "ListType" || n == "DictType") {  // a typed.List's / typed.Dict's type, as Numba spells it
      if (!eat('[')) fail("expected '[' after " + n);
      Type a = type(), b;
      if (n == "DictType") {
        if (!eat(',')) fail("expected ',' between the key and value types of DictType[...]");
        b = type();
      }
      if (!eat(']')) fail("expected ']' to close " + n + "[...]");
      if (n == "ListType") return Type::typed_list(std::move(a));
      if (s.compare(p, 9, "<iv=None>") == 0) p += 9;
      return Type::dict(std::move(a), std::move(b));
    }
    Scalar sc;
    if (!scalar_from_name(n, &sc)) fail("unknown type '" + n + "'");
    if (is_time(sc)) {  // datetime64[D], timedelta64[ns]: the unit, then maybe array dimensions
      size_t save = p;
      if (eat('[')) {
        std::string u = ident();
        if (u.empty()) p = save;  // "datetime64[:]": an array of the generic unit
        else {
          int unit = time_unit_from_name(u);
          if (unit < 0 || unit == kUnitGeneric) fail("unknown " + n + " unit '" + u + "'");
          if (!eat(']')) fail("expected ']' after the unit");
          sc = time_scalar(is_datetime(sc), unit);
        }
      }
    }
    if (!eat('[')) return Type::scalar_of(sc);
    int ndim = 0, contig_at = -1;
    for (;;) {
      if (!eat(':')) fail("expected ':' in the array dimensions");
      if (eat(':')) {
        ws();
        if (p < s.size() && s[p] == '1') { ++p; contig_at = ndim; }
        else fail("expected '1' after '::'");
      }
      ++ndim;
      if (eat(']')) break;
      if (!eat(',')) fail("expected ',' or ']' in the array dimensions");
    }
    char layout = 'A';
    if (contig_at == ndim - 1) layout = 'C';
    else if (contig_at == 0) layout = 'F';
    else if (contig_at >= 0) fail("'::1' must be on the first or last dimension");
    return Type::array(sc, ndim, layout);
  }
  // After the name Record: Numba's spelling of a structured dtype (what types.Record objects
  // write), found among the records made so far; no string a user writes can describe a dtype.
  RecordPtr record() {
    const size_t b = p - 6;
    if (!eat('(')) fail("expected '(' after Record");
    for (int depth = 1; depth > 0; ++p) {
      if (p >= s.size()) fail("unterminated Record(...)");
      depth += s[p] == '(' ? 1 : s[p] == ')' ? -1 : 0;
    }
    RecordPtr r = record_by_spelling(s.substr(b, p - b));
    if (!r) fail("unknown record type '" + s.substr(b, p - b) + "' (a record type is made from its NumPy dtype: "
                 "numba.from_dtype(dtype))");
    return r;
  }
  // After the name IntEnum or Enum: "IntEnum<int64>(KEY)", Numba's spelling of
  // types.IntEnumMember(cls, int64) with the class's key (what cujit's type objects write, which
  // also registers the class for results) in place of its name.
  Type enum_member(bool int_enum) {
    if (!eat('<')) fail("expected '<' after " + std::string(int_enum ? "IntEnum" : "Enum"));
    Type value = type();
    if (!eat('>') || !eat('(')) fail("expected '>(class)' after the value type of an enum member");
    size_t e = s.find(')', p);
    if (e == std::string::npos || e == p) fail("expected the enum class in an enum member type");
    std::string key = s.substr(p, e - p);
    p = e + 1;
    if (int_enum && !value.is_scalar()) fail("an IntEnum member's value type must be an integer type");
    return Type::enum_member(std::move(key), value, int_enum);
  }
  // Numba's spelling of an array type, str(types.float32[:, ::1]) = "array(float32, 2d, C)",
  // maybe after "readonly " and "unaligned " (after `word`, the first of them).
  Type array(std::string word) {
    bool readonly = false, unaligned = false;
    while (word != "array") {
      if (word == "readonly") readonly = true;
      else if (word == "unaligned") unaligned = true;
      else fail("expected 'array' after 'readonly' or 'unaligned'");
      word = ident();
    }
    if (!eat('(')) fail("expected '(' after array");
    Type elem = type();
    if (!eat(',')) fail("expected ', Nd' after the dtype of array(...)");
    ws();
    size_t b = p;
    while (p < s.size() && std::isdigit((unsigned char)s[p])) ++p;
    if (b == p || !eat('d')) fail("expected the dimensions of array(dtype, Nd, layout) as '1d', '2d', ...");
    const int ndim = std::stoi(s.substr(b, p - 1 - b));
    std::string layout = (eat(',') ? ident() : "");
    if (layout != "C" && layout != "F" && layout != "A") fail("expected the layout C, F or A in array(dtype, Nd, layout)");
    if (!eat(')')) fail("expected ')' to close array(...)");
    Type t;
    if (elem.tag == Type::Tag::Record) t = Type::record_array(elem.record, ndim, layout[0]);
    else if (elem.tag == Type::Tag::Scalar) t = Type::array(elem.scalar, ndim, layout[0]);
    else fail("an array's dtype must be a scalar or a record type");
    t.readonly = readonly;
    t.unaligned = unaligned;
    return t;
  }
  std::string quoted() {
    ws();
    if (p >= s.size() || s[p] != '\'') fail("expected a quoted name at column " + std::to_string(p));
    size_t e = s.find('\'', p + 1);
    if (e == std::string::npos) fail("unterminated quoted name");
    std::string q = s.substr(p + 1, e - p - 1);
    p = e + 1;
    return q;
  }
  // After the name NamedTuple.
  Type named_tuple() {
    auto c = std::make_shared<TupleClass>();
    if (!eat('(')) fail("expected '(' after NamedTuple");
    c->key = quoted();
    if (!eat(',')) fail("expected ',' after the class key of NamedTuple");
    c->name = quoted();
    if (!eat(',') || !eat('(')) fail("expected the fields of NamedTuple");
    while (!eat(')')) {
      c->fields.push_back(quoted());
      eat(',');
    }
    if (!eat(',')) fail("expected the item types of NamedTuple");
    Type items = type();
    if (!eat(')')) fail("expected ')' to close NamedTuple");
    if (!items.is_tuple() || items.elems.size() != c->fields.size()) fail("a NamedTuple needs one item type per field");
    items.tclass = std::move(c);
    return items;
  }
  // After the name UniTuple or Tuple.
  Type tuple(bool uni) {
    if (!eat('(')) fail("expected '(' after " + std::string(uni ? "UniTuple" : "Tuple"));
    std::vector<Type> items;
    if (uni) {
      Type item = type();
      ws();
      if (!eat(',') && !(p < s.size() && s[p] == 'x' && (++p, true))) fail("expected ', count' in UniTuple(type, count)");
      ws();
      size_t b = p;
      while (p < s.size() && std::isdigit((unsigned char)s[p])) ++p;
      if (b == p) fail("expected the count of UniTuple(type, count)");
      items.assign(std::stoul(s.substr(b, p - b)), item);
    } else if (eat('(')) {  // Tuple((a, b)): the items as a Python tuple
      while (!eat(')')) {
        items.push_back(type());
        if (!eat(',') && !(ws(), p < s.size() && s[p] == ')')) fail("expected ',' or ')' between the items of Tuple((...))");
      }
    } else {
      for (;;) {
        items.push_back(type());
        ws();
        if (p < s.size() && s[p] == ')') break;
        if (!eat(',')) fail("expected ',' or ')' between the items of Tuple(...)");
      }
    }
    if (!eat(')')) fail("expected ')' to close the tuple type");
    for (const auto& t : items)
      if (t.tag == Type::Tag::Void) fail("a tuple item cannot be void");
    return Type::tuple(std::move(items));
  }
};
}  // namespace

Type parse_type(const std::string& text) {
  SigParser sp{text};
  Type t = sp.type();
  sp.ws();
  if (sp.p != text.size()) sp.fail("unexpected text after the type");
  return t;
}

Signature parse_signature(const std::string& text) {
  SigParser sp{text};
  Signature sig;
  sp.ws();
  if (!sp.eat('(')) {
    sig.ret = sp.type();
    if (!sp.eat('(')) sp.fail("expected '(' after the return type");
  }
  if (!sp.eat(')')) {
    for (;;) {
      sig.args.push_back(sp.type());
      if (sp.eat(')')) break;
      if (!sp.eat(',')) sp.fail("expected ',' or ')' between argument types");
    }
  }
  sp.ws();
  if (sp.p != text.size()) sp.fail("unexpected text after ')'");
  return sig;
}

std::string Signature::str() const {
  std::string r = ret.known() ? ret.str() : "";
  r += "(";
  for (size_t i = 0; i < args.size(); ++i) r += (i ? ", " : "") + args[i].str();
  return r + ")";
}

}  // namespace cujit
