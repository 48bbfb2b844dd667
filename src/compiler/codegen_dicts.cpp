// Dicts and sets in generated code (CPU only; typeinfer_dicts.cpp typed them): a cj::Dict<K, V>
// or cj::Set<K> handle (prelude/host_dict.h), each operation one of its functions. Keys and
// values are converted into the container's types where they are stored or looked up.
#include <string>

#include "compiler/codegen.h"
#include "compiler/diagnostics.h"

namespace cujit {

std::string dict_cpp(const Type& t) {
  if (t.is_set()) return "cj::Set<" + cpp_type(t.elems[0]) + ">";
  return "cj::Dict<" + cpp_type(t.elems[0]) + ", " + cpp_type(t.elems[1]) + ">";
}

namespace {
// Whether CPython's compiler folds the expression into a constant (a literal, a unary or binary
// operator on such, a tuple of such): a set display of these alone becomes a frozenset.
bool cpython_constant(const ast::Node& x) {
  using ast::Kind;
  if (x.is(Kind::Constant)) return true;
  if (x.is(Kind::UnaryOp)) return cpython_constant(*x.operand());
  if (x.is(Kind::BinOp)) return cpython_constant(*x.lhs()) && cpython_constant(*x.rhs());
  if (x.is(Kind::Tuple)) {
    for (const auto& y : x.elts())
      if (!cpython_constant(*y)) return false;
    return true;
  }
  return false;
}
}  // namespace

std::string dict_literal_code(const FunctionInstance& fn, const ast::Node& e, const ExprCode& expr, const ConvertCode& conv) {
  check_dicts_known(fn, e);
  const Type& t = e.type;
  const std::string C = dict_cpp(t);
  if (t.is_set()) {
    // The set's table, so its order, is Numba's: a display's items added last first into a set
    // presized for them; a display of constants is CPython's frozenset (host_dict.h): as it is
    // in a `for` (typeinfer_stmt.cpp marks that), else with 3 items or more, an update of `set()`.
    const auto& xs = e.elts();
    bool consts = !xs.empty();
    for (const auto& x : xs) consts = consts && cpython_constant(*x);
    const bool in_for = e.cval.b;
    std::string items;
    for (const auto& x : xs) items += (items.empty() ? "" : ", ") + cpp_type(t.elems[0]) + "(" + conv(expr(*x), x->type, t.elems[0]) + ")";
    const std::string K = cpp_type(t.elems[0]);
    if (consts && (in_for || xs.size() >= 3)) {
      // The frozenset's order as the code object holds it (decorators._set_orders); without it
      // (no snapshot), the order a fresh compile gives, which host_dict.h computes.
      std::string perm;
      auto g = fn.src ? fn.src->globals.find(" setorder " + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col))
                      : decltype(fn.src->globals.end()){};
      if (fn.src && g != fn.src->globals.end() && g->second.kind == GlobalValue::Kind::Tuple)
        for (const auto& k : g->second.elems) perm += (perm.empty() ? "" : ", ") + std::to_string(k.i);
      return "cj::set_frozen<" + K + ">({" + items + "}, " + (in_for ? "false" : "true") +
             (perm.empty() ? "" : ", {" + perm + "}") + ")";
    }
    return "cj::set_display<" + K + ">({" + items + "})";
  }
  std::string s = "([&]() { " + C + " cj_d = " + C + "::make(); ";
  {
    const auto& kv = e.keys_values();
    for (size_t i = 0; i + 1 < kv.size(); i += 2)
      s += "cj_d.set(" + conv(expr(*kv[i]), kv[i]->type, t.elems[0]) + ", " + conv(expr(*kv[i + 1]), kv[i + 1]->type, t.elems[1]) + "); ";
  }
  return s + "return cj_d; }())";
}

std::string dict_call_code(const FunctionInstance& fn, const ast::Node& e, Builtin b, const ExprCode& expr,
                           const ConvertCode& conv) {
  const std::string sp = builtin_spelling(b);
  if (b == Builtin::Hash) return "cj::py_hash(" + expr(*e.args()[0]) + ")";
  if (b == Builtin::TypedDict || b == Builtin::TypedDictEmpty) {  // a new dict; the type objects are no values
    check_dicts_known(fn, e);
    return dict_cpp(e.type) + "::make()";
  }
  if (b == Builtin::DictOf || b == Builtin::SetOf) {
    check_dicts_known(fn, e);
    const std::string C = dict_cpp(e.type);
    if (e.args().empty()) return b == Builtin::SetOf ? C + "::make_set(0)" : C + "::make()";
    const Type& it = e.args()[0]->type;
    if (b == Builtin::DictOf) return "cj::dict_copy(" + expr(*e.args()[0]) + ")";
    // set(iterable): a table presized for the iterable's length, its items added in its order
    // (Numba's; the table decides the set's order).
    const std::string K = cpp_type(e.type.elems[0]);
    if (it.is_set()) return "cj::set_from<" + K + ">(" + expr(*e.args()[0]) + ")";
    if (it.is_list())
      return "([&]() { auto cj_l = " + expr(*e.args()[0]) + "; " + C + " cj_d = " + C +
             "::make_set(cj_l.size()); for (int64_t cj_k = 0; cj_k < cj_l.size(); ++cj_k) cj_d.entry(" + K +
             "(cj_l.at(cj_k))); return cj_d; }())";
    if (it.tag == Type::Tag::Range) {
      std::vector<std::string> a;
      for (auto& x : e.args()[0]->args()) a.push_back("(int64_t)(" + expr(*x) + ")");
      const std::string start = a.size() >= 2 ? a[0] : "0", stop = a.size() >= 2 ? a[1] : a[0],
                        step = a.size() == 3 ? "cj::py_range_step(" + a[2] + ")" : "1";
      return "([&]() { const int64_t cj_st = " + step + ", cj_e = " + stop + ", cj_b = " + start + "; " + C + " cj_d = " + C +
             "::make_set(cj::range_len(cj_b, cj_e, cj_st)); for (int64_t cj_k = cj_b; cj_st > 0 ? cj_k < cj_e : cj_k > cj_e; cj_k += cj_st) cj_d.entry(" + K +
             "(cj_k)); return cj_d; }())";
    }
    if (it.is_tuple()) {
      std::string s = "([&]() { " + C + " cj_d = " + C + "::make_set(" + std::to_string(it.elems.size()) + "); auto cj_t = " + expr(*e.args()[0]) + ";";
      for (size_t i = 0; i < it.elems.size(); ++i) s += " cj_d.entry(" + K + "(cj_t.f" + std::to_string(i) + "));";
      return s + " return cj_d; }())";
    }
    if (it.tag == Type::Tag::String)  // set(s): its characters, in order (host_str.h)
      return "([&]() { auto cj_s = " + expr(*e.args()[0]) + "; " + C + " cj_d = " + C +
             "::make_set(cj_s.size()); for (int64_t cj_k = 0; cj_k < cj_s.size(); ++cj_k) cj_d.entry(cj::str_char(cj_s.at(cj_k))); "
             "return cj_d; }())";
    throw InternalError("codegen: set() of " + it.str());
  }
  const Type& c = e.args()[0]->type;
  check_dicts_known(fn, *e.args()[0]);
  const Type K = c.elems[0];
  const Type V = c.is_dict() ? c.elems[1] : Type::unknown();
  const std::string d = expr(*e.args()[0]);
  auto key = [&](size_t i) { return conv(expr(*e.args()[i]), e.args()[i]->type, K); };
  switch (b) {
    case Builtin::DictGet: case Builtin::DictPop: {
      const bool get = b == Builtin::DictGet;
      if (e.args().size() == 2) return get ? conv("cj::dict_get_opt(" + d + ", " + key(1) + ")", Type::optional(V), e.type)
                                         : "cj::dict_pop(" + d + ", " + key(1) + ")";
      const Type& dt = e.args()[2]->type;
      if (dt.tag == Type::Tag::None)  // an optional value: None where the key is missing
        return "([&]() { auto cj_d = " + d + "; auto cj_k = " + key(1) + "; cj::Optional<" + cpp_type(V) +
               "> cj_r = cj::dict_get_opt(cj_d, cj_k);" + (get ? "" : " if (cj_r.valid) cj::dict_del(cj_d, cj_k);") +
               " return cj_r; }())";
      // The default in the result's type, the value converted to it.
      const std::string R = cpp_type(e.type);
      return "([&]() { auto cj_d = " + d + "; auto cj_k = " + key(1) + "; cj::Optional<" + cpp_type(V) +
             "> cj_r = cj::dict_get_opt(cj_d, cj_k); if (!cj_r.valid) return (" + R + ")(" + conv(expr(*e.args()[2]), dt, e.type) +
             ");" + (get ? "" : " cj::dict_del(cj_d, cj_k);") + " return (" + R + ")(" + conv("cj_r.value", V, e.type) + "); }())";
    }
    case Builtin::DictPopitem: return "cj::dict_popitem<" + cpp_type(e.type) + ">(" + d + ")";
    case Builtin::DictSetdefault:
      return "cj::dict_setdefault(" + d + ", " + key(1) + ", " + cpp_type(V) + "(" + conv(expr(*e.args()[2]), e.args()[2]->type, V) + "))";
    case Builtin::DictItems: return "cj::dict_items<" + cpp_type(e.type.elems[0]) + ">(" + d + ")";
    case Builtin::SetAdd: case Builtin::SetRemove: case Builtin::SetDiscard:
      return std::string(sp) + "(" + d + ", " + key(1) + ")";
    default: {
      std::string s = std::string(sp) + "(" + d;
      for (size_t i = 1; i < e.args().size(); ++i) s += ", " + expr(*e.args()[i]);
      return s + ")";
    }
  }
}

std::string dict_subscript_code(const ast::Node& e, const ExprCode& expr, const ConvertCode& conv) {
  const Type& d = e.value()->type;
  return "cj::dict_get(" + expr(*e.value()) + ", " + cpp_type(d.elems[0]) + "(" + conv(expr(*e.index()), e.index()->type, d.elems[0]) + "))";
}

std::string dict_store_code(const ast::Node& target, const std::string& value, const ExprCode& expr, const ConvertCode& conv) {
  const Type& d = target.value()->type;
  return "cj::dict_set(" + expr(*target.value()) + ", " + cpp_type(d.elems[0]) + "(" + conv(expr(*target.index()), target.index()->type, d.elems[0]) +
         "), " + cpp_type(d.elems[1]) + "(" + value + "));";
}

std::string dict_delete_code(const ast::Node& target, const ExprCode& expr, const ConvertCode& conv) {
  const Type& d = target.value()->type;
  if (d.is_list()) return "{ auto cj_l = " + expr(*target.value()) + "; cj::list_pop_at(cj_l, (int64_t)(" + expr(*target.index()) + ")); }";
  return "cj::dict_del(" + expr(*target.value()) + ", " + cpp_type(d.elems[0]) + "(" + conv(expr(*target.index()), target.index()->type, d.elems[0]) +
         "));";
}

std::string set_inplace_code(ast::Op op, const std::string& a, const std::string& b) {
  switch (op) {  // in place on a's table, as Numba's (the order it leaves is Numba's)
    case ast::Op::BitOr: return "cj::set_update(" + a + ", " + b + ")";
    case ast::Op::BitAnd: return "cj::set_intersection_update(" + a + ", " + b + ")";
    case ast::Op::Sub: return "cj::set_difference_update(" + a + ", " + b + ")";
    case ast::Op::BitXor: return "cj::set_symmetric_difference_update(" + a + ", " + b + ")";
    default: throw InternalError("codegen: set operator");
  }
}

std::string set_binop_code(ast::Op op, const std::string& a, const std::string& b) {
  switch (op) {
    case ast::Op::BitOr: return "cj::set_union(" + a + ", " + b + ")";
    case ast::Op::BitAnd: return "cj::set_intersection(" + a + ", " + b + ")";
    case ast::Op::Sub: return "cj::set_difference(" + a + ", " + b + ")";
    case ast::Op::BitXor: return "cj::set_symmetric_difference(" + a + ", " + b + ")";
    default: throw InternalError("codegen: set operator");
  }
}

std::string dict_compare_code(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt) {
  using O = ast::Op;
  if (op == O::In || op == O::NotIn) {
    const std::string K = cpp_type(rt.elems[0]);
    const std::string k = lt.is_scalar() ? K + "(" + l + ")" : l;
    return std::string(op == O::NotIn ? "(!" : "(") + (rt.is_set() ? "cj::set_contains(" : "cj::dict_contains(") + r + ", " + k + "))";
  }
  if (lt.is_dict()) return std::string(op == O::NotEq ? "(!" : "(") + "cj::dict_eq(" + l + ", " + r + "))";
  switch (op) {
    case O::Eq: return "cj::set_eq(" + l + ", " + r + ")";
    case O::NotEq: return "(!cj::set_eq(" + l + ", " + r + "))";
    case O::LtE: return "cj::set_issubset(" + l + ", " + r + ")";
    case O::GtE: return "cj::set_issuperset(" + l + ", " + r + ")";
    case O::Lt: return "([&]() { auto cj_a = " + l + "; auto cj_b = " + r + "; return cj_a.size() < cj_b.size() && cj::set_issubset(cj_a, cj_b); }())";
    case O::Gt: return "([&]() { auto cj_a = " + l + "; auto cj_b = " + r + "; return cj_a.size() > cj_b.size() && cj::set_issuperset(cj_a, cj_b); }())";
    default: throw InternalError("codegen: set comparison");
  }
}

}  // namespace cujit
