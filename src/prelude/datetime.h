// datetime64 and timedelta64 (NumPy's M8[unit] and m8[unit]), for both targets; after common.h.
// A value is its int64 count of units; NaT is INT64_MIN. The unit U is a template argument, the
// index of types.def's rows: Y M W D h m s ms us ns ps fs as, then 13 for the generic unit. The
// compiler types every operation (typeinfer_datetime.cpp: which operations exist and the unit R
// both operands meet in), so these functions take R from it and only compute, as Numba does:
// NaT in gives NaT out (or false from a comparison, true from !=), conversions to a finer unit
// multiply, and Y/M datetimes meet day-based units through the calendar.
namespace cj {

template <int U> struct td64 { int64_t v; };
template <int U> struct dt64 { int64_t v; };

constexpr int64_t kNaT = -9223372036854775807LL - 1;
constexpr int kUnitGeneric = 13;
// The number types a timedelta multiplies or divides by: integers, or float32/float64 (typing).
template <class N> struct time_is_float { static constexpr bool value = false; };
template <> struct time_is_float<float> { static constexpr bool value = true; };
template <> struct time_is_float<double> { static constexpr bool value = true; };

// Units from -> to (to finer, both from W on): the product of the steps between them.
CJ_FN constexpr uint64_t time_factor(int from, int to) {
  uint64_t f = 1;
  for (int u = from; u < to; ++u) f *= u == 2 ? 7 : u == 3 ? 24 : (u == 4 || u == 5) ? 60 : 1000;
  return f;
}
// Wrapping int64 arithmetic (as Numba's LLVM code wraps), without signed overflow in C++.
CJ_FN int64_t time_wrap_mul(int64_t a, uint64_t f) { return (int64_t)((uint64_t)a * f); }
CJ_FN int64_t time_floordiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
// Days from 1970-01-01 to year-month-01 of the proleptic Gregorian calendar (NumPy's).
CJ_FN int64_t time_days_from_civil(int64_t y, int64_t m) {
  y -= m <= 2;
  const int64_t era = time_floordiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

template <int R, int U> CJ_FN td64<R> td_to(td64<U> a) {
  if constexpr (U == R || U == kUnitGeneric) {
    return {a.v};
  } else {
    if (a.v == kNaT) return {kNaT};
    if constexpr (U == 0) return {time_wrap_mul(a.v, 12)};  // Y -> M, the one step from Y (typing)
    else return {time_wrap_mul(a.v, time_factor(U, R))};
  }
}

template <int R, int U> CJ_FN dt64<R> dt_to(dt64<U> a) {
  if constexpr (U == R || U == kUnitGeneric) {
    return {a.v};
  } else {
    if (a.v == kNaT) return {kNaT};
    if constexpr (U <= 1 && R == 1) {
      return {time_wrap_mul(a.v, 12)};  // Y -> M
    } else if constexpr (U <= 1) {  // Y or M -> days through the calendar, then on
      const int64_t days = U == 0 ? time_days_from_civil(1970 + a.v, 1)
                                  : time_days_from_civil(1970 + time_floordiv(a.v, 12), a.v - time_floordiv(a.v, 12) * 12 + 1);
      if constexpr (R == 2) return {time_floordiv(days, 7)};  // weeks since 1970-01-01
      else return {time_wrap_mul(days, time_factor(3, R))};
    } else {
      return {time_wrap_mul(a.v, time_factor(U, R))};
    }
  }
}

template <int R, int U> CJ_FN td64<R> time_at(td64<U> a) { return td_to<R>(a); }
template <int R, int U> CJ_FN dt64<R> time_at(dt64<U> a) { return dt_to<R>(a); }

CJ_FN int64_t time_nat2(int64_t x, int64_t y, int64_t r) { return x == kNaT || y == kNaT ? kNaT : r; }

// + and -: each operand in unit R first.
template <int R, int A, int B> CJ_FN td64<R> time_sub(dt64<A> a, dt64<B> b) {
  const int64_t x = dt_to<R>(a).v, y = dt_to<R>(b).v;
  return {time_nat2(x, y, (int64_t)((uint64_t)x - (uint64_t)y))};
}
template <int R, int A, int B> CJ_FN dt64<R> time_sub(dt64<A> a, td64<B> b) {
  const int64_t x = dt_to<R>(a).v, y = td_to<R>(b).v;
  return {time_nat2(x, y, (int64_t)((uint64_t)x - (uint64_t)y))};
}
template <int R, int A, int B> CJ_FN td64<R> time_sub(td64<A> a, td64<B> b) {
  const int64_t x = td_to<R>(a).v, y = td_to<R>(b).v;
  return {time_nat2(x, y, (int64_t)((uint64_t)x - (uint64_t)y))};
}
template <int R, int A, int B> CJ_FN dt64<R> time_add(dt64<A> a, td64<B> b) {
  const int64_t x = dt_to<R>(a).v, y = td_to<R>(b).v;
  return {time_nat2(x, y, (int64_t)((uint64_t)x + (uint64_t)y))};
}
template <int R, int A, int B> CJ_FN dt64<R> time_add(td64<A> a, dt64<B> b) { return time_add<R>(b, a); }
template <int R, int A, int B> CJ_FN td64<R> time_add(td64<A> a, td64<B> b) {
  const int64_t x = td_to<R>(a).v, y = td_to<R>(b).v;
  return {time_nat2(x, y, (int64_t)((uint64_t)x + (uint64_t)y))};
}

// A float result back to a count: NaN, inf and values out of int64's range are NaT (Numba's
// fptosi gives INT64_MIN for them on x86), others truncate.
template <class F> CJ_FN int64_t time_from_float(F r) {
  const double d = (double)r;
  return (d >= -9223372036854775808.0 && d < 9223372036854775808.0) ? (int64_t)d : kNaT;
}

// timedelta * number, number * timedelta: in the number's type (an integer wraps, a float
// computes in that float, as Numba converts the count to it).
template <int U, class N> CJ_FN td64<U> time_mul(td64<U> a, N n) {
  if (a.v == kNaT) return {kNaT};
  if constexpr (time_is_float<N>::value) return {time_from_float((N)a.v * n)};
  else return {(int64_t)((uint64_t)a.v * (uint64_t)(int64_t)n)};
}
template <int U, class N> CJ_FN td64<U> time_mul(N n, td64<U> a) { return time_mul(a, n); }

// timedelta / number and timedelta // number: division by zero is NaT; integers truncate (Numba's
// sdiv, for // too).
template <int U, class N> CJ_FN td64<U> time_div(td64<U> a, N n) {
  if (a.v == kNaT) return {kNaT};
  if constexpr (time_is_float<N>::value) {
    return {time_from_float((N)a.v / n)};
  } else {
    if (n == 0) return {kNaT};
    if ((int64_t)n == -1) return {(int64_t)(0 - (uint64_t)a.v)};
    return {a.v / (int64_t)n};
  }
}
// timedelta / timedelta: a float64 in unit R; NaT gives NaN.
template <int R, int A, int B> CJ_FN double time_div_td(td64<A> a, td64<B> b) {
  const int64_t x = td_to<R>(a).v, y = td_to<R>(b).v;
  if (x == kNaT || y == kNaT) return CJ_NAN;
  return (double)x / (double)y;
}

// Comparisons in unit R: NaT compares false, except != which is true.
template <int R, class A, class B> CJ_FN bool time_eq(A a, B b) {
  const int64_t x = time_at<R>(a).v, y = time_at<R>(b).v;
  return x != kNaT && y != kNaT && x == y;
}
template <int R, class A, class B> CJ_FN bool time_ne(A a, B b) { return !time_eq<R>(a, b); }
template <int R, class A, class B> CJ_FN bool time_lt(A a, B b) {
  const int64_t x = time_at<R>(a).v, y = time_at<R>(b).v;
  return x != kNaT && y != kNaT && x < y;
}
template <int R, class A, class B> CJ_FN bool time_le(A a, B b) {
  const int64_t x = time_at<R>(a).v, y = time_at<R>(b).v;
  return x != kNaT && y != kNaT && x <= y;
}
template <int R, class A, class B> CJ_FN bool time_gt(A a, B b) { return time_lt<R>(b, a); }
template <int R, class A, class B> CJ_FN bool time_ge(A a, B b) { return time_le<R>(b, a); }

template <int U> CJ_FN td64<U> time_neg(td64<U> a) { return {a.v == kNaT ? kNaT : (int64_t)(0 - (uint64_t)a.v)}; }
template <int U> CJ_FN td64<U> time_abs(td64<U> a) { return a.v < 0 ? time_neg(a) : a; }
template <int U> CJ_FN bool isnat(td64<U> a) { return a.v == kNaT; }
template <int U> CJ_FN bool isnat(dt64<U> a) { return a.v == kNaT; }

}  // namespace cj
