// ---- cmath (after complex.h, both targets) ------------------------------------------------------
// One implementation for the GPU, the simulator and @jit, so that the simulator proves the GPU's
// special values. Each function is computed in double (complex64 too, then rounded: the result
// numba-cuda's tests expect is CPython's double result rounded) in two parts:
//  - an infinite or NaN component: the C99 Annex G value, with CPython's choice where C99 leaves a
//    sign unspecified (cmath_testcases.txt's ignore-*-sign rows); where CPython raises
//    (ValueError/OverflowError) the value is the one CPython computes before raising, which is
//    what C99 gives and, where Numba's own value is not garbage, what Numba returns (log(0) is
//    -inf+0j);
//  - finite components: CPython's formulas, scaled where a naive formula overflows or loses
//    subnormals (so sqrt(5e-324j) is not a ZeroDivisionError or 0, and acos(1e300) is finite).
// Real-valued helpers come from common.h (CUDA's libm on the GPU, the C library's on the host).
namespace cj {
namespace cm {

using C = Complex<double>;
constexpr double kLarge = 4.4942328371557893e+307;     // DBL_MAX / 4
constexpr double kSqrtLarge = 6.703903964971298e+153;  // sqrt(kLarge)
constexpr double kLogLarge = 708.3964185322641;        // log(kLarge)
constexpr double kSqrtDblMin = 1.4916681462400413e-154;
constexpr double kDblMin = 2.2250738585072014e-308;
constexpr double kLn2 = 0.6931471805599453;
constexpr double kLn10 = 2.302585092994046;
constexpr double kE = 2.718281828459045;
constexpr double kPi = 3.141592653589793;
constexpr double kPi2 = 1.5707963267948966;
constexpr double kPi4 = 0.7853981633974483;

CJ_FN double inf() { return CJ_INF; }
CJ_FN double nan() { return CJ_NAN; }
CJ_FN bool fin(double x) { return isfinite(x); }
CJ_FN double sgn_zero(double like) { return copysign(0.0, like); }
CJ_FN double sgn_inf(double like) { return copysign((double)CJ_INF, like); }

CJ_FN C c_sqrt(double x, double y) {
  if (isinf(y)) return {inf(), y};
  if (isnan(x)) return {nan(), nan()};
  if (isinf(x)) {
    if (isnan(y)) return x < 0 ? C{nan(), inf()} : C{x, nan()};
    return x < 0 ? C{0.0, sgn_inf(y)} : C{x, sgn_zero(y)};
  }
  if (isnan(y)) return {nan(), nan()};
  if (x == 0 && y == 0) return {0.0, y};
  double ax = abs(x), ay = abs(y), s;
  if (ax < kDblMin && ay < kDblMin) {  // subnormal: scale by 2**53 (exact), root, scale back
    ax = ldexp(ax, (int64_t)53);
    s = ldexp(sqrt(ax + hypot(ax, ldexp(ay, (int64_t)53))), (int64_t)-27);
  } else {  // /8 so that hypot cannot overflow
    ax /= 8.0;
    s = 2.0 * sqrt(ax + hypot(ax, ay / 8.0));
  }
  const double d = ay / (2.0 * s);
  if (x >= 0) return {s, copysign(d, y)};
  return {d, copysign(s, y)};
}

CJ_FN C c_exp(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isnan(x)) return {x, y == 0 ? y : nan()};
    if (isinf(x) && fin(y)) {
      if (x > 0) {
        if (y == 0) return {x, y};
        return {sgn_inf(cos(y)), sgn_inf(sin(y))};
      }
      return {sgn_zero(cos(y)), sgn_zero(sin(y))};
    }
    if (isinf(x)) return x > 0 ? C{x, nan()} : C{0.0, 0.0};  // y inf or nan
    return {nan(), nan()};                                      // finite x, y inf or nan
  }
  if (y == 0) return {exp(x), y};  // a real's exp keeps the zero (no inf * 0 where it overflows)
  if (x > kLogLarge) {             // exp(x) alone would overflow where the product need not
    const double l = exp(x - 1.0);
    return {l * cos(y) * kE, l * sin(y) * kE};
  }
  const double l = exp(x);
  return {l * cos(y), l * sin(y)};
}

CJ_FN double log_abs(double x, double y) {  // log(|x + yj|) of finite components
  const double ax = abs(x), ay = abs(y);
  if (ax > kLarge || ay > kLarge) return log(hypot(ax / 2.0, ay / 2.0)) + kLn2;
  if (ax < kDblMin && ay < kDblMin) {
    if (ax > 0 || ay > 0) return log(hypot(ldexp(ax, (int64_t)53), ldexp(ay, (int64_t)53))) - 53 * kLn2;
    return -inf();  // log(0): -inf (CPython raises ValueError; Numba returns this)
  }
  const double h = hypot(ax, ay);
  if (0.71 <= h && h <= 1.73) {  // near |z| = 1: log1p keeps the digits log(h) loses
    const double am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
    return log1p((am - 1) * (am + 1) + an * an) / 2.0;
  }
  return log(h);
}
CJ_FN C c_log(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isinf(x) || isinf(y)) return {inf(), (isnan(x) || isnan(y)) ? nan() : atan2(y, x)};
    return {nan(), nan()};
  }
  return {log_abs(x, y), atan2(y, x)};
}

// sinh and cosh: an infinite real part scales cis(y) (keeping a zero y's zero); sinh(+-0 + nan j)
// and cosh(+-0 + nan j), cosh(nan +- 0j) take CPython's +0.
CJ_FN C c_sinh(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isinf(x) && fin(y)) {
      if (y == 0) return {x, y};
      return {copysign((double)CJ_INF, cos(y)) * copysign(1.0, x), sgn_inf(sin(y))};
    }
    if (isinf(x)) return {inf(), nan()};  // y inf or nan: CPython's +inf
    if (isnan(x)) return {nan(), y == 0 ? y : nan()};
    return {x == 0 ? 0.0 : nan(), nan()};  // finite x, y inf or nan
  }
  if (abs(x) > kLogLarge) {
    const double xm1 = x - copysign(1.0, x);
    return {cos(y) * sinh(xm1) * kE, y == 0 ? y : sin(y) * cosh(xm1) * kE};
  }
  return {cos(y) * sinh(x), sin(y) * cosh(x)};
}
CJ_FN C c_cosh(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isinf(x) && fin(y)) {
      if (y == 0) return {inf(), y * copysign(1.0, x)};
      return {sgn_inf(cos(y)), copysign((double)CJ_INF, sin(y)) * copysign(1.0, x)};
    }
    if (isinf(x)) return {inf(), nan()};
    if (isnan(x)) return {nan(), y == 0 ? 0.0 : nan()};
    return {nan(), x == 0 ? 0.0 : nan()};
  }
  if (abs(x) > kLogLarge) {
    const double xm1 = x - copysign(1.0, x);
    return {cos(y) * cosh(xm1) * kE, y == 0 ? y * copysign(1.0, x) : sin(y) * sinh(xm1) * kE};
  }
  return {cos(y) * cosh(x), sin(y) * sinh(x)};
}
CJ_FN C c_tanh(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isinf(x)) return {copysign(1.0, x), fin(y) ? sgn_zero(sin(2 * y)) : 0.0};
    if (isnan(x)) return {nan(), y == 0 ? y : nan()};
    return {nan(), nan()};
  }
  if (abs(x) > kLogLarge) return {copysign(1.0, x), 4 * sin(y) * cos(y) * exp(-2 * abs(x))};
  const double tx = tanh(x), ty = tan(y), cx = 1.0 / cosh(x), txty = tx * ty;
  const double denom = 1.0 + txty * txty;
  return {tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx};
}

CJ_FN C c_asinh(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isinf(x)) {
      if (isnan(y)) return {x, nan()};
      return {x, isinf(y) ? copysign(kPi4, y) : sgn_zero(y)};
    }
    if (isinf(y)) return {isnan(x) ? inf() : sgn_inf(x), isnan(x) ? nan() : copysign(kPi2, y)};
    if (isnan(x)) return {nan(), y == 0 ? y : nan()};
    return {nan(), nan()};
  }
  if (abs(x) > kLarge || abs(y) > kLarge) {
    return {copysign(log(hypot(x / 2.0, y / 2.0)) + 2 * kLn2, x), atan2(y, abs(x))};
  }
  const C s1 = c_sqrt(1.0 + y, -x), s2 = c_sqrt(1.0 - y, x);
  return {asinh(s1.re * s2.im - s2.re * s1.im), atan2(y, s1.re * s2.re - s1.im * s2.im)};
}
CJ_FN C c_acos(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isnan(x) || isnan(y)) {
      if (isinf(x)) return {nan(), inf()};
      if (isinf(y)) return {nan(), -sgn_inf(y)};
      if (x == 0) return {kPi2, nan()};
      return {nan(), nan()};
    }
    return {atan2(abs(y), x), -sgn_inf(y)};
  }
  if (abs(x) > kLarge || abs(y) > kLarge) {
    return {atan2(abs(y), x), -copysign(log(hypot(x / 2.0, y / 2.0)) + 2 * kLn2, y)};
  }
  const C s1 = c_sqrt(1.0 - x, -y), s2 = c_sqrt(1.0 + x, y);
  return {2.0 * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re)};
}
CJ_FN C c_acosh(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isnan(x) || isnan(y)) return {(isinf(x) || isinf(y)) ? inf() : nan(), nan()};
    return {inf(), atan2(y, x)};
  }
  if (abs(x) > kLarge || abs(y) > kLarge) return {log(hypot(x / 2.0, y / 2.0)) + 2 * kLn2, atan2(y, x)};
  const C s1 = c_sqrt(x - 1.0, y), s2 = c_sqrt(x + 1.0, y);
  return {asinh(s1.re * s2.re + s1.im * s2.im), 2.0 * atan2(s1.im, s2.re)};
}
CJ_FN C c_atanh(double x, double y) {
  if (!fin(x) || !fin(y)) {
    if (isinf(x) || isinf(y)) {
      if (isnan(x)) return {0.0, copysign(kPi2, y)};
      if (isnan(y)) return {sgn_zero(x), nan()};
      return {sgn_zero(x), copysign(kPi2, y)};
    }
    if (x == 0) return {x, nan()};  // +-0 + nan j
    return {nan(), nan()};
  }
  if (x < 0 || (x == 0 && copysign(1.0, x) < 0)) {  // atanh is odd: work on x >= +0
    const C r = c_atanh(-x, -y);
    return {-r.re, -r.im};
  }
  const double ay = abs(y);
  if (x > kSqrtLarge || ay > kSqrtLarge) {  // 1 / z, without overflow
    const double h = hypot(x / 2.0, y / 2.0);
    return {x / 4.0 / h / h, -copysign(kPi2, -y)};
  }
  if (x == 1.0 && ay < kSqrtDblMin) {
    if (ay == 0) return {inf(), y};  // atanh(1): inf (CPython raises ValueError)
    return {-log(sqrt(ay) / sqrt(hypot(ay, 2.0))), copysign(atan2(2.0, -ay) / 2.0, y)};
  }
  const double om = 1.0 - x;
  return {log1p(4.0 * x / (om * om + ay * ay)) / 4.0, -atan2(-2.0 * y, om * (1.0 + x) - ay * ay) / 2.0};
}

// The circular functions through the hyperbolic ones: f(z) = -i g(iz) (sin, tan, asin, atan) and
// cos(z) = cosh(iz), as CPython computes them (so their special values follow).
CJ_FN C minus_i(C r) { return {r.im, -r.re}; }

CJ_FN C c_rect(double r, double phi) {
  if (!fin(r) || !fin(phi)) {
    if (isinf(r) && fin(phi) && phi != 0) {
      const double s = r > 0 ? 1.0 : -1.0;
      return {s * sgn_inf(cos(phi)), s * sgn_inf(sin(phi))};
    }
    if (isinf(r) && fin(phi)) return {r, r > 0 ? phi : -phi};  // phi == +-0
    if (isinf(r)) return {isnan(phi) ? inf() : r, nan()};         // phi inf or nan (CPython's +inf for nan)
    if (isnan(r)) return {nan(), phi == 0 ? 0.0 : nan()};  // CPython: +0 for either zero
    if (r == 0) return {0.0, 0.0};                                 // 0 * cis(inf or nan)
    return {nan(), nan()};
  }
  if (phi == 0) return {r, r * phi};
  return {r * cos(phi), r * sin(phi)};
}

}  // namespace cm

template <class F> CJ_FN Complex<F> sqrt(Complex<F> z) { return Complex<F>(cm::c_sqrt(z.re, z.im)); }
template <class F> CJ_FN Complex<F> exp(Complex<F> z) { return Complex<F>(cm::c_exp(z.re, z.im)); }
template <class F> CJ_FN Complex<F> log(Complex<F> z) { return Complex<F>(cm::c_log(z.re, z.im)); }
template <class F>
CJ_FN Complex<F> log10(Complex<F> z) {
  const cm::C l = cm::c_log(z.re, z.im);
  return {(F)(l.re / cm::kLn10), (F)(l.im / cm::kLn10)};
}
// np.log2 and np.exp2 of a complex, as Numba's loops, in the loop's precision: log(hypot) and
// atan2, each times log2(e); exp of z times ln 2 (cmath's special values where a part is not
// finite).
template <class F>
CJ_FN Complex<F> log2(Complex<F> z) {
  const F log2e = (F)(1.0 / cm::kLn2);
  return {log(hypot(z.re, z.im)) * log2e, atan2(z.im, z.re) * log2e};
}
template <class F> CJ_FN Complex<F> exp2(Complex<F> z) {
  const Complex<F> t{(F)cm::kLn2 * z.re, (F)cm::kLn2 * z.im};
  if (!isfinite(t.re) || !isfinite(t.im)) return exp(t);
  const F c = cos(t.im), s = sin(t.im), r = exp(t.re);
  return {r * c, r * s};
}
// np.expm1 and np.log1p of a complex: NumPy's nc_expm1 and nc_log1p, as Numba, in the loop's
// precision (no extra accuracy near 0, as there).
template <class F> CJ_FN Complex<F> expm1(Complex<F> z) {
  const F a = exp(z.re);
  return {a * cos(z.im) + (F)-1, a * sin(z.im)};
}
template <class F> CJ_FN Complex<F> log1p(Complex<F> z) {
  const F re1 = z.re + (F)1;
  return {log(hypot(re1, z.im)), atan2(z.im, re1)};
}
template <class F> CJ_FN Complex<F> log(Complex<F> z, Complex<F> base) { return log(z) / log(base); }
template <class F> CJ_FN Complex<F> sinh(Complex<F> z) { return Complex<F>(cm::c_sinh(z.re, z.im)); }
template <class F> CJ_FN Complex<F> cosh(Complex<F> z) { return Complex<F>(cm::c_cosh(z.re, z.im)); }
template <class F> CJ_FN Complex<F> tanh(Complex<F> z) { return Complex<F>(cm::c_tanh(z.re, z.im)); }
template <class F> CJ_FN Complex<F> asinh(Complex<F> z) { return Complex<F>(cm::c_asinh(z.re, z.im)); }
template <class F> CJ_FN Complex<F> acosh(Complex<F> z) { return Complex<F>(cm::c_acosh(z.re, z.im)); }
template <class F> CJ_FN Complex<F> atanh(Complex<F> z) { return Complex<F>(cm::c_atanh(z.re, z.im)); }
template <class F> CJ_FN Complex<F> acos(Complex<F> z) { return Complex<F>(cm::c_acos(z.re, z.im)); }
template <class F>
CJ_FN Complex<F> sin(Complex<F> z) { return Complex<F>(cm::minus_i(cm::c_sinh(-(double)z.im, z.re))); }
template <class F> CJ_FN Complex<F> cos(Complex<F> z) { return Complex<F>(cm::c_cosh(-(double)z.im, z.re)); }
template <class F>
CJ_FN Complex<F> tan(Complex<F> z) { return Complex<F>(cm::minus_i(cm::c_tanh(-(double)z.im, z.re))); }
template <class F>
CJ_FN Complex<F> asin(Complex<F> z) { return Complex<F>(cm::minus_i(cm::c_asinh(-(double)z.im, z.re))); }
template <class F>
CJ_FN Complex<F> atan(Complex<F> z) { return Complex<F>(cm::minus_i(cm::c_atanh(-(double)z.im, z.re))); }
template <class F> CJ_FN Complex<F> rect(F r, F phi) { return Complex<F>(cm::c_rect(r, phi)); }

}  // namespace cj
