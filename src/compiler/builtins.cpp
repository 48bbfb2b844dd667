// Lookups in the builtins.def table and the C++ spelling of constants (see builtins.h).
#include "compiler/builtins.h"

#include <cmath>
#include <cstdio>

#include "compiler/diagnostics.h"

namespace cujit {

namespace {
const BuiltinRow kBuiltins[] = {
#define BUILTIN(id, name, rule, spelling) {Builtin::id, name, Rule::rule, spelling},
#define CONSTANT(name, literal)
#include "compiler/builtins.def"
#undef BUILTIN
#undef CONSTANT
};

const ConstRow kConstants[] = {
#define BUILTIN(id, name, rule, spelling)
#define CONSTANT(name, literal) {name, literal},
#include "compiler/builtins.def"
#undef BUILTIN
#undef CONSTANT
};

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
  return std::string("((") + scalar_cpp(s) + ")" + body + ")";
}

const char* builtin_spelling(Builtin b) { return builtin_row(b).spelling; }

}  // namespace cujit
