// ---- complex64 / complex128 (after common.h, both targets) --------------------------------------
// A plain struct of two floats with NumPy's layout and alignment (cuda::std::complex is aligned to
// its whole size, std::complex is not in NVRTC). Arithmetic follows Numba's lowering: division is
// CPython's algorithm (_Py_c_quot), ** is CPython's _Py_c_pow computed in double (Numba's
// numba_cpow/numba_cpowf) with z ** 2 as z * z, abs is hypot; the cmath functions are in complex_math.h.
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

// a.real / a.imag of a complex array: a view of every element's part (NumPy's and Numba's views:
// the same shape and byte strides, the data one float further for .imag), so writes go through.
template <class F, int N>
CJ_FN Array<F, N> complex_part_view(const Array<Complex<F>, N>& a, int part) {
  Array<F, N> r;
  r.data = (F*)a.data + part;
  for (int k = 0; k < N; ++k) { r.shape[k] = a.shape[k]; r.strides[k] = a.strides[k]; }
  return r;
}

// The cmath functions are complex_math.h's.

}  // namespace cj
