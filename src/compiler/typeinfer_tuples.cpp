// Typing of tuple operations that typeinfer.cpp hands over: comparisons and `in` (which pairs of
// items compare), and slices by constants. codegen_tuples.cpp writes their code.
#include <algorithm>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {
// Whether items of these types compare with == and the orderings: numbers with numbers, tuples
// with tuples item by item (Numba's tuple comparisons).
bool comparable(const Type& a, const Type& b) {
  // datetime64/timedelta64 items are not compared inside tuples (codegen_tuples.cpp compares in
  // NumPy's common number type, which they have none of): refused, not compared wrongly.
  if (a.is_scalar() && b.is_scalar()) return !is_time(a.scalar) && !is_time(b.scalar);
  if (!a.is_tuple() || !b.is_tuple()) return false;
  for (size_t i = 0; i < std::min(a.elems.size(), b.elems.size()); ++i)
    if (!comparable(a.elems[i], b.elems[i])) return false;
  return true;
}
}  // namespace

bool tuple_comparison_ok(const Type& l, ast::Op op, const Type& r) {
  if (l.is_list() || r.is_list()) return list_comparison_ok(l, op, r);  // typeinfer_lists.cpp
  if (op == ast::Op::In || op == ast::Op::NotIn) {
    if (!r.is_tuple()) return false;
    for (const auto& e : r.elems)  // Numba's contains: a UniTuple (or the empty tuple) only
      if (!comparable(l, e) || e != r.elems[0]) return false;
    return true;
  }
  return l.is_tuple() && r.is_tuple() && comparable(l, r);
}

bool tuple_slice_picks(const ast::Node& slice, size_t n, std::vector<int64_t>* picks) {
  int64_t v[3] = {0, 0, 1};
  bool given[3] = {false, false, false};
  const ast::Node* parts[3] = {slice.lower().get(), slice.upper().get(), slice.step().get()};
  for (int k = 0; k < 3; ++k) {
    const ast::Node* p = parts[k];
    if (!p || (p->is(ast::Kind::Constant) && p->type.tag == Type::Tag::None)) continue;
    if (!const_int_literal(*p, &v[k])) return false;
    given[k] = true;
  }
  // Python's slice.indices(n).
  const int64_t len = (int64_t)n, step = v[2];
  if (step == 0) return false;
  auto clamp = [&](int64_t x, int64_t lo, int64_t hi) {
    if (x < 0) x += len;
    return x < lo ? lo : x > hi ? hi : x;
  };
  int64_t start, stop;
  if (step > 0) {
    start = given[0] ? clamp(v[0], 0, len) : 0;
    stop = given[1] ? clamp(v[1], 0, len) : len;
  } else {
    start = given[0] ? clamp(v[0], -1, len - 1) : len - 1;
    stop = given[1] ? clamp(v[1], -1, len - 1) : -1;
  }
  picks->clear();
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) picks->push_back(i);
  return true;
}

Type tuple_slice_type(const SourceFile& src, const ast::Node& slice, const Type& base) {
  std::vector<int64_t> picks;
  if (slice.step() && const_int_literal(*slice.step(), &picks.emplace_back()) && picks[0] == 0)
    user_error(src, slice.loc, ErrorKind::Typing, "slice step cannot be zero");
  if (!tuple_slice_picks(slice, base.elems.size(), &picks))
    user_error(src, slice.loc, ErrorKind::Unsupported, "a tuple can only be sliced by constants (its length and item types are fixed when it is compiled)");
  std::vector<Type> items;
  for (int64_t i : picks) items.push_back(base.elems[(size_t)i]);
  return Type::tuple(items);
}

}  // namespace cujit
