// print() of a float as Python's repr writes it: the shortest decimal that reads back as the same
// double ("0.1", "1e-10", "1e+16", "-0.0", "inf", "nan"). Device printf has no such format (%g and
// %f lose or invent digits), so the digits are generated here, for both targets, by exact integer
// arithmetic (Steele & White's free-format algorithm as Burger and Dybvig state it): the value and
// the halfway points to its neighbours are big integers r/s, m-/s and m+/s, and digits are taken
// until the rest lies within the rounding interval. Slow (a few microseconds) but only print uses it.
namespace cj {

#if CJ_TARGET_HOST
#define CJ_FN_COLD static
#else
// static: with -rdc=true (linked code) each module has its own copy, never a second definition
#define CJ_FN_COLD static __device__ __noinline__
#endif

// A non-negative integer of up to 40 * 32 bits (enough for 2**1077 * 10: the largest r or s).
struct BigNum {
  uint32_t w[40];
  int n;  // words in use, the highest non-zero (0 for zero)
};
CJ_FN void big_set(BigNum& a, uint64_t v) {
  a.n = 0;
  while (v) { a.w[a.n++] = (uint32_t)v; v >>= 32; }
}
CJ_FN void big_mul_small(BigNum& a, uint32_t m) {
  uint64_t carry = 0;
  for (int i = 0; i < a.n; ++i) {
    uint64_t t = (uint64_t)a.w[i] * m + carry;
    a.w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) a.w[a.n++] = (uint32_t)carry;
}
CJ_FN void big_shl(BigNum& a, int bits) {
  if (a.n == 0) return;
  const int words = bits / 32, b = bits % 32;
  for (int i = a.n - 1; i >= 0; --i) a.w[i + words] = a.w[i];
  for (int i = 0; i < words; ++i) a.w[i] = 0;
  a.n += words;
  if (b) {
    uint32_t carry = 0;
    for (int i = words; i < a.n; ++i) {
      uint32_t next = a.w[i] >> (32 - b);
      a.w[i] = (a.w[i] << b) | carry;
      carry = next;
    }
    if (carry) a.w[a.n++] = carry;
  }
}
CJ_FN void big_pow10(BigNum& a, int k) {
  for (; k >= 9; k -= 9) big_mul_small(a, 1000000000u);
  for (; k > 0; --k) big_mul_small(a, 10u);
}
CJ_FN int big_cmp(const BigNum& a, const BigNum& b) {
  if (a.n != b.n) return a.n < b.n ? -1 : 1;
  for (int i = a.n - 1; i >= 0; --i)
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  return 0;
}
CJ_FN void big_add(BigNum& r, const BigNum& a, const BigNum& b) {  // r may be a or b
  const int n = a.n > b.n ? a.n : b.n;
  uint64_t carry = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t t = carry + (i < a.n ? a.w[i] : 0) + (i < b.n ? b.w[i] : 0);
    r.w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  r.n = n;
  if (carry) r.w[r.n++] = (uint32_t)carry;
}
CJ_FN void big_sub(BigNum& a, const BigNum& b) {  // a -= b, with a >= b
  int64_t borrow = 0;
  for (int i = 0; i < a.n; ++i) {
    int64_t t = (int64_t)a.w[i] - (i < b.n ? b.w[i] : 0) - borrow;
    borrow = t < 0;
    a.w[i] = (uint32_t)(t + (borrow << 32));
  }
  while (a.n && a.w[a.n - 1] == 0) --a.n;
}

// The shortest digits of a finite x > 0: writes them to `digits` and returns how many; *point
// receives the decimal exponent k of x = 0.d1d2... * 10**k.
CJ_FN_COLD int shortest_digits(double x, char* digits, int* point) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  const int be = (int)(bits >> 52 & 0x7ff);
  uint64_t f = bits & ((1ULL << 52) - 1);
  int e;
  if (be) { f |= 1ULL << 52; e = be - 1075; } else { e = -1074; }
  // Round-half-even reading: an even mantissa owns its halfway points.
  const bool even = (f & 1) == 0;
  BigNum r, s, mp, mm;
  const bool unequal = f == (1ULL << 52) && be > 1;  // the gap below is half the gap above
  big_set(r, f);
  big_set(s, 1);
  big_set(mp, 1);
  big_set(mm, 1);
  if (e >= 0) {
    big_shl(r, e + (unequal ? 2 : 1));
    big_shl(s, unequal ? 2 : 1);
    big_shl(mp, e + (unequal ? 1 : 0));
    big_shl(mm, e);
  } else {
    big_shl(r, unequal ? 2 : 1);
    big_shl(s, -e + (unequal ? 2 : 1));
    if (unequal) big_shl(mp, 1);
  }
  // k estimated from the bit length: exact or one too low (the fixup below moves it).
  int len = 0;
  for (uint64_t t = f; t; t >>= 1) ++len;
  const double est = (double)(e + len - 1) * 0.30102999566398114 - 1e-10;
  int k = (int)est;
  if ((double)k < est) ++k;  // ceil
  if (k >= 0) big_pow10(s, k);
  else { big_pow10(r, -k); big_pow10(mp, -k); big_pow10(mm, -k); }
  BigNum t;
  big_add(t, r, mp);
  const int c = big_cmp(t, s);
  if (even ? c >= 0 : c > 0) ++k;
  else { big_mul_small(r, 10); big_mul_small(mp, 10); big_mul_small(mm, 10); }
  *point = k;
  int n = 0;
  for (;;) {
    int d = 0;
    while (big_cmp(r, s) >= 0) { big_sub(r, s); ++d; }
    const int lo = big_cmp(r, mm);
    big_add(t, r, mp);
    const int hi = big_cmp(t, s);
    const bool tc1 = even ? lo <= 0 : lo < 0, tc2 = even ? hi >= 0 : hi > 0;
    if (!tc1 && !tc2) {
      digits[n++] = (char)('0' + d);
      big_mul_small(r, 10); big_mul_small(mp, 10); big_mul_small(mm, 10);
      continue;
    }
    if (tc1 && tc2) {  // both d and d+1 read back as x: the nearer one, the even one on a tie
      big_add(t, r, r);
      const int half = big_cmp(t, s);
      if (half > 0 || (half == 0 && (d & 1))) ++d;
    } else if (tc2) {
      ++d;
    }
    digits[n++] = (char)('0' + d);
    return n;
  }
}

/// repr(x) for a float64 (a float32 is printed as the float64 it converts to, as Numba does).
struct FloatText {
  char s[32];
};
CJ_FN_COLD FloatText float_repr(double x) {
  FloatText out;
  char* s = out.s;
  // Written by index: a first version (pointer writes, zeros counted up to -k) dropped zeros of
  // "0.000ddd" on an H100 (nvcc 13, sm_90) though right on the CPU; this one printed 1520 test
  // values there exactly as Python's repr.
  int w = 0;
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  if (bits >> 63 && x == x) { s[w++] = '-'; x = -x; }
  if (x != x || x == CJ_INF) {
    const char* t = x != x ? "nan" : "inf";
    for (int i = 0; i < 4; ++i) s[w++] = t[i];
    return out;
  }
  if (x == 0) {
    s[w++] = '0'; s[w++] = '.'; s[w++] = '0'; s[w] = 0;
    return out;
  }
  char d[20];
  int k = 0;
  const int n = shortest_digits(x, d, &k);
  const int exp10 = k - 1;
  if (exp10 < -4 || exp10 >= 16) {  // Python's repr switches to an exponent here
    s[w++] = d[0];
    if (n > 1) s[w++] = '.';
    for (int i = 1; i < n; ++i) s[w++] = d[i];
    s[w++] = 'e';
    s[w++] = exp10 < 0 ? '-' : '+';
    const int a = exp10 < 0 ? -exp10 : exp10;
    if (a >= 100) s[w++] = (char)('0' + a / 100);
    s[w++] = (char)('0' + a / 10 % 10);
    s[w++] = (char)('0' + a % 10);
  } else if (k <= 0) {  // 0.000ddd
    s[w++] = '0';
    s[w++] = '.';
    for (int i = k; i < 0; ++i) s[w++] = '0';
    for (int i = 0; i < n; ++i) s[w++] = d[i];
  } else {  // ddd.ddd, ddd00.0
    for (int i = 0; i < k; ++i) s[w++] = i < n ? d[i] : '0';
    s[w++] = '.';
    if (n <= k) s[w++] = '0';
    for (int i = k; i < n; ++i) s[w++] = d[i];
  }
  s[w] = 0;
  return out;
}

// repr(z) of a complex (Numba's @jit prints a complex, complex64 too, as the Python complex it boxes
// to): "(re+imj)", or "imj" alone where re is +0.0; the parts are float reprs without the ".0"
// an integral float gets ("(1+2j)", "-0j", "(nan+infj)").
struct ComplexText {
  char s[72];
};
CJ_FN_COLD void complex_repr_part(char* s, int& w, double x, bool sign) {
  const FloatText t = float_repr(x);
  int n = 0;
  while (t.s[n]) ++n;
  if (n >= 2 && t.s[n - 2] == '.' && t.s[n - 1] == '0') n -= 2;
  if (sign && t.s[0] != '-') s[w++] = '+';
  for (int i = 0; i < n; ++i) s[w++] = t.s[i];
}
CJ_FN_COLD ComplexText complex_repr(double re, double im) {
  ComplexText out;
  int w = 0;
  uint64_t bits;
  memcpy(&bits, &re, sizeof bits);
  const bool bare = re == 0 && !(bits >> 63);
  if (!bare) {
    out.s[w++] = '(';
    complex_repr_part(out.s, w, re, false);
  }
  complex_repr_part(out.s, w, im, !bare);
  out.s[w++] = 'j';
  if (!bare) out.s[w++] = ')';
  out.s[w] = 0;
  return out;
}

}  // namespace cj
