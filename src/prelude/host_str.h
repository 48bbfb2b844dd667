// Strings of @jit code (CPU target only; Numba's unicode_type). A str is a handle (cj::Str, one
// pointer) to a shared, reference-counted cj::StrHead (cujit_abi.h: the layout the extension
// shares, bindings/strings.cpp) whose code points follow it as UCS-4, so len, indexing and slicing
// count code points exactly as Python does. Strings are immutable: copies share the header.
// Included only in programs that use strings (pipeline.cpp), after host_list.h (split() gives a
// list, slices use its cj::slice_range).
//
// Case mapping (upper, lower, title, ...) is Unicode's, from tables generated from Python's
// (host_str_case.h, unicode_case.h). The character classes beyond ASCII (isalpha, isupper, ...)
// need more of Unicode's tables, which cujit does not carry yet: those methods raise
// NotImplementedError on a non-ASCII string instead of answering wrongly. isspace(), split() and
// strip() know all of Python's whitespace.
#include <string>

namespace cj {

struct Str {
  StrHead* h = nullptr;  // null: ""
  Str() = default;
  Str(const Str& o) : h(o.h) { retain(); }
  Str(Str&& o) noexcept : h(o.h) { o.h = nullptr; }
  Str& operator=(const Str& o) {
    Str t(o);
    std::swap(h, t.h);
    return *this;
  }
  Str& operator=(Str&& o) noexcept {
    std::swap(h, o.h);
    return *this;
  }
  ~Str() {
    if (h && __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL) == 0) std::free(h);
  }
  void retain() {
    if (h) __atomic_add_fetch(&h->refs, 1, __ATOMIC_RELAXED);
  }
  int64_t size() const { return h ? h->length : 0; }
  const uint32_t* data() const { return h ? str_data(h) : nullptr; }
  uint32_t at(int64_t i) const { return str_data(h)[i]; }
  /// A new string of n code points (to be filled before anyone else sees it).
  static Str make(int64_t n) {
    Str s;
    if (n <= 0) return s;
    s.h = static_cast<StrHead*>(std::malloc(sizeof(StrHead) + sizeof(uint32_t) * (size_t)(n + 1)));
    if (!s.h) raise("MemoryError", "cannot allocate a str");
    *s.h = StrHead{1, n, -1};
    str_data(s.h)[n] = 0;
    return s;
  }
  uint32_t* mut() const { return str_data(h); }
};

inline Str str_from_cps(const uint32_t* p, int64_t n) {
  Str s = Str::make(n);
  if (n > 0) std::memcpy(s.mut(), p, sizeof(uint32_t) * (size_t)n);
  return s;
}
inline Str str_char(uint32_t cp) { return str_from_cps(&cp, 1); }

/// A literal: made once, on first use (the code points are written by codegen).
inline Str str_lit(const uint32_t* p, int64_t n) { return str_from_cps(p, n); }

/// A record's 'U' field (prelude/common.h's CharSeq) as a str: up to its last non-NUL code point.
template <int N>
inline Str charseq_str(const CharSeq<uint32_t, N>& s) { return str_from_cps(s.c, charseq_len(s)); }

inline int64_t str_len(const Str& s) { return s.size(); }
inline bool str_truth(const Str& s) { return s.size() != 0; }

/// s[i]: a string of one code point.
inline Str str_getitem(const Str& s, int64_t i) {
  const int64_t n = s.size();
  if (i < 0) i += n;
  if (i < 0 || i >= n) raise("IndexError", "string index out of range");
  return str_char(s.at(i));
}
inline Str str_slice(const Str& s, SliceRange r) {
  if (r.step == 1 && r.start == 0 && r.count == s.size()) return s;
  Str o = Str::make(r.count);
  for (int64_t k = 0; k < r.count; ++k) o.mut()[k] = s.at(r.start + k * r.step);
  return o;
}

inline bool str_eq(const Str& a, const Str& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(uint32_t) * (size_t)a.size()) == 0);
}
/// Python's order: code point by code point, then the shorter first (-1, 0, 1).
inline int str_cmp(const Str& a, const Str& b) {
  const int64_t n = a.size() < b.size() ? a.size() : b.size();
  for (int64_t i = 0; i < n; ++i)
    if (a.at(i) != b.at(i)) return a.at(i) < b.at(i) ? -1 : 1;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}
inline bool operator==(const Str& a, const Str& b) { return str_eq(a, b); }
inline bool operator<(const Str& a, const Str& b) { return str_cmp(a, b) < 0; }
inline bool operator>(const Str& a, const Str& b) { return str_cmp(a, b) > 0; }  // max() of strs

/// min(s) and max(s): the least (greatest) code point as a string of one; an empty string raises
/// StopIteration, as Numba's does.
inline Str str_minmax(const Str& s, bool greatest) {
  if (s.size() == 0) raise("StopIteration", "");
  uint32_t m = s.at(0);
  for (int64_t i = 1; i < s.size(); ++i)
    if (greatest ? s.at(i) > m : s.at(i) < m) m = s.at(i);
  return str_char(m);
}

inline Str str_concat(const Str& a, const Str& b) {
  if (a.size() == 0) return b;
  if (b.size() == 0) return a;
  Str o = Str::make(a.size() + b.size());
  std::memcpy(o.mut(), a.data(), sizeof(uint32_t) * (size_t)a.size());
  std::memcpy(o.mut() + a.size(), b.data(), sizeof(uint32_t) * (size_t)b.size());
  return o;
}
inline Str str_repeat(const Str& s, int64_t k) {
  if (k <= 0 || s.size() == 0) return Str();
  if (k == 1) return s;
  if (s.size() > INT64_MAX / 4 / k) raise("MemoryError", "repeated string is too long");
  Str o = Str::make(s.size() * k);
  for (int64_t j = 0; j < k; ++j) std::memcpy(o.mut() + j * s.size(), s.data(), sizeof(uint32_t) * (size_t)s.size());
  return o;
}

// ---- searching ----------------------------------------------------------------------------------
/// Python's start/end arguments of find, count, startswith...: as slice bounds, clamped to [0, n].
inline void str_adjust(int64_t n, bool has_start, int64_t* start, bool has_end, int64_t* end) {
  if (!has_start) *start = 0;
  if (!has_end) *end = n;
  if (*end > n) *end = n;
  else if (*end < 0) { *end += n; if (*end < 0) *end = 0; }
  if (*start < 0) { *start += n; if (*start < 0) *start = 0; }
}
inline bool str_match_at(const Str& s, int64_t i, const Str& sub) {
  for (int64_t k = 0; k < sub.size(); ++k)
    if (s.at(i + k) != sub.at(k)) return false;
  return true;
}
/// The first (or last) index of sub in s[start:end], or -1.
inline int64_t str_find_in(const Str& s, const Str& sub, int64_t start, int64_t end, bool last) {
  if (end - start < sub.size()) return -1;
  if (!last) {
    for (int64_t i = start; i + sub.size() <= end; ++i)
      if (str_match_at(s, i, sub)) return i;
  } else {
    for (int64_t i = end - sub.size(); i >= start; --i)
      if (str_match_at(s, i, sub)) return i;
  }
  return -1;
}
inline int64_t str_find(const Str& s, const Str& sub, bool hs, int64_t start, bool he, int64_t end) {
  str_adjust(s.size(), hs, &start, he, &end);
  return str_find_in(s, sub, start, end, false);
}
inline int64_t str_rfind(const Str& s, const Str& sub, bool hs, int64_t start, bool he, int64_t end) {
  str_adjust(s.size(), hs, &start, he, &end);
  return str_find_in(s, sub, start, end, true);
}
inline int64_t str_index(const Str& s, const Str& sub, bool hs, int64_t start, bool he, int64_t end) {
  const int64_t i = str_find(s, sub, hs, start, he, end);
  if (i < 0) raise("ValueError", "substring not found");
  return i;
}
inline int64_t str_rindex(const Str& s, const Str& sub, bool hs, int64_t start, bool he, int64_t end) {
  const int64_t i = str_rfind(s, sub, hs, start, he, end);
  if (i < 0) raise("ValueError", "substring not found");
  return i;
}
inline int64_t str_count(const Str& s, const Str& sub, bool hs, int64_t start, bool he, int64_t end) {
  str_adjust(s.size(), hs, &start, he, &end);
  if (end - start < sub.size()) return 0;
  if (sub.size() == 0) return end - start + 1;
  int64_t c = 0;
  for (int64_t i = start; i + sub.size() <= end;) {
    if (str_match_at(s, i, sub)) { ++c; i += sub.size(); }
    else ++i;
  }
  return c;
}
inline bool str_contains(const Str& s, const Str& sub) { return str_find_in(s, sub, 0, s.size(), false) >= 0; }
inline bool str_startswith(const Str& s, const Str& p, bool hs, int64_t start, bool he, int64_t end) {
  str_adjust(s.size(), hs, &start, he, &end);
  if (start > s.size()) return false;
  return end - start >= p.size() && str_match_at(s, start, p);
}
inline bool str_endswith(const Str& s, const Str& p, bool hs, int64_t start, bool he, int64_t end) {
  str_adjust(s.size(), hs, &start, he, &end);
  if (start > s.size()) return false;
  return end - start >= p.size() && str_match_at(s, end - p.size(), p);
}

// ---- character classes --------------------------------------------------------------------------
/// Python's str.isspace() of one code point (Unicode White_Space as CPython's tables give it).
inline bool cp_space(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}
/// A line boundary of str.splitlines().
inline bool cp_linebreak(uint32_t c) {
  return c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D || c == 0x1C || c == 0x1D || c == 0x1E || c == 0x85 ||
         c == 0x2028 || c == 0x2029;
}
inline bool cp_upper(uint32_t c) { return c >= 'A' && c <= 'Z'; }
inline bool cp_lower(uint32_t c) { return c >= 'a' && c <= 'z'; }
inline bool cp_digit(uint32_t c) { return c >= '0' && c <= '9'; }

inline uint32_t str_isascii(const Str& s) {  // uint32, as Numba's
  for (int64_t i = 0; i < s.size(); ++i)
    if (s.at(i) >= 128) return 0;
  return 1;
}
// ---- isalpha, isdigit, isupper, ...: host_str_class.h (with Unicode's tables, only in programs
// that call them) ----

// ---- case mapping: host_str_case.h (with Unicode's tables, only in programs that map case) ----

// ---- strip, split, join -------------------------------------------------------------------------
inline bool str_in_chars(uint32_t c, const Str* chars) {
  if (!chars) return cp_space(c);
  for (int64_t k = 0; k < chars->size(); ++k)
    if (chars->at(k) == c) return true;
  return false;
}
/// which: 1 left, 2 right, 3 both; chars null: whitespace.
inline Str str_strip_impl(const Str& s, const Str* chars, int which) {
  int64_t a = 0, b = s.size();
  if (which & 1) while (a < b && str_in_chars(s.at(a), chars)) ++a;
  if (which & 2) while (b > a && str_in_chars(s.at(b - 1), chars)) --b;
  return str_slice(s, SliceRange{a, 1, b - a});
}
inline Str str_strip(const Str& s) { return str_strip_impl(s, nullptr, 3); }
inline Str str_lstrip(const Str& s) { return str_strip_impl(s, nullptr, 1); }
inline Str str_rstrip(const Str& s) { return str_strip_impl(s, nullptr, 2); }
inline Str str_strip(const Str& s, const Str& c) { return str_strip_impl(s, &c, 3); }
inline Str str_lstrip(const Str& s, const Str& c) { return str_strip_impl(s, &c, 1); }
inline Str str_rstrip(const Str& s, const Str& c) { return str_strip_impl(s, &c, 2); }

inline Str str_part(const Str& s, int64_t a, int64_t b) { return str_slice(s, SliceRange{a, 1, b - a}); }

/// s.split() / s.split(None, maxsplit): runs of whitespace, none empty.
inline List<Str> str_split_ws(const Str& s, int64_t maxsplit) {
  List<Str> r = List<Str>::make(0);
  const int64_t n = s.size();
  int64_t i = 0;
  if (maxsplit < 0) maxsplit = INT64_MAX;
  while (true) {
    while (i < n && cp_space(s.at(i))) ++i;
    if (i >= n) break;
    if (maxsplit-- == 0) {  // the rest, as it is (trailing whitespace kept, as Python's)
      r.push(str_part(s, i, n));
      break;
    }
    int64_t j = i;
    while (j < n && !cp_space(s.at(j))) ++j;
    r.push(str_part(s, i, j));
    i = j;
  }
  return r;
}
inline List<Str> str_split(const Str& s, const Str& sep, int64_t maxsplit) {
  if (sep.size() == 0) raise("ValueError", "empty separator");
  List<Str> r = List<Str>::make(0);
  if (maxsplit < 0) maxsplit = INT64_MAX;
  int64_t i = 0;
  while (maxsplit > 0) {
    const int64_t j = str_find_in(s, sep, i, s.size(), false);
    if (j < 0) break;
    r.push(str_part(s, i, j));
    i = j + sep.size();
    --maxsplit;
  }
  r.push(str_part(s, i, s.size()));
  return r;
}
inline List<Str> str_rsplit_ws(const Str& s, int64_t maxsplit) {
  List<Str> r = List<Str>::make(0);
  int64_t i = s.size();
  if (maxsplit < 0) maxsplit = INT64_MAX;
  while (true) {
    while (i > 0 && cp_space(s.at(i - 1))) --i;
    if (i <= 0) break;
    if (maxsplit-- == 0) {  // the rest, leading whitespace kept
      r.push(str_part(s, 0, i));
      break;
    }
    int64_t j = i;
    while (j > 0 && !cp_space(s.at(j - 1))) --j;
    r.push(str_part(s, j, i));
    i = j;
  }
  list_reverse(r);
  return r;
}
inline List<Str> str_rsplit(const Str& s, const Str& sep, int64_t maxsplit) {
  if (sep.size() == 0) raise("ValueError", "empty separator");
  List<Str> r = List<Str>::make(0);
  if (maxsplit < 0) maxsplit = INT64_MAX;
  int64_t e = s.size();
  while (maxsplit > 0) {
    const int64_t j = str_find_in(s, sep, 0, e, true);
    if (j < 0) break;
    r.push(str_part(s, j + sep.size(), e));
    e = j;
    --maxsplit;
  }
  r.push(str_part(s, 0, e));
  list_reverse(r);
  return r;
}
inline List<Str> str_splitlines(const Str& s, bool keepends) {
  List<Str> r = List<Str>::make(0);
  const int64_t n = s.size();
  int64_t i = 0;
  while (i < n) {
    int64_t j = i;
    while (j < n && !cp_linebreak(s.at(j))) ++j;
    int64_t eol = j;
    if (j < n) eol = (s.at(j) == '\r' && j + 1 < n && s.at(j + 1) == '\n') ? j + 2 : j + 1;
    r.push(str_part(s, i, keepends ? eol : j));
    i = eol;
  }
  return r;
}
inline Str str_join(const Str& sep, const List<Str>& parts) {
  const int64_t k = parts.size();
  if (k == 0) return Str();
  if (k == 1) return parts.at(0);
  int64_t n = sep.size() * (k - 1);
  for (int64_t i = 0; i < k; ++i) n += parts.at(i).size();
  Str o = Str::make(n);
  int64_t p = 0;
  for (int64_t i = 0; i < k; ++i) {
    if (i) { if (sep.size()) std::memcpy(o.mut() + p, sep.data(), 4 * (size_t)sep.size()); p += sep.size(); }
    const Str& x = parts.at(i);
    if (x.size()) std::memcpy(o.mut() + p, x.data(), 4 * (size_t)x.size());
    p += x.size();
  }
  return o;
}

inline Str str_replace(const Str& s, const Str& old, const Str& rep, int64_t count) {
  if (count < 0) count = INT64_MAX;
  List<Str> pieces = List<Str>::make(0);
  int64_t i = 0;
  if (old.size() == 0) {  // Python: rep before each character and at the end, count times at most
    for (int64_t k = 0; k <= s.size(); ++k) {
      if (count == 0) { pieces.push(str_part(s, k, s.size())); return str_join(Str(), pieces); }
      pieces.push(rep);
      --count;
      if (k < s.size()) pieces.push(str_part(s, k, k + 1));
    }
    return str_join(Str(), pieces);
  }
  while (count > 0) {
    const int64_t j = str_find_in(s, old, i, s.size(), false);
    if (j < 0) break;
    pieces.push(str_part(s, i, j));
    pieces.push(rep);
    i = j + old.size();
    --count;
  }
  pieces.push(str_part(s, i, s.size()));
  return str_join(Str(), pieces);
}

// ---- padding ------------------------------------------------------------------------------------
inline uint32_t str_fillchar(const Str& f) {
  if (f.size() != 1) raise("TypeError", "The fill character must be exactly one character long");
  return f.at(0);
}
inline Str str_pad(const Str& s, int64_t left, int64_t right, uint32_t fill) {
  if (left <= 0 && right <= 0) return s;
  if (left < 0) left = 0;
  if (right < 0) right = 0;
  Str o = Str::make(left + s.size() + right);
  for (int64_t k = 0; k < left; ++k) o.mut()[k] = fill;
  if (s.size()) std::memcpy(o.mut() + left, s.data(), 4 * (size_t)s.size());
  for (int64_t k = 0; k < right; ++k) o.mut()[left + s.size() + k] = fill;
  return o;
}
inline Str str_ljust(const Str& s, int64_t w, const Str& f) { return str_pad(s, 0, w - s.size(), str_fillchar(f)); }
inline Str str_rjust(const Str& s, int64_t w, const Str& f) { return str_pad(s, w - s.size(), 0, str_fillchar(f)); }
inline Str str_ljust(const Str& s, int64_t w) { return str_pad(s, 0, w - s.size(), ' '); }
inline Str str_rjust(const Str& s, int64_t w) { return str_pad(s, w - s.size(), 0, ' '); }
/// CPython's centering: the extra space goes left when the margin and the width are both odd.
inline Str str_center(const Str& s, int64_t w, const Str& f) {
  const uint32_t c = str_fillchar(f);
  const int64_t marg = w - s.size();
  if (marg <= 0) return s;
  const int64_t left = marg / 2 + (marg & w & 1);
  return str_pad(s, left, marg - left, c);
}
inline Str str_center(const Str& s, int64_t w) {
  const int64_t marg = w - s.size();
  if (marg <= 0) return s;
  const int64_t left = marg / 2 + (marg & w & 1);
  return str_pad(s, left, marg - left, ' ');
}
inline Str str_zfill(const Str& s, int64_t w) {
  const int64_t fill = w - s.size();
  if (fill <= 0) return s;
  Str o = str_pad(s, fill, 0, '0');
  if (s.size() && (s.at(0) == '+' || s.at(0) == '-')) {  // the sign moves to the front
    o.mut()[0] = s.at(0);
    o.mut()[fill] = '0';
  }
  return o;
}

/// s.partition(sep) / s.rpartition(sep) into out[3].
inline void str_partition_impl(const Str& s, const Str& sep, Str* out, bool last) {
  if (sep.size() == 0) raise("ValueError", "empty separator");
  const int64_t j = str_find_in(s, sep, 0, s.size(), last);
  if (j < 0) {
    out[last ? 2 : 0] = s;
    return;
  }
  out[0] = str_part(s, 0, j);
  out[1] = sep;
  out[2] = str_part(s, j + sep.size(), s.size());
}
inline void str_partition(const Str& s, const Str& sep, Str* out) { str_partition_impl(s, sep, out, false); }
inline void str_rpartition(const Str& s, const Str& sep, Str* out) { str_partition_impl(s, sep, out, true); }
/// s.expandtabs(tabsize): columns restart after \n and \r, as Python's.
inline Str str_expandtabs(const Str& s, int64_t tabsize) {
  List<Str> pieces = List<Str>::make(0);
  int64_t col = 0, from = 0;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t c = s.at(i);
    if (c == '\t') {
      pieces.push(str_part(s, from, i));
      const int64_t n = tabsize > 0 ? tabsize - col % tabsize : 0;
      pieces.push(str_pad(Str(), n, 0, ' '));
      col += n;
      from = i + 1;
    } else {
      ++col;
      if (c == '\n' || c == '\r') col = 0;
    }
  }
  pieces.push(str_part(s, from, s.size()));
  return str_join(Str(), pieces);
}
// ---- conversions --------------------------------------------------------------------------------
inline Str str_ascii(const char* p, int64_t n) {
  Str o = Str::make(n);
  for (int64_t k = 0; k < n; ++k) o.mut()[k] = (unsigned char)p[k];
  return o;
}
/// str(i) of an integer.
inline Str str_from_int(long long v) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%lld", v);
  return str_ascii(buf, n);
}
inline Str str_from_uint(unsigned long long v) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%llu", v);
  return str_ascii(buf, n);
}
inline Str str_from_bool(bool b) { return b ? str_ascii("True", 4) : str_ascii("False", 5); }
inline int64_t str_ord(const Str& s) {
  if (s.size() != 1) raise("TypeError", "ord() expected a character");
  return s.at(0);
}
inline Str str_chr(int64_t i) {
  if (i < 0 || i > 0x10FFFF) raise("ValueError", "chr() arg not in range(0x10ffff)");
  return str_char((uint32_t)i);
}
/// The UTF-8 bytes (print); a lone surrogate is written as its 3 bytes, as Python's surrogatepass.
inline std::string str_utf8(const Str& s) {
  std::string o;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t c = s.at(i);
    if (c < 0x80) o += (char)c;
    else if (c < 0x800) { o += (char)(0xC0 | (c >> 6)); o += (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) { o += (char)(0xE0 | (c >> 12)); o += (char)(0x80 | ((c >> 6) & 0x3F)); o += (char)(0x80 | (c & 0x3F)); }
    else { o += (char)(0xF0 | (c >> 18)); o += (char)(0x80 | ((c >> 12) & 0x3F)); o += (char)(0x80 | ((c >> 6) & 0x3F)); o += (char)(0x80 | (c & 0x3F)); }
  }
  return o;
}
/// Python's repr of a str inside a printed list: quoted with ' (with " where it holds a ' and no
/// "), backslash, the quote, \n \r \t and other control characters escaped.
inline void repr_item(std::string& o, const Str& s) {
  bool sq = false, dq = false;
  for (int64_t i = 0; i < s.size(); ++i) sq = sq || s.at(i) == '\'', dq = dq || s.at(i) == '"';
  const char q = sq && !dq ? '"' : '\'';
  std::string body;
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t c = s.at(i);
    char buf[8];
    if (c == '\\' || c == (uint32_t)q) { body += '\\'; body += (char)c; }
    else if (c == '\n') body += "\\n";
    else if (c == '\r') body += "\\r";
    else if (c == '\t') body += "\\t";
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0xad) {
      std::snprintf(buf, sizeof buf, "\\x%02x", (unsigned)c);
      body += buf;
    } else {
      body += str_utf8(str_char(c));
    }
  }
  o += q;
  o += body;
  o += q;
}

// ---- hash ---------------------------------------------------------------------------------------
}  // namespace cj
// The process's hash secret (CPython's _Py_HashSecret_t: its first 16 bytes are SipHash's k0, k1),
// found by the dynamic linker in the Python process that loads this library, as Numba reads it.
extern "C" __attribute__((weak)) unsigned char _Py_HashSecret[24];
namespace cj {
inline uint64_t sip_rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }
/// CPython's siphash13 (Python/pyhash.c, the default since 3.11) of `n` bytes.
inline uint64_t siphash13(uint64_t k0, uint64_t k1, const unsigned char* in, int64_t n) {
  uint64_t b = (uint64_t)n << 56;
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
  auto round = [&] {
    v0 += v1; v2 += v3; v1 = sip_rotl(v1, 13) ^ v0; v3 = sip_rotl(v3, 16) ^ v2; v0 = sip_rotl(v0, 32);
    v2 += v1; v0 += v3; v1 = sip_rotl(v1, 17) ^ v2; v3 = sip_rotl(v3, 21) ^ v0; v2 = sip_rotl(v2, 32);
  };
  while (n >= 8) {
    uint64_t m;
    std::memcpy(&m, in, 8);
    in += 8;
    n -= 8;
    v3 ^= m;
    round();
    v0 ^= m;
  }
  uint64_t t = 0;
  for (int64_t k = 0; k < n; ++k) t |= (uint64_t)in[k] << (8 * k);
  b |= t;
  v3 ^= b;
  round();
  v0 ^= b;
  v2 ^= 0xff;
  round();
  round();
  round();
  return (v0 ^ v1) ^ (v2 ^ v3);
}
/// hash(s) as CPython computes it: SipHash-1-3 of the code points in the narrowest of 1, 2 or 4
/// bytes each (CPython's compact form), with the process's secret; 0 for "", never -1.
inline int64_t str_hash(const Str& s) {
  if (s.size() == 0) return 0;
  if (s.h->hash != -1) return s.h->hash;
  if (!_Py_HashSecret) raise("RuntimeError", "hash() of a str needs the Python process's hash secret, which was not found");
  uint32_t mx = 0;
  for (int64_t i = 0; i < s.size(); ++i) mx = s.at(i) > mx ? s.at(i) : mx;
  const int kind = mx < 0x100 ? 1 : mx < 0x10000 ? 2 : 4;
  std::string bytes((size_t)(s.size() * kind), '\0');
  for (int64_t i = 0; i < s.size(); ++i) {
    const uint32_t c = s.at(i);
    std::memcpy(&bytes[(size_t)(i * kind)], &c, (size_t)kind);  // little-endian: the low bytes
  }
  uint64_t k0, k1;
  std::memcpy(&k0, _Py_HashSecret, 8);
  std::memcpy(&k1, _Py_HashSecret + 8, 8);
  int64_t h = (int64_t)siphash13(k0, k1, reinterpret_cast<const unsigned char*>(bytes.data()), (int64_t)bytes.size());
  if (h == -1) h = -2;
  __atomic_store_n(&s.h->hash, h, __ATOMIC_RELAXED);  // the same value whoever computes it
  return h;
}
/// The hash the dict and set helpers key on (shared name with their scalar overloads).
inline int64_t py_hash(const Str& s) { return str_hash(s); }
/// A str as an exception's argument (KeyError(key)): its UTF-8 in this thread's buffer, which
/// lasts until the exception reaches Python (the next one made on the thread replaces it).
inline PyArg exc_arg(const Str& s) {
  static thread_local std::string buf;
  buf = str_utf8(s);
  PyArg a;
  a.tag = PyArg::TStr, a.s = buf.c_str();
  return a;
}

}  // namespace cj
