// Lookups in the builtins.def table and the C++ spelling of constants (see builtins.h).
#include "compiler/builtins.h"

#include <cmath>
#include <cstdio>

#include "compiler/diagnostics.h"
#include "compiler/overloads.h"

namespace cujit {

namespace {
const BuiltinRow kBuiltins[] = {
#define BUILTIN(id, name, rule, spelling) {Builtin::id, name, Rule::rule, spelling},
#define UFUNC(id, name, loops, spelling) {Builtin::id, name, Rule::Ufunc, spelling},
#define CONSTANT(name, literal)
#include "compiler/builtins.def"
#undef BUILTIN
#undef UFUNC
#undef CONSTANT
};

const ConstRow kConstants[] = {
#define BUILTIN(id, name, rule, spelling)
#define UFUNC(id, name, loops, spelling)
#define CONSTANT(name, literal) {name, literal},
#include "compiler/builtins.def"
#undef BUILTIN
#undef UFUNC
#undef CONSTANT
};

struct UfuncRow {
  Builtin id;
  const char* loops;  // NumPy's type characters: "ff->f dd->d" (t for bool)
};
const UfuncRow kUfuncs[] = {
#define BUILTIN(id, name, rule, spelling)
#define UFUNC(id, name, loops, spelling) {Builtin::id, loops},
#define CONSTANT(name, literal)
#include "compiler/builtins.def"
#undef BUILTIN
#undef UFUNC
#undef CONSTANT
};

// A NumPy type character as the scalar of that dtype (found by its dtype string in types.def,
// so a type added there brings its loops in); false where the table has none.
bool scalar_of_char(char c, Scalar* out) {
  static const struct { char c; const char* dtype; } chars[] = {
      {'t', "|b1"}, {'b', "|i1"}, {'B', "|u1"}, {'h', "<i2"}, {'H', "<u2"}, {'i', "<i4"}, {'I', "<u4"},
      {'l', "<i8"}, {'L', "<u8"}, {'f', "<f4"}, {'d', "<f8"}, {'F', "<c8"}, {'D', "<c16"}};
  static const Scalar all[] = {
#define SCALAR(e, name, kind, size, align, dtype, host, cpp, aliases, np_names) Scalar::e,
#include "compiler/types.def"
#undef SCALAR
  };
  for (const auto& ch : chars)
    if (ch.c == c)
      for (Scalar s : all)
        if (std::string(scalar_dtype_str(s)) == ch.dtype) { *out = s; return true; }
  return false;
}

std::vector<UfuncLoop> parse_loops(const char* text) {
  std::vector<UfuncLoop> loops;
  std::string t = text;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i] == ' ') ++i;
    size_t j = t.find(' ', i);
    if (j == std::string::npos) j = t.size();
    const std::string sig = t.substr(i, j - i);
    i = j;
    if (sig.empty()) continue;
    const size_t arrow = sig.find("->");
    if (arrow == std::string::npos) throw InternalError("builtins.def: a ufunc loop without ->: " + sig);
    UfuncLoop l;
    bool known = true;
    for (size_t k = 0; k < sig.size(); ++k) {
      if (k == arrow || k == arrow + 1) continue;
      Scalar s;
      if (!scalar_of_char(sig[k], &s)) { known = false; break; }
      (k < arrow ? l.in : l.out).push_back(s);
    }
    if (known) loops.push_back(std::move(l));
  }
  return loops;
}

// NumPy's kinds in the order same_kind casting may go: bool, unsigned, signed, float, complex.
int kind_rank(Scalar s) {
  switch (scalar_kind(s)) {
    case 'b': return 0;
    case 'u': return 1;
    case 'i': return 2;
    case 'f': return 3;
    default: return 4;
  }
}

}  // namespace

const BuiltinRow* find_builtin(const std::string& name) {
  for (const auto& b : kBuiltins)
    if (name == b.name) return &b;
  return nullptr;
}
const BuiltinRow& builtin_row(Builtin id) {
  for (const auto& b : kBuiltins)
    if (b.id == id) return b;
  throw InternalError("unknown builtin id");
}
const std::vector<UfuncLoop>& ufunc_loops(Builtin id) {
  static const std::vector<std::vector<UfuncLoop>> parsed = [] {
    std::vector<std::vector<UfuncLoop>> v;
    for (const auto& u : kUfuncs) v.push_back(parse_loops(u.loops));
    return v;
  }();
  static const std::vector<UfuncLoop> none;
  for (size_t i = 0; i < sizeof kUfuncs / sizeof kUfuncs[0]; ++i)
    if (kUfuncs[i].id == id) return parsed[i];
  return none;
}

bool can_cast_safe(Scalar from, Scalar to) {
  if (from == to) return true;
  // datetime64/timedelta64 cast to nothing else and nothing to them: the runtime has no
  // conversion between them and numbers (or another unit), so no loop is chosen by a cast.
  if (is_time(from) || is_time(to)) return false;
  if (from == Scalar::Bool) return true;
  const char fk = scalar_kind(from), tk = scalar_kind(to);
  const int fs = scalar_size(from), ts = tk == 'c' ? scalar_size(to) / 2 : scalar_size(to);
  switch (fk) {
    case 'u':
      if (tk == 'u') return ts >= fs;
      if (tk == 'i') return ts > fs;
      return (tk == 'f' || tk == 'c') && (ts > fs || ts == 8);
    case 'i':
      if (tk == 'i') return ts >= fs;
      return (tk == 'f' || tk == 'c') && (ts > fs || ts == 8);
    case 'f':
      return (tk == 'f' || tk == 'c') && ts >= fs;
    case 'c':
      return tk == 'c' && ts >= scalar_size(from) / 2;
    default: return false;
  }
}

bool can_cast_same_kind(Scalar from, Scalar to) {
  if (is_time(from) || is_time(to)) return from == to;
  return can_cast_safe(from, to) || kind_rank(from) <= kind_rank(to);
}

const ConstRow* find_constant(const std::string& name) {
  for (const auto& c : kConstants)
    if (name == c.name) return &c;
  return nullptr;
}

std::string float64_literal(double v) {
  if (std::isnan(v)) return "CJ_NAN";
  if (std::isinf(v)) return v > 0 ? "CJ_INF" : "(-CJ_INF)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return v < 0 ? "(" + s + ")" : s;
}

std::string int_literal(Scalar s, int64_t i, uint64_t u) {
  std::string body;
  if (s == Scalar::UInt64) body = std::to_string(u) + "ULL";
  else if (i == INT64_MIN) body = "(-9223372036854775807LL - 1)";
  else body = std::to_string(i) + "LL";
  if (is_time(s)) return std::string(scalar_cpp(s)) + "{" + body + "}";  // a count of units (NaT: INT64_MIN)
  return std::string("((") + scalar_cpp(s) + ")" + body + ")";
}

const char* builtin_spelling(Builtin b) { return builtin_row(b).spelling; }

MathCase math_binary_case(Builtin b, Scalar x, Scalar y, bool gpu) {
  using S = Scalar;
  struct Case { S x, y, r; };
  static const std::vector<Case> floats = {{S::Float32, S::Float32, S::Float32}, {S::Float64, S::Float64, S::Float64}};
  static const std::vector<Case> ints_then_floats = {{S::Int64, S::Int64, S::Float64}, {S::UInt64, S::UInt64, S::Float64},
                                                     floats[0], floats[1]};
  static const std::vector<Case> pow_cpu = {{S::Float64, S::Int64, S::Float64}, {S::Float64, S::UInt64, S::Float64},
                                            floats[0], floats[1]};
  static const std::vector<Case> pow_gpu = {floats[0], floats[1], {S::Float32, S::Int32, S::Float32},
                                            {S::Float64, S::Int32, S::Float64}};
  const std::vector<Case>& cases = b == Builtin::MathPow ? (gpu ? pow_gpu : pow_cpu)
                                   : (b == Builtin::MathAtan2 || b == Builtin::MathHypot) ? ints_then_floats
                                                                                          : floats;
  std::vector<std::vector<Type>> declared;
  for (const Case& c : cases) declared.push_back({Type::scalar_of(c.x), Type::scalar_of(c.y)});
  const OverloadChoice choice = choose_overload(declared, {Type::scalar_of(x), Type::scalar_of(y)});
  MathCase out;
  if (choice.best < 0) return out;
  const Case& c = cases[choice.best];
  out.ok = true;
  out.param_types[0] = c.x;
  out.param_types[1] = c.y;
  out.ret = c.r;
  return out;
}

}  // namespace cujit
