// print() of containers in @jit code (codegen_values.h): the text Numba prints, built into a
// std::string by code written for the value's type. print's argument is str() of it: a str's own
// text, a dict's `{k: v}` with str() of its keys and values; inside a tuple, a list or a set each
// item is repr(): a str quoted, a dict `DictType[...]<iv=None>({k: v})` (Numba's repr of a typed
// dict), a set `{a, b}` (`set()` when empty) in the set's own order.
#include <string>

#include "compiler/codegen_values.h"

namespace cujit {

namespace {
// Statements appending str() (as_str) or repr() of `v` (a C++ expression of type t) to `o`.
std::string text_into(const std::string& v, const Type& t, bool as_str, int* tmp) {
  const std::string n = std::to_string((*tmp)++);
  if (t.tag == Type::Tag::None) return "o += \"None\";";
  if (t.tag == Type::Tag::String) return as_str ? "o += cj::str_utf8(" + v + ");" : "cj::repr_item(o, " + v + ");";
  if (t.is_tuple()) {
    const std::string x = "cj_x" + n;
    std::string s = "{ const auto& " + x + " = " + v + "; o += \"" + (t.tclass ? t.tclass->name : "") + "(\";";
    for (size_t i = 0; i < t.elems.size(); ++i) {
      if (i) s += " o += \", \";";
      if (t.tclass) s += " o += \"" + t.tclass->fields[i] + "=\";";
      s += " " + text_into(x + ".f" + std::to_string(i), t.elems[i], false, tmp);
    }
    return s + " o += \"" + (t.elems.size() == 1 && !t.tclass ? ",)" : ")") + "\"; }";
  }
  if (t.is_list()) {
    const std::string x = "cj_x" + n, i = "cj_i" + n;
    return "{ const auto& " + x + " = " + v + "; o += \"[\"; for (int64_t " + i + " = 0; " + i + " < " + x + ".size(); ++" + i +
           ") { if (" + i + ") o += \", \"; " + text_into(x + ".at(" + i + ")", t.elems[0], false, tmp) + " } o += \"]\"; }";
  }
  if (t.is_set()) {
    const std::string x = "cj_x" + n, f = "cj_f" + n;
    return "{ const auto& " + x + " = " + v + "; if (" + x + ".size() == 0) o += \"set()\"; else { o += \"{\"; bool " + f +
           " = true; " + x + ".each([&](int64_t cj_e) { if (!" + f + ") o += \", \"; " + f + " = false; " +
           text_into(x + ".keys()[cj_e]", t.elems[0], false, tmp) + " }); o += \"}\"; } }";
  }
  if (t.is_dict()) {
    const std::string x = "cj_x" + n, f = "cj_f" + n;
    std::string s = "{ const auto& " + x + " = " + v + ";";
    if (!as_str) s += " o += \"" + t.str() + "(\";";
    s += " o += \"{\"; bool " + f + " = true; " + x + ".each([&](int64_t cj_e) { if (!" + f + ") o += \", \"; " + f +
         " = false; " + text_into(x + ".keys()[cj_e]", t.elems[0], true, tmp) + " o += \": \"; " +
         text_into(x + ".vals()[cj_e]", t.elems[1], true, tmp) + " }); o += \"}\";";
    return s + (as_str ? "" : " o += \")\";") + " }";
  }
  const Scalar s = t.scalar;
  if (s == Scalar::Bool) return "o += (" + v + ") ? \"True\" : \"False\";";
  if (is_float(s)) return "o += cj::float_repr((double)(" + v + ")).s;";
  if (is_complex(s)) return "{ const auto cj_z" + n + " = " + v + "; o += cj::complex_repr((double)cj_z" + n + ".re, (double)cj_z" + n + ".im).s; }";
  if (is_signed(s)) return "o += std::to_string((long long)(" + v + "));";
  return "o += std::to_string((unsigned long long)(" + v + "));";
}
}  // namespace

bool print_needs_text(const Type& t) {
  if (t.is_list() || t.is_dict() || t.is_set()) return true;
  if (t.is_tuple())
    for (const auto& e : t.elems)
      if (e.tag == Type::Tag::String || print_needs_text(e)) return true;
  return false;
}

bool print_text_supported(const Type& t) {
  if (t.tag == Type::Tag::None || t.tag == Type::Tag::String) return true;
  if (t.is_scalar()) return !is_time(t.scalar);
  if (t.is_tuple() || t.is_list() || t.is_set() || t.is_dict()) {
    for (const auto& e : t.elems)
      if (!print_text_supported(e)) return false;
    return true;
  }
  return false;
}

std::string print_text(const std::string& code, const Type& t, int* tmp) {
  return "([&]() { std::string o; " + text_into(code, t, true, tmp) + " return o; }())";
}

}  // namespace cujit
