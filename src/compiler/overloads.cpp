// See overloads.h.
#include "compiler/overloads.h"

#include <algorithm>
#include <tuple>

namespace cujit {

namespace {
bool array_fits(const Type& declared, const Type& actual) {
  if (!declared.is_array() || !actual.is_array()) return false;
  if (declared.scalar != actual.scalar || declared.ndim != actual.ndim) return false;
  // A record array's scalar is uint8 (its bytes): the records must be the same too.
  if ((declared.record == nullptr) != (actual.record == nullptr) ||
      (declared.record && declared.record->spelling != actual.record->spelling))
    return false;
  // Numba: a read-only array fits no signature declared with a writeable one (the only kind a
  // signature string can name), so a declared function cannot store into it.
  if (actual.readonly && !declared.readonly) return false;
  return declared.layout == 'A' || declared.layout == actual.layout;
}
}  // namespace

namespace {

// Numba's kinds of scalar conversion, best first (numba/core/typeconv: exact, promote, safe,
// unsafe); kNone where no conversion exists.
enum Conversion { kExact, kPromote, kSafe, kUnsafe, kNone };

// The conversion kind from `from` to `to`: Numba's casting rules (each rule gives a kind one way
// and unsafe the other), closed over paths, where a path is as good as its worst step and the
// best path counts. Computed once.
Conversion scalar_conversion(Scalar from, Scalar to) {
  constexpr int n = kNumScalars;
  static const std::vector<std::vector<int>> table = [] {
    std::vector<std::vector<int>> t(n, std::vector<int>(n, kNone));
    for (int i = 0; i < n; ++i) t[i][i] = kExact;
    auto rule = [&](Scalar a, Scalar b, Conversion ab) {
      t[int(a)][int(b)] = std::min(t[int(a)][int(b)], int(ab));
      t[int(b)][int(a)] = std::min(t[int(b)][int(a)], int(kUnsafe));
    };
    using S = Scalar;
    rule(S::Bool, S::Int8, kSafe);
    rule(S::Bool, S::UInt8, kSafe);
    rule(S::Int8, S::Int16, kPromote);
    rule(S::UInt8, S::UInt16, kPromote);
    rule(S::Int16, S::Int32, kPromote);
    rule(S::UInt16, S::UInt32, kPromote);
    rule(S::Int32, S::Int64, kPromote);
    rule(S::UInt32, S::UInt64, kPromote);
    rule(S::UInt8, S::Int16, kSafe);
    rule(S::UInt16, S::Int32, kSafe);
    rule(S::UInt32, S::Int64, kSafe);
    rule(S::Int16, S::Float32, kSafe);
    rule(S::Int32, S::Float64, kSafe);
    rule(S::Int64, S::Float64, kSafe);
    rule(S::UInt64, S::Float64, kSafe);
    rule(S::Int32, S::Float32, kUnsafe);
    rule(S::Float32, S::Float64, kPromote);
    rule(S::Float32, S::Complex64, kSafe);
    rule(S::Float64, S::Complex128, kSafe);
    rule(S::Complex64, S::Complex128, kPromote);
    rule(S::Int8, S::Float16, kSafe);
    rule(S::Int16, S::Float16, kUnsafe);
    rule(S::Float16, S::Float32, kPromote);
    // Closure: a -> c through b is as good as the worse of its two steps.
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          t[i][j] = std::min(t[i][j], std::max(t[i][k], t[k][j]));
    return t;
  }();
  if (int(from) >= n || int(to) >= n) return from == to ? kExact : kNone;
  return Conversion(table[int(from)][int(to)]);
}

}  // namespace

namespace {
struct Rating { int unsafe = 0, safe = 0, promote = 0; };

// Whether `actual` converts to `declared`, adding the conversions it takes to `r`: scalars by
// the casting rules, arrays exactly (above), a plain tuple item by item from a tuple of its
// size (Numba: (1, 2.5) fits UniTuple(int64, 2), unsafely). A named tuple fits only its own
// type, and a named tuple no plain tuple signature (Numba: "No matching definition").
bool rate(const Type& declared, const Type& actual, Rating& r) {
  // A record, or a member of an enum class, fits only its own type (Numba: an int is no
  // IntEnumMember, though an IntEnum member converts to an integer type).
  if (declared.is_record() || declared.is_enum()) return declared == actual;
  if (declared.is_scalar()) {
    if (!actual.is_scalar()) return false;
    Conversion c = scalar_conversion(actual.scalar, declared.scalar);
    r.unsafe += c == kUnsafe;
    r.safe += c == kSafe;
    r.promote += c == kPromote;
    return c != kNone;
  }
  if (declared.is_tuple()) {
    if (declared.is_named_tuple() || actual.is_named_tuple()) return declared == actual;
    if (!actual.is_tuple() || actual.elems.size() != declared.elems.size()) return false;
    for (size_t i = 0; i < declared.elems.size(); ++i)
      if (!rate(declared.elems[i], actual.elems[i], r)) return false;
    return true;
  }
  return array_fits(declared, actual);
}
}  // namespace

OverloadChoice choose_overload(const std::vector<std::vector<Type>>& declared, const std::vector<Type>& actual) {
  auto better = [](const Rating& a, const Rating& b) {
    return std::tie(a.unsafe, a.safe, a.promote) < std::tie(b.unsafe, b.safe, b.promote);
  };
  OverloadChoice out;
  Rating best_rating;
  for (size_t k = 0; k < declared.size(); ++k) {
    const std::vector<Type>& sig = declared[k];
    if (sig.size() != actual.size()) continue;
    bool ok = true;
    Rating r;
    for (size_t i = 0; ok && i < sig.size(); ++i) ok = rate(sig[i], actual[i], r);
    if (!ok) continue;
    if (out.best < 0 || better(r, best_rating)) {
      out.best = (int)k;
      best_rating = r;
      out.tied.clear();
    } else if (!better(best_rating, r)) {
      out.tied.push_back((int)k);
    }
  }
  return out;
}

std::vector<Type> declared_call_types(const std::vector<Signature>& declared, const std::vector<Type>& actual,
                                      const std::string& name, Type* ret, std::string* why) {
  if (declared.empty()) return actual;
  std::vector<std::vector<Type>> args;
  for (const auto& s : declared) args.push_back(s.args);
  const OverloadChoice c = choose_overload(args, actual);
  auto list = [](const std::vector<Type>& ts) {
    std::string out;
    for (size_t i = 0; i < ts.size(); ++i) out += (i ? ", " : "") + ts[i].str();
    return out;
  };
  // A tie takes the first declared of the best: Numba's typing of a call of a dispatcher allows
  // ambiguity there (only a kernel's launch refuses it, bind_declared).
  if (c.best >= 0) {
    std::vector<Type> out = actual;  // arrays fit exactly: the caller's own (layout included)
    for (size_t i = 0; i < out.size(); ++i)
      if (args[c.best][i].is_scalar()) out[i] = args[c.best][i];
    *ret = declared[c.best].ret;
    return out;
  }
  *why = "No matching definition for argument type(s) " + list(actual) + " of " + name +
         "(); it was declared for:";
  for (const auto& a : args) *why += "\n  (" + list(a) + ")";
  return {};
}

}  // namespace cujit
