// Operators on values (codegen_values.h): Numba's rules for unary operators on integers,
// Python's and/or, comparisons in NumPy's common type, and optional values.
#include "compiler/codegen_values.h"

#include <cstdint>
#include <vector>

#include "compiler/builtins.h"
#include "compiler/codegen.h"
#include "compiler/typeinfer_rewrites.h"
#include "compiler/diagnostics.h"

namespace cujit {

std::string emit_unary(const ast::Node& e, const ValueContext& cx) {
  std::string a = cx.expr(*e.operand());
  switch (e.op) {
    case ast::Op::Not:
      if (e.operand()->type.tag == Type::Tag::None) return "true";
      return "(!" + cx.truth(*e.operand()) + ")";
    case ast::Op::USub:
      if (e.operand()->is(ast::Kind::Constant) && e.operand()->cval.big_int) return int_literal(Scalar::Int64, INT64_MIN, 0);
      if (e.operand()->type.is_scalar() && is_integer(e.operand()->type.scalar)) {
        // Numba negates in the operand's own width, then widens: -uint8(200) is 56 (as uint64),
        // -int8(-128) is -128. Unsigned arithmetic: negating INT64_MIN is no UB here.
        std::string T = scalar_cpp(e.operand()->type.scalar);
        return "((" + cx.type(e.type) + ")((" + T + ")(0ULL - (uint64_t)(" + a + "))))";
      }
      if (e.operand()->type.is_scalar() && is_timedelta(e.operand()->type.scalar)) return "cj::time_neg(" + a + ")";  // NaT stays
      return "(-" + cx.convert(a, e.operand()->type, e.type) + ")";
    case ast::Op::UAdd: return cx.convert(a, e.operand()->type, e.type);
    case ast::Op::Invert:
      if (e.type.is_scalar(Scalar::Bool)) return "(!" + a + ")";
      // In the operand's own width too: ~uint8(0) is 255.
      return "((" + cx.type(e.type) + ")((" + std::string(scalar_cpp(e.operand()->type.scalar)) + ")(~(" + a + "))))";
    default: throw InternalError("codegen: unary operator");
  }
}

std::string emit_boolop(const ast::Node& e, const ValueContext& cx) {
  // Python returns one of the operands: a and b == (b if a else a). With booleans this is
  // plain && / ||; otherwise each operand is converted to the unified type.
  bool all_bool = e.type.is_scalar(Scalar::Bool);
  std::string acc = cx.convert(cx.expr(*e.values().back()), e.values().back()->type, e.type);
  for (int i = (int)e.values().size() - 2; i >= 0; --i) {
    const ast::Node& v = *e.values()[i];
    if (all_bool) {
      acc = "(" + cx.expr(v) + (e.op == ast::Op::And ? " && " : " || ") + acc + ")";
    } else {
      std::string t = "cj_b" + std::to_string((*cx.tmp)++);
      std::string cv = cx.convert(t, v.type, e.type);
      acc = "([&]() { auto " + t + " = " + cx.expr(v) + "; return ((" + t + ") != 0) ? " +
            (e.op == ast::Op::And ? acc + " : " + cv : cv + " : " + acc) + "; }())";
    }
  }
  return acc;
}

std::string emit_compare(const ast::Node& e, const ValueContext& cx) {
  std::vector<std::string> parts;
  // A chain (a < b < c) evaluates each operand once, and c only if a < b holds: each operand is
  // bound to a temporary before the comparison that first reads it (`binds[i]`, run in order).
  const bool chain = e.comparators().size() > 1;
  std::vector<std::string> binds;
  auto once = [&](const ast::Node& x, std::string* bind) {
    std::string code = cx.expr(x);
    if (!chain) return code;
    const std::string t = "cj_cc" + std::to_string((*cx.tmp)++);
    *bind += "auto " + t + " = " + code + "; ";
    return t;
  };
  std::string first_bind;
  std::string l = once(*e.lhs(), &first_bind);
  Type lt = e.lhs()->type;
  for (size_t i = 0; i < e.comparators().size(); ++i) {
    std::string bind = i == 0 ? first_bind : "";
    std::string r = once(*e.comparators()[i], &bind);
    binds.push_back(bind);
    Type rt = e.comparators()[i]->type;
    ast::Op op = e.ops[i];
    int fixed = fixed_equality(lt, op, rt);
    if (fixed < 0) fixed = fixed_contains(lt, op, rt);
    if (fixed >= 0) {  // typeinfer_compare.cpp: known from the types; the operands still run
      std::string run;
      if (lt.tag != Type::Tag::None) run += "(void)(" + l + "), ";
      if (rt.tag != Type::Tag::None) run += "(void)(" + r + "), ";
      parts.push_back("(" + run + (fixed ? "true" : "false") + ")");
    } else if (none_against_optional(lt, op, rt)) {  // as `is` / `is not`
      std::string o = lt.is_optional() ? l : r;
      parts.push_back(std::string(op == ast::Op::Eq ? "(!" : "(") + "(" + o + ").valid)");
    } else if (op == ast::Op::Is || op == ast::Op::IsNot) {
      if (lt.is_enum() && rt.is_enum()) {  // members are singletons: one class and one value
        const bool is = op == ast::Op::Is;
        if (lt.name != rt.name) parts.push_back(is ? "false" : "true");
        else if (lt.tag == Type::Tag::EnumMember && lt.elems[0].is_tuple())  // a tuple value
          parts.push_back(emit_tuple_compare(l, lt.elems[0], is ? ast::Op::Eq : ast::Op::NotEq, r, rt.elems[0], cx));
        else parts.push_back("(" + l + (is ? " == " : " != ") + r + ")");
      } else if (lt.is_optional() || rt.is_optional()) {  // an optional against None: is it None?
        std::string o = lt.is_optional() ? l : r;
        parts.push_back(std::string(op == ast::Op::Is ? "(!" : "(") + "(" + o + ").valid)");
      } else {
        bool same = lt.tag == Type::Tag::None && rt.tag == Type::Tag::None;
        parts.push_back((op == ast::Op::Is) == same ? "true" : "false");
      }
    } else if (lt.tag == Type::Tag::EnumMember && lt.elems[0].is_tuple()) {  // typing: both of one class
      parts.push_back(emit_tuple_compare(l, lt.elems[0], op, r, rt.elems[0], cx));
    } else if ((lt.is_charseq() && rt.is_charseq()) && op != ast::Op::In && op != ast::Op::NotIn) {  // a record's string field (codegen_charseq.cpp)
      parts.push_back(charseq_compare_code(l, op, r));
    } else if (lt.is_charseq() || rt.is_charseq()) {  // a 'U' field against a str, or `in` (@jit code): as strs
      parts.push_back(str_compare_code(lt.is_charseq() ? "cj::charseq_str(" + l + ")" : l, op,
                                       rt.is_charseq() ? "cj::charseq_str(" + r + ")" : r));
    } else if (lt.tag == Type::Tag::String && rt.tag == Type::Tag::String) {  // codegen_strings.cpp
      parts.push_back(str_compare_code(l, op, r));
    } else if (lt.is_dict() || rt.is_dict() || lt.is_set() || rt.is_set()) {  // typeinfer_dicts.cpp
      parts.push_back(dict_compare_code(l, lt, op, r, rt));
    } else if (lt.is_list() || rt.is_list()) {  // typing: `x in l`, or lists compared (typeinfer_lists.cpp)
      parts.push_back(list_compare_code(l, lt, op, r, rt));
    } else if (lt.is_tuple() || rt.is_tuple()) {
      parts.push_back(emit_tuple_compare(l, lt, op, r, rt, cx));
    } else if (is_time(lt.scalar) || is_time(rt.scalar)) {  // typing: two datetimes or two timedeltas
      parts.push_back(emit_time_compare(l, lt, op, r, rt));
    } else {
      // In NumPy's common type, as Numba compares: a signed integer against a uint64 meets in
      // float64, so -1 < 2**63 holds (C++'s own conversion would make -1 huge) and, as in
      // Numba, 2**62 + 1 == 2**62 holds too (float64 rounds both).
      Type ct = Type::scalar_of(promote(lt.scalar, rt.scalar));
      parts.push_back("(" + cx.convert(l, lt, ct) + " " + ast::op_spelling(op) + " " + cx.convert(r, rt, ct) + ")");
    }
    l = r;
    lt = rt;
  }
  if (!chain) return parts[0];
  std::string s = "([&]() -> bool { ";
  for (size_t i = 0; i < parts.size(); ++i) s += binds[i] + "if (!" + parts[i] + ") return false; ";
  return s + "return true; }())";
}

std::string optional_convert(const std::string& code, const Type& from, const Type& to, const ValueContext& cx) {
  if (from.tag == Type::Tag::None) return cx.type(to) + "{}";
  if (!from.is_optional()) return cx.type(to) + "{true, " + cx.convert(code, from, to.elems[0]) + "}";
  std::string t = "cj_o" + std::to_string((*cx.tmp)++);
  return "([&]() { auto " + t + " = " + code + "; return " + cx.type(to) + "{" + t + ".valid, " +
         cx.convert(t + ".value", from.elems[0], to.elems[0]) + "}; }())";
}

}  // namespace cujit
