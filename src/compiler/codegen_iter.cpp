// enumerate and zip loops (see codegen_iter.h).
#include "compiler/codegen_iter.h"

#include "compiler/diagnostics.h"

namespace cujit {

namespace {
void plan(const ast::Node& it, const std::string& i, const ValueContext& cx, bool host_only, IterationPlan& p) {
  const Type& t = it.type;
  const std::string v = "cj_it" + std::to_string((*cx.tmp)++);
  if (t.tag == Type::Tag::Range) {  // range(...): start, stop, step of the range's type
    const Type T = Type::scalar_of(t.scalar);
    const std::string c = cx.type(T);
    std::vector<std::string> a;
    for (auto& x : it.args()) a.push_back(cx.convert(cx.expr(*x), x->type, T));
    std::string start = a.size() >= 2 ? a[0] : "(" + c + ")0", stop = a.size() >= 2 ? a[1] : a[0];
    std::string step = a.size() == 3 ? (host_only ? "cj::py_range_step(" : "cj::range_step(") + a[2] + ")" : "(" + c + ")1";
    p.setup += "const " + c + " " + v + "_start = " + start + "; const " + c + " " + v + "_stop = " + stop + "; const " +
               c + " " + v + "_step = " + step + "; ";
    p.count = "cj::range_count(" + v + "_start, " + v + "_stop, " + v + "_step)";
    p.item = "(" + c + ")(" + v + "_start + (" + c + ")" + i + " * " + v + "_step)";
    return;
  }
  if (t.is_array() || t.is_tuple() || t.is_list() || t.is_dict() || t.is_set() || t.tag == Type::Tag::String) {
    // A dict or set: its keys when the loop starts (host_dict.h).
    p.setup += "auto " + v + " = " + (t.is_dict() || t.is_set() ? "cj::dict_keys(" + cx.expr(it) + ")" : cx.expr(it)) + "; ";
    if (t.tag == Type::Tag::String) {  // a str (CPU code): each character
      p.count = v + ".size()";
      p.item = "cj::str_char(" + v + ".at(" + i + "))";
    } else if (t.is_list() || t.is_dict() || t.is_set()) {  // a list (CPU code): its length when the loop starts
      p.count = v + ".size()";
      p.item = v + ".at(" + i + ")";
    } else if (t.is_tuple()) {
      p.count = "(int64_t)" + std::to_string(t.elems.size());
      p.item = v + ".at(" + i + ")";
    } else {
      p.count = v + ".shape[0]";
      p.item = (t.ndim == 1 ? "cj::elem(" : "cj::subarray(") + v + ", " + i + ")";
    }
    return;
  }
  if (t.tag != Type::Tag::Iterator) throw InternalError("codegen: iteration over " + t.str());
  if (is_flat_iter(t)) {  // a.flat: the array's elements in C order
    p.setup += "auto " + v + " = " + cx.expr(it) + "; ";
    p.count = "cj::size(" + v + ")";
    p.item = (t.elems[0].record ? "(cj::flat_elem(" : "(*cj::flat_elem(") + v + ", " + i + "))";  // a record by its address
    return;
  }
  const bool en = t.name == "enumerate";
  std::vector<IterationPlan> parts;
  for (size_t k = 0; k < t.elems.size(); ++k) {
    parts.emplace_back();
    plan(*it.args()[k], i, cx, host_only, parts.back());
    p.setup += parts.back().setup;
  }
  std::string start;
  if (en) {
    const Type i64 = Type::scalar_of(Scalar::Int64);
    start = it.args().size() == 2 ? cx.convert(cx.expr(*it.args()[1]), it.args()[1]->type, i64) : "(int64_t)0";
    p.setup += "const int64_t " + v + "_from = " + start + "; ";
  }
  // The shortest iterable's length: each counted once, before the loop.
  p.setup += "int64_t " + v + "_n = " + parts[0].count + "; ";
  for (size_t k = 1; k < parts.size(); ++k)
    p.setup += "{ const int64_t n = " + parts[k].count + "; if (n < " + v + "_n) " + v + "_n = n; } ";
  p.count = v + "_n";
  p.item = cx.type(iteration_item(t)) + "{";
  if (en) p.item += "(int64_t)(" + v + "_from + " + i + "), ";
  for (size_t k = 0; k < parts.size(); ++k) p.item += (k ? ", " : "") + parts[k].item;
  p.item += "}";
}
}  // namespace

IterationPlan plan_iteration(const ast::Node& iter, const std::string& i, const ValueContext& cx, bool host_only) {
  IterationPlan p;
  plan(iter, i, cx, host_only, p);
  return p;
}

}  // namespace cujit
