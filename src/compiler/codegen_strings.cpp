// Strings in generated code (CPU only; typeinfer_strings.cpp typed them): a str is a cj::Str
// handle (prelude/host_str.h), each operation one of its functions.
#include <string>

#include "compiler/codegen.h"
#include "compiler/diagnostics.h"

namespace cujit {

namespace {
// The code points of UTF-8 text (the lexer's literals and the str globals; a lone surrogate, which
// the lexer writes as its 3 bytes, comes back as itself).
std::vector<uint32_t> code_points(const std::string& s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = (unsigned char)s[i];
    int n = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    uint32_t cp = n == 0 ? c : n == 1 ? (c & 0x1F) : n == 2 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k <= n && i + k < s.size(); ++k) cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
    out.push_back(cp);
    i += (size_t)n + 1;
  }
  return out;
}

std::string str_arg(const ast::Node& e, size_t i, const ExprCode& expr) {
  return i < e.args().size() ? expr(*e.args()[i]) : std::string();
}
// An optional integer argument as (has, value): find's start and end.
std::string opt_int(const ast::Node& e, size_t i, const ExprCode& expr) {
  if (i < e.args().size() && e.args()[i]->type.tag != Type::Tag::None) return "true, (int64_t)(" + expr(*e.args()[i]) + ")";
  return "false, (int64_t)0";
}
}  // namespace

std::string str_literal_code(const std::string& utf8) {
  const std::vector<uint32_t> cps = code_points(utf8);
  if (cps.empty()) return "cj::Str()";
  std::string d;
  for (size_t i = 0; i < cps.size(); ++i) d += (i ? "," : "") + std::to_string(cps[i]) + "u";
  return "([]() -> const cj::Str& { static const uint32_t d[] = {" + d + "}; static const cj::Str s = cj::str_lit(d, " +
         std::to_string(cps.size()) + "); return s; }())";
}

std::string str_call_code(const ast::Node& e, Builtin b, const ExprCode& expr) {
  const std::string s = str_arg(e, 0, expr);
  switch (b) {
    case Builtin::StrOf: {
      const Type& t = e.args()[0]->type;
      if (t.tag == Type::Tag::String) return s;
      if (t.is_charseq()) return "cj::charseq_str(" + s + ")";  // a record's 'U' field (host_str.h)
      if (t.scalar == Scalar::Bool) return "cj::str_from_bool(" + s + ")";
      if (is_unsigned(t.scalar)) return "cj::str_from_uint((unsigned long long)(" + s + "))";
      return "cj::str_from_int((long long)(" + s + "))";
    }
    case Builtin::Ord: return "cj::str_ord(" + s + ")";
    case Builtin::Chr: return "cj::str_chr((int64_t)(" + s + "))";
    case Builtin::Hash: return "cj::str_hash(" + s + ")";
    case Builtin::StrStartswith: case Builtin::StrEndswith:
      if (e.args()[1]->type.is_tuple()) {  // s.startswith(("a", "b"), ...): any of them, each argument evaluated once
        const std::string f = builtin_spelling(b);
        auto bound = [&](size_t i) {
          const bool has = i < e.args().size() && e.args()[i]->type.tag != Type::Tag::None;
          return std::string(has ? "true" : "false") + "; const int64_t cj_v" + std::to_string(i) + " = " +
                 (has ? "(int64_t)(" + expr(*e.args()[i]) + ")" : "(int64_t)0") + "; ";
        };
        std::string c = "([&]() { const cj::Str cj_s = " + s + "; const auto cj_p = " + expr(*e.args()[1]) +
                        "; const bool cj_h2 = " + bound(2) + "const bool cj_h3 = " + bound(3) + "return false";
        for (size_t i = 0; i < e.args()[1]->type.elems.size(); ++i)
          c += " || " + f + "(cj_s, cj_p.f" + std::to_string(i) + ", cj_h2, cj_v2, cj_h3, cj_v3)";
        return c + "; }())";
      }
      [[fallthrough]];
    case Builtin::StrFind: case Builtin::StrRfind:
    case Builtin::StrIndex: case Builtin::StrRindex: case Builtin::StrCount:
      return std::string(builtin_spelling(b)) + "(" + s + ", " + str_arg(e, 1, expr) + ", " + opt_int(e, 2, expr) + ", " +
             opt_int(e, 3, expr) + ")";
    case Builtin::StrSplit: case Builtin::StrRsplit: {
      const std::string f = b == Builtin::StrSplit ? "cj::str_split" : "cj::str_rsplit";
      const std::string maxsplit = e.args().size() > 2 ? "(int64_t)(" + expr(*e.args()[2]) + ")" : "(int64_t)-1";
      if (arg_given(e, 1)) return f + "(" + s + ", " + expr(*e.args()[1]) + ", " + maxsplit + ")";
      return f + "_ws(" + s + ", " + maxsplit + ")";  // no separator, or None: runs of whitespace
    }
    case Builtin::StrStrip: case Builtin::StrLstrip: case Builtin::StrRstrip:
      return std::string(builtin_spelling(b)) + "(" + s + (arg_given(e, 1) ? ", " + expr(*e.args()[1]) : "") + ")";
    case Builtin::StrReplace:
      return "cj::str_replace(" + s + ", " + str_arg(e, 1, expr) + ", " + str_arg(e, 2, expr) + ", " +
             (e.args().size() > 3 ? "(int64_t)(" + expr(*e.args()[3]) + ")" : "(int64_t)-1") + ")";
    case Builtin::StrZfill: case Builtin::StrCenter: case Builtin::StrLjust: case Builtin::StrRjust:
      return std::string(builtin_spelling(b)) + "(" + s + ", (int64_t)(" + str_arg(e, 1, expr) + ")" +
             (e.args().size() > 2 ? ", " + expr(*e.args()[2]) : "") + ")";
    case Builtin::StrPartition: case Builtin::StrRpartition:  // the three parts into the tuple's struct
      return "([&]() { cj::Str cj_p[3]; " + std::string(builtin_spelling(b)) + "(" + s + ", " + str_arg(e, 1, expr) +
             ", cj_p); return " + cpp_type(e.type) + "{cj_p[0], cj_p[1], cj_p[2]}; }())";
    case Builtin::StrExpandtabs:
      return "cj::str_expandtabs(" + s + ", " + (e.args().size() > 1 ? "(int64_t)(" + expr(*e.args()[1]) + ")" : "(int64_t)8") + ")";
    case Builtin::StrSplitlines:
      return "cj::str_splitlines(" + s + ", " + (e.args().size() > 1 ? "(bool)(" + expr(*e.args()[1]) + ")" : "false") + ")";
    default: {  // the str alone, or with one str: upper(), isdigit(), join(list)
      std::string c = std::string(builtin_spelling(b)) + "(";
      for (size_t i = 0; i < e.args().size(); ++i) c += (i ? ", " : "") + expr(*e.args()[i]);
      return c + ")";
    }
  }
}

std::string str_subscript_code(const ast::Node& e, const ExprCode& expr) {
  const std::string s = expr(*e.value());
  if (e.index()->is(ast::Kind::Slice))
    return "([&]() { auto cj_s = " + s + "; return cj::str_slice(cj_s, cj::slice_range(cj_s.size()" +
           slice_args(*e.index(), expr) + ")); }())";
  return "cj::str_getitem(" + s + ", (int64_t)(" + expr(*e.index()) + "))";
}

std::string str_binop_code(ast::Op op, const std::string& a, const Type& ta, const std::string& b) {
  if (op == ast::Op::Add) return "cj::str_concat(" + a + ", " + b + ")";
  if (ta.tag == Type::Tag::String) return "cj::str_repeat(" + a + ", (int64_t)(" + b + "))";
  return "cj::str_repeat(" + b + ", (int64_t)(" + a + "))";
}

std::string str_compare_code(const std::string& l, ast::Op op, const std::string& r) {
  switch (op) {
    case ast::Op::In: return "cj::str_contains(" + r + ", " + l + ")";
    case ast::Op::NotIn: return "(!cj::str_contains(" + r + ", " + l + "))";
    case ast::Op::Eq: return "cj::str_eq(" + l + ", " + r + ")";
    case ast::Op::NotEq: return "(!cj::str_eq(" + l + ", " + r + "))";
    default: return "(cj::str_cmp(" + l + ", " + r + ") " + ast::op_spelling(op) + " 0)";
  }
}

}  // namespace cujit
