// Case mapping of @jit strings as Python's str methods do it: Unicode's full mappings (one code
// point may become up to three: 'ß'.upper() == 'SS'), title() and capitalize() by the Cased
// property, and lower()'s final-sigma rule ('Σ' lowers to 'ς' at a word's end). The tables are
// unicode_case.h (tools/gen_unicode_case.py); both headers come after host_str.h, only in programs
// that call these methods (pipeline.cpp).

namespace cj {

inline const CaseRow* case_row(uint32_t c) {
  size_t lo = 0, hi = sizeof(kCaseRows) / sizeof(kCaseRows[0]);
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (kCaseRows[mid].cp < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < sizeof(kCaseRows) / sizeof(kCaseRows[0]) && kCaseRows[lo].cp == c ? &kCaseRows[lo] : nullptr;
}
template <size_t N>
inline bool in_ranges(const uint32_t (&r)[N][2], uint32_t c) {
  size_t lo = 0, hi = N;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (r[mid][1] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < N && r[lo][0] <= c;
}
inline bool cp_cased(uint32_t c) { return in_ranges(kCasedRanges, c); }
inline bool cp_case_ignorable(uint32_t c) { return in_ranges(kCaseIgnorableRanges, c); }

enum CaseMap { kMapUpper, kMapLower, kMapTitle, kMapFold, kMapSwap };
/// Appends c's mapping `m` to out.
inline void case_map(std::u32string& out, uint32_t c, CaseMap m) {
  const CaseRow* r = case_row(c);
  const uint16_t v = !r ? 0 : m == kMapUpper ? r->upper : m == kMapLower ? r->lower : m == kMapTitle ? r->title : m == kMapFold ? r->fold : r->swap;
  if (v == 0) {
    out.push_back(c);
    return;
  }
  for (int k = 0; k < (v & 3); ++k) out.push_back(kCasePool[(v >> 2) + k]);
}
/// 'Σ' at i lowered: 'ς' where it ends a word (a cased letter before it and none after, the
/// case-ignorable ones skipped both ways), else 'σ' (CPython's handle_capital_sigma).
inline uint32_t final_sigma(const Str& s, int64_t i) {
  int64_t j = i - 1;
  while (j >= 0 && cp_case_ignorable(s.at(j))) --j;
  bool fin = j >= 0 && cp_cased(s.at(j));
  if (fin) {
    j = i + 1;
    while (j < s.size() && cp_case_ignorable(s.at(j))) ++j;
    fin = j == s.size() || !cp_cased(s.at(j));
  }
  return fin ? 0x3C2 : 0x3C3;
}
/// c at i of s lowered (the final-sigma rule for 'Σ').
inline void case_lower_at(std::u32string& out, const Str& s, int64_t i) {
  const uint32_t c = s.at(i);
  if (c == 0x3A3) out.push_back(final_sigma(s, i));
  else case_map(out, c, kMapLower);
}
inline Str str_of_u32(const std::u32string& u) {
  Str o = Str::make((int64_t)u.size());
  for (size_t i = 0; i < u.size(); ++i) o.mut()[i] = u[i];
  return o;
}
/// mode: 0 upper, 1 lower, 2 swapcase, 3 title, 4 capitalize, 5 casefold.
inline Str str_case(const Str& s, int mode) {
  std::u32string out;
  out.reserve((size_t)s.size());
  bool prev_cased = false;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t c = s.at(i);
    switch (mode) {
      case 0: case_map(out, c, kMapUpper); break;
      case 1: case_lower_at(out, s, i); break;
      case 2:  // an uppercase letter lowers as lower() does ('Σ' by the final-sigma rule)
        if (c == 0x3A3) out.push_back(final_sigma(s, i));
        else case_map(out, c, kMapSwap);
        break;
      case 3:
        if (prev_cased) case_lower_at(out, s, i);
        else case_map(out, c, kMapTitle);
        prev_cased = cp_cased(c);
        break;
      case 4:
        if (i == 0) case_map(out, c, kMapTitle);
        else case_lower_at(out, s, i);
        break;
      default: case_map(out, c, kMapFold); break;
    }
  }
  return str_of_u32(out);
}
inline Str str_upper(const Str& s) { return str_case(s, 0); }
inline Str str_lower(const Str& s) { return str_case(s, 1); }
inline Str str_swapcase(const Str& s) { return str_case(s, 2); }
inline Str str_title(const Str& s) { return str_case(s, 3); }
inline Str str_capitalize(const Str& s) { return str_case(s, 4); }
inline Str str_casefold(const Str& s) { return str_case(s, 5); }

}  // namespace cj
