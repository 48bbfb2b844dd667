// Tuples as values in generated code (codegen_values.h): comparisons (==, !=, and Python's
// lexicographic <, <=, >, >=), `x in t`, constant slices, calls of named tuple classes and
// print(). Tuples are the structs
// codegen.cpp defines (fields f0, f1, ...); each operand is evaluated once, into a temporary.
#include <algorithm>
#include <vector>

#include "compiler/codegen.h"
#include "compiler/codegen_values.h"
#include "compiler/diagnostics.h"

namespace cujit {

namespace {
std::string field(const std::string& t, size_t i) { return t + ".f" + std::to_string(i); }

std::string temp(const ValueContext& cx, const char* stem) { return stem + std::to_string((*cx.tmp)++); }

// x == y for values already held in names (their fields may be read many times).
std::string equal(const std::string& x, const Type& xt, const std::string& y, const Type& yt, const ValueContext& cx) {
  if (xt.is_tuple() && yt.is_tuple()) {
    if (xt.elems.size() != yt.elems.size()) return "false";  // Python: tuples of other lengths differ
    std::string s = "true";
    for (size_t i = 0; i < xt.elems.size(); ++i)
      s = "(" + s + " && " + equal(field(x, i), xt.elems[i], field(y, i), yt.elems[i], cx) + ")";
    return s;
  }
  if (xt.tag == Type::Tag::String && yt.tag == Type::Tag::String) return str_compare_code(x, ast::Op::Eq, y);
  if (!xt.is_scalar() || !yt.is_scalar()) return "false";  // typing allows only these pairs
  Type ct = Type::scalar_of(promote(xt.scalar, yt.scalar));  // as emit_compare: NumPy's common type
  return "(" + cx.convert(x, xt, ct) + " == " + cx.convert(y, yt, ct) + ")";
}

// x op y for an ordering op, Python's rule: the first items that differ decide, else the lengths.
std::string order(const std::string& x, const Type& xt, ast::Op op, const std::string& y, const Type& yt,
                  const ValueContext& cx) {
  if (xt.tag == Type::Tag::String && yt.tag == Type::Tag::String) return str_compare_code(x, op, y);
  if (xt.is_scalar() && yt.is_scalar()) {
    Type ct = Type::scalar_of(promote(xt.scalar, yt.scalar));
    return "(" + cx.convert(x, xt, ct) + " " + ast::op_spelling(op) + " " + cx.convert(y, yt, ct) + ")";
  }
  const size_t n = xt.elems.size(), m = yt.elems.size();
  std::string s = "(" + std::to_string(n) + " " + ast::op_spelling(op) + " " + std::to_string(m) + ")";
  for (size_t i = std::min(n, m); i-- > 0;) {
    const std::string a = field(x, i), b = field(y, i);
    s = "(!" + equal(a, xt.elems[i], b, yt.elems[i], cx) + " ? " + order(a, xt.elems[i], op, b, yt.elems[i], cx) + " : " +
        s + ")";
  }
  return s;
}
}  // namespace

std::string emit_tuple_compare(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt,
                               const ValueContext& cx) {
  const std::string x = temp(cx, "cj_tl"), y = temp(cx, "cj_tr");
  std::string body;
  if (op == ast::Op::In || op == ast::Op::NotIn) {  // l in r: r is the tuple
    body = "false";
    for (size_t i = 0; i < rt.elems.size(); ++i) body = "(" + body + " || " + equal(x, lt, field(y, i), rt.elems[i], cx) + ")";
    if (op == ast::Op::NotIn) body = "!" + body;
  } else if (op == ast::Op::Eq || op == ast::Op::NotEq) {
    body = (op == ast::Op::NotEq ? "!" : "") + equal(x, lt, y, rt, cx);
  } else {
    body = order(x, lt, op, y, rt, cx);
  }
  return "([&]() { auto " + x + " = " + l + "; auto " + y + " = " + r + "; return (bool)(" + body + "); }())";
}

std::string emit_tuple_slice(const std::string& code, const Type& from, const Type& to, const std::vector<int64_t>& picks,
                             const ValueContext& cx) {
  const std::string t = temp(cx, "cj_ts");
  std::string s = "([&]() { auto " + t + " = " + code + "; (void)" + t + "; return " + cx.type(to) + "{";
  for (size_t i = 0; i < picks.size(); ++i) s += (i ? ", " : "") + field(t, (size_t)picks[i]);
  (void)from;
  return s + "}; }())";
}

std::string emit_named_tuple_call(const ast::Node& e, const std::vector<std::string>& from, const ValueContext& cx) {
  // Positional arguments, then keywords, each into a temporary in that order; then the struct.
  std::string s = "([&]() { ";
  std::vector<std::string> pos, kw;
  for (const auto& a : e.args()) {
    pos.push_back(temp(cx, "cj_na"));
    s += "auto " + pos.back() + " = " + cx.expr(*a) + "; ";
  }
  for (const auto& k : e.keywords) {
    kw.push_back(temp(cx, "cj_nk"));
    s += "auto " + kw.back() + " = " + cx.expr(*k.value) + "; ";
  }
  s += "return " + cx.type(e.type) + "{";
  for (size_t i = 0; i < from.size(); ++i) {
    const std::string& f = from[i];
    s += i ? ", " : "";
    if (!f.empty() && f[0] == '@') s += pos[std::stoul(f.substr(1))];
    else if (!f.empty() && f[0] == '=') s += kw[std::stoul(f.substr(1))];
    else s += f;  // a default's literal
  }
  return s + "}; }())";
}

void print_piece(const std::string& code, const Type& t, std::string* fmt, std::string* args) {
  if (t.is_tuple()) {  // Python's repr: (a, b), and (a,) for one item; a named tuple's P(x=a, y=b)
    *fmt += t.tclass ? t.tclass->name + "(" : "(";
    for (size_t i = 0; i < t.elems.size(); ++i) {
      if (i) *fmt += ", ";
      if (t.tclass) *fmt += t.tclass->fields[i] + "=";
      print_piece(field(code, i), t.elems[i], fmt, args);
    }
    *fmt += t.elems.size() == 1 && !t.tclass ? ",)" : ")";
    return;
  }
  if (t.tag == Type::Tag::None) { *fmt += "None"; return; }
  const Scalar s = t.scalar;
  if (s == Scalar::Bool) { *fmt += "%s"; *args += ", (" + code + ") ? \"True\" : \"False\""; }
  else if (is_float(s)) { *fmt += "%s"; *args += ", cj::float_repr((double)(" + code + ")).s"; }  // Python's repr
  else if (is_complex(s)) {  // Python's repr of the complex (typing allows it in @jit code only, as Numba)
    const std::string z = "(" + code + ")";
    *fmt += "%s";
    *args += ", cj::complex_repr((double)" + z + ".re, (double)" + z + ".im).s";
  }
  else if (is_signed(s)) { *fmt += "%lld"; *args += ", (long long)(" + code + ")"; }
  else { *fmt += "%llu"; *args += ", (unsigned long long)(" + code + ")"; }
}

}  // namespace cujit
