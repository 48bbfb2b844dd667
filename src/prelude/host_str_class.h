// Character classes of @jit strings as Numba's str predicates answer them: isalpha, isdigit,
// isdecimal, isnumeric, isalnum, isspace, isupper, islower, istitle, isidentifier, isprintable,
// by Unicode's tables (unicode_class.h, tools/gen_unicode_class.py). As Numba: isalpha, isdigit,
// isdecimal and isalnum answer an int64 (1 or 0; for a string of one ASCII character isalpha and
// isalnum answer CPython's ctype flags: 1 a lowercase letter, 2 an uppercase one, 4 a digit), and
// a string of one character answers isupper/islower/istitle by that character's own class. Both
// headers come after host_str.h, only in programs that call these methods (pipeline.cpp).

namespace cj {

inline uint32_t cp_class(uint32_t c) {
  size_t lo = 0, hi = sizeof(kClassRuns) / sizeof(kClassRuns[0]);  // the last run starting at or before c
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (kClassRuns[mid][0] <= c) lo = mid;
    else hi = mid;
  }
  return kClassRuns[lo][1];
}
inline bool cp_is(uint32_t c, uint32_t k) { return (cp_class(c) & k) != 0; }
// CPython's Py_ISLOWER/Py_ISUPPER/Py_ISDIGIT flags of an ASCII character.
inline int64_t ascii_ctype(uint32_t c) { return cp_lower(c) ? 1 : cp_upper(c) ? 2 : cp_digit(c) ? 4 : 0; }

inline bool str_all_of(const Str& s, uint32_t k) {
  for (int64_t i = 0; i < s.size(); ++i)
    if (!cp_is(s.at(i), k)) return false;
  return s.size() > 0;
}
inline int64_t str_isalpha(const Str& s) {
  if (s.size() == 1 && s.at(0) < 128) return ascii_ctype(s.at(0)) & 3;
  return str_all_of(s, kCpAlpha);
}
inline int64_t str_isalnum(const Str& s) {
  if (s.size() == 1 && s.at(0) < 128) return ascii_ctype(s.at(0));
  return str_all_of(s, kCpAlpha | kCpDecimal | kCpDigit | kCpNumeric);
}
inline int64_t str_isdigit(const Str& s) { return str_all_of(s, kCpDigit); }
inline int64_t str_isdecimal(const Str& s) { return str_all_of(s, kCpDecimal); }
inline bool str_isnumeric(const Str& s) { return str_all_of(s, kCpNumeric); }
inline bool str_isspace(const Str& s) { return str_all_of(s, kCpSpace); }

// The classes of isupper/islower/istitle: kCpUpper/kCpLower are one character's isupper() and
// islower(); kCpTitle its istitle() (an uppercase or a titlecase letter).
inline bool cp_titlecase(uint32_t k) { return (k & kCpTitle) && !(k & kCpUpper); }
inline bool str_isupper(const Str& s) {
  if (s.size() == 1) return cp_is(s.at(0), kCpUpper);
  bool cased = false;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t k = cp_class(s.at(i));
    if ((k & kCpLower) || cp_titlecase(k)) return false;
    cased |= (k & kCpUpper) != 0;
  }
  return cased;
}
inline bool str_islower(const Str& s) {
  if (s.size() == 1) return cp_is(s.at(0), kCpLower);
  bool cased = false;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t k = cp_class(s.at(i));
    if ((k & kCpUpper) || cp_titlecase(k)) return false;
    cased |= (k & kCpLower) != 0;
  }
  return cased;
}
inline bool str_istitle(const Str& s) {
  bool cased = false, prev_cased = false;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t k = cp_class(s.at(i));
    if (k & kCpTitle) {  // uppercase or titlecase
      if (prev_cased) return false;
      prev_cased = cased = true;
    } else if (k & kCpLower) {
      if (!prev_cased) return false;
      prev_cased = cased = true;
    } else {
      prev_cased = false;
    }
  }
  return cased;
}
inline bool str_isidentifier(const Str& s) {
  for (int64_t i = 0; i < s.size(); ++i)
    if (!cp_is(s.at(i), i == 0 ? kCpIdstart : kCpIdcont)) return false;
  return s.size() > 0;
}
inline bool str_isprintable(const Str& s) {
  for (int64_t i = 0; i < s.size(); ++i)
    if (!cp_is(s.at(i), kCpPrintable)) return false;
  return true;
}

}  // namespace cj
