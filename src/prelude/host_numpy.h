
// ---- NumPy's reductions along an axis, cumulative sums, order statistics, creation and shape
// functions in @jit code (host target only; compiler/typeinfer_numpy.cpp types them and
// compiler/codegen_numpy.cpp calls them). Included where the generated code names cj::npa_.
// New arrays come from the call's arena (new_c_array, host_arrays.h); views share their input.

namespace cj {

// An axis in [-N, N), else the error Numba's function raises: Kind 0 numpy's AxisError "axis 2
// is out of bounds for array of dimension 2" (sum, count_nonzero), 1 argmin/argmax's ValueError,
// 2 cumsum/cumprod's ValueError in AxisError's words, 3 np.concatenate's IndexError, 4 np.stack's.
template <int N, int Kind = 0>
CJ_FN int64_t npa_axis(int64_t axis) {
  const int64_t given = axis;
  if (axis < 0) axis += N;
  if (axis >= 0 && axis < N) return axis;
  if constexpr (Kind == 1) raise("ValueError", "axis is out of bounds");
  if constexpr (Kind == 3) raise("IndexError", "np.concatenate(): axis out of bounds");
  if constexpr (Kind == 4) raise("IndexError", "np.stack(): axis out of bounds");
  static thread_local char msg[96];  // PyError keeps the pointer: the text must outlive the throw
  std::snprintf(msg, sizeof msg, "axis %lld is out of bounds for array of dimension %d", (long long)given, N);
  raise(Kind == 0 ? "numpy.exceptions.AxisError" : "ValueError", msg);
  return axis;
}

// The 1-d view of `a` along `axis` at the other indices idx (idx[axis] ignored).
template <class T, int N>
CJ_FN Array<T, 1> npa_line(const Array<T, N>& a, int64_t axis, const int64_t* idx) {
  char* p = (char*)a.data;
  for (int k = 0; k < N; ++k)
    if (k != axis) p += idx[k] * a.strides[k];
  Array<T, 1> v;
  v.data = (T*)p;
  v.shape[0] = a.shape[axis];
  v.strides[0] = a.strides[axis];
  return v;
}

// Steps idx over every dimension but `axis`, in C order; false after the last.
template <int N>
CJ_FN bool npa_next(int64_t* idx, const int64_t* shape, int64_t axis) {
  for (int k = N - 1; k >= 0; --k) {
    if (k == axis) continue;
    if (++idx[k] < shape[k]) return true;
    idx[k] = 0;
  }
  return false;
}

// np.sum(a, axis=k), np.argmin(a, axis=k), ...: a new array of a's shape without the axis, each
// element f(the 1-d line along the axis) (the whole-array reductions of ufuncs.h).
template <class R, class T, int N, class F>
CJ_FN Array<R, N - 1> npa_reduce_axis(const Array<T, N>& a, int64_t axis, F f) {
  static_assert(N >= 2, "a 1-d array reduces to a number");
  axis = npa_axis<N>(axis);  // argmin/argmax come normalised
  int64_t d[N - 1];
  for (int k = 0, j = 0; k < N; ++k)
    if (k != axis) d[j++] = a.shape[k];
  Array<R, N - 1> r = new_c_array<R, N - 1>(d);
  if (size(r) == 0) return r;
  int64_t idx[N] = {};
  int64_t i = 0;
  do r.data[i++] = (R)f(npa_line(a, axis, idx));
  while (npa_next<N>(idx, a.shape, axis));
  return r;
}

// Reductions and scans along an axis that is not the last walk the input in memory order, one
// row (the last axis: m elements, stride s) at a time, instead of one strided line per result
// element: each row is combined element-wise with a C-contiguous row of the result, so the inner
// loop is unit-stride on both sides and vectorises, and no element's order of operations changes.
// npa_rows_along calls f(q, j, p) for the row at index j along the axis, p its first element and
// q its number in C order among the rows of a result without the axis (rows_of(a, axis) of them
// per index before the axis).
template <class T, int N>
CJ_FN int64_t npa_rows_between(const Array<T, N>& a, int64_t axis) {
  int64_t rows = 1;
  for (int k = (int)axis + 1; k < N - 1; ++k) rows *= a.shape[k];
  return rows;
}
template <class T, int N, class F>
CJ_FN void npa_rows_along(const Array<T, N>& a, int64_t axis, F f) {
  int64_t outer = 1;
  for (int k = 0; k < axis; ++k) outer *= a.shape[k];
  const int64_t rows = npa_rows_between(a, axis);
  int64_t oidx[N] = {};  // the axes before `axis`, C order
  for (int64_t o = 0; o < outer; ++o) {
    const char* po = (const char*)a.data;
    for (int k = 0; k < axis; ++k) po += oidx[k] * a.strides[k];
    for (int64_t j = 0; j < a.shape[axis]; ++j) {
      int64_t midx[N] = {};  // the axes between `axis` and the last, C order
      for (int64_t w = 0; w < rows; ++w) {
        const char* p = po + j * a.strides[axis];
        for (int k = (int)axis + 1; k < N - 1; ++k) p += midx[k] * a.strides[k];
        f(o * rows + w, j, p);
        for (int k = N - 2; k > axis; --k) {
          if (++midx[k] < a.shape[k]) break;
          midx[k] = 0;
        }
      }
    }
    for (int k = (int)axis - 1; k >= 0; --k) {
      if (++oidx[k] < a.shape[k]) break;
      oidx[k] = 0;
    }
  }
}
// dst[i] = op(src[i], x[i]) over a row, x unit-stride (vectorised) or strided. src is dst or a
// row that does not overlap it (the result is new; x is the input: __restrict holds).
template <class R, class T, class Op>
CJ_VECTORIZE CJ_FN void npa_row_dense(R* __restrict dst, const R* __restrict src, const T* __restrict x, int64_t n, Op op) {
  for (int64_t i = 0; i < n; ++i) dst[i] = op(src[i], x[i]);
}
template <class R, class T, class Op>
CJ_VECTORIZE CJ_FN void npa_row_dense_inplace(R* __restrict dst, const T* __restrict x, int64_t n, Op op) {
  for (int64_t i = 0; i < n; ++i) dst[i] = op(dst[i], x[i]);
}
template <class R, class T, class Op>
CJ_FN void npa_row(R* dst, const R* src, const char* x, int64_t s, int64_t n, Op op) {
  if (s == (int64_t)sizeof(T) && dst == src) return npa_row_dense_inplace<R, T>(dst, (const T*)x, n, op);
  if (s == (int64_t)sizeof(T)) return npa_row_dense<R, T>(dst, src, (const T*)x, n, op);
  for (int64_t i = 0; i < n; ++i) dst[i] = op(src[i], *(const T*)(x + i * s));
}

// np.sum(a, axis=k): each element of the result is 0 + a[0] + a[1] + ... along the axis, in that
// order, as Numba's loop (result += the slice at each index) and red_sum of the line give.
template <class R, class T, int N>
CJ_FN Array<R, N - 1> npa_sum_axis(const Array<T, N>& a, int64_t axis) {
  static_assert(N >= 2, "a 1-d array reduces to a number");
  axis = npa_axis<N>(axis);
  int64_t d[N - 1];
  for (int k = 0, j = 0; k < N; ++k)
    if (k != axis) d[j++] = a.shape[k];
  Array<R, N - 1> r = new_c_array<R, N - 1>(d);
  const int64_t n = size(r);
  for (int64_t i = 0; i < n; ++i) r.data[i] = (R)0;
  if (n == 0) return r;
  const int64_t len = a.shape[axis];
  if (axis == N - 1) {  // the lines are the rows: one sum each
    int64_t idx[N] = {};
    int64_t i = 0;
    do {
      const Array<T, 1> v = npa_line(a, axis, idx);
      R acc = 0;
      for (int64_t j = 0; j < len; ++j) acc = uf_add(acc, (R)*(const T*)((const char*)v.data + j * v.strides[0]));
      r.data[i++] = acc;
    } while (npa_next<N>(idx, a.shape, axis));
    return r;
  }
  const int64_t m = a.shape[N - 1], s = a.strides[N - 1];
  npa_rows_along(a, axis, [&](int64_t q, int64_t, const char* p) {
    R* rr = r.data + q * m;
    npa_row<R, T>(rr, rr, p, s, m, [](R acc, T x) { return uf_add(acc, (R)x); });
  });
  return r;
}

// np.argmin/argmax(a, axis=k) along an axis that is not the last, in memory order: the best value
// so far of each result element in a scratch row, replaced where a later element beats it, or is
// the first NaN (red_arg_extreme's rule, element by element). The last axis, or an empty one
// (its error), go line by line.
template <bool Max, class R, class T, int N>
CJ_FN Array<R, N - 1> npa_arg_axis(const Array<T, N>& a, int64_t axis) {
  axis = npa_axis<N, 1>(axis);
  auto line = [](const auto& v) { return red_arg_extreme<Max, UfErrPy, R>(v); };
  if (axis == N - 1 || a.shape[axis] == 0) return npa_reduce_axis<R>(a, axis, line);
  int64_t d[N - 1];
  for (int k = 0, j = 0; k < N; ++k)
    if (k != axis) d[j++] = a.shape[k];
  Array<R, N - 1> r = new_c_array<R, N - 1>(d);
  if (size(r) == 0) return r;
  T* best = new_c_array<T, N - 1>(d).data;
  const int64_t m = a.shape[N - 1], s = a.strides[N - 1];
  npa_rows_along(a, axis, [&](int64_t q, int64_t j, const char* p) {
    R* at = r.data + q * m;
    T* b = best + q * m;
    for (int64_t i = 0; i < m; ++i) {
      const T x = *(const T*)(p + i * s);
      if (j == 0) {
        b[i] = x;
        at[i] = 0;
      } else if (!red_nan(b[i]) && (red_nan(x) || red_beats<Max>(x, b[i]))) {
        b[i] = x;
        at[i] = (R)j;
      }
    }
  });
  return r;
}

// cumsum/cumprod (and the nan forms, which count NaN as 0 or 1) of every element: a 1-d array
// in C order; along an axis: an array of a's shape. Accumulated in the result's type R.
template <int Op, class R, class T>
CJ_FN R npa_acc(R acc, T x) {
  if (Op >= 2 && red_nan(x)) return acc;  // nancumsum / nancumprod
  return (Op % 2 == 0) ? uf_add(acc, (R)x) : uf_multiply(acc, (R)x);
}
template <int Op, class R, class T, int N>
CJ_FN Array<R, 1> npa_cum(const Array<T, N>& a) {
  int64_t d[1] = {size(a)};
  Array<R, 1> r = new_c_array<R, 1>(d);
  R acc = (Op % 2 == 0) ? (R)0 : (R)1;
  int64_t i = 0;
  red_each(a, [&](T x) { acc = npa_acc<Op>(acc, x); r.data[i++] = acc; });
  return r;
}
template <int Op, class R, class T, int N>
CJ_FN Array<R, N> npa_cum_axis(const Array<T, N>& a, int64_t axis) {
  axis = npa_axis<N, 2>(axis);
  int64_t d[N];
  for (int k = 0; k < N; ++k) d[k] = a.shape[k];
  Array<R, N> r = new_c_array<R, N>(d);
  if (size(r) == 0) return r;
  if (axis != N - 1) {  // in memory order (npa_rows_along): each row from the one before it
    const int64_t m = a.shape[N - 1], s = a.strides[N - 1], rows = npa_rows_between(a, axis), len = a.shape[axis];
    R* first = r.data;  // a row of the scan's start value, read by each first row
    if (m > 0) {
      int64_t one[1] = {m};
      first = new_c_array<R, 1>(one).data;
      for (int64_t i = 0; i < m; ++i) first[i] = (Op % 2 == 0) ? (R)0 : (R)1;
    }
    npa_rows_along(a, axis, [&](int64_t q, int64_t j, const char* p) {
      const int64_t o = q / rows, w = q % rows;
      R* dst = r.data + ((o * len + j) * rows + w) * m;
      npa_row<R, T>(dst, j == 0 ? first : dst - rows * m, p, s, m, [](R acc, T x) { return npa_acc<Op>(acc, x); });
    });
    return r;
  }
  int64_t idx[N] = {};
  do {
    Array<T, 1> in = npa_line(a, axis, idx);
    Array<R, 1> out = npa_line(r, axis, idx);
    R acc = (Op % 2 == 0) ? (R)0 : (R)1;
    for (int64_t j = 0; j < in.shape[0]; ++j) {
      acc = npa_acc<Op>(acc, *(T*)((char*)in.data + j * in.strides[0]));
      *(R*)((char*)out.data + j * out.strides[0]) = acc;
    }
  } while (npa_next<N>(idx, a.shape, axis));
  return r;
}

// The elements as float64 in a scratch array of the arena (NaN left out where SkipNan); *nan
// is set where a NaN was seen.
template <bool SkipNan, class T, int N>
CJ_FN Array<double, 1> npa_values(const Array<T, N>& a, bool* nan) {
  int64_t d[1] = {size(a)};
  Array<double, 1> v = new_c_array<double, 1>(d);
  int64_t n = 0;
  *nan = false;
  red_each(a, [&](T x) {
    if (red_nan(x)) { *nan = true; if (SkipNan) return; }
    v.data[n++] = (double)x;
  });
  v.shape[0] = n;
  return v;
}
// The q-th quantile (q in [0, 1]) of the sorted values: linear interpolation between the two
// nearest ranks (NumPy's default method, computed as Numba computes it).
CJ_FN double npa_quantile_sorted(const double* v, int64_t n, double q) {
  if (n == 0) return CJ_NAN;
  const double rank = q * (double)(n - 1);
  const int64_t lo = (int64_t)std::floor(rank);
  const int64_t hi = lo + 1 < n ? lo + 1 : lo;
  const double m = rank - (double)lo;
  return v[lo] + (v[hi] - v[lo]) * m;
}
// The p-th percentile (p in [0, 100]; a quantile times 100) as Numba computes it: the largest
// value for 100, the smallest for 0 (Numba's extra rules for infinities are not copied), else
// rank = 1 + (n - 1) * (p / 100) and lower * (1 - m) + upper * m between the values at its floor
// (m the fraction): another spelling of the interpolation differs in the last bit.
CJ_FN double npa_percentile_sorted(const double* v, int64_t n, double p) {
  if (n == 0) return CJ_NAN;
  if (n == 1) return v[0];
  if (p == 100) return v[n - 1];
  if (p == 0) return v[0];
  const double rank = 1 + (double)(n - 1) * (p / 100.0);
  const double f = std::floor(rank), m = rank - f;
  const int64_t k = (int64_t)(f - 1);
  return v[k] * (1 - m) + v[k + 1 < n ? k + 1 : k] * m;
}
// median / percentile / quantile and their nan forms: Scale is 100 for percentiles, 1 for
// quantiles. A NaN among the values gives NaN (unless SkipNan).
// npa_sort_values is std::sort, defined in host_numpy_sort.h, which only programs that call these
// include (pipeline.cpp): <algorithm> is a quarter of a whole first compile.
template <class V> CJ_FN void npa_sort_values(V* first, V* last);
template <bool SkipNan, class T, int N>
CJ_FN Array<double, 1> npa_sorted(const Array<T, N>& a, bool* nan) {
  Array<double, 1> v = npa_values<SkipNan>(a, nan);
  npa_sort_values(v.data, v.data + v.shape[0]);
  return v;
}
CJ_FN double npa_check_q(double q, double scale) {
  if (!(q >= 0 && q <= scale))
    raise("ValueError", scale == 100 ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
  return q / scale;
}
template <bool SkipNan, class T, int N>
CJ_FN double npa_median(const Array<T, N>& a) {
  bool nan;
  Array<double, 1> v = npa_sorted<SkipNan>(a, &nan);
  if (nan && !SkipNan) return CJ_NAN;
  return npa_quantile_sorted(v.data, v.shape[0], 0.5);
}
template <bool SkipNan, class T, int N>
CJ_FN double npa_percentile(const Array<T, N>& a, double q, double scale) {
  npa_check_q(q, scale);
  if (scale != 100) q *= 100.0;  // Numba's: a quantile times 100, a percentile as given
  bool nan;
  Array<double, 1> v = npa_sorted<SkipNan>(a, &nan);
  if (nan && !SkipNan) return CJ_NAN;
  return npa_percentile_sorted(v.data, v.shape[0], q);
}
template <bool SkipNan, class T, int N, class Q, int M>
CJ_FN Array<double, M> npa_percentiles(const Array<T, N>& a, const Array<Q, M>& qs, double scale) {
  int64_t d[M > 0 ? M : 1];
  for (int k = 0; k < M; ++k) d[k] = qs.shape[k];
  Array<double, M> r = new_c_array<double, M>(d);
  int64_t i = 0;
  red_each(qs, [&](Q q) {
    npa_check_q((double)q, scale);
    r.data[i++] = scale == 100 ? (double)q : (double)q * 100.0;
  });
  bool nan;
  Array<double, 1> v = npa_sorted<SkipNan>(a, &nan);
  for (int64_t j = 0; j < i; ++j)
    r.data[j] = (nan && !SkipNan) ? CJ_NAN : npa_percentile_sorted(v.data, v.shape[0], r.data[j]);
  return r;
}

// nanvar / nanstd: of the elements that are not NaN (NaN where none is).
template <class R, class T, int N>
CJ_FN R npa_nanvar(const Array<T, N>& a) {
  double s = 0;
  int64_t n = 0;
  red_each(a, [&](T x) { if (!red_nan(x)) { s += (double)x; ++n; } });
  const double m = s / (double)n;
  double ssd = 0;
  red_each(a, [&](T x) { if (!red_nan(x)) { const double v = (double)x - m; ssd += v * v; } });
  return (R)(ssd / (double)n);
}

// np.ptp: max - min in the array's type (NaN if any is NaN).
template <class R, class T, int N>
CJ_FN R npa_ptp(const Array<T, N>& a) {
  if (size(a) == 0) raise("ValueError", "zero-size array reduction not possible");
  return (R)red_extreme<true, UfErrPy, T>(a) - (R)red_extreme<false, UfErrPy, T>(a);
}

// nanargmin / nanargmax: the flat index of the first extreme that is not NaN.
template <bool Max, class T, int N>
CJ_FN int64_t npa_nanarg(const Array<T, N>& a) {
  if (size(a) == 0)
    raise("ValueError", Max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence");
  int64_t i = 0, at = -1;
  T m = 0;
  red_each(a, [&](T x) {
    if (!red_nan(x) && (at < 0 || red_beats<Max>(x, m))) { m = x; at = i; }
    ++i;
  });
  if (at < 0) raise("ValueError", "All-NaN slice encountered");
  return at;
}

// np.average(a[, weights=w]): the mean, or sum(a * w) / sum(w) over arrays of one shape.
template <class T, int N, class W, int M>
CJ_FN double npa_average(const Array<T, N>& a, const Array<W, M>& w) {
  static_assert(M == N, "weights of the array's shape");
  for (int k = 0; k < N; ++k)
    if (a.shape[k] != w.shape[k]) raise("TypeError", "Numba does not support average when shapes of a and weights differ.");
  double s = 0, ws = 0;
  int64_t n = size(a);
  // Walk both arrays in C order together.
  int64_t idx[N > 0 ? N : 1] = {};
  for (int64_t j = 0; j < n; ++j) {
    const char* pa = (const char*)a.data;
    const char* pw = (const char*)w.data;
    for (int k = 0; k < N; ++k) { pa += idx[k] * a.strides[k]; pw += idx[k] * w.strides[k]; }
    const double x = (double)*(const T*)pa, y = (double)*(const W*)pw;
    s += x * y;
    ws += y;
    for (int k = N - 1; k >= 0; --k) {
      if (++idx[k] < a.shape[k]) break;
      idx[k] = 0;
    }
  }
  if (ws == 0) raise("ZeroDivisionError", "Weights sum to zero, can't be normalized.");
  return s / ws;
}

}  // namespace cj

namespace cj {

// a.view(dtype) in @jit code: the same bytes as U (NumPy's rule for another itemsize; Numba's
// messages).
template <class U, class T, int N>
CJ_FN Array<U, N> npa_view(const Array<T, N>& a) {
  Array<U, N> r;
  r.data = (U*)a.data;
  for (int k = 0; k < N; ++k) { r.shape[k] = a.shape[k]; r.strides[k] = a.strides[k]; }
  if (sizeof(U) != sizeof(T)) {
    if (a.shape[N - 1] > 1 && a.strides[N - 1] != (int64_t)sizeof(T))
      raise("ValueError", "To change to a dtype of a different size, the last axis must be contiguous");
    const int64_t bytes = a.shape[N - 1] * (int64_t)sizeof(T);
    if (bytes % (int64_t)sizeof(U) != 0)
      raise("ValueError", "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.");
    r.shape[N - 1] = bytes / (int64_t)sizeof(U);
    r.strides[N - 1] = (int64_t)sizeof(U);
  }
  return r;
}

// Whether `a` is C-contiguous (sizes of 1 have any stride, as NumPy's flags say).
template <class T, int N>
CJ_FN bool npa_c_contiguous(const Array<T, N>& a) {
  int64_t want = (int64_t)sizeof(T);
  for (int k = N - 1; k >= 0; --k) {
    if (a.shape[k] != 1 && a.strides[k] != want) return false;
    want *= a.shape[k];
  }
  return true;
}

// a.reshape(shape) / np.reshape(a, shape): a view of a C-contiguous array with one size
// possibly -1 (Numba's messages; Numba reshapes only contiguous arrays).
template <class T, int N, int M>
CJ_FN Array<T, M> npa_reshape(const Array<T, N>& a, const int64_t* want) {
  int64_t d[M > 0 ? M : 1];
  int64_t known = 1, neg = -1;
  for (int k = 0; k < M; ++k) {
    d[k] = want[k];
    if (d[k] < 0) {
      if (neg >= 0) raise("ValueError", "multiple negative shape values");
      neg = k;
    } else {
      known *= d[k];
    }
  }
  const int64_t n = size(a);
  if (neg >= 0) {
    if (known == 0 || n % known != 0) raise("ValueError", "total size of new array must be unchanged");
    d[neg] = n / known;
  } else if (known != n) {
    raise("ValueError", "total size of new array must be unchanged");
  }
  if (!npa_c_contiguous(a)) raise("NotImplementedError", "incompatible shape for array");
  return c_array_of<T, M>(a.data, d);
}
template <int M, class T, int N, class... D>
CJ_FN Array<T, M> npa_reshape_to(const Array<T, N>& a, D... dims) {
  const int64_t d[] = {(int64_t)dims..., 0};
  return npa_reshape<T, N, M>(a, d);
}

// a.ravel(): a view of a C-contiguous array, else a C-ordered copy; a.flatten(): always a copy.
template <class T, int N>
CJ_FN Array<T, 1> npa_flatten(const Array<T, N>& a) {
  int64_t d[1] = {size(a)};
  Array<T, 1> r = new_c_array<T, 1>(d);
  int64_t i = 0;
  red_each(a, [&](T x) { r.data[i++] = x; });
  return r;
}
template <class T, int N>
CJ_FN Array<T, 1> npa_ravel(const Array<T, N>& a) {
  if (!npa_c_contiguous(a)) return npa_flatten(a);
  int64_t d[1] = {size(a)};
  return c_array_of<T, 1>(a.data, d);
}

// a.T, a.transpose(), a.transpose(axes): a view with the axes permuted (axes must be a
// permutation of 0..N-1, negative ones counted from the end).
// (npa_transpose, a.T, is in common.h: kernels take it too.)
template <class T, int N, class... D>
CJ_FN Array<T, N> npa_transpose_axes(const Array<T, N>& a, D... axes) {
  static_assert(sizeof...(D) == N, "one axis per dimension");
  const int64_t ax[] = {(int64_t)axes...};
  bool seen[N] = {};
  Array<T, N> r;
  r.data = a.data;
  for (int k = 0; k < N; ++k) {
    int64_t x = ax[k] < 0 ? ax[k] + N : ax[k];
    if (x < 0 || x >= N) raise("ValueError", "axis is out of bounds for the array's dimension");
    if (seen[x]) raise("ValueError", "repeated axis in transpose");
    seen[x] = true;
    r.shape[k] = a.shape[x];
    r.strides[k] = a.strides[x];
  }
  return r;
}

// a.astype(dtype): a new C-ordered array of the values converted (C's conversion, as Numba's).
template <class R, class T, int N>
CJ_FN Array<R, N> npa_astype(const Array<T, N>& a) {
  Array<R, N> r = empty_like<R>(a);
  int64_t i = 0;
  red_each(a, [&](T x) { r.data[i++] = (R)x; });
  return r;
}

// a.fill(v): every element set to v converted to the array's type.
template <class T, int N, class V>
CJ_FN void npa_fill(const Array<T, N>& a, V v) {
  const T x = (T)v;
  const int64_t n = size(a);
  int64_t idx[N > 0 ? N : 1] = {};
  for (int64_t i = 0; i < n; ++i) {
    char* p = (char*)a.data;
    for (int k = 0; k < N; ++k) p += idx[k] * a.strides[k];
    *(T*)p = x;
    for (int k = N - 1; k >= 0; --k) {
      if (++idx[k] < a.shape[k]) break;
      idx[k] = 0;
    }
  }
}

// a.item(): the one element of a size-1 array.
template <class T, int N>
CJ_FN T npa_item(const Array<T, N>& a) {
  if (size(a) != 1) raise("ValueError", "item(): can only convert an array of size 1 to a Python scalar");
  return *a.data;
}

// np.array / np.asarray of a list of numbers (any sequence with size() and at(i)), of a list
// of such lists (all of one length), of numbers (a tuple's items).
template <class R, class L>
CJ_FN Array<R, 1> npa_from_seq(const L& l) {
  Array<R, 1> r = np_empty<R, 1>(l.size());
  for (int64_t i = 0; i < l.size(); ++i) r.data[i] = (R)l.at(i);
  return r;
}
template <class R, class L>
CJ_FN Array<R, 2> npa_from_seq2(const L& l) {
  const int64_t n = l.size(), m = n ? l.at(0).size() : 0;
  for (int64_t i = 0; i < n; ++i)
    if (l.at(i).size() != m) raise("ValueError", "setting an array element with a sequence.");
  Array<R, 2> r = np_empty<R, 2>(n, m);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) r.data[i * m + j] = (R)l.at(i).at(j);
  return r;
}
template <class R, class... V>
CJ_FN Array<R, 1> npa_from_values(V... v) {
  Array<R, 1> r = np_empty<R, 1>((int64_t)sizeof...(V));
  int64_t i = 0;
  ((r.data[i++] = (R)v), ...);
  return r;
}

// np.linspace(start, stop, num): num float64 values, the last exactly stop (as Numba computes).
CJ_FN Array<double, 1> npa_linspace(double start, double stop, int64_t num) {
  if (num < 0) raise("ValueError", "Number of samples, -1, must be non-negative.");
  int64_t d[1] = {num};
  Array<double, 1> r = new_c_array<double, 1>(d);
  if (num == 0) return r;
  if (num == 1) { r.data[0] = start; return r; }
  const int64_t div = num - 1;
  const double delta = stop - start;
  for (int64_t i = 0; i < num; ++i) r.data[i] = start + (double)i * (delta / (double)div);
  r.data[num - 1] = stop;
  return r;
}

// Complex ends (Numba's steps): both times 1.0 as complex products, the step NumPy's complex
// division of their difference by num - 1, element i start + i * step in complex arithmetic.
CJ_FN Array<Complex<double>, 1> npa_linspace(Complex<double> start, Complex<double> stop, int64_t num) {
  if (num < 0) raise("ValueError", "Number of samples, -1, must be non-negative.");
  int64_t d[1] = {num};
  Array<Complex<double>, 1> r = new_c_array<Complex<double>, 1>(d);
  start = start * Complex<double>(1.0);
  stop = stop * Complex<double>(1.0);
  if (num == 0) return r;
  if (num == 1) { r.data[0] = start; return r; }
  const Complex<double> step = uf_divide(stop - start, Complex<double>((double)(num - 1)));
  for (int64_t i = 0; i < num; ++i) r.data[i] = start + Complex<double>((double)i) * step;
  r.data[num - 1] = stop;
  return r;
}

// np.eye(N, M, k) / np.identity(n) / np.tri(N, M, k): new 2-d arrays.
template <class T>
CJ_FN Array<T, 2> npa_eye(int64_t n, int64_t m, int64_t k) {
  Array<T, 2> r = np_zeros<T, 2>(n, m);
  for (int64_t i = 0; i < n; ++i)
    if (i + k >= 0 && i + k < m) r.data[i * m + i + k] = (T)1;
  return r;
}
template <class T>
CJ_FN Array<T, 2> npa_tri(int64_t n, int64_t m, int64_t k) {
  Array<T, 2> r = np_empty<T, 2>(n, m);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) r.data[i * m + j] = (T)(j <= i + k ? 1 : 0);
  return r;
}
// np.tril(a, k) / np.triu(a, k): a copy with the other triangle zeroed.
template <bool Upper, class T, int N>
CJ_FN Array<std::remove_cv_t<T>, (N < 2 ? 2 : N)> npa_trilu(const Array<T, N>& a, int64_t k) {
  using V = std::remove_cv_t<T>;
  auto keep = [&](int64_t i, int64_t j) { return Upper ? j >= i + k : j <= i + k; };
  if constexpr (N == 1) {  // Numba's: the row repeated into an (n, n) matrix, then masked
    const int64_t n = a.shape[0];
    Array<V, 2> r = np_empty<V, 2>(n, n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) r.data[i * n + j] = keep(i, j) ? (V) * (const T*)((const char*)a.data + j * a.strides[0]) : (V)0;
    return r;
  } else {  // the mask on the last two axes of every matrix of the stack
    Array<V, N> r = empty_like<V>(a);
    int64_t idx[N] = {};
    V* o = r.data;
    for_each(a, [&](T& x) {
      *o++ = keep(idx[N - 2], idx[N - 1]) ? (V)x : (V)0;
      for (int d = N - 1; d >= 0; --d) {
        if (++idx[d] < a.shape[d]) break;
        idx[d] = 0;
      }
    });
    return r;
  }
}
// np.diag(v, k): of a 1-d array, a 2-d array with v on the k-th diagonal; of a 2-d array, a copy
// of its k-th diagonal.
template <class T>
CJ_FN Array<T, 2> npa_diag(const Array<T, 1>& v, int64_t k) {
  const int64_t n = v.shape[0] + (k < 0 ? -k : k);
  Array<T, 2> r = np_zeros<T, 2>(n, n);
  for (int64_t i = 0; i < v.shape[0]; ++i) {
    const int64_t row = k >= 0 ? i : i - k, col = k >= 0 ? i + k : i;
    r.data[row * n + col] = *(const T*)((const char*)v.data + i * v.strides[0]);
  }
  return r;
}
template <class T>
CJ_FN Array<T, 1> npa_diag(const Array<T, 2>& a, int64_t k) {
  const int64_t r0 = k >= 0 ? 0 : -k, c0 = k >= 0 ? k : 0;
  int64_t n = a.shape[0] - r0 < a.shape[1] - c0 ? a.shape[0] - r0 : a.shape[1] - c0;
  if (n < 0) n = 0;
  Array<T, 1> r = np_empty<T, 1>(n);
  for (int64_t i = 0; i < n; ++i)
    r.data[i] = *(const T*)((const char*)a.data + (r0 + i) * a.strides[0] + (c0 + i) * a.strides[1]);
  return r;
}

// np.concatenate / np.stack of arrays of one ndim (a tuple's items, converted to R): the inputs'
// shapes must agree except along the axis (Numba's messages).
template <class R, int N, class... A>
CJ_FN Array<R, N> npa_concatenate(int64_t axis, const A&... in) {
  axis = npa_axis<N, 3>(axis);
  int64_t d[N];
  bool first = true;
  auto shape_of = [&](const auto& x) {
    if (first) { for (int k = 0; k < N; ++k) d[k] = x.shape[k]; first = false; return; }
    for (int k = 0; k < N; ++k)
      if (k != axis && x.shape[k] != d[k]) {
        static const char* const msg[] = {
            "np.concatenate(): input sizes over dimension 0 do not match", "np.concatenate(): input sizes over dimension 1 do not match",
            "np.concatenate(): input sizes over dimension 2 do not match", "np.concatenate(): input sizes over dimension 3 do not match",
            "np.concatenate(): input sizes over dimension 4 do not match", "np.concatenate(): input sizes over dimension 5 do not match",
            "np.concatenate(): input sizes over dimension 6 do not match", "np.concatenate(): input sizes over dimension 7 do not match"};
        raise("ValueError", msg[k]);
      }
    d[axis] += x.shape[axis];
  };
  (shape_of(in), ...);
  Array<R, N> r = new_c_array<R, N>(d);
  int64_t off = 0;
  auto put = [&](const auto& x) {
    typedef typename std::remove_pointer<decltype(x.data)>::type T;
    Array<R, N> dst = r;  // the part of r this input fills: a view offset along the axis
    dst.data = (R*)((char*)r.data + off * r.strides[axis]);
    dst.shape[axis] = x.shape[axis];
    const int64_t n = size(x);
    int64_t idx[N] = {};
    for (int64_t i = 0; i < n; ++i) {
      const char* p = (const char*)x.data;
      char* q = (char*)dst.data;
      for (int k = 0; k < N; ++k) { p += idx[k] * x.strides[k]; q += idx[k] * dst.strides[k]; }
      *(R*)q = (R) * (const T*)p;
      for (int k = N - 1; k >= 0; --k) {
        if (++idx[k] < x.shape[k]) break;
        idx[k] = 0;
      }
    }
    off += x.shape[axis];
  };
  (put(in), ...);
  return r;
}
// np.stack: each input gets a new axis of size 1 there, then they are concatenated.
template <class T, int N>
CJ_FN Array<T, N + 1> npa_expand(const Array<T, N>& a, int64_t axis) {
  Array<T, N + 1> r;
  r.data = a.data;
  for (int k = 0, j = 0; k <= N; ++k) {
    if (k == axis) { r.shape[k] = 1; r.strides[k] = 0; continue; }
    r.shape[k] = a.shape[j];
    r.strides[k] = a.strides[j];
    ++j;
  }
  return r;
}
template <class R, int N, class... A>
CJ_FN Array<R, N + 1> npa_stack(int64_t axis, const A&... in) {
  axis = npa_axis<N + 1, 4>(axis);
  int64_t d[N];
  bool first = true;
  auto check = [&](const auto& x) {
    if (first) { for (int k = 0; k < N; ++k) d[k] = x.shape[k]; first = false; return; }
    for (int k = 0; k < N; ++k)
      if (x.shape[k] != d[k]) raise("ValueError", "all input arrays must have the same shape");
  };
  (check(in), ...);
  return npa_concatenate<R, N + 1>(axis, npa_expand(in, axis)...);
}

}  // namespace cj
