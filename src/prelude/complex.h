// ---- complex64 / complex128 (after common.h, both targets) --------------------------------------
// A plain struct of two floats with NumPy's layout and alignment (cuda::std::complex is aligned to
// its whole size, std::complex is not in NVRTC). Arithmetic follows Numba's lowering: division is
// CPython's algorithm (_Py_c_quot), ** is CPython's _Py_c_pow computed in double (Numba's
// numba_cpow/numba_cpowf) with z ** 2 as z * z, abs is hypot, the cmath functions CPython's formulas.
namespace cj {

template <class F>
struct Complex {
  F re, im;
  Complex() = default;  // trivial, so __shared__ and local arrays of it are allowed
  CJ_METHOD constexpr Complex(F r, F i = 0) : re(r), im(i) {}  // also (cj::complex128)(an int)
  template <class G>
  CJ_METHOD explicit constexpr Complex(const Complex<G>& o) : re((F)o.re), im((F)o.im) {}

  friend CJ_METHOD Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
  friend CJ_METHOD Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
  friend CJ_METHOD Complex operator*(Complex a, Complex b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  friend CJ_METHOD Complex operator/(Complex a, Complex b) {  // CPython's _Py_c_quot
    const F abs_br = b.re < 0 ? -b.re : b.re, abs_bi = b.im < 0 ? -b.im : b.im;
    if (abs_br >= abs_bi) {
      if (abs_br == 0) return {(F)CJ_NAN, (F)CJ_NAN};  // 0 / 0 (Python raises: py_truediv)
      const F ratio = b.im / b.re, denom = b.re + b.im * ratio;
      return {(a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom};
    }
    if (abs_bi >= abs_br) {
      const F ratio = b.re / b.im, denom = b.re * ratio + b.im;
      return {(a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom};
    }
    return {(F)CJ_NAN, (F)CJ_NAN};  // NaNs in b
  }
  friend CJ_METHOD Complex operator-(Complex a) { return {-a.re, -a.im}; }
  friend CJ_METHOD Complex operator+(Complex a) { return a; }
  friend CJ_METHOD bool operator==(Complex a, Complex b) { return a.re == b.re && a.im == b.im; }
  friend CJ_METHOD bool operator!=(Complex a, Complex b) { return !(a == b); }
  CJ_METHOD Complex& operator+=(Complex b) { return *this = *this + b; }
  CJ_METHOD Complex& operator-=(Complex b) { return *this = *this - b; }
  CJ_METHOD Complex& operator*=(Complex b) { return *this = *this * b; }
  CJ_METHOD Complex& operator/=(Complex b) { return *this = *this / b; }
  CJ_METHOD explicit operator bool() const { return re != 0 || im != 0; }
};
using complex64 = Complex<float>;
using complex128 = Complex<double>;

template <class F> CJ_FN F real(Complex<F> z) { return z.re; }
template <class F> CJ_FN F imag(Complex<F> z) { return z.im; }
template <class F> CJ_FN Complex<F> conj(Complex<F> z) { return {z.re, -z.im}; }
template <class F> CJ_FN F abs(Complex<F> z) { return hypot(z.re, z.im); }
template <class F> CJ_FN F phase(Complex<F> z) { return atan2(z.im, z.re); }
template <class F> CJ_FN bool isnan(Complex<F> z) { return isnan(z.re) || isnan(z.im); }
template <class F> CJ_FN bool isinf(Complex<F> z) { return isinf(z.re) || isinf(z.im); }
template <class F> CJ_FN bool isfinite(Complex<F> z) { return isfinite(z.re) && isfinite(z.im); }
template <class F> CJ_FN Complex<F> rect(F r, F phi) { return {r * cos(phi), r * sin(phi)}; }

// z ** w: Numba squares for w == 2, else _Py_c_pow in double (0 ** negative or complex is nan).
template <class F>
CJ_FN Complex<F> pow(Complex<F> a, Complex<F> b) {
  if (b.re == 2 && b.im == 0) return a * a;
  const double ar = a.re, ai = a.im, br = b.re, bi = b.im;
  if (br == 0 && bi == 0) return {(F)1, (F)0};
  if (ar == 0 && ai == 0) {
    if (bi != 0 || br < 0) return {(F)CJ_NAN, (F)CJ_NAN};
    return {(F)0, (F)0};
  }
  const double vabs = hypot(ar, ai), at = atan2(ai, ar);
  double len = pow(vabs, br), ph = at * br;
  if (bi != 0) {
    len /= exp(at * bi);
    ph += bi * log(vabs);
  }
  return {(F)(len * cos(ph)), (F)(len * sin(ph))};
}

// ---- cmath --------------------------------------------------------------------------------------
template <class F>
CJ_FN Complex<F> sqrt(Complex<F> z) {  // CPython's c_sqrt, scaled so that hypot cannot overflow
  if (z.re == 0 && z.im == 0) return {(F)0, z.im};
  if (isinf(z.im)) return {(F)CJ_INF, z.im};
  if (isnan(z.re) || isnan(z.im)) return {(F)CJ_NAN, (F)CJ_NAN};
  const double ax = z.re < 0 ? -(double)z.re : (double)z.re, ay = z.im < 0 ? -(double)z.im : (double)z.im;
  double s, d;
  if (isinf(ax)) {
    s = ax;
    d = 0;
  } else {
    s = 2.0 * sqrt(ax / 8.0 + hypot(ax / 8.0, ay / 8.0));
    d = ay / (2.0 * s);
  }
  if (z.re >= 0) return {(F)s, (F)copysign(d, (double)z.im)};
  return {(F)d, (F)copysign(s, (double)z.im)};
}
template <class F>
CJ_FN Complex<F> exp(Complex<F> z) {
  if (z.im == 0) return {exp(z.re), z.im};  // exp of a real keeps the imaginary zero's sign
  const F l = exp(z.re);
  return {l * cos(z.im), l * sin(z.im)};
}
template <class F> CJ_FN Complex<F> log(Complex<F> z) { return {log(abs(z)), atan2(z.im, z.re)}; }
template <class F>
CJ_FN Complex<F> log10(Complex<F> z) {
  const Complex<F> l = log(z);
  return {l.re / (F)2.302585092994045684, l.im / (F)2.302585092994045684};
}
template <class F> CJ_FN Complex<F> log(Complex<F> z, Complex<F> base) { return log(z) / log(base); }
template <class F>
CJ_FN Complex<F> sinh(Complex<F> z) { return {sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)}; }
template <class F>
CJ_FN Complex<F> cosh(Complex<F> z) { return {cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)}; }
template <class F>
CJ_FN Complex<F> tanh(Complex<F> z) {  // CPython's c_tanh
  const F ax = abs(z.re);
  if (ax > (F)354) {  // tanh(x) is +-1 and the imaginary part underflows
    return {copysign((F)1, z.re), (F)4 * sin(z.im) * cos(z.im) * exp((F)-2 * ax)};
  }
  const F tx = tanh(z.re), ty = tan(z.im), cx = (F)1 / cosh(z.re), txty = tx * ty;
  const F denom = (F)1 + txty * txty;
  return {tx * ((F)1 + ty * ty) / denom, ((ty / denom) * cx) * cx};
}
// The circular functions through the hyperbolic ones: sin(z) = -i sinh(iz), and so on.
template <class F>
CJ_FN Complex<F> sin(Complex<F> z) {
  const Complex<F> r = sinh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}
template <class F> CJ_FN Complex<F> cos(Complex<F> z) { return cosh(Complex<F>{-z.im, z.re}); }
template <class F>
CJ_FN Complex<F> tan(Complex<F> z) {
  const Complex<F> r = tanh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}
template <class F>
CJ_FN Complex<F> acos(Complex<F> z) {  // CPython's c_acos
  const Complex<F> s1 = sqrt(Complex<F>{(F)1 - z.re, -z.im}), s2 = sqrt(Complex<F>{(F)1 + z.re, z.im});
  return {(F)2 * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re)};
}
template <class F>
CJ_FN Complex<F> acosh(Complex<F> z) {  // CPython's c_acosh
  const Complex<F> s1 = sqrt(Complex<F>{z.re - (F)1, z.im}), s2 = sqrt(Complex<F>{z.re + (F)1, z.im});
  return {asinh(s1.re * s2.re + s1.im * s2.im), (F)2 * atan2(s1.im, s2.re)};
}
template <class F>
CJ_FN Complex<F> asinh(Complex<F> z) {  // CPython's c_asinh
  const Complex<F> s1 = sqrt(Complex<F>{(F)1 + z.im, -z.re}), s2 = sqrt(Complex<F>{(F)1 - z.im, z.re});
  return {asinh(s1.re * s2.im - s2.re * s1.im), atan2(z.im, s1.re * s2.re - s1.im * s2.im)};
}
template <class F>
CJ_FN Complex<F> asin(Complex<F> z) {
  const Complex<F> s = asinh(Complex<F>{-z.im, z.re});
  return {s.im, -s.re};
}
template <class F>
CJ_FN Complex<F> atanh(Complex<F> z) {  // CPython's c_atanh, its general branch
  if (z.re < 0) return -atanh(-z);
  const F ay = abs(z.im), om = (F)1 - z.re;
  return {log1p((F)4 * z.re / (om * om + ay * ay)) / (F)4,
          -atan2((F)-2 * z.im, om * ((F)1 + z.re) - ay * ay) / (F)2};
}
template <class F>
CJ_FN Complex<F> atan(Complex<F> z) {
  const Complex<F> s = atanh(Complex<F>{-z.im, z.re});
  return {s.im, -s.re};
}

}  // namespace cj
