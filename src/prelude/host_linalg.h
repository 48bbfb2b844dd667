
// ---- np.dot, `@`, np.vdot and np.linalg in CPU code (host target, @jit only) -------------------
// Through the BLAS and LAPACK NumPy ships, as Numba goes through SciPy's: each routine comes from
// HostServices::lapack (runtime/lapack.cpp; the list is CJ_LAPACK_ROUTINES in cujit_abi.h), with
// 64-bit integers (ILP64). Operands are copied to the order the routine wants where they are not
// already in it. Checks and messages are Numba's (numba/np/linalg.py), LinAlgError included.
#include <cmath>
#include <type_traits>

namespace cj {

using lapack_int = int64_t;

template <class T>
CJ_FN void* lapack_fn(LapackFn s, LapackFn d, LapackFn c, LapackFn z) {
  LapackFn f = std::is_same_v<T, float> ? s : std::is_same_v<T, double> ? d : std::is_same_v<T, Complex<float>> ? c : z;
  void* p = host_services.lapack((int)f);
  if (!p)
    raise("ImportError",
          "cujit found no BLAS/LAPACK library with 64-bit integers for np.dot and np.linalg (it looks for the "
          "OpenBLAS NumPy bundles; set CUJIT_LAPACK to the path of another ILP64 library)");
  return p;
}

[[noreturn]] inline void linalg_error(const char* msg) { raise("numpy.linalg.LinAlgError", msg); }

template <class T>
CJ_FN bool contiguous_c(const Array<T, 1>& a) { return a.strides[0] == (int64_t)sizeof(T) || a.shape[0] <= 1; }
template <class T>
CJ_FN bool contiguous_c(const Array<T, 2>& a) {
  return (a.strides[1] == (int64_t)sizeof(T) || a.shape[1] <= 1) &&
         (a.strides[0] == a.shape[1] * (int64_t)sizeof(T) || a.shape[0] <= 1);
}
// The elements of `a` in C order: its own memory when it is C-contiguous, else a copy.
template <class T, int N>
CJ_FN const std::remove_cv_t<T>* c_data(const Array<T, N>& a) {
  if (contiguous_c(a)) return a.data;
  return c_copy(a).data;
}
// A Fortran-ordered copy of a 2-d array (LAPACK overwrites it).
template <class T>
CJ_FN std::remove_cv_t<T>* f_copy(const Array<T, 2>& a) {
  using V = std::remove_cv_t<T>;
  const int64_t m = a.shape[0], n = a.shape[1];
  V* p = (V*)host_services.alloc((m * n > 0 ? m * n : 1) * (int64_t)sizeof(V));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) p[i + j * m] = *(T*)((char*)a.data + i * a.strides[0] + j * a.strides[1]);
  return p;
}

template <class V>
CJ_FN bool finite_value(const V& v) {
  if constexpr (np_complex_t<V>::value) return std::isfinite(v.re) && std::isfinite(v.im);
  else return std::isfinite(v);
}
template <class T, int N>
CJ_FN void check_finite(const Array<T, N>& a) {
  bool ok = true;
  for_each(a, [&](const T& v) { ok = ok && finite_value(v); });
  if (!ok) linalg_error("Array must not contain infs or NaNs.");
}
template <class T>
CJ_FN void check_square(const Array<T, 2>& a) {
  if (a.shape[0] != a.shape[1]) linalg_error("Last 2 dimensions of the array must be square.");
}

// C(m x n) = A(m x k) B(k x n), all C-ordered and contiguous: column-major C^T = B^T A^T.
template <class V>
CJ_FN void gemm_c(int64_t m, int64_t n, int64_t k, const V* A, const V* B, V* C) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (int64_t i = 0; i < m * n; ++i) C[i] = V(0);
    return;
  }
  using Fn = void (*)(const char*, const char*, const lapack_int*, const lapack_int*, const lapack_int*, const V*,
                      const V*, const lapack_int*, const V*, const lapack_int*, const V*, V*, const lapack_int*, size_t,
                      size_t);
  Fn f = (Fn)lapack_fn<V>(LapackFn::sgemm, LapackFn::dgemm, LapackFn::cgemm, LapackFn::zgemm);
  const V one = V(1), zero = V(0);
  const char no = 'N';
  const lapack_int M = n, Nn = m, K = k, ldb = n, lda = k, ldc = n;
  f(&no, &no, &M, &Nn, &K, &one, B, &ldb, A, &lda, &zero, C, &ldc, 1, 1);
}

template <class T, class U>
CJ_FN std::remove_cv_t<T> np_dot(const Array<T, 1>& a, const Array<U, 1>& b) {
  using V = std::remove_cv_t<T>;
  if (a.shape[0] != b.shape[0]) raise("ValueError", "incompatible array sizes for np.dot(a, b) (vector * vector)");
  V r = V(0);
  gemm_c<V>(1, 1, a.shape[0], c_data(a), (const V*)c_data(b), &r);
  return r;
}
template <class T, class U>
CJ_FN Array<std::remove_cv_t<T>, 1> np_dot(const Array<T, 2>& a, const Array<U, 1>& b) {
  using V = std::remove_cv_t<T>;
  if (a.shape[1] != b.shape[0]) raise("ValueError", "incompatible array sizes for np.dot(a, b) (matrix * vector)");
  Array<V, 1> r = np_empty<V, 1>(a.shape[0]);
  gemm_c<V>(a.shape[0], 1, a.shape[1], c_data(a), (const V*)c_data(b), r.data);
  return r;
}
template <class T, class U>
CJ_FN Array<std::remove_cv_t<T>, 1> np_dot(const Array<T, 1>& a, const Array<U, 2>& b) {
  using V = std::remove_cv_t<T>;
  if (a.shape[0] != b.shape[0]) raise("ValueError", "incompatible array sizes for np.dot(a, b) (vector * matrix)");
  Array<V, 1> r = np_empty<V, 1>(b.shape[1]);
  gemm_c<V>(1, b.shape[1], a.shape[0], c_data(a), (const V*)c_data(b), r.data);
  return r;
}
template <class T, class U>
CJ_FN Array<std::remove_cv_t<T>, 2> np_dot(const Array<T, 2>& a, const Array<U, 2>& b) {
  using V = std::remove_cv_t<T>;
  if (a.shape[1] != b.shape[0]) raise("ValueError", "incompatible array sizes for np.dot(a, b) (matrix * matrix)");
  Array<V, 2> r = np_empty<V, 2>(a.shape[0], b.shape[1]);
  gemm_c<V>(a.shape[0], b.shape[1], a.shape[1], c_data(a), (const V*)c_data(b), r.data);
  return r;
}
// np.vdot: the first vector conjugated.
template <class T, class U>
CJ_FN std::remove_cv_t<T> np_vdot(const Array<T, 1>& a, const Array<U, 1>& b) {
  using V = std::remove_cv_t<T>;
  if (a.shape[0] != b.shape[0]) raise("ValueError", "incompatible array sizes for np.dot(a, b) (vector * vector)");
  if constexpr (np_complex_t<V>::value) {
    auto c = c_copy(a);
    for (int64_t i = 0; i < c.shape[0]; ++i) c.data[i].im = -c.data[i].im;
    V r = V(0);
    gemm_c<V>(1, 1, c.shape[0], c.data, (const V*)c_data(b), &r);
    return r;
  } else {
    return np_dot(a, b);
  }
}

// np.linalg.inv: getrf then getri on a Fortran-ordered copy, which is the result (Numba's too).
template <class T>
CJ_FN Array<std::remove_cv_t<T>, 2> linalg_inv(const Array<T, 2>& a) {
  using V = std::remove_cv_t<T>;
  check_square(a);
  check_finite(a);
  const int64_t n = a.shape[0];
  V* p = f_copy(a);
  Array<V, 2> r;
  r.data = p;
  r.shape[0] = r.shape[1] = n;
  r.strides[0] = (int64_t)sizeof(V);
  r.strides[1] = n * (int64_t)sizeof(V);
  if (n == 0) return r;
  using Getrf = void (*)(const lapack_int*, const lapack_int*, V*, const lapack_int*, lapack_int*, lapack_int*);
  using Getri = void (*)(const lapack_int*, V*, const lapack_int*, const lapack_int*, V*, const lapack_int*, lapack_int*);
  Getrf getrf = (Getrf)lapack_fn<V>(LapackFn::sgetrf, LapackFn::dgetrf, LapackFn::cgetrf, LapackFn::zgetrf);
  Getri getri = (Getri)lapack_fn<V>(LapackFn::sgetri, LapackFn::dgetri, LapackFn::cgetri, LapackFn::zgetri);
  lapack_int* ipiv = (lapack_int*)host_services.alloc(n * (int64_t)sizeof(lapack_int));
  lapack_int N = n, info = 0;
  getrf(&N, &N, p, &N, ipiv, &info);
  if (info > 0) linalg_error("Matrix is singular to machine precision.");
  const lapack_int lwork = n * 64;
  V* work = (V*)host_services.alloc(lwork * (int64_t)sizeof(V));
  getri(&N, p, &N, ipiv, work, &lwork, &info);
  if (info > 0) linalg_error("Matrix is singular to machine precision.");
  return r;
}

// np.linalg.solve(a, b): gesv; a 1-d b gives a 1-d result, a 2-d one a Fortran-ordered matrix.
template <class T, class U, int N>
CJ_FN Array<std::remove_cv_t<T>, N> linalg_solve(const Array<T, 2>& a, const Array<U, N>& b) {
  using V = std::remove_cv_t<T>;
  check_finite(a);
  check_finite(b);
  if (a.shape[0] != b.shape[0]) linalg_error("Incompatible array sizes, system is not dimensionally valid.");
  check_square(a);
  const int64_t n = a.shape[0], nrhs = N == 1 ? 1 : b.shape[N - 1];
  V* x = (V*)host_services.alloc((n * nrhs > 0 ? n * nrhs : 1) * (int64_t)sizeof(V));
  Array<V, N> r;
  r.data = x;
  r.shape[0] = n;
  r.strides[0] = (int64_t)sizeof(V);
  if constexpr (N == 2) {
    r.shape[1] = nrhs;
    r.strides[1] = n * (int64_t)sizeof(V);
  }
  for (int64_t j = 0; j < nrhs; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const char* q = (const char*)b.data + i * b.strides[0];
      if constexpr (N == 2) q += j * b.strides[1];
      x[i + j * n] = (V) * (const U*)q;
    }
  if (n == 0 || nrhs == 0) return r;
  V* p = f_copy(a);
  using Gesv = void (*)(const lapack_int*, const lapack_int*, V*, const lapack_int*, lapack_int*, V*, const lapack_int*,
                        lapack_int*);
  Gesv gesv = (Gesv)lapack_fn<V>(LapackFn::sgesv, LapackFn::dgesv, LapackFn::cgesv, LapackFn::zgesv);
  lapack_int* ipiv = (lapack_int*)host_services.alloc(n * (int64_t)sizeof(lapack_int));
  lapack_int nn = n, nr = nrhs, info = 0;
  gesv(&nn, &nr, p, &nn, ipiv, x, &nn, &info);
  if (info > 0) linalg_error("Matrix is singular to machine precision.");
  return r;
}

// np.linalg.det as Numba computes it: sign and log-magnitude from getrf's diagonal (slogdet),
// then sign * exp(logdet), in float64 (complex128 for complex input).
// getrf's LU of a copy of square, finite, non-empty `a`, walked as Numba's det and slogdet walk
// it: the determinant's sign (a unit complex for complex input: S is Complex<double> there, else
// double) and the log of its absolute value. False where getrf finds `a` singular.
template <class S, class T>
CJ_FN bool lu_sign_logabs(const Array<T, 2>& a, S* sign, double* logabs) {
  using V = std::remove_cv_t<T>;
  const int64_t n = a.shape[0];
  V* p = f_copy(a);
  using Getrf = void (*)(const lapack_int*, const lapack_int*, V*, const lapack_int*, lapack_int*, lapack_int*);
  Getrf getrf = (Getrf)lapack_fn<V>(LapackFn::sgetrf, LapackFn::dgetrf, LapackFn::cgetrf, LapackFn::zgetrf);
  lapack_int* ipiv = (lapack_int*)host_services.alloc(n * (int64_t)sizeof(lapack_int));
  lapack_int N = n, info = 0;
  getrf(&N, &N, p, &N, ipiv, &info);
  if (info > 0) return false;
  int64_t sgn = 1;
  for (int64_t k = 0; k < n; ++k) sgn += ipiv[k] != k + 1;
  sgn &= 1;
  if (sgn == 0) sgn = -1;
  double acc = 0.0;
  if constexpr (np_complex_t<V>::value) {
    Complex<double> cs((double)sgn, 0.0);
    for (int64_t k = 0; k < n; ++k) {
      const V d = p[k + k * n];
      const auto absel = std::hypot(d.re, d.im);
      cs = cs * Complex<double>(V(d.re / absel, d.im / absel));
      acc += (double)std::log(absel);
    }
    *sign = cs;
  } else {
    double s = (double)sgn;
    for (int64_t k = 0; k < n; ++k) {
      V v = p[k + k * n];
      if (v < 0) {
        s = -s;
        v = -v;
      }
      acc += (double)std::log(v);
    }
    *sign = s;
  }
  *logabs = acc;
  return true;
}

template <class T>
CJ_FN auto linalg_det(const Array<T, 2>& a) {
  using V = std::remove_cv_t<T>;
  using R = std::conditional_t<np_complex_t<V>::value, Complex<double>, double>;
  check_square(a);
  if (a.shape[0] == 0) return R(1);
  check_finite(a);
  R sign;
  double acc;
  if (!lu_sign_logabs(a, &sign, &acc)) return R(0);
  if constexpr (np_complex_t<V>::value) return sign * Complex<double>(std::exp(acc), 0.0);
  else return sign * std::exp(acc);
}

// np.linalg.cholesky: potrf('U') on the C-ordered copy (its Fortran view is the transpose), so
// the lower factor comes out in C order; the upper triangle is zeroed.
template <class T>
CJ_FN Array<std::remove_cv_t<T>, 2> linalg_cholesky(const Array<T, 2>& a) {
  using V = std::remove_cv_t<T>;
  check_square(a);
  auto r = c_copy(a);
  const int64_t n = a.shape[0];
  if (n == 0) return r;
  using Potrf = void (*)(const char*, const lapack_int*, V*, const lapack_int*, lapack_int*, size_t);
  Potrf potrf = (Potrf)lapack_fn<V>(LapackFn::spotrf, LapackFn::dpotrf, LapackFn::cpotrf, LapackFn::zpotrf);
  const char up = 'U';
  lapack_int N = n, info = 0;
  potrf(&up, &N, r.data, &N, &info, 1);
  if (info > 0) linalg_error("Matrix is not positive definite.");
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) r.data[i * n + j] = V(0);
  return r;
}

}  // namespace cj
