// NumPy's ufuncs in compiled code, both targets (after common.h): the scalar implementations that
// builtins.def's UFUNC rows name where cj::'s math functions do not already fit NumPy, and the
// broadcasting loop that applies one to arrays (codegen_ufunc.cpp). Each implementation is called
// with the input types of the loop NumPy picks (typeinfer_ufunc.cpp), so integer arithmetic here
// wraps in the loop's own width as NumPy's does.
namespace cj {

// ---- comparisons and logic (a loop's two inputs have one type, except int64 with uint64, which
// NumPy compares by value: -1 < 0u) --------------------------------------------------------------
template <class A, class B> CJ_FN bool uf_less(A a, B b) { return a < b; }
CJ_FN bool uf_less(int64_t a, uint64_t b) { return a < 0 || (uint64_t)a < b; }
CJ_FN bool uf_less(uint64_t a, int64_t b) { return b >= 0 && a < (uint64_t)b; }
template <class A, class B> CJ_FN bool uf_equal(A a, B b) { return a == b; }
CJ_FN bool uf_equal(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a == b; }
CJ_FN bool uf_equal(uint64_t a, int64_t b) { return b >= 0 && a == (uint64_t)b; }
// NaN compares false both ways, so these are not negations of each other.
template <class A, class B> CJ_FN bool uf_greater(A a, B b) { return uf_less(b, a); }
template <class A, class B> CJ_FN bool uf_less_equal(A a, B b) { return uf_less(a, b) || uf_equal(a, b); }
template <class A, class B> CJ_FN bool uf_greater_equal(A a, B b) { return uf_less(b, a) || uf_equal(a, b); }
template <class A, class B> CJ_FN bool uf_not_equal(A a, B b) { return !uf_equal(a, b); }
// Complex order is NumPy's (CLT in its loops, which Numba copies): lexicographic, and a NaN
// imaginary part makes the real parts' order false. <=, > and >= follow from the three above.
template <class F> CJ_FN bool uf_less(Complex<F> a, Complex<F> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <class A, class B> CJ_FN bool uf_logical_and(A a, B b) { return (bool)a && (bool)b; }
template <class A, class B> CJ_FN bool uf_logical_or(A a, B b) { return (bool)a || (bool)b; }
template <class A, class B> CJ_FN bool uf_logical_xor(A a, B b) { return (bool)a != (bool)b; }
template <class A> CJ_FN bool uf_logical_not(A a) { return !(bool)a; }

// maximum/minimum propagate NaN (the first NaN wins); fmax/fmin ignore it unless both are NaN.
template <class T> CJ_FN T uf_maximum(T a, T b) { return (a >= b || a != a) ? a : b; }
template <class T> CJ_FN T uf_minimum(T a, T b) { return (a <= b || a != a) ? a : b; }
template <class T> CJ_FN T uf_fmax(T a, T b) { return (a >= b || b != b) ? a : b; }
template <class T> CJ_FN T uf_fmin(T a, T b) { return (a <= b || b != b) ? a : b; }
// Complex: a NaN is either part NaN; with one, maximum/minimum return the first NaN operand and
// fmax/fmin the first operand that is not NaN (Numba's np_complex_maximum_impl and siblings).
template <class F> CJ_FN bool uf_cnan(Complex<F> a) { return a.re != a.re || a.im != a.im; }
template <class F> CJ_FN Complex<F> uf_maximum(Complex<F> a, Complex<F> b) {
  if (uf_cnan(a) || uf_cnan(b)) return uf_cnan(a) ? a : b;
  return uf_greater_equal(a, b) ? a : b;
}
template <class F> CJ_FN Complex<F> uf_minimum(Complex<F> a, Complex<F> b) {
  if (uf_cnan(a) || uf_cnan(b)) return uf_cnan(a) ? a : b;
  return uf_less_equal(a, b) ? a : b;
}
template <class F> CJ_FN Complex<F> uf_fmax(Complex<F> a, Complex<F> b) {
  if (uf_cnan(a) || uf_cnan(b)) return uf_cnan(b) ? a : b;
  return uf_greater_equal(a, b) ? a : b;
}
template <class F> CJ_FN Complex<F> uf_fmin(Complex<F> a, Complex<F> b) {
  if (uf_cnan(a) || uf_cnan(b)) return uf_cnan(b) ? a : b;
  return uf_less_equal(a, b) ? a : b;
}

// ---- bits ---------------------------------------------------------------------------------------
template <class T> CJ_FN T uf_bitwise_and(T a, T b) { return (T)(a & b); }
template <class T> CJ_FN T uf_bitwise_or(T a, T b) { return (T)(a | b); }
template <class T> CJ_FN T uf_bitwise_xor(T a, T b) { return (T)(a ^ b); }
// Shifts as NumPy's loops: a count past the width (or negative) shifts everything out, giving 0
// (-1 for a negative number shifted right) instead of C's undefined behaviour.
template <class T> CJ_FN T uf_left_shift(T a, T b) {
  return (uint64_t)b < sizeof(T) * 8 ? (T)((uint64_t)a << b) : (T)0;
}
template <class T> CJ_FN T uf_right_shift(T a, T b) {
  if ((uint64_t)b < sizeof(T) * 8) return (T)(a >> b);
  return (T)-1 < 0 && a < 0 ? (T)-1 : (T)0;
}
template <class T> CJ_FN T uf_invert(T a) { return (T)~a; }
CJ_FN bool uf_invert(bool a) { return !a; }

// ---- arithmetic: integers wrap in their own width (computed unsigned: no signed overflow) -------
template <class T> struct UfWide { typedef uint64_t type; };
template <> struct UfWide<float> { typedef float type; };
template <> struct UfWide<double> { typedef double type; };
template <class F> struct UfWide<Complex<F>> { typedef Complex<F> type; };  // complex loops: their own arithmetic
template <class T> CJ_FN T uf_add(T a, T b) { typedef typename UfWide<T>::type W; return (T)((W)a + (W)b); }
CJ_FN bool uf_add(bool a, bool b) { return a || b; }
template <class T> CJ_FN T uf_subtract(T a, T b) { typedef typename UfWide<T>::type W; return (T)((W)a - (W)b); }
template <class T> CJ_FN T uf_multiply(T a, T b) { typedef typename UfWide<T>::type W; return (T)((W)a * (W)b); }
CJ_FN bool uf_multiply(bool a, bool b) { return a && b; }
template <class T> CJ_FN T uf_square(T a) { return uf_multiply(a, a); }
template <class T> CJ_FN T uf_negative(T a) { typedef typename UfWide<T>::type W; return (T)((W)0 - (W)a); }
template <class F> CJ_FN Complex<F> uf_negative(Complex<F> a) { return -a; }
CJ_FN float uf_negative(float a) { return -a; }
CJ_FN double uf_negative(double a) { return -a; }
template <class T> CJ_FN T uf_positive(T a) { return a; }
template <class T> CJ_FN T uf_divide(T a, T b) { return a / b; }
// np.divide of complex: NumPy's loop (Smith's algorithm multiplying by 1 / denominator; a zero
// divisor divides each part by zero: inf or nan, no error), which Numba's np.divide follows; the
// `/` operator of two complex scalars is CPython's instead (complex.h).
template <class F>
CJ_FN Complex<F> uf_divide(Complex<F> a, Complex<F> b) {
  const F br = abs(b.re), bi = abs(b.im);
  if (br >= bi) {
    if (br == 0 && bi == 0) return {a.re / br, a.im / bi};
    const F rat = b.im / b.re, scl = (F)1 / (b.re + b.im * rat);
    return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
  }
  const F rat = b.re / b.im, scl = (F)1 / (b.im + b.re * rat);
  return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}
// NumPy's integer reciprocal is 1 / x in C (0 for |x| > 1); of 0 it gives what x86 gives for
// (int)(1.0 / 0): the most negative int32/int64, and 0 in the narrower types.
template <class T> CJ_FN T uf_reciprocal(T a) {
  if (a == 0) return sizeof(T) == 4 && (T)-1 < 0 ? (T)(-2147483647 - 1) : sizeof(T) == 8 && (T)-1 < 0 ? (T)(-9223372036854775807LL - 1) : (T)0;
  return (T)(1 / a);
}
CJ_FN float uf_reciprocal(float a) { return 1.0f / a; }
CJ_FN double uf_reciprocal(double a) { return 1.0 / a; }
// Of a complex: NumPy's loop (Smith's method with a numerator of 1), which Numba copies; a NaN
// fails the <= and takes the second branch, as there.
template <class F> CJ_FN Complex<F> uf_reciprocal(Complex<F> a) {
  if ((a.im < 0 ? -a.im : a.im) <= (a.re < 0 ? -a.re : a.re)) {
    const F r = a.im / a.re, inv = (F)1 / (a.re + a.im * r);
    return {inv, ((F)0 - r) * inv};
  }
  const F r = a.re / a.im, inv = (F)1 / (a.re * r + a.im);
  return {r * inv, (F)0 - inv};
}
template <class T> CJ_FN T uf_absolute(T a) { return a < 0 ? uf_negative(a) : a; }
CJ_FN bool uf_absolute(bool a) { return a; }
CJ_FN float uf_absolute(float a) { return CJ_LIBM_F(fabs)(a); }
CJ_FN double uf_absolute(double a) { return CJ_LIBM_D(fabs)(a); }
template <class F> CJ_FN F uf_absolute(Complex<F> a) { return abs(a); }  // |z|, a real (NumPy's F->f, D->d)
// sign: -1, 0, 1 in the loop's type; NaN stays NaN.
// Numba's: 1 above zero, -1 below, else the value itself (NaN, and -0.0 keeps its sign).
template <class T> CJ_FN T uf_sign(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a; }
// Of a complex, NumPy 2's z / |z| (0 for 0), as Numba: hypot and the division in the loop's type.
template <class F> CJ_FN Complex<F> uf_sign(Complex<F> a) {
  const F m = hypot(a.re, a.im);
  if (m == 0) return {(F)0, (F)0};
  return {a.re / m, a.im / m};
}
template <class T> CJ_FN T uf_floor(T a) { return a; }  // integers and bool: themselves
CJ_FN float uf_floor(float a) { return CJ_LIBM_F(floor)(a); }
CJ_FN double uf_floor(double a) { return CJ_LIBM_D(floor)(a); }
template <class T> CJ_FN T uf_ceil(T a) { return a; }
CJ_FN float uf_ceil(float a) { return CJ_LIBM_F(ceil)(a); }
CJ_FN double uf_ceil(double a) { return CJ_LIBM_D(ceil)(a); }
template <class T> CJ_FN T uf_trunc(T a) { return a; }
CJ_FN float uf_trunc(float a) { return CJ_LIBM_F(trunc)(a); }
CJ_FN double uf_trunc(double a) { return CJ_LIBM_D(trunc)(a); }
CJ_FN float uf_rint(float a) { return CJ_LIBM_F(rint)(a); }
CJ_FN double uf_rint(double a) { return CJ_LIBM_D(rint)(a); }
template <class F> CJ_FN Complex<F> uf_rint(Complex<F> a) { return {uf_rint(a.re), uf_rint(a.im)}; }  // each part
// floor_divide / remainder: Python's signs (the divisor's), 0 for a zero integer divisor, as
// NumPy gives (with a warning); computed in 64 bits and wrapped back (int8 -128 // -1 is -128).
template <class T> CJ_FN T uf_floor_divide(T a, T b) {
  if ((T)-1 < 0) {
    if (b == (T)-1) return (T)(0ULL - (uint64_t)(int64_t)a);  // NumPy: INT64_MIN // -1 wraps
    return (T)floordiv((int64_t)a, (int64_t)b);
  }
  return (T)floordiv((uint64_t)a, (uint64_t)b);
}
CJ_FN float uf_floor_divide(float a, float b) { return floordiv(a, b); }
CJ_FN double uf_floor_divide(double a, double b) { return floordiv(a, b); }
template <class T> CJ_FN T uf_remainder(T a, T b) {
  if ((T)-1 < 0) return (T)pymod((int64_t)a, (int64_t)b);
  return (T)pymod((uint64_t)a, (uint64_t)b);
}
CJ_FN float uf_remainder(float a, float b) { return pymod(a, b); }
CJ_FN double uf_remainder(double a, double b) { return pymod(a, b); }
// fmod: C's sign (the dividend's), 0 for a zero integer divisor (NumPy's; Numba's @njit gives
// the divisor's sign for integers, a difference cujit does not copy).
template <class T> CJ_FN T uf_fmod(T a, T b) {
  if (b == 0) return (T)0;
  if ((T)-1 < 0 && b == (T)-1) return (T)0;  // INT_MIN % -1 traps in C
  return (T)(a % b);
}
CJ_FN float uf_fmod(float a, float b) { return CJ_LIBM_F(fmod)(a, b); }
CJ_FN double uf_fmod(double a, double b) { return CJ_LIBM_D(fmod)(a, b); }
// Integer powers stay integers: Numba's int_power, the same as `**` in GPU code (common.h's
// ipow: 0 ** -n the type's smallest value, an exponent beyond 0x10000 math.pow in double); NumPy
// raises ValueError for negative exponents instead.
template <class T> CJ_FN T uf_power(T a, T b) { return ipow(a, b); }
template <class F> CJ_FN Complex<F> uf_power(Complex<F> a, Complex<F> b) { return pow(a, b); }
CJ_FN float uf_power(float a, float b) { return CJ_LIBM_F(pow)(a, b); }
CJ_FN double uf_power(double a, double b) { return CJ_LIBM_D(pow)(a, b); }
// NumPy's npy_logaddexp/npy_logaddexp2 (Numba's np_real_logaddexp_impl): equal arguments first,
// so that two equal infinities give that infinity, not inf - inf; a NaN difference is returned.
template <class F> CJ_FN F uf_logaddexp(F x, F y) {
  if (x == y) return x + (F)0.693147180559945309417232121458176568;
  const F d = x - y;
  if (d > 0) return x + log1p(exp(-d));
  if (d <= 0) return y + log1p(exp(d));
  return d;
}
template <class F> CJ_FN F uf_logaddexp2(F x, F y) {
  const F log2e = (F)1.442695040888963407359924681001892137;
  if (x == y) return x + 1;
  const F d = x - y;
  if (d > 0) return x + log2e * log1p(exp2(-d));
  if (d <= 0) return y + log2e * log1p(exp2(d));
  return d;
}
// The distance to the next number away from zero (negative for negative x; -0.0 counts as
// negative); NaN for infinities and NaN, infinity past the largest finite number (NumPy's).
template <class F> CJ_FN F uf_spacing(F x) { return nextafter(x, copysign((F)CJ_INF, x)) - x; }
CJ_FN float uf_ldexp(float x, int64_t i) { return ldexp(x, i); }
CJ_FN double uf_ldexp(double x, int64_t i) { return ldexp(x, i); }

// ---- predicates ---------------------------------------------------------------------------------
template <class T> CJ_FN bool uf_isnan(T a) { return a != a; }
template <class T> CJ_FN bool uf_isinf(T a) { return a == (T)CJ_INF || a == -(T)CJ_INF; }
template <class T> CJ_FN bool uf_isfinite(T a) { return !(a != a) && !uf_isinf(a); }
CJ_FN bool uf_isinf(bool) { return false; }
CJ_FN bool uf_isinf(int8_t) { return false; }
CJ_FN bool uf_isinf(uint8_t) { return false; }
CJ_FN bool uf_isinf(int16_t) { return false; }
CJ_FN bool uf_isinf(uint16_t) { return false; }
CJ_FN bool uf_isinf(int32_t) { return false; }
CJ_FN bool uf_isinf(uint32_t) { return false; }
CJ_FN bool uf_isinf(int64_t) { return false; }
CJ_FN bool uf_isinf(uint64_t) { return false; }
CJ_FN bool uf_signbit(float a) { return CJ_LIBM_F(copysign)(1.0f, a) < 0; }
CJ_FN bool uf_signbit(double a) { return CJ_LIBM_D(copysign)(1.0, a) < 0; }

// ---- the array loop -----------------------------------------------------------------------------
// A shape error stops a simulated launch with NumPy's ValueError; a GPU thread ends, as
// numba-cuda's does on an exception. (@jit code raises it: host_arrays.h's UfErrPy.)
struct UfErrLaunch {
  static constexpr bool zero_division = false;  // division by zero gives inf/NaN, as in NumPy
  static CJ_METHOD void fail(const char* msg) {
#if CJ_TARGET_HOST
    sim_value_error(msg);
#else
    (void)msg;
    asm volatile("exit;");
#endif
  }
};

// An input as seen from the output's index idx[0..n): a number is itself; an array's axes are
// the last ones, an axis of length 1 repeated (NumPy's broadcasting).
template <class T> CJ_FN T uf_load(const T& v, const int64_t*, int) { return v; }
template <class T, int M> CJ_FN T uf_load(const Array<T, M>& a, const int64_t* idx, int n) {
  const char* p = (const char*)a.data;
  for (int k = 0; k < M; ++k)
    if (a.shape[k] != 1) p += idx[n - M + k] * a.strides[k];
  return *(const T*)p;
}
// Folds an input's shape into the broadcast shape d[0..n) (all 1 to begin with); false where
// they cannot broadcast.
template <class T> CJ_FN bool uf_broadcast(const T&, int64_t*, int) { return true; }
template <class T, int M> CJ_FN bool uf_broadcast(const Array<T, M>& a, int64_t* d, int n) {
  bool ok = M <= n;
  for (int k = 0; k < M && ok; ++k) {
    int64_t& s = d[n - M + k];
    if (s == 1) s = a.shape[k];
    else if (a.shape[k] != 1 && a.shape[k] != s) ok = false;
  }
  return ok;
}

/// out[...] = f(inputs broadcast to out's shape...), in C order; returns out. The inputs must
/// broadcast to exactly out's shape (NumPy never broadcasts an output).
template <class E, class R, int N, class F, class... In>
CJ_FN Array<R, N> ufunc_apply(const Array<R, N>& out, F f, const In&... in) {
  int64_t d[N];
  for (int k = 0; k < N; ++k) d[k] = 1;
  bool ok = true;
  ((ok = uf_broadcast(in, d, N) && ok), ...);
  if (!ok) E::fail("ValueError: operands could not be broadcast together");
  for (int k = 0; k < N; ++k)
    if (d[k] != out.shape[k] && d[k] != 1) E::fail("ValueError: non-broadcastable output operand: its shape does not match the inputs' broadcast shape");
  int64_t n = size(out);
  int64_t idx[N];
  for (int k = 0; k < N; ++k) idx[k] = 0;
  for (int64_t i = 0; i < n; ++i) {
    char* p = (char*)out.data;
    for (int k = 0; k < N; ++k) p += idx[k] * out.strides[k];
    *(R*)p = (R)f(uf_load(in, idx, N)...);
    for (int k = N - 1; k >= 0; --k) {
      if (++idx[k] < out.shape[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

// ---- whole-array reductions (np.sum(a), a.min(), ...), in C order, as Numba computes them ------
template <class T, int N, class F>
CJ_FN void red_each(const Array<T, N>& a, F f) {
  const int64_t n = size(a);
  int64_t idx[N];
  for (int k = 0; k < N; ++k) idx[k] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const char* p = (const char*)a.data;
    for (int k = 0; k < N; ++k) p += idx[k] * a.strides[k];
    f(*(const T*)p);
    for (int k = N - 1; k >= 0; --k) {
      if (++idx[k] < a.shape[k]) break;
      idx[k] = 0;
    }
  }
}
template <class T> CJ_FN bool red_nan(T x) { return x != x; }

template <class E, class R, class T, int N> CJ_FN R red_sum(const Array<T, N>& a) {
  R s = 0;
  red_each(a, [&](T x) { s = uf_add(s, (R)x); });
  return s;
}
template <class E, class R, class T, int N> CJ_FN R red_prod(const Array<T, N>& a) {
  R s = 1;
  red_each(a, [&](T x) { s = uf_multiply(s, (R)x); });
  return s;
}
template <class E, class R, class T, int N> CJ_FN R red_nansum(const Array<T, N>& a) {
  R s = 0;
  red_each(a, [&](T x) { if (!red_nan(x)) s = uf_add(s, (R)x); });
  return s;
}
template <class E, class R, class T, int N> CJ_FN R red_nanprod(const Array<T, N>& a) {
  R s = 1;
  red_each(a, [&](T x) { if (!red_nan(x)) s = uf_multiply(s, (R)x); });
  return s;
}
// Numba's mean: summed in the result's type (float64 for integers), divided in float64; NaN
// for an empty array.
template <class T> struct UfIsComplex { static constexpr bool value = false; };
template <class F> struct UfIsComplex<Complex<F>> { static constexpr bool value = true; };
template <class E, class R, class T, int N> CJ_FN R red_mean(const Array<T, N>& a) {
  const int64_t n = size(a);
  if constexpr (UfIsComplex<R>::value) {  // the complex sum, each part divided by the count
    if (n == 0) return R(CJ_NAN, CJ_NAN);
    R s = 0;
    red_each(a, [&](T x) { s += (R)x; });
    return R(s.re / n, s.im / n);
  } else {
    if (n == 0) return (R)CJ_NAN;
    R s = 0;
    red_each(a, [&](T x) { s += (R)x; });
    return (R)((double)s / (double)n);
  }
}
template <class E, class R, class T, int N> CJ_FN R red_nanmean(const Array<T, N>& a) {
  if constexpr (UfIsComplex<R>::value) {
    // Summed in complex128 and divided as Numba's complex division by (n + 0j) does: each part
    // (re + im * 0) / n and (im - re * 0) / n.
    R s = 0;
    int64_t n = 0;
    red_each(a, [&](T x) { if (!red_nan(x)) { s += (R)x; ++n; } });
    const double d = (double)n;
    if (n == 0) return R(CJ_NAN, CJ_NAN);
    return R((s.re + s.im * 0.0) / d, (s.im - s.re * 0.0) / d);
  } else {
    double s = 0;
    int64_t n = 0;
    red_each(a, [&](T x) { if (!red_nan(x)) { s += (double)x; ++n; } });
    return (R)(s / (double)n);  // NaN where nothing counted, as np.divide gives
  }
}
// Numba's var: the mean in the mean's type, each deviation in that type, their squares summed in
// float64. An empty array divides by zero: ZeroDivisionError in @jit code (Numba's), NaN in GPU
// code (numba-cuda's error model is NumPy's).
template <class T> struct UfMeanOf { typedef double type; };
template <> struct UfMeanOf<float> { typedef float type; };
template <class F> struct UfMeanOf<Complex<F>> { typedef Complex<F> type; };  // |x - mean|**2 in F
template <class E, class R, class T, int N> CJ_FN R red_var(const Array<T, N>& a) {
  const int64_t n = size(a);
  if (n == 0) {
    if (E::zero_division) E::fail("ZeroDivisionError: division by zero");
    return (R)CJ_NAN;
  }
  // float32 arrays: a float32 mean and deviations; everything else in float64.
  typedef typename UfMeanOf<T>::type MT;
  const MT m = red_mean<E, MT>(a);
  double ssd = 0;
  red_each(a, [&](T x) {
    const MT v = (MT)((MT)x - m);
    if constexpr (UfIsComplex<MT>::value) ssd += (double)(v.re * v.re + v.im * v.im);  // real(v * conj(v))
    else ssd += (double)(MT)(v * v);
  });
  return (R)(ssd / (double)n);
}
template <class E, class R, class T, int N> CJ_FN R red_std(const Array<T, N>& a) {
  return (R)CJ_LIBM_D(sqrt)((double)red_var<E, double>(a));
}
// min/max: the first NaN wins; an empty array has none (ValueError, NumPy's and Numba's message).
// One body for both: `Max` picks the comparison.
template <bool Max, class T> CJ_FN bool red_beats(T x, T m) { return Max ? x > m : x < m; }
// Complex numbers order by real part, then imaginary part (Numba's min/max/nanmin/nanmax); a
// comparison with a NaN part is false, so a NaN neither beats nor is beaten.
template <bool Max, class F> CJ_FN bool red_beats(Complex<F> x, Complex<F> m) {
  return Max ? x.re > m.re || (x.re == m.re && x.im > m.im) : x.re < m.re || (x.re == m.re && x.im < m.im);
}
template <bool Max, class E, class R, class T, int N> CJ_FN R red_extreme(const Array<T, N>& a) {
  if (size(a) == 0)
    E::fail(Max ? "ValueError: zero-size array to reduction operation maximum which has no identity"
                : "ValueError: zero-size array to reduction operation minimum which has no identity");
  bool first = true, nan = false;
  T m = 0;
  red_each(a, [&](T x) {
    if (nan) return;
    // Numba has no NaN rule for complex min/max: a NaN is kept only where it comes first.
    if (!UfIsComplex<T>::value && red_nan(x)) { nan = true; m = x; return; }
    if (first || red_beats<Max>(x, m)) m = x;
    first = false;
  });
  return (R)m;
}
template <class E, class R, class T, int N> CJ_FN R red_min(const Array<T, N>& a) { return red_extreme<false, E, R>(a); }
template <class E, class R, class T, int N> CJ_FN R red_max(const Array<T, N>& a) { return red_extreme<true, E, R>(a); }
// nanmin/nanmax skip NaN; all NaN gives NaN.
template <bool Max, class E, class R, class T, int N> CJ_FN R red_nanextreme(const Array<T, N>& a) {
  if (size(a) == 0) E::fail("ValueError: zero-size array to reduction operation not possible");
  // Numba's: the first element, then each later one in turn. A real number replaces the kept
  // value unless the kept one beats it (so NaN is replaced, and of equals the last is kept:
  // -0.0 after 0.0); all NaN gives the first. A complex number replaces it where the kept real
  // part is NaN and its own is not, or where it beats it (a NaN imaginary part is no NaN).
  bool first = true;
  T m = 0;
  red_each(a, [&](T x) {
    if (first) m = x;
    else if constexpr (UfIsComplex<T>::value) {
      if ((m.re != m.re && x.re == x.re) || red_beats<Max>(x, m)) m = x;
    } else if (!red_nan(x) && !red_beats<Max>(m, x)) {
      m = x;
    }
    first = false;
  });
  return (R)m;
}
template <class E, class R, class T, int N> CJ_FN R red_nanmin(const Array<T, N>& a) { return red_nanextreme<false, E, R>(a); }
template <class E, class R, class T, int N> CJ_FN R red_nanmax(const Array<T, N>& a) { return red_nanextreme<true, E, R>(a); }
// argmin/argmax: the flat (C-order) index of the first extreme, or of the first NaN.
template <bool Max, class E, class R, class T, int N> CJ_FN R red_arg_extreme(const Array<T, N>& a) {
  if (size(a) == 0)
    E::fail(Max ? "ValueError: attempt to get argmax of an empty sequence"
                : "ValueError: attempt to get argmin of an empty sequence");
  int64_t i = 0, at = -1;
  bool nan = false;
  T m = 0;
  red_each(a, [&](T x) {
    if (!nan) {
      if (red_nan(x)) { nan = true; at = i; }
      else if (at < 0 || red_beats<Max>(x, m)) { m = x; at = i; }
    }
    ++i;
  });
  return (R)at;
}
template <class E, class R, class T, int N> CJ_FN R red_argmin(const Array<T, N>& a) { return red_arg_extreme<false, E, R>(a); }
template <class E, class R, class T, int N> CJ_FN R red_argmax(const Array<T, N>& a) { return red_arg_extreme<true, E, R>(a); }
template <class E, class R, class T, int N> CJ_FN R red_all(const Array<T, N>& a) {
  bool r = true;
  red_each(a, [&](T x) { r = r && (bool)x; });
  return r;
}
template <class E, class R, class T, int N> CJ_FN R red_any(const Array<T, N>& a) {
  bool r = false;
  red_each(a, [&](T x) { r = r || (bool)x; });
  return r;
}
template <class E, class R, class T, int N> CJ_FN R red_count_nonzero(const Array<T, N>& a) {
  int64_t c = 0;
  red_each(a, [&](T x) { c += (bool)x ? 1 : 0; });
  return (R)c;
}

}  // namespace cj
