
// ---- np.linalg's decompositions and the functions built on them, in CPU code (@jit only) ------
// eig/eigvals (geev), eigh/eigvalsh (syevd/heevd), svd (gesdd), qr (geqrf + orgqr/ungqr), lstsq
// (gelsd), pinv (gesdd + gemm), slogdet (getrf), norm (nrm2 / singular values), cond,
// matrix_rank and matrix_power, after host_linalg.h, through the same LAPACK (ILP64). Each does
// what Numba 0.68 does (numba/np/linalg.py): the same routine, the same checks in the same order
// and messages, results in the same memory order (LAPACK's column-major arrays come back as
// F-ordered NumPy arrays, as Numba's `x.T` of them do). A tuple result is filled into the
// generated code's struct `Tup` (fields f0, f1, ...).
#include <cmath>
#include <limits>
#include <type_traits>

namespace cj {

template <class V> struct la_real { using type = V; };
template <class F> struct la_real<Complex<F>> { using type = F; };
template <class V> using la_real_t = typename la_real<V>::type;

template <class V>
CJ_FN V* la_alloc(int64_t n) { return (V*)host_services.alloc((n > 0 ? n : 1) * (int64_t)sizeof(V)); }
// An m x n array over column-major memory p (what LAPACK wrote): F-ordered.
template <class V>
CJ_FN Array<V, 2> la_f_array(V* p, int64_t m, int64_t n) {
  Array<V, 2> r;
  r.data = p;
  r.shape[0] = m;
  r.shape[1] = n;
  r.strides[0] = (int64_t)sizeof(V);
  r.strides[1] = (m > 0 ? m : 1) * (int64_t)sizeof(V);
  return r;
}
template <class V>
CJ_FN Array<V, 1> la_vector(V* p, int64_t n) {
  Array<V, 1> r;
  r.data = p;
  r.shape[0] = n;
  r.strides[0] = (int64_t)sizeof(V);
  return r;
}
// A workspace size LAPACK answered to a query (lwork = -1), in the first element.
template <class V>
CJ_FN lapack_int la_work_size(const V& w) {
  double v;
  if constexpr (np_complex_t<V>::value) v = (double)w.re;
  else v = (double)w;
  const lapack_int n = (lapack_int)v;
  return n > 1 ? n : 1;
}
template <class V>
CJ_FN double la_abs(const V& v) {
  if constexpr (np_complex_t<V>::value) return std::hypot((double)v.re, (double)v.im);
  else return std::fabs((double)v);
}
// Numba's _handle_err_maybe_convergence_problem.
CJ_FN void la_converged(lapack_int info) {
  if (info > 0) raise("ValueError", "Internal algorithm failed to converge.");
}
CJ_FN void la_not_empty(int64_t m, int64_t n) {
  if (m == 0 || n == 0) linalg_error("Arrays cannot be empty");
}

// ---- eig, eigvals: geev (right eigenvectors only) ---------------------------------------------
// A real matrix keeps real results as Numba's does with NumPy before 2.5: complex eigenvalues are
// a ValueError ("domain change"), not a silently different dtype.
template <class T>
CJ_FN void la_geev(const Array<T, 2>& a, bool vectors, const char* fname, Array<std::remove_cv_t<T>, 1>* w,
                   Array<std::remove_cv_t<T>, 2>* v) {
  using V = std::remove_cv_t<T>;
  using R = la_real_t<V>;
  check_square(a);
  check_finite(a);
  const int64_t n = a.shape[0];
  V* wp = la_alloc<V>(n);
  V* vr = la_alloc<V>(vectors ? n * n : 1);
  *w = la_vector(wp, n);
  if (v) *v = la_f_array(vr, n, n);
  if (n == 0) return;
  V* p = f_copy(a);
  const char jobvl = 'N', jobvr = vectors ? 'V' : 'N';
  lapack_int N = n, ldvl = 1, ldvr = vectors ? n : 1, lwork = -1, info = 0;
  V vl[1], q;
  if constexpr (np_complex_t<V>::value) {
    using Fn = void (*)(const char*, const char*, const lapack_int*, V*, const lapack_int*, V*, V*, const lapack_int*, V*,
                        const lapack_int*, V*, const lapack_int*, R*, lapack_int*, size_t, size_t);
    Fn f = (Fn)lapack_fn<V>(LapackFn::sgeev, LapackFn::dgeev, LapackFn::cgeev, LapackFn::zgeev);
    R* rwork = la_alloc<R>(2 * n);
    f(&jobvl, &jobvr, &N, p, &N, wp, vl, &ldvl, vr, &ldvr, &q, &lwork, rwork, &info, 1, 1);
    lwork = la_work_size(q);
    V* work = la_alloc<V>(lwork);
    f(&jobvl, &jobvr, &N, p, &N, wp, vl, &ldvl, vr, &ldvr, work, &lwork, rwork, &info, 1, 1);
    la_converged(info);
  } else {
    using Fn = void (*)(const char*, const char*, const lapack_int*, V*, const lapack_int*, V*, V*, V*, const lapack_int*,
                        V*, const lapack_int*, V*, const lapack_int*, lapack_int*, size_t, size_t);
    Fn f = (Fn)lapack_fn<V>(LapackFn::sgeev, LapackFn::dgeev, LapackFn::cgeev, LapackFn::zgeev);
    V* wi = la_alloc<V>(n);
    f(&jobvl, &jobvr, &N, p, &N, wp, wi, vl, &ldvl, vr, &ldvr, &q, &lwork, &info, 1, 1);
    lwork = la_work_size(q);
    V* work = la_alloc<V>(lwork);
    f(&jobvl, &jobvr, &N, p, &N, wp, wi, vl, &ldvl, vr, &ldvr, work, &lwork, &info, 1, 1);
    la_converged(info);
    for (int64_t k = 0; k < n; ++k)
      if (wi[k] != 0) raise("ValueError", fname);
  }
}
template <class Tup, class T>
CJ_FN Tup linalg_eig(const Array<T, 2>& a) {
  Tup r;
  la_geev(a, true, "eig() argument must not cause a domain change.", &r.f0, &r.f1);
  return r;
}
template <class T>
CJ_FN Array<std::remove_cv_t<T>, 1> linalg_eigvals(const Array<T, 2>& a) {
  Array<std::remove_cv_t<T>, 1> w;
  la_geev<T>(a, false, "eigvals() argument must not cause a domain change.", &w, nullptr);
  return w;
}

// ---- eigh, eigvalsh: syevd / heevd on the lower triangle; ascending eigenvalues ----------------
template <class T>
CJ_FN Array<la_real_t<std::remove_cv_t<T>>, 1> la_evd(const Array<T, 2>& a, bool vectors, Array<std::remove_cv_t<T>, 2>* v) {
  using V = std::remove_cv_t<T>;
  using R = la_real_t<V>;
  check_square(a);
  check_finite(a);
  const int64_t n = a.shape[0];
  V* p = f_copy(a);
  R* w = la_alloc<R>(n);
  if (v) *v = la_f_array(p, n, n);
  if (n == 0) return la_vector(w, n);
  const char jobz = vectors ? 'V' : 'N', uplo = 'L';
  lapack_int N = n, lwork = -1, liwork = -1, info = 0, iq = 0;
  V q;
  if constexpr (np_complex_t<V>::value) {
    using Fn = void (*)(const char*, const char*, const lapack_int*, V*, const lapack_int*, R*, V*, const lapack_int*, R*,
                        const lapack_int*, lapack_int*, const lapack_int*, lapack_int*, size_t, size_t);
    Fn f = (Fn)lapack_fn<V>(LapackFn::ssyevd, LapackFn::dsyevd, LapackFn::cheevd, LapackFn::zheevd);
    R rq;
    lapack_int lrwork = -1;
    f(&jobz, &uplo, &N, p, &N, w, &q, &lwork, &rq, &lrwork, &iq, &liwork, &info, 1, 1);
    lwork = la_work_size(q);
    lrwork = la_work_size(rq);
    liwork = iq > 1 ? iq : 1;
    V* work = la_alloc<V>(lwork);
    R* rwork = la_alloc<R>(lrwork);
    lapack_int* iwork = la_alloc<lapack_int>(liwork);
    f(&jobz, &uplo, &N, p, &N, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1, 1);
  } else {
    using Fn = void (*)(const char*, const char*, const lapack_int*, V*, const lapack_int*, V*, V*, const lapack_int*,
                        lapack_int*, const lapack_int*, lapack_int*, size_t, size_t);
    Fn f = (Fn)lapack_fn<V>(LapackFn::ssyevd, LapackFn::dsyevd, LapackFn::cheevd, LapackFn::zheevd);
    f(&jobz, &uplo, &N, p, &N, w, &q, &lwork, &iq, &liwork, &info, 1, 1);
    lwork = la_work_size(q);
    liwork = iq > 1 ? iq : 1;
    V* work = la_alloc<V>(lwork);
    lapack_int* iwork = la_alloc<lapack_int>(liwork);
    f(&jobz, &uplo, &N, p, &N, w, work, &lwork, iwork, &liwork, &info, 1, 1);
  }
  la_converged(info);
  return la_vector(w, n);
}
template <class Tup, class T>
CJ_FN Tup linalg_eigh(const Array<T, 2>& a) {
  Tup r;
  r.f0 = la_evd(a, true, &r.f1);
  return r;
}
template <class T>
CJ_FN auto linalg_eigvalsh(const Array<T, 2>& a) { return la_evd<T>(a, false, nullptr); }

// ---- svd and the singular values: gesdd --------------------------------------------------------
// jobz 'A' (full_matrices), 'S' or 'N'; u is m x ucol and vt ldvt x n, column-major.
template <class V>
CJ_FN lapack_int la_gesdd(char jobz, int64_t m, int64_t n, V* p, la_real_t<V>* s, V* u, int64_t ldu, V* vt, int64_t ldvt) {
  using R = la_real_t<V>;
  const int64_t mn = m < n ? m : n, mx = m < n ? n : m;
  lapack_int M = m, Nn = n, LDU = ldu, LDVT = ldvt, lwork = -1, info = 0;
  lapack_int* iwork = la_alloc<lapack_int>(8 * mn);
  V q;
  if constexpr (np_complex_t<V>::value) {
    using Fn = void (*)(const char*, const lapack_int*, const lapack_int*, V*, const lapack_int*, R*, V*, const lapack_int*,
                        V*, const lapack_int*, V*, const lapack_int*, R*, lapack_int*, lapack_int*, size_t);
    Fn f = (Fn)lapack_fn<V>(LapackFn::sgesdd, LapackFn::dgesdd, LapackFn::cgesdd, LapackFn::zgesdd);
    const int64_t a1 = 5 * mn + 7, a2 = 2 * mx + 2 * mn + 1;
    R* rwork = la_alloc<R>(jobz == 'N' ? 7 * mn : mn * (a1 > a2 ? a1 : a2));
    f(&jobz, &M, &Nn, p, &M, s, u, &LDU, vt, &LDVT, &q, &lwork, rwork, iwork, &info, 1);
    lwork = la_work_size(q);
    V* work = la_alloc<V>(lwork);
    f(&jobz, &M, &Nn, p, &M, s, u, &LDU, vt, &LDVT, work, &lwork, rwork, iwork, &info, 1);
  } else {
    using Fn = void (*)(const char*, const lapack_int*, const lapack_int*, V*, const lapack_int*, R*, V*, const lapack_int*,
                        V*, const lapack_int*, V*, const lapack_int*, lapack_int*, lapack_int*, size_t);
    Fn f = (Fn)lapack_fn<V>(LapackFn::sgesdd, LapackFn::dgesdd, LapackFn::cgesdd, LapackFn::zgesdd);
    f(&jobz, &M, &Nn, p, &M, s, u, &LDU, vt, &LDVT, &q, &lwork, iwork, &info, 1);
    lwork = la_work_size(q);
    V* work = la_alloc<V>(lwork);
    f(&jobz, &M, &Nn, p, &M, s, u, &LDU, vt, &LDVT, work, &lwork, iwork, &info, 1);
  }
  return info;
}
template <class Tup, class T>
CJ_FN Tup linalg_svd(const Array<T, 2>& a, bool full_matrices) {
  using V = std::remove_cv_t<T>;
  using R = la_real_t<V>;
  const int64_t m = a.shape[0], n = a.shape[1], mn = m < n ? m : n;
  la_not_empty(m, n);
  check_finite(a);
  V* p = f_copy(a);
  const int64_t ucol = full_matrices ? m : mn, ldvt = full_matrices ? n : mn;
  V* u = la_alloc<V>(m * ucol);
  V* vt = la_alloc<V>(ldvt * n);
  R* s = la_alloc<R>(mn);
  la_converged(la_gesdd<V>(full_matrices ? 'A' : 'S', m, n, p, s, u, m, vt, ldvt));
  Tup r;
  r.f0 = la_f_array(u, m, ucol);
  r.f1 = la_vector(s, mn);
  r.f2 = la_f_array(vt, ldvt, n);
  return r;
}
// Numba's _compute_singular_values: descending, in the real type of the matrix.
template <class T>
CJ_FN Array<la_real_t<std::remove_cv_t<T>>, 1> la_singular_values(const Array<T, 2>& a) {
  using V = std::remove_cv_t<T>;
  using R = la_real_t<V>;
  const int64_t m = a.shape[0], n = a.shape[1], mn = m < n ? m : n;
  la_not_empty(m, n);
  check_finite(a);
  V* p = f_copy(a);
  R* s = la_alloc<R>(mn);
  V u[1], vt[1];
  la_converged(la_gesdd<V>('N', m, n, p, s, u, m, vt, 1));
  return la_vector(s, mn);
}

// ---- qr: geqrf, then orgqr/ungqr makes Q's first min(m, n) columns ----------------------------
template <class Tup, class T>
CJ_FN Tup linalg_qr(const Array<T, 2>& a) {
  using V = std::remove_cv_t<T>;
  const int64_t m = a.shape[0], n = a.shape[1], mn = m < n ? m : n;
  la_not_empty(m, n);
  check_finite(a);
  V* q = f_copy(a);
  V* tau = la_alloc<V>(mn);
  lapack_int M = m, Nn = n, K = mn, lwork = -1, info = 0;
  V w;
  using Geqrf = void (*)(const lapack_int*, const lapack_int*, V*, const lapack_int*, V*, V*, const lapack_int*, lapack_int*);
  Geqrf geqrf = (Geqrf)lapack_fn<V>(LapackFn::sgeqrf, LapackFn::dgeqrf, LapackFn::cgeqrf, LapackFn::zgeqrf);
  geqrf(&M, &Nn, q, &M, tau, &w, &lwork, &info);
  lwork = la_work_size(w);
  geqrf(&M, &Nn, q, &M, tau, la_alloc<V>(lwork), &lwork, &info);
  // R: the upper triangle (and the rectangle right of it when n > m), F-ordered mn x n.
  V* r = la_alloc<V>(mn * n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < mn; ++i) r[i + j * mn] = i <= j ? q[i + j * m] : V(0);
  using Orgqr = void (*)(const lapack_int*, const lapack_int*, const lapack_int*, V*, const lapack_int*, const V*, V*,
                         const lapack_int*, lapack_int*);
  Orgqr orgqr = (Orgqr)lapack_fn<V>(LapackFn::sorgqr, LapackFn::dorgqr, LapackFn::cungqr, LapackFn::zungqr);
  lwork = -1;
  orgqr(&M, &K, &K, q, &M, tau, &w, &lwork, &info);
  lwork = la_work_size(w);
  orgqr(&M, &K, &K, q, &M, tau, la_alloc<V>(lwork), &lwork, &info);
  la_converged(info);
  Tup t;
  t.f0 = la_f_array(q, m, mn);
  t.f1 = la_f_array(r, mn, n);
  return t;
}

// ---- lstsq: gelsd ------------------------------------------------------------------------------
// x (b's dimensions), the residuals (empty unless rank == n < m), the rank (int32, as Numba's with
// SciPy's LAPACK) and the singular values. rcond < 0: machine precision (Numba's default -1).
template <class Tup, class T, class U, int N>
CJ_FN Tup linalg_lstsq(const Array<T, 2>& a, const Array<U, N>& b, double rcond) {
  using V = std::remove_cv_t<T>;
  using R = la_real_t<V>;
  const int64_t m = a.shape[0], n = a.shape[1], nrhs = N == 1 ? 1 : b.shape[1];
  check_finite(a);
  check_finite(b);
  if (m == 0 || n == 0 || b.shape[0] == 0 || nrhs == 0) linalg_error("Arrays cannot be empty");
  if (m != b.shape[0]) linalg_error("Incompatible array sizes, system is not dimensionally valid.");
  const int64_t mn = m < n ? m : n, mx = m < n ? n : m;
  V* p = f_copy(a);
  V* x = la_alloc<V>(mx * nrhs);  // column-major mx x nrhs, b on top
  for (int64_t j = 0; j < nrhs; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const char* e = (const char*)b.data + i * b.strides[0];
      if constexpr (N == 2) e += j * b.strides[1];
      x[i + j * mx] = *(const U*)e;
    }
  R* s = la_alloc<R>(mn);
  lapack_int M = m, Nn = n, NR = nrhs, LDB = mx, rank = 0, lwork = -1, info = 0, iq = 0;
  const R rc = (R)rcond;
  V q;
  if constexpr (np_complex_t<V>::value) {
    using Fn = void (*)(const lapack_int*, const lapack_int*, const lapack_int*, V*, const lapack_int*, V*,
                        const lapack_int*, R*, const R*, lapack_int*, V*, const lapack_int*, R*, lapack_int*, lapack_int*);
    Fn f = (Fn)lapack_fn<V>(LapackFn::sgelsd, LapackFn::dgelsd, LapackFn::cgelsd, LapackFn::zgelsd);
    R rq;
    f(&M, &Nn, &NR, p, &M, x, &LDB, s, &rc, &rank, &q, &lwork, &rq, &iq, &info);
    lwork = la_work_size(q);
    R* rwork = la_alloc<R>(la_work_size(rq));
    lapack_int* iwork = la_alloc<lapack_int>(iq > 1 ? iq : 1);
    f(&M, &Nn, &NR, p, &M, x, &LDB, s, &rc, &rank, la_alloc<V>(lwork), &lwork, rwork, iwork, &info);
  } else {
    using Fn = void (*)(const lapack_int*, const lapack_int*, const lapack_int*, V*, const lapack_int*, V*,
                        const lapack_int*, R*, const R*, lapack_int*, V*, const lapack_int*, lapack_int*, lapack_int*);
    Fn f = (Fn)lapack_fn<V>(LapackFn::sgelsd, LapackFn::dgelsd, LapackFn::cgelsd, LapackFn::zgelsd);
    f(&M, &Nn, &NR, p, &M, x, &LDB, s, &rc, &rank, &q, &lwork, &iq, &info);
    lwork = la_work_size(q);
    lapack_int* iwork = la_alloc<lapack_int>(iq > 1 ? iq : 1);
    f(&M, &Nn, &NR, p, &M, x, &LDB, s, &rc, &rank, la_alloc<V>(lwork), &lwork, iwork, &info);
  }
  la_converged(info);
  Tup t;
  if (rank < n || m <= n) {
    t.f1 = np_empty<R, 1>(0);
  } else {
    t.f1 = np_empty<R, 1>(nrhs);
    for (int64_t k = 0; k < nrhs; ++k) {
      R acc = 0;
      for (int64_t i = n; i < m; ++i) {
        const V v = x[i + k * mx];
        if constexpr (np_complex_t<V>::value) acc += v.re * v.re + v.im * v.im;
        else acc += v * v;
      }
      t.f1.data[k] = acc;
    }
  }
  if constexpr (N == 1) {
    t.f0 = np_empty<V, 1>(n);
    for (int64_t i = 0; i < n; ++i) t.f0.data[i] = x[i];
  } else {
    t.f0 = np_empty<V, 2>(n, nrhs);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < nrhs; ++j) t.f0.data[i * nrhs + j] = x[i + j * mx];
  }
  t.f2 = (int32_t)rank;
  t.f3 = la_vector(s, mn);
  return t;
}

// ---- pinv: V S^+ U^H from gesdd('S'), singular values at or under s[0] * rcond left out --------
template <class T>
CJ_FN Array<std::remove_cv_t<T>, 2> linalg_pinv(const Array<T, 2>& a, double rcond) {
  using V = std::remove_cv_t<T>;
  using R = la_real_t<V>;
  const int64_t m = a.shape[0], n = a.shape[1], mn = m < n ? m : n;
  check_finite(a);
  V* p = f_copy(a);
  if (m == 0 || n == 0) return la_f_array(p, n, m);
  V* u = la_alloc<V>(mn * m);
  V* vt = la_alloc<V>(n * mn);
  R* s = la_alloc<R>(mn);
  la_converged(la_gesdd<V>('S', m, n, p, s, u, m, vt, mn));
  const R cut = (R)(s[0] * rcond);
  int64_t cut_idx = 0;
  for (int64_t k = 0; k < mn; ++k)
    if (s[k] > cut) {
      s[k] = R(1) / s[k];
      cut_idx = k;
    }
  cut_idx += 1;
  if (m >= n) {  // scale the columns of V^H (column-major mn x n) by S^+
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < cut_idx; ++i) vt[i + j * mn] = vt[i + j * mn] * V(s[i]);
  } else {  // scale the rows of U (column-major m x mn)... its first cut_idx columns
    for (int64_t j = 0; j < cut_idx; ++j)
      for (int64_t i = 0; i < m; ++i) u[i + j * m] = u[i + j * m] * V(s[j]);
  }
  // A^+ (n x m, column-major, into p) = (V^H)^H (U)^H over the first cut_idx singular values.
  using Fn = void (*)(const char*, const char*, const lapack_int*, const lapack_int*, const lapack_int*, const V*,
                      const V*, const lapack_int*, const V*, const lapack_int*, const V*, V*, const lapack_int*, size_t,
                      size_t);
  Fn f = (Fn)lapack_fn<V>(LapackFn::sgemm, LapackFn::dgemm, LapackFn::cgemm, LapackFn::zgemm);
  const V one = V(1), zero = V(0);
  const char c = 'C';
  const lapack_int M = n, Nn = m, K = cut_idx, lda = mn, ldb = m, ldc = n;
  f(&c, &c, &M, &Nn, &K, &one, vt, &lda, u, &ldb, &zero, p, &ldc, 1, 1);
  return la_f_array(p, n, m);
}

// ---- slogdet: getrf's diagonal (np.linalg.det is sign * exp(logdet) of the same walk) ----------
template <class Tup, class T>
CJ_FN Tup linalg_slogdet(const Array<T, 2>& a) {
  check_square(a);
  Tup t;
  t.f0 = 1.0;
  t.f1 = 0.0;
  if (a.shape[0] == 0) return t;
  check_finite(a);
  if (!lu_sign_logabs(a, &t.f0, &t.f1)) {
    t.f0 = 0.0;
    t.f1 = -std::numeric_limits<double>::infinity();
  }
  return t;
}

// ---- norm ---------------------------------------------------------------------------------------
// The 2-norm of n elements at stride `inc` (elements): BLAS nrm2, as Numba's _oneD_norm_2.
template <class V>
CJ_FN la_real_t<V> la_nrm2(int64_t n, const V* x, int64_t inc) {
  using R = la_real_t<V>;
  if (n == 0) return R(0);
  using Fn = R (*)(const lapack_int*, const V*, const lapack_int*);
  Fn f = (Fn)lapack_fn<V>(LapackFn::snrm2, LapackFn::dnrm2, LapackFn::scnrm2, LapackFn::dznrm2);
  const lapack_int N = n, INC = inc;
  return f(&N, x, &INC);
}
// norm(x) of a vector: in the real type of its dtype (float32 stays float32, as Numba's).
template <class T>
CJ_FN auto linalg_norm(const Array<T, 1>& x) {
  using V = std::remove_cv_t<T>;
  const int64_t n = x.shape[0];
  if (n > 0 && x.strides[0] > 0 && x.strides[0] % (int64_t)sizeof(V) == 0)
    return la_nrm2<V>(n, x.data, x.strides[0] / (int64_t)sizeof(V));
  return la_nrm2<V>(n, c_data(x), 1);
}
// norm(x) of a matrix: Frobenius, as the 2-norm of its elements (float64).
template <class T>
CJ_FN double linalg_norm(const Array<T, 2>& x) {
  using V = std::remove_cv_t<T>;
  const int64_t n = x.shape[0] * x.shape[1];
  if (n == 0) return 0.0;
  return (double)la_nrm2<V>(n, c_data(x), 1);
}
// |v| ** ord with an integer ord as Numba's integer power (repeated squaring; 0 ** -k divides by 0).
CJ_FN double la_ipow(double v, int64_t k) {
  const bool neg = k < 0;
  uint64_t e = neg ? (uint64_t)(-k) : (uint64_t)k;
  double r = 1.0, b = v;
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  if (neg) {
    if (r == 0.0) raise("ZeroDivisionError", "division by zero");
    r = 1.0 / r;
  }
  return r;
}
// norm(x, ord) of a vector; `int_ord`: ord was an integer (or bool), Numba's integer power.
template <class T>
CJ_FN double linalg_norm_ord(const Array<T, 1>& x, double ord, bool int_ord) {
  const int64_t n = x.shape[0];
  if (n == 0) return 0.0;
  auto at = [&](int64_t k) { return la_abs(*(const T*)((const char*)x.data + k * x.strides[0])); };
  const double inf = std::numeric_limits<double>::infinity();
  if (ord == 2) return (double)linalg_norm(x);
  if (ord == inf || ord == -inf) {
    double r = at(0);
    for (int64_t k = 1; k < n; ++k) r = ord > 0 ? (at(k) > r ? at(k) : r) : (at(k) < r ? at(k) : r);
    return r;
  }
  double r = 0.0;
  if (ord == 0) {
    for (int64_t k = 0; k < n; ++k) r += at(k) != 0.0 ? 1.0 : 0.0;
    return r;
  }
  if (ord == 1) {
    for (int64_t k = 0; k < n; ++k) r += at(k);
    return r;
  }
  for (int64_t k = 0; k < n; ++k) r += int_ord ? la_ipow(at(k), (int64_t)ord) : std::pow(at(k), ord);
  return std::pow(r, 1.0 / ord);
}
// norm(x, ord) of a matrix: row/column sums, the extreme singular values; other orders (and a
// string such as 'fro', passed as NaN) are Numba's ValueError.
template <class T>
CJ_FN double linalg_norm_ord(const Array<T, 2>& x, double ord, bool) {
  using R = la_real_t<std::remove_cv_t<T>>;
  const int64_t m = x.shape[0], n = x.shape[1];
  if (m * n == 0) return 0.0;
  auto at = [&](int64_t i, int64_t j) {
    return la_abs(*(const T*)((const char*)x.data + i * x.strides[0] + j * x.strides[1]));
  };
  const double inf = std::numeric_limits<double>::infinity();
  if (ord == inf || ord == -inf || ord == 1 || ord == -1) {
    const bool rows = ord == inf || ord == -inf, big = ord > 0;
    double best = big ? 0.0 : (double)std::numeric_limits<R>::max();
    for (int64_t i = 0; i < (rows ? m : n); ++i) {
      double tmp = 0.0;
      for (int64_t j = 0; j < (rows ? n : m); ++j) tmp += rows ? at(i, j) : at(j, i);
      if (big ? tmp > best : tmp < best) best = tmp;
    }
    return best;
  }
  if (ord == 2 || ord == -2) {
    auto s = la_singular_values(x);
    return (double)s.data[ord == 2 ? 0 : s.shape[0] - 1];
  }
  raise("ValueError", "Invalid norm order for matrices.");
}

// ---- cond(x, p): the ratio of extreme singular values (p None, 2, -2), else norm(x) norm(inv(x))
// `pkind`: 0 None, 1 a number, 2 a string (never equal to a number: the norm's ValueError).
template <class T>
CJ_FN double linalg_cond(const Array<T, 2>& x, int pkind, double p) {
  using R = la_real_t<std::remove_cv_t<T>>;
  double r;
  if (pkind == 0 || (pkind == 1 && (p == 2 || p == -2))) {
    auto s = la_singular_values(x);
    const R a = s.data[0], b = s.data[s.shape[0] - 1];
    r = (double)(pkind == 0 || p == 2 ? a / b : b / a);
  } else {
    const double q = pkind == 2 ? std::numeric_limits<double>::quiet_NaN() : p;
    const double nx = linalg_norm_ord(x, q, false);
    r = nx * linalg_norm_ord(linalg_inv(x), q, false);
  }
  return std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
}

// ---- matrix_rank(A, tol): singular values above tol (default s[0] * max(m, n) * eps) -----------
template <class T>
CJ_FN int64_t linalg_matrix_rank(const Array<T, 1>& a, bool, double) {
  for (int64_t k = 0; k < a.shape[0]; ++k)
    if (la_abs(*(const T*)((const char*)a.data + k * a.strides[0])) != 0.0) return 1;
  return 0;
}
template <class T>
CJ_FN int64_t linalg_matrix_rank(const Array<T, 2>& a, bool has_tol, double tol) {
  using R = la_real_t<std::remove_cv_t<T>>;
  auto s = la_singular_values(a);
  const int64_t l = a.shape[0] > a.shape[1] ? a.shape[0] : a.shape[1];
  const double t = has_tol ? tol : (double)s.data[0] * (double)l * (double)std::numeric_limits<R>::epsilon();
  int64_t rank = 0;
  for (int64_t k = 0; k < s.shape[0]; ++k) {
    if ((double)s.data[k] > t) rank += 1;
    else break;
  }
  return rank;
}

// ---- matrix_power(a, n): repeated squaring with np.dot; inv first for n < 0 -------------------
template <class T>
CJ_FN Array<std::remove_cv_t<T>, 2> linalg_matrix_power(const Array<T, 2>& a, int64_t n) {
  using V = std::remove_cv_t<T>;
  const int64_t rows = a.shape[0], cols = a.shape[1];
  if (n == 0) {  // Numba: the identity of a's shape, made before the squareness check
    auto r = np_zeros<V, 2>(rows, cols);
    for (int64_t k = 0; k < rows && k < cols; ++k) r.data[k * cols + k] = V(1);
    return r;
  }
  if (rows != cols) raise("ValueError", "input must be a square array");
  if (rows == 0) return c_copy(a);
  Array<V, 2> A;
  if (n < 0) {
    A = c_copy(linalg_inv(a));
    if (n == -1) return A;
    n = -n;
  } else {
    if (n == 1) return c_copy(a);
    A = c_copy(a);
  }
  if (n == 2) return np_dot(A, A);
  if (n == 3) return np_dot(np_dot(A, A), A);
  Array<V, 2> acc = A, ret = A;
  bool first = true;
  for (int64_t e = n; e != 0; e >>= 1) {
    if (e & 1) {
      ret = first ? acc : np_dot(ret, acc);
      first = false;
    }
    acc = np_dot(acc, acc);
  }
  return ret;
}

}  // namespace cj
