// float16 (cj::f16), for both targets; comes after cuda.h or host.h and before common.h.
// The value is its IEEE binary16 bits. On the GPU every operation is one PTX f16 instruction
// (cvt.rn.f16.*, add.f16, setp.*.f16, ...), what numba-cuda emits, written as inline PTX so that
// NVRTC needs no cuda_fp16.h (it has no include path here). On the host (the simulator and @jit
// code) the same operations are computed in software as NumPy computes them: in float32, rounded
// once to nearest-even. For + - * / that single rounding is exact (float32's 24 bits are at least
// 2 * 11 + 2), so both targets give the same bits; fma rounds once from float64.
namespace cj {

#if CJ_TARGET_HOST
// Round-to-nearest-even from a double (a float converts to double exactly, so this is also the
// correctly rounded float -> half). Overflow gives inf, NaN stays a quiet NaN with its sign.
CJ_FN uint16_t half_bits_from_double(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  const uint16_t sign = (uint16_t)((b >> 48) & 0x8000u);
  const int e = (int)((b >> 52) & 0x7ff);
  uint64_t m = b & 0xfffffffffffffULL;
  if (e == 0x7ff) return (uint16_t)(sign | 0x7c00u | (m ? 0x200u | (uint16_t)(m >> 42) : 0u));
  const int he = e - 1023 + 15;              // the half's biased exponent
  if (he >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e == 0) return sign;                   // double subnormals are far below half's range
  m |= 1ULL << 52;                           // the implicit bit: value = m * 2^(e-1075)
  int shift;                                 // bits of m dropped to leave the half's significand
  if (he <= 0) {
    shift = 42 + 1 - he;                     // a half subnormal (or zero): fixed exponent 2^-24
    if (shift > 63) return sign;
  } else {
    shift = 42;
  }
  uint64_t q = m >> shift, rem = m & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  // q now holds the significand with its implicit bit (normal) or the subnormal's count; a carry
  // out of the significand moves to the next exponent, which the addition below does by itself.
  uint32_t out = he <= 0 ? (uint32_t)q : ((uint32_t)(he - 1) << 10) + (uint32_t)q;
  if (out >= 0x7c00u) out = 0x7c00u;
  return (uint16_t)(sign | out);
}
CJ_FN float half_bits_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ffu, bits;
  if (e == 0x1f) bits = sign | 0x7f800000u | (m << 13);
  else if (e == 0) {
    if (m == 0) bits = sign;
    else {  // subnormal: normalise
      e = 127 - 15 + 1;
      while (!(m & 0x400u)) { m <<= 1; --e; }
      bits = sign | (e << 23) | ((m & 0x3ffu) << 13);
    }
  } else bits = sign | ((e + 127 - 15) << 23) | (m << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
#define CJ_F16_FROM(T) CJ_METHOD f16(T x) : bits(half_bits_from_double((double)x)) {}
#define CJ_F16_TO(T) CJ_METHOD explicit operator T() const { return (T)half_bits_to_float(bits); }
#else
#define CJ_F16_CVT_IN(T, PT, C, W) \
  CJ_METHOD f16(T x) { asm("cvt.rn.f16." PT " %0, %1;" : "=h"(bits) : C((W)x)); }
#define CJ_F16_CVT_OUT(T, PT, C, W) \
  CJ_METHOD explicit operator T() const { W r; asm("cvt.rzi." PT ".f16 %0, %1;" : "=" C(r) : "h"(bits)); return (T)r; }
#endif

struct f16_bits {};  // f16(f16_bits{}, b): the value with bits b, a constant expression
struct f16 {
  uint16_t bits;
  f16() = default;
#if CJ_TARGET_HOST
  constexpr f16(f16_bits, uint16_t b) : bits(b) {}
#else
  __host__ __device__ constexpr f16(f16_bits, uint16_t b) : bits(b) {}  // __constant__ initialisers
#endif
  CJ_METHOD static f16 from_bits(uint16_t b) { f16 h; h.bits = b; return h; }
#if CJ_TARGET_HOST
  CJ_F16_FROM(float) CJ_F16_FROM(double) CJ_F16_FROM(bool) CJ_F16_FROM(char) CJ_F16_FROM(signed char)
  CJ_F16_FROM(unsigned char) CJ_F16_FROM(short) CJ_F16_FROM(unsigned short) CJ_F16_FROM(int)
  CJ_F16_FROM(unsigned) CJ_F16_FROM(long) CJ_F16_FROM(unsigned long) CJ_F16_FROM(long long)
  CJ_F16_FROM(unsigned long long)
  CJ_F16_TO(float) CJ_F16_TO(double) CJ_F16_TO(char) CJ_F16_TO(signed char) CJ_F16_TO(unsigned char)
  CJ_F16_TO(short) CJ_F16_TO(unsigned short) CJ_F16_TO(int) CJ_F16_TO(unsigned) CJ_F16_TO(long)
  CJ_F16_TO(unsigned long) CJ_F16_TO(long long) CJ_F16_TO(unsigned long long)
#else
  CJ_METHOD f16(float x) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(x)); }
  CJ_METHOD f16(double x) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(x)); }
  CJ_METHOD f16(bool x) { bits = x ? 0x3c00 : 0; }
  CJ_F16_CVT_IN(char, "s8", "h", short) CJ_F16_CVT_IN(signed char, "s8", "h", short)
  CJ_F16_CVT_IN(unsigned char, "u8", "h", unsigned short) CJ_F16_CVT_IN(short, "s16", "h", short)
  CJ_F16_CVT_IN(unsigned short, "u16", "h", unsigned short) CJ_F16_CVT_IN(int, "s32", "r", int)
  CJ_F16_CVT_IN(unsigned, "u32", "r", unsigned) CJ_F16_CVT_IN(long, "s64", "l", long long)
  CJ_F16_CVT_IN(unsigned long, "u64", "l", unsigned long long)
  CJ_F16_CVT_IN(long long, "s64", "l", long long) CJ_F16_CVT_IN(unsigned long long, "u64", "l", unsigned long long)
  CJ_METHOD explicit operator float() const { float r; asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(bits)); return r; }
  CJ_METHOD explicit operator double() const { double r; asm("cvt.f64.f16 %0, %1;" : "=d"(r) : "h"(bits)); return r; }
  // To an integer: truncation toward zero (cvt.rzi), as Python's int() and NumPy's casts.
  CJ_F16_CVT_OUT(char, "s8", "h", short) CJ_F16_CVT_OUT(signed char, "s8", "h", short)
  CJ_F16_CVT_OUT(unsigned char, "u8", "h", unsigned short) CJ_F16_CVT_OUT(short, "s16", "h", short)
  CJ_F16_CVT_OUT(unsigned short, "u16", "h", unsigned short) CJ_F16_CVT_OUT(int, "s32", "r", int)
  CJ_F16_CVT_OUT(unsigned, "u32", "r", unsigned) CJ_F16_CVT_OUT(long, "s64", "l", long long)
  CJ_F16_CVT_OUT(unsigned long, "u64", "l", unsigned long long)
  CJ_F16_CVT_OUT(long long, "s64", "l", long long) CJ_F16_CVT_OUT(unsigned long long, "u64", "l", unsigned long long)
#endif
  // Python's truth of a float: nonzero (nan is true); -0.0 is false.
  CJ_METHOD explicit operator bool() const { return (bits & 0x7fffu) != 0; }
};

#if CJ_TARGET_HOST
CJ_FN f16 operator+(f16 a, f16 b) { return f16((float)a + (float)b); }
CJ_FN f16 operator-(f16 a, f16 b) { return f16((float)a - (float)b); }
CJ_FN f16 operator*(f16 a, f16 b) { return f16((float)a * (float)b); }
CJ_FN f16 operator/(f16 a, f16 b) { return f16((float)a / (float)b); }
CJ_FN f16 operator-(f16 a) { return f16::from_bits((uint16_t)(a.bits ^ 0x8000u)); }
CJ_FN f16 habs(f16 a) { return f16::from_bits((uint16_t)(a.bits & 0x7fffu)); }
CJ_FN f16 hfma(f16 a, f16 b, f16 c) { return f16((double)(float)a * (double)(float)b + (double)(float)c); }
CJ_FN bool operator<(f16 a, f16 b) { return (float)a < (float)b; }
CJ_FN bool operator<=(f16 a, f16 b) { return (float)a <= (float)b; }
CJ_FN bool operator>(f16 a, f16 b) { return (float)a > (float)b; }
CJ_FN bool operator>=(f16 a, f16 b) { return (float)a >= (float)b; }
CJ_FN bool operator==(f16 a, f16 b) { return (float)a == (float)b; }
CJ_FN bool operator!=(f16 a, f16 b) { return (float)a != (float)b; }
#else
#define CJ_F16_BIN(op, ins) \
  CJ_FN f16 operator op(f16 a, f16 b) { f16 r; asm(ins " %0, %1, %2;" : "=h"(r.bits) : "h"(a.bits), "h"(b.bits)); return r; }
CJ_F16_BIN(+, "add.f16")
CJ_F16_BIN(-, "sub.f16")
CJ_F16_BIN(*, "mul.f16")
#undef CJ_F16_BIN
// Division through float32 (div.rn.f32 rounds correctly, and so does the one rounding back).
CJ_FN f16 operator/(f16 a, f16 b) { return f16((float)a / (float)b); }
CJ_FN f16 operator-(f16 a) { f16 r; asm("neg.f16 %0, %1;" : "=h"(r.bits) : "h"(a.bits)); return r; }
CJ_FN f16 habs(f16 a) { f16 r; asm("abs.f16 %0, %1;" : "=h"(r.bits) : "h"(a.bits)); return r; }
CJ_FN f16 hfma(f16 a, f16 b, f16 c) {
  f16 r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r.bits) : "h"(a.bits), "h"(b.bits), "h"(c.bits));
  return r;
}
#define CJ_F16_CMP(op, ins) \
  CJ_FN bool operator op(f16 a, f16 b) { \
    unsigned short r; \
    asm("{ .reg .pred p; setp." ins ".f16 p, %1, %2; selp.u16 %0, 1, 0, p; }" : "=h"(r) : "h"(a.bits), "h"(b.bits)); \
    return r != 0; \
  }
CJ_F16_CMP(<, "lt") CJ_F16_CMP(<=, "le") CJ_F16_CMP(>, "gt") CJ_F16_CMP(>=, "ge") CJ_F16_CMP(==, "eq")
CJ_F16_CMP(!=, "neu")
#undef CJ_F16_CMP
#undef CJ_F16_CVT_IN
#undef CJ_F16_CVT_OUT
#endif
#undef CJ_F16_FROM
#undef CJ_F16_TO

CJ_FN f16 operator+(f16 a) { return a; }
CJ_FN f16& operator+=(f16& a, f16 b) { return a = a + b; }
CJ_FN f16& operator-=(f16& a, f16 b) { return a = a - b; }
CJ_FN f16& operator*=(f16& a, f16 b) { return a = a * b; }
CJ_FN f16& operator/=(f16& a, f16 b) { return a = a / b; }
// cuda.fp16's arithmetic and comparisons by name.
CJ_FN f16 hadd(f16 a, f16 b) { return a + b; }
CJ_FN f16 hsub(f16 a, f16 b) { return a - b; }
CJ_FN f16 hmul(f16 a, f16 b) { return a * b; }
CJ_FN f16 hdiv(f16 a, f16 b) { return a / b; }
CJ_FN f16 hneg(f16 a) { return -a; }
CJ_FN bool heq(f16 a, f16 b) { return a == b; }
CJ_FN bool hne(f16 a, f16 b) { return a != b; }
CJ_FN bool hgt(f16 a, f16 b) { return a > b; }
CJ_FN bool hge(f16 a, f16 b) { return a >= b; }
CJ_FN bool hlt(f16 a, f16 b) { return a < b; }
CJ_FN bool hle(f16 a, f16 b) { return a <= b; }
CJ_FN bool isnan(f16 a) { return (a.bits & 0x7fffu) > 0x7c00u; }
CJ_FN bool isinf(f16 a) { return (a.bits & 0x7fffu) == 0x7c00u; }
CJ_FN bool isfinite(f16 a) { return (a.bits & 0x7c00u) != 0x7c00u; }
// cuda.fp16's hmax/hmin: the other operand when one is NaN (max.f16's rule; numba-cuda's
// simulator gives Python's max, which keeps the first).
CJ_FN f16 hmax(f16 a, f16 b) { return isnan(a) ? b : isnan(b) ? a : (b > a ? b : a); }
CJ_FN f16 hmin(f16 a, f16 b) { return isnan(a) ? b : isnan(b) ? a : (b < a ? b : a); }
// Math on float16 (cuda.fp16's h* functions and the math functions numba-cuda types for
// float16): computed in float32 and rounded once, as numba-cuda's simulator (NumPy's float16
// loops) does.
#define CJ_F16_MATH(name, expr) CJ_FN f16 name(f16 h) { const float x = (float)h; return f16(expr); }
CJ_F16_MATH(hsin, CJ_LIBM_F(sin)(x))
CJ_F16_MATH(hcos, CJ_LIBM_F(cos)(x))
CJ_F16_MATH(hlog, CJ_LIBM_F(log)(x))
CJ_F16_MATH(hlog2, CJ_LIBM_F(log2)(x))
CJ_F16_MATH(hlog10, CJ_LIBM_F(log10)(x))
CJ_F16_MATH(hexp, CJ_LIBM_F(exp)(x))
CJ_F16_MATH(hexp2, CJ_LIBM_F(exp2)(x))
CJ_F16_MATH(hexp10, CJ_LIBM_D(pow)(10.0, (double)x))
CJ_F16_MATH(hsqrt, CJ_LIBM_F(sqrt)(x))
CJ_F16_MATH(hrsqrt, 1.0 / CJ_LIBM_D(sqrt)((double)x))
CJ_F16_MATH(hrcp, 1.0f / x)
CJ_F16_MATH(hceil, CJ_LIBM_F(ceil)(x))
CJ_F16_MATH(hfloor, CJ_LIBM_F(floor)(x))
CJ_F16_MATH(htrunc, CJ_LIBM_F(trunc)(x))
CJ_F16_MATH(hrint, CJ_LIBM_F(rint)(x))
#undef CJ_F16_MATH

}  // namespace cj
