// Lists in generated code (CPU only; typeinfer_lists.cpp typed them): a list is a cj::List<T>
// handle (prelude/host_list.h), each operation one of its functions.
#include <string>

#include "compiler/codegen.h"
#include "compiler/diagnostics.h"

namespace cujit {

namespace {
// The C++ of the item type of list type `l`.
std::string item_cpp(const Type& l) { return cpp_type(l.elems[0]); }

// A loop over iterable `it` (a list, range, array or tuple) filling list `r` of type `l`.
std::string fill_from(const std::string& r, const Type& l, const ast::Node& it, const ExprCode& expr) {
  const std::string T = item_cpp(l);
  const Type& t = it.type;
  if (t.is_list()) return "cj::list_extend(" + r + ", " + expr(it) + ");";
  if (t.is_set() || t.is_dict()) return "cj::list_extend(" + r + ", cj::dict_keys(" + expr(it) + "));";  // its order (host_dict.h);
  if (t.tag == Type::Tag::Range) {
    std::vector<std::string> a;
    for (auto& x : it.args()) a.push_back("(int64_t)(" + expr(*x) + ")");
    const std::string start = a.size() >= 2 ? a[0] : "0", stop = a.size() >= 2 ? a[1] : a[0],
                      step = a.size() == 3 ? "cj::py_range_step(" + a[2] + ")" : "1";
    return "{ const int64_t cj_st = " + step + ", cj_e = " + stop + "; for (int64_t cj_k = " + start +
           "; cj_st > 0 ? cj_k < cj_e : cj_k > cj_e; cj_k += cj_st) " + r + ".push(" + T + "(cj_k)); }";
  }
  if (t.is_array()) {
    const std::string item = t.ndim == 1 ? "cj::elem(cj_a, cj_k)" : "cj::subarray(cj_a, cj_k)";
    return "{ auto cj_a = " + expr(it) + "; for (int64_t cj_k = 0; cj_k < cj_a.shape[0]; ++cj_k) " + r + ".push(" + T + "(" +
           item + ")); }";
  }
  if (t.is_tuple()) {
    std::string s = "{ auto cj_t = " + expr(it) + ";";
    for (size_t i = 0; i < t.elems.size(); ++i) s += " " + r + ".push(" + T + "(cj_t.f" + std::to_string(i) + "));";
    return s + " }";
  }
  if (t.tag == Type::Tag::String)  // list(s): its characters
    return "{ auto cj_s = " + expr(it) + "; for (int64_t cj_k = 0; cj_k < cj_s.size(); ++cj_k) " + r + ".push(cj::str_char(cj_s.at(cj_k))); }";
  throw InternalError("codegen: a list from " + t.str());
}

}  // namespace

// Python's slice parts as cj::slice_range's arguments: (has, value) for start, stop, step.
std::string slice_args(const ast::Node& slice, const ExprCode& expr) {
  std::string s;
  for (const ast::Node* p : {slice.lower().get(), slice.upper().get(), slice.step().get()}) {
    const bool given = p && p->type.tag != Type::Tag::None;
    s += given ? ", true, (int64_t)(" + expr(*p) + ")" : ", false, (int64_t)0";
  }
  return s;
}

std::string list_cpp(const Type& l) { return "cj::List<" + item_cpp(l) + ">"; }

std::string list_literal_code(const FunctionInstance& fn, const ast::Node& e, const ExprCode& expr, const ConvertCode& conv) {
  check_list_known(fn, e);
  const std::string T = item_cpp(e.type);
  if (e.elts().empty()) return "cj::list_new<" + T + ">()";
  std::string s = "cj::list_of<" + T + ">({";
  for (size_t i = 0; i < e.elts().size(); ++i) s += (i ? ", " : "") + conv(expr(*e.elts()[i]), e.elts()[i]->type, e.type.elems[0]);
  return s + "})";
}

namespace {
// The reverse= of a sorted() or list.sort() call (its third argument once keywords are bound).
std::string sort_reverse(const ast::Node& e, const ExprCode& expr) {
  return e.args().size() > 2 ? "(bool)(" + expr(*e.args()[2]) + ")" : "false";
}
}  // namespace

std::string list_call_code(const FunctionInstance& fn, const ast::Node& e, Builtin b, const ExprCode& expr,
                           const ConvertCode& conv) {
  const std::string sp = builtin_spelling(b);
  std::vector<std::string> a;
  if (b == Builtin::TypedListEmpty || (b == Builtin::TypedList && e.args().empty())) {  // the type object is no value
    check_list_known(fn, e);
    return "cj::list_new<" + item_cpp(e.type) + ">()";
  }
  if (b == Builtin::ListOf || b == Builtin::Sorted || b == Builtin::TypedList) {
    const std::string L = list_cpp(e.type);
    std::string s = "([&]() { " + L + " cj_r = " + L + "::make(0); ";
    if (!e.args().empty()) s += fill_from("cj_r", e.type, *e.args()[0], expr) + " ";
    if (b == Builtin::Sorted) s += "cj::list_sort(cj_r, " + sort_reverse(e, expr) + "); ";
    return s + "return cj_r; }())";
  }
  if (b == Builtin::ListExtend && !e.args()[1]->type.is_list())  // by an iterable, as list(x) is filled
    return "([&]() { auto cj_r = " + expr(*e.args()[0]) + "; " + fill_from("cj_r", e.args()[0]->type, *e.args()[1], expr) + " }())";
  for (auto& x : e.args()) a.push_back(expr(*x));
  const Type& l = e.args()[0]->type;
  check_list_known(fn, *e.args()[0]);
  switch (b) {
    case Builtin::ListPop: return a.size() == 2 ? "cj::list_pop_at(" + a[0] + ", " + a[1] + ")" : "cj::list_pop(" + a[0] + ")";
    case Builtin::ListSort:
      if (a.size() == 3 && e.args()[1]->type.is_list())  // by a list of keys (typeinfer_rewrites.cpp)
        return "cj::list_sort_by(" + a[0] + ", " + a[1] + ", (bool)(" + a[2] + "))";
      return "cj::list_sort(" + a[0] + ", " + (a.size() > 2 ? "(bool)(" + a[2] + ")" : "false") + ")";
    case Builtin::ListAppend: case Builtin::ListInsert: {
      // The stored value in the item type (the list may be wider: [1] then append(2.5)).
      std::string v = conv(a.back(), e.args().back()->type, l.elems[0]);
      return std::string(sp) + "(" + a[0] + (a.size() == 3 ? ", " + a[1] : "") + ", " + v + ")";
    }
    default: {
      std::string s = std::string(sp) + "(";
      for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i];
      return s + ")";
    }
  }
}

std::string list_subscript_code(const ast::Node& e, const ExprCode& expr) {
  const std::string l = expr(*e.value());
  if (e.index()->is(ast::Kind::Slice))
    return "([&]() { auto cj_l = " + l + "; return cj::list_slice(cj_l, cj::slice_range(cj_l.size()" + slice_args(*e.index(), expr) +
           ")); }())";
  return "cj::list_get(" + l + ", (int64_t)(" + expr(*e.index()) + "))";
}

std::string list_store_code(const ast::Node& target, const std::string& value, const ExprCode& expr) {
  const std::string l = expr(*target.value());
  if (target.index()->is(ast::Kind::Slice))
    return "{ auto cj_l = " + l + "; cj::list_set_slice(cj_l, cj::slice_range(cj_l.size()" + slice_args(*target.index(), expr) + "), " +
           value + "); }";
  return "cj::list_set(" + l + ", (int64_t)(" + expr(*target.index()) + "), " + item_cpp(target.value()->type) + "(" + value + "));";
}

std::string list_binop_code(ast::Op op, const std::string& a, const Type& ta, const std::string& b, const Type& tb,
                            const Type& result) {
  if (op == ast::Op::Add) {  // into the result's item type (list(int64) + list(float64) holds floats)
    const std::string L = list_cpp(result);
    return "([&]() { " + L + " cj_r = " + L + "::make(0); cj::list_extend(cj_r, " + a + "); cj::list_extend(cj_r, " + b +
           "); return cj_r; }())";
  }
  return ta.is_list() ? "cj::list_repeat(" + a + ", (int64_t)(" + b + "))" : "cj::list_repeat(" + b + ", (int64_t)(" + a + "))";
}

std::string list_compare_code(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt) {
  (void)lt;
  (void)rt;
  switch (op) {
    case ast::Op::In: return "cj::list_contains(" + r + ", " + l + ")";
    case ast::Op::NotIn: return "(!cj::list_contains(" + r + ", " + l + "))";
    case ast::Op::Eq: return "cj::list_eq(" + l + ", " + r + ")";
    case ast::Op::NotEq: return "(!cj::list_eq(" + l + ", " + r + "))";
    default: return "(cj::list_cmp(" + l + ", " + r + ") " + ast::op_spelling(op) + " 0)";
  }
}

}  // namespace cujit
