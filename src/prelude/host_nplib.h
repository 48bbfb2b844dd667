
// ---- NumPy's sorting, searching and counting in CPU code (host target, @jit only) -------------
// np.sort/a.sort/np.argsort/np.unique/np.searchsorted/np.diff/np.bincount/np.flip/np.outer and
// np.random.shuffle/permutation (typed in typeinfer_numpy.cpp). Order is NumPy's: NaN after every
// number, complex numbers by real part then imaginary part. New arrays are C-ordered, in the
// call's arena (host_arrays.h).
#include <algorithm>
#include <type_traits>

namespace cj {

template <class T> struct np_complex_t : std::false_type {};
template <class F> struct np_complex_t<Complex<F>> : std::true_type {};

template <class T>
CJ_FN bool np_isnan(const T& x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

// NumPy's sort order (npysort's LT): NaNs last.
template <class T>
CJ_FN bool np_less(const T& a, const T& b) {
  if constexpr (np_complex_t<T>::value) {
    if (a.re < b.re) return a.im == a.im || b.im != b.im;
    if (a.re > b.re) return b.im != b.im && a.im == a.im;
    if (a.re == b.re || (a.re != a.re && b.re != b.re)) return a.im < b.im || (b.im != b.im && a.im == a.im);
    return b.re != b.re;
  } else if constexpr (std::is_floating_point_v<T>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}
template <class T>
CJ_FN bool np_same(const T& a, const T& b) {  // np.unique's equality: NaNs are one value
  if constexpr (np_complex_t<T>::value) return (a.re == b.re || (a.re != a.re && b.re != b.re)) &&
                                               (a.im == b.im || (a.im != a.im && b.im != b.im));
  else return a == b || (np_isnan(a) && np_isnan(b));
}

// Calls f(pointer to the row's first element, length, byte stride) for each row along the last
// axis of `a`, in C order.
template <class T, int N, class F>
CJ_FN void for_each_row(const Array<T, N>& a, F&& f) {
  int64_t rows = 1;
  for (int k = 0; k + 1 < N; ++k) rows *= a.shape[k];
  const int64_t len = a.shape[N - 1];
  if (rows == 0 || len == 0) return;
  int64_t idx[N] = {};
  for (int64_t r = 0; r < rows; ++r) {
    char* p = (char*)a.data;
    for (int k = 0; k + 1 < N; ++k) p += idx[k] * a.strides[k];
    f((T*)p, len, a.strides[N - 1]);
    for (int k = N - 2; k >= 0; --k) {
      if (++idx[k] < a.shape[k]) break;
      idx[k] = 0;
    }
  }
}

template <class T>
CJ_FN T& at_stride(T* p, int64_t i, int64_t stride) { return *(T*)((char*)p + i * stride); }

// A C-ordered copy of `a` (any layout).
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> c_copy(const Array<T, N>& a) {
  using V = std::remove_cv_t<T>;
  Array<V, N> r = empty_like<V>(a);
  V* out = r.data;
  for_each(a, [&](const T& x) { *out++ = x; });
  return r;
}

// Numba's quicksort (numba/misc/quicksort.py) step for step, so that what compares equal ends
// where Numba puts it: ties of np.argsort, -0.0 beside 0.0, NaNs of different payloads (any
// other unstable sort gives another order, a silent difference). Median-of-three partitions,
// the larger side stacked, down to 15 elements or fewer, then an insertion sort. `r` holds the
// elements (np.sort) or their indices (np.argsort); lt(x, y) compares their keys.
template <class R, class Less>
CJ_FN void numba_quicksort(R* r, int64_t n, Less lt) {
  auto insertion = [&](int64_t low, int64_t high) {
    for (int64_t i = low + 1; i <= high; ++i) {
      const R k = r[i];
      int64_t j = i;
      for (; j > low && lt(k, r[j - 1]); --j) r[j] = r[j - 1];
      r[j] = k;
    }
  };
  auto swap = [&](int64_t i, int64_t j) { const R t = r[i]; r[i] = r[j]; r[j] = t; };
  auto partition = [&](int64_t low, int64_t high) {
    const int64_t mid = (low + high) >> 1;
    if (lt(r[mid], r[low])) swap(low, mid);
    if (lt(r[high], r[mid])) swap(high, mid);
    if (lt(r[mid], r[low])) swap(low, mid);
    const R pivot = r[mid];
    swap(high, mid);
    int64_t i = low, j = high - 1;
    while (true) {
      while (i < high && lt(r[i], pivot)) ++i;
      while (j >= low && lt(pivot, r[j])) --j;
      if (i >= j) break;
      swap(i, j);
      ++i, --j;
    }
    swap(i, high);
    return i;
  };
  if (n < 2) return;
  int64_t stack[100][2];  // the smaller side is sorted first, so the depth stays under log2(n)
  stack[0][0] = 0, stack[0][1] = n - 1;
  int depth = 1;
  while (depth > 0) {
    --depth;
    int64_t low = stack[depth][0], high = stack[depth][1];
    while (high - low >= 15) {
      const int64_t i = partition(low, high);
      if (high - i > i - low) {
        if (high > i) stack[depth][0] = i + 1, stack[depth][1] = high, ++depth;
        high = i - 1;
      } else {
        if (i > low) stack[depth][0] = low, stack[depth][1] = i - 1, ++depth;
        low = i + 1;
      }
    }
    insertion(low, high);
  }
}

// a.sort(): each row along the last axis, in place, by Numba's quicksort.
template <class T, int N>
CJ_FN void array_sort(const Array<T, N>& a) {
  for_each_row(a, [&](T* p, int64_t n, int64_t stride) {
    if (stride == (int64_t)sizeof(T)) {
      numba_quicksort(p, n, np_less<T>);
      return;
    }
    T* tmp = (T*)host_services.alloc(n * (int64_t)sizeof(T));
    for (int64_t i = 0; i < n; ++i) tmp[i] = at_stride(p, i, stride);
    numba_quicksort(tmp, n, np_less<T>);
    for (int64_t i = 0; i < n; ++i) at_stride(p, i, stride) = tmp[i];
  });
}

template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> np_sort(const Array<T, N>& a) {
  auto r = c_copy(a);
  array_sort(r);
  return r;
}

// np.argsort of a 1-d array: 'mergesort' (and 'stable') a stable sort, as Numba's mergesort is;
// 'quicksort' Numba's quicksort, whose order of ties is its own.
template <class T>
CJ_FN Array<int64_t, 1> np_argsort(const Array<T, 1>& a, bool stable) {
  const int64_t n = a.shape[0];
  Array<int64_t, 1> r = np_empty<int64_t, 1>(n);
  for (int64_t i = 0; i < n; ++i) r.data[i] = i;
  const int64_t s = a.strides[0];
  auto lt = [&](int64_t i, int64_t j) {
    return np_less<std::remove_cv_t<T>>(at_stride(a.data, i, s), at_stride(a.data, j, s));
  };
  if (stable) std::stable_sort(r.data, r.data + n, lt);
  else numba_quicksort(r.data, n, lt);
  return r;
}

// np.unique: the sorted distinct values of the flattened array (NaNs count as one).
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, 1> np_unique(const Array<T, N>& a) {
  using V = std::remove_cv_t<T>;
  auto c = c_copy(a);
  const int64_t n = size(c);
  numba_quicksort(c.data, n, np_less<V>);  // np.sort's order, so a run's first is Numba's
  int64_t m = 0;
  for (int64_t i = 0; i < n; ++i)
    if (m == 0 || !np_same(c.data[m - 1], c.data[i])) c.data[m++] = c.data[i];
  return c_array<V, 1>(c.data, m);
}

// np.searchsorted(a, v, side): the first index where v fits in sorted `a` (NumPy's order).
template <class T, class U>
CJ_FN int64_t search_one(const Array<T, 1>& a, const U& v, bool right) {
  using V = std::remove_cv_t<T>;
  using C = std::conditional_t<np_complex_t<V>::value || np_complex_t<U>::value,
                               Complex<double>,
                               std::conditional_t<std::is_floating_point_v<V> || std::is_floating_point_v<U>, double, V>>;
  const C x = (C)v;
  int64_t lo = 0, hi = a.shape[0];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    const C m = (C)at_stride(a.data, mid, a.strides[0]);
    if (right ? !np_less(x, m) : np_less(m, x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
template <class T, class U>
CJ_FN int64_t np_searchsorted(const Array<T, 1>& a, const U& v, bool right) { return search_one(a, v, right); }
template <class T, class U, int N>
CJ_FN Array<int64_t, N> np_searchsorted(const Array<T, 1>& a, const Array<U, N>& v, bool right) {
  Array<int64_t, N> r = empty_like<int64_t>(v);
  int64_t* out = r.data;
  for_each(v, [&](const U& x) { *out++ = search_one(a, (std::remove_cv_t<U>)x, right); });
  return r;
}

// np.diff(a, n) along the last axis (bool arrays: a[i+1] != a[i], as NumPy).
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> np_diff(const Array<T, N>& a, int64_t n) {
  using V = std::remove_cv_t<T>;
  if (n < 0) raise("ValueError", "diff(): order must be non-negative");
  const int64_t len = a.shape[N - 1];
  int64_t d[N];
  for (int k = 0; k < N; ++k) d[k] = a.shape[k];
  d[N - 1] = len > n ? len - n : 0;
  Array<V, N> r = new_c_array<V, N>(d);
  if (d[N - 1] == 0) return r;
  V* tmp = (V*)host_services.alloc(len * (int64_t)sizeof(V));
  V* out = r.data;
  for_each_row(a, [&](T* p, int64_t m, int64_t stride) {
    for (int64_t i = 0; i < m; ++i) tmp[i] = at_stride(p, i, stride);
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i + 1 < m - k; ++i) {
        if constexpr (std::is_same_v<V, bool>) tmp[i] = tmp[i + 1] != tmp[i];
        else tmp[i] = (V)(tmp[i + 1] - tmp[i]);
      }
    for (int64_t i = 0; i < m - n; ++i) *out++ = tmp[i];
  });
  return r;
}

// np.bincount(a[, weights][, minlength]).
template <class T>
CJ_FN int64_t bincount_len(const Array<T, 1>& a, int64_t minlength) {
  if (minlength < 0) raise("ValueError", "'minlength' must not be negative");
  int64_t n = minlength;
  for (int64_t i = 0; i < a.shape[0]; ++i) {
    auto v = at_stride(a.data, i, a.strides[0]);
    if (v < 0) raise("ValueError", "bincount(): first argument must be non-negative");
    if ((int64_t)v + 1 > n) n = (int64_t)v + 1;
  }
  return n;
}
template <class T>
CJ_FN Array<int64_t, 1> np_bincount(const Array<T, 1>& a, int64_t minlength) {
  const int64_t n = bincount_len(a, minlength);
  Array<int64_t, 1> r = np_zeros<int64_t, 1>(n);
  for (int64_t i = 0; i < a.shape[0]; ++i) r.data[(int64_t)at_stride(a.data, i, a.strides[0])] += 1;
  return r;
}
template <class T, class W>
CJ_FN Array<double, 1> np_bincount_w(const Array<T, 1>& a, const Array<W, 1>& w, int64_t minlength) {
  if (w.shape[0] != a.shape[0]) raise("ValueError", "bincount(): weights and list don't have the same length");
  const int64_t n = bincount_len(a, minlength);
  Array<double, 1> r = np_zeros<double, 1>(n);
  for (int64_t i = 0; i < a.shape[0]; ++i)
    r.data[(int64_t)at_stride(a.data, i, a.strides[0])] += (double)at_stride(w.data, i, w.strides[0]);
  return r;
}

// np.flip / fliplr / flipud: views with the axes reversed (NumPy's and Numba's are views too).
template <class T, int N>
CJ_FN Array<T, N> flip_axis(Array<T, N> a, int k) {
  if (a.shape[k] > 0) a.data = (T*)((char*)a.data + (a.shape[k] - 1) * a.strides[k]);
  a.strides[k] = -a.strides[k];
  return a;
}
template <class T, int N>
CJ_FN Array<T, N> np_flip(Array<T, N> a) {
  for (int k = 0; k < N; ++k) a = flip_axis(a, k);
  return a;
}
template <class T, int N>
CJ_FN Array<T, N> np_fliplr(const Array<T, N>& a) { return flip_axis(a, 1); }
template <class T, int N>
CJ_FN Array<T, N> np_flipud(const Array<T, N>& a) { return flip_axis(a, 0); }

// np.round / np.around as Numba computes them: rint (half to even) when decimals is 0, else
// CPython's round algorithm on float64 with rint at its heart (round_ndigits). A number's result
// is float64, int64 or complex128 (Numba's); an array's keeps its dtype, each element rounded as
// a number and converted back.
CJ_FN double np_round_nd(double x, int64_t nd) {
  if (x != x || x == 1.0 / 0.0 || x == -1.0 / 0.0) return x;
  if (nd >= 0) {
    const double pow1 = nd > 22 ? std::pow(10.0, (double)(nd - 22)) : std::pow(10.0, (double)nd);
    const double pow2 = nd > 22 ? 1e22 : 1.0;
    const double y = (x * pow1) * pow2;
    if (y == 1.0 / 0.0 || y == -1.0 / 0.0) return x;
    return (std::rint(y) / pow2) / pow1;
  }
  const double pow1 = std::pow(10.0, (double)-nd);
  return std::rint(x / pow1) * pow1;
}
CJ_FN int64_t np_round_to_int(double v) {  // int() of the float, as x86's conversion gives it outside int64
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
template <class T>
CJ_FN auto np_round(const T& x, int64_t d) {
  if constexpr (np_complex_t<T>::value) {
    return d == 0 ? Complex<double>(std::rint((double)x.re), std::rint((double)x.im))
                  : Complex<double>(np_round_nd((double)x.re, d), np_round_nd((double)x.im, d));
  } else if constexpr (std::is_floating_point_v<T>) {
    return d == 0 ? (double)std::rint(x) : np_round_nd((double)x, d);
  } else {
    return d == 0 ? (int64_t)x : np_round_to_int(np_round_nd((double)x, d));
  }
}
template <class T, int N, class U, int M>
CJ_FN Array<U, M> np_round_into(const Array<T, N>& a, int64_t d, const Array<U, M>& out) {
  bool same = N == M;
  for (int k = 0; same && k < N; ++k) same = a.shape[k] == out.shape[k];
  if (!same) raise("ValueError", "invalid output shape");
  const int64_t n = size(a);
  for (int64_t k = 0; k < n; ++k) *flat_elem(out, k) = (U)np_round(*flat_elem(a, k), d);
  return out;
}
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> np_round_arr(const Array<T, N>& a, int64_t d) {
  return np_round_into(a, d, empty_like<std::remove_cv_t<T>>(a));
}

// np.trace(a, offset) of a 2-d float or complex array: the sum of a diagonal, accumulated as
// Numba's (from the int 0: float64, or complex128 for complex input).
template <class T>
CJ_FN auto np_trace(const Array<T, 2>& a, int64_t k = 0) {
  using V = std::remove_cv_t<T>;
  using R = std::conditional_t<np_complex_t<V>::value, Complex<double>, double>;
  R s = R(0);
  int64_t rows = a.shape[0], cols = a.shape[1];
  if (k < 0) rows += k;
  if (k > 0) cols -= k;
  int64_t n = rows < cols ? rows : cols;
  if (n < 0) n = 0;
  const int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0;
  for (int64_t i = 0; i < n; ++i) s = s + R(*(T*)((char*)a.data + (r0 + i) * a.strides[0] + (c0 + i) * a.strides[1]));
  return s;
}

// np.outer(a, b): both flattened; out[i, j] = a[i] * b[j] in the result's dtype R.
template <class R, class T, int N, class U, int M>
CJ_FN Array<R, 2> np_outer(const Array<T, N>& a, const Array<U, M>& b) {
  auto x = c_copy(a);
  auto y = c_copy(b);
  const int64_t m = size(x), n = size(y);
  Array<R, 2> r = np_empty<R, 2>(m, n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) r.data[i * n + j] = (R)x.data[i] * (R)y.data[j];
  return r;
}

// ---- Indexing with an array: a[idx] and a[mask] read into a new array; a[idx] = v, a[mask] = v
// write through. Indices are checked (Numba reads past the end without boundscheck=True: cujit
// raises its boundscheck error instead), a mask must match the shape it selects (NumPy's error).
template <class T, int N>
CJ_FN char* row_ptr(const Array<T, N>& a, int64_t i) {
  const int64_t n = a.shape[0];
  if (i < -n || i >= n) raise("IndexError", "index is out of bounds");
  return (char*)a.data + (i < 0 ? i + n : i) * a.strides[0];
}
template <class T, int N>
CJ_FN Array<T, (N > 1 ? N - 1 : 1)> sub_row(const Array<T, N>& a, char* p) {
  Array<T, (N > 1 ? N - 1 : 1)> r;
  r.data = (T*)p;
  for (int k = 1; k < N; ++k) r.shape[k - 1] = a.shape[k], r.strides[k - 1] = a.strides[k];
  if constexpr (N == 1) r.shape[0] = 1, r.strides[0] = (int64_t)sizeof(T);
  return r;
}
template <class I, int M, class T, int N>
CJ_FN void check_mask(const Array<I, M>& m, const Array<T, N>& a) {
  for (int k = 0; k < M; ++k)
    if (m.shape[k] != a.shape[k])
      raise("IndexError", "boolean index did not match indexed array");
}
// Calls f(pointer to the selected element or row) for each selection, in order.
template <class T, int N, class I, int M, class F>
CJ_FN void for_each_selected(const Array<T, N>& a, const Array<I, M>& ix, F&& f) {
  using J = std::remove_cv_t<I>;
  if constexpr (std::is_same_v<J, bool>) {
    check_mask(ix, a);
    if constexpr (M == N) {  // elements where the mask is true, in C order
      int64_t n = size(a);
      int64_t idx[N] = {};
      for (int64_t e = 0; e < n; ++e) {
        char* pm = (char*)ix.data;
        char* pa = (char*)a.data;
        for (int k = 0; k < N; ++k) pm += idx[k] * ix.strides[k], pa += idx[k] * a.strides[k];
        if (*(const bool*)pm) f(pa);
        for (int k = N - 1; k >= 0; --k) {
          if (++idx[k] < a.shape[k]) break;
          idx[k] = 0;
        }
      }
    } else {  // a 1-d mask picks rows
      for (int64_t i = 0; i < a.shape[0]; ++i)
        if (at_stride(ix.data, i, ix.strides[0])) f((char*)a.data + i * a.strides[0]);
    }
  } else {
    for_each(ix, [&](const I& i) { f(row_ptr(a, (int64_t)i)); });
  }
}
template <class T, int N, class I, int M>
CJ_FN int64_t selected_count(const Array<T, N>& a, const Array<I, M>& ix) {
  int64_t c = 0;
  for_each_selected(a, ix, [&](char*) { ++c; });
  return c;
}
template <class T, int N, class I, int M>
CJ_FN auto fancy_get(const Array<T, N>& a, const Array<I, M>& ix) {
  using V = std::remove_cv_t<T>;
  constexpr bool mask = std::is_same_v<std::remove_cv_t<I>, bool>;
  constexpr int R = mask ? (M == N ? 1 : N) : M + N - 1;
  int64_t d[R];
  if constexpr (mask && M == N) {
    d[0] = selected_count(a, ix);
  } else if constexpr (mask) {
    d[0] = selected_count(a, ix);
    for (int k = 1; k < N; ++k) d[k] = a.shape[k];
  } else {
    for (int k = 0; k < M; ++k) d[k] = ix.shape[k];
    for (int k = 1; k < N; ++k) d[M + k - 1] = a.shape[k];
  }
  Array<V, R> r = new_c_array<V, R>(d);
  V* out = r.data;
  for_each_selected(a, ix, [&](char* p) {
    if constexpr (N == 1 || (mask && M == N)) *out++ = *(T*)p;
    else for_each(sub_row(a, p), [&](const T& x) { *out++ = x; });
  });
  return r;
}
// a[ix] = v: a number goes to every selected element; an array is read in order, as many
// values as elements are selected (NumPy's rule for a 1-d value; Numba's message).
template <class T, int N, class I, int M, class U>
CJ_FN void fancy_set(const Array<T, N>& a, const Array<I, M>& ix, const U& v) {
  for_each_selected(a, ix, [&](char* p) {
    if constexpr (N == 1 || (std::is_same_v<std::remove_cv_t<I>, bool> && M == N)) *(T*)p = (T)v;
    else for_each(sub_row(a, p), [&](T& x) { x = (T)v; });
  });
}
template <class T, int N, class I, int M, class U, int K>
CJ_FN void fancy_set(const Array<T, N>& a, const Array<I, M>& ix, const Array<U, K>& v) {
  constexpr bool elems = N == 1 || (std::is_same_v<std::remove_cv_t<I>, bool> && M == N);
  const int64_t per = elems ? 1 : size(sub_row(a, (char*)a.data));
  const int64_t want = selected_count(a, ix) * per, have = size(v);
  if (have != want && have != 1 && !(have == per && !elems)) {
    if constexpr (elems) {  // Numba's words: the selection's shape, then the value's
      static thread_local char msg[320];  // PyError keeps the pointer: the text must outlive the throw
      int w = std::snprintf(msg, sizeof msg, "cannot assign slice of shape (%lld,) from input of shape (", (long long)want);
      for (int k = 0; k < K; ++k)
        w += std::snprintf(msg + w, sizeof msg - w, k + 1 < K ? "%lld, " : K == 1 ? "%lld," : "%lld", (long long)v.shape[k]);
      std::snprintf(msg + w, sizeof msg - w, ")");
      raise("ValueError", msg);
    }
    raise("ValueError", "cannot assign slice from input of different size");
  }
  auto vals = c_copy(v);  // read before writing: v may alias a
  int64_t k = 0;
  for_each_selected(a, ix, [&](char* p) {
    if constexpr (elems) {
      *(T*)p = (T)vals.data[have == 1 ? 0 : k++];
    } else {
      int64_t j = 0;
      for_each(sub_row(a, p), [&](T& x) { x = (T)vals.data[have == 1 ? 0 : have == per ? j++ : k++]; });
    }
  });
}

// np.random.shuffle / permutation: NumPy's legacy RandomState algorithm (Fisher-Yates from the
// end, each swap index drawn by mt_bounded), so a seed gives NumPy's (and Numba's) order.
// Multi-dimensional arrays are shuffled along their first axis.
template <class T, int N>
CJ_FN void rand_shuffle(const Array<T, N>& a) {
  MtState& s = rng(1);
  const int64_t n = a.shape[0];
  int64_t row = 1;
  for (int k = 1; k < N; ++k) row *= a.shape[k];
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = (int64_t)mt_bounded(s, (uint64_t)i);
    if (j == i) continue;
    if constexpr (N == 1) {
      std::swap(at_stride(a.data, i, a.strides[0]), at_stride(a.data, j, a.strides[0]));
    } else {
      // Rows i and j: swap element by element (any layout).
      Array<T, N - 1> ri, rj;
      ri.data = (T*)((char*)a.data + i * a.strides[0]);
      rj.data = (T*)((char*)a.data + j * a.strides[0]);
      for (int k = 1; k < N; ++k) ri.shape[k - 1] = rj.shape[k - 1] = a.shape[k], ri.strides[k - 1] = rj.strides[k - 1] = a.strides[k];
      T* buf = (T*)host_services.alloc(2 * row * (int64_t)sizeof(T));
      T* p = buf;
      for_each(ri, [&](T& x) { *p++ = x; });
      for_each(rj, [&](T& x) { *p++ = x; });
      p = buf + row;
      for_each(ri, [&](T& x) { x = *p++; });
      p = buf;
      for_each(rj, [&](T& x) { x = *p++; });
    }
  }
}
CJ_FN Array<int64_t, 1> rand_permutation(int64_t n) {
  Array<int64_t, 1> r = np_arange_int<int64_t>(0, n, 1);
  rand_shuffle(r);
  return r;
}
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> rand_permutation(const Array<T, N>& a) {
  auto r = c_copy(a);
  rand_shuffle(r);
  return r;
}

// ---- np.nonzero/argwhere, np.roll, np.cross, np.interp, np.isclose/allclose, np.histogram -----
// (typed in typeinfer_numpy.cpp) as Numba 0.68 computes them (numba/np/arraymath.py).

template <class T>
CJ_FN bool np_truth(const T& x) {
  if constexpr (np_complex_t<std::remove_cv_t<T>>::value) return x.re != 0 || x.im != 0;
  else return x != 0;
}
// Calls f(element, C-order index of it) for each element of `a`.
template <class T, int N, class F>
CJ_FN void for_each_at(const Array<T, N>& a, F&& f) {
  int64_t idx[N] = {};
  for_each(a, [&](T& x) {
    f(x, (const int64_t*)idx);
    for (int k = N - 1; k >= 0; --k) {
      if (++idx[k] < a.shape[k]) break;
      idx[k] = 0;
    }
  });
}

// np.nonzero(a), a.nonzero(), np.where(a): one int64 array of indices per axis, into out[k].
template <class T, int N>
CJ_FN void np_nonzero(const Array<T, N>& a, Array<int64_t, 1>* const* out) {
  int64_t n = 0;
  for_each(a, [&](T& x) { n += np_truth(x) ? 1 : 0; });
  for (int k = 0; k < N; ++k) *out[k] = np_empty<int64_t, 1>(n);
  int64_t j = 0;
  for_each_at(a, [&](T& x, const int64_t* idx) {
    if (!np_truth(x)) return;
    for (int k = 0; k < N; ++k) out[k]->data[j] = idx[k];
    ++j;
  });
}
// np.argwhere(a): the index of each nonzero element, one row each.
template <class T, int N>
CJ_FN Array<int64_t, 2> np_argwhere(const Array<T, N>& a) {
  int64_t n = 0;
  for_each(a, [&](T& x) { n += np_truth(x) ? 1 : 0; });
  Array<int64_t, 2> r = np_empty<int64_t, 2>(n, (int64_t)N);
  int64_t* o = r.data;
  for_each_at(a, [&](T& x, const int64_t* idx) {
    if (np_truth(x))
      for (int k = 0; k < N; ++k) *o++ = idx[k];
  });
  return r;
}

// np.roll(a, shift): element i (C order) moves to (i + shift) mod size.
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> np_roll(const Array<T, N>& a, int64_t shift) {
  using V = std::remove_cv_t<T>;
  Array<V, N> r = empty_like<V>(a);
  const int64_t n = size(a);
  if (n == 0) return r;
  int64_t s = shift % n;
  if (s < 0) s += n;
  int64_t i = 0;
  for_each(a, [&](T& x) { r.data[(i++ + s) % n] = x; });
  return r;
}

// np.cross(a, b) along the last axis (length 2 or 3; a 2-vector's third item is 0 * its first),
// the other axes broadcast; computed in the promoted type R.
template <class R, class A, int N, class B, int M>
CJ_FN Array<R, (N > M ? N : M)> np_cross(const Array<A, N>& a, const Array<B, M>& b) {
  constexpr int K = N > M ? N : M;
  const int64_t na = a.shape[N - 1], nb = b.shape[M - 1];
  if ((na != 2 && na != 3) || (nb != 2 && nb != 3))
    raise("ValueError", "Incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  if (na == 2 && nb == 2)
    raise("ValueError", "Dimensions for both inputs is 2.\nPlease replace your numpy.cross(a, b) call with a call to "
                        "`cross2d(a, b)` from `numba.np.extensions`.");
  int64_t d[K], sa[K], sb[K];
  for (int k = 0; k < K; ++k) d[k] = 1, sa[k] = sb[k] = 0;
  // The leading axes, aligned on the right (NumPy's broadcasting), a stride of 0 where broadcast.
  auto fold = [&](const int64_t* shape, const int64_t* strides, int n, int64_t* st, const char* msg) {
    for (int j = 0; j + 1 < n; ++j) {
      const int k = (K - 1) - (n - 1) + j;
      if (shape[j] == 1) continue;
      if (d[k] != 1 && d[k] != shape[j]) raise("ValueError", msg);
      d[k] = shape[j];
      st[k] = strides[j];
    }
  };
  fold(a.shape, a.strides, N, sa, "unable to broadcast argument 0 to output array");
  fold(b.shape, b.strides, M, sb, "unable to broadcast argument 1 to output array");
  // A broadcast axis of a that b sets later keeps stride 0: only the axes where a's size is 1.
  d[K - 1] = 3;
  Array<R, K> r = new_c_array<R, K>(d);
  int64_t lead = 1;
  for (int k = 0; k + 1 < K; ++k) lead *= d[k];
  int64_t idx[K] = {};
  R* o = r.data;
  for (int64_t i = 0; i < lead; ++i) {
    const char* pa = (const char*)a.data;
    const char* pb = (const char*)b.data;
    for (int k = 0; k + 1 < K; ++k) pa += idx[k] * sa[k], pb += idx[k] * sb[k];
    const R a0 = (R)*(const A*)pa, a1 = (R)*(const A*)(pa + a.strides[N - 1]);
    const R b0 = (R)*(const B*)pb, b1 = (R)*(const B*)(pb + b.strides[M - 1]);
    const R a2 = na == 3 ? (R)*(const A*)(pa + 2 * a.strides[N - 1]) : (R)(R(0) * a0);
    const R b2 = nb == 3 ? (R)*(const B*)(pb + 2 * b.strides[M - 1]) : (R)(R(0) * b0);
    o[0] = (R)(a1 * b2 - a2 * b1);
    o[1] = (R)(a2 * b0 - a0 * b2);
    o[2] = (R)(a0 * b1 - a1 * b0);
    o += 3;
    for (int k = K - 2; k >= 0; --k) {
      if (++idx[k] < d[k]) break;
      idx[k] = 0;
    }
  }
  return r;
}

// np.interp(x, xp, fp) of one real x, for one real part of fp (y(j)): NumPy's algorithm (a NaN
// x stays NaN; left of xp fp[0], right of it fp[-1]; a NaN from infinite slopes retried from
// the right end, then fp[j] where both ends are equal).
template <class P, class Y>
CJ_FN double np_interp_part(double x, const Array<P, 1>& xp, Y y) {
  const int64_t n = xp.shape[0];
  auto dx = [&](int64_t j) { return (double)at_stride(xp.data, j, xp.strides[0]); };
  if (n == 1) return y(0);
  if (x != x) return x;
  if (x > dx(n - 1)) return y(n - 1);
  if (x < dx(0)) return y(0);
  int64_t lo = 0, hi = n;  // the first index past x
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (x >= dx(mid)) lo = mid + 1;
    else hi = mid;
  }
  const int64_t j = lo > 0 ? lo - 1 : 0;
  if (j == n - 1 || dx(j) == x) return y(j);
  const double slope = (y(j + 1) - y(j)) / (dx(j + 1) - dx(j));
  double r = slope * (x - dx(j)) + y(j);
  if (r != r) {
    r = slope * (x - dx(j + 1)) + y(j + 1);
    if (r != r && y(j) == y(j + 1)) r = y(j);
  }
  return r;
}
template <class R, class P, class F>
CJ_FN R np_interp_one(double x, const Array<P, 1>& xp, const Array<F, 1>& fp) {
  using V = std::remove_cv_t<F>;
  const int64_t s = fp.strides[0];
  if constexpr (np_complex_t<V>::value) {
    if (x != x && xp.shape[0] > 1) return R(x, 0);
    const double re = np_interp_part(x, xp, [&](int64_t j) { return (double)at_stride(fp.data, j, s).re; });
    const double im = np_interp_part(x, xp, [&](int64_t j) { return (double)at_stride(fp.data, j, s).im; });
    return R(re, im);
  } else {
    return (R)np_interp_part(x, xp, [&](int64_t j) { return (double)at_stride(fp.data, j, s); });
  }
}
template <class P, class F>
CJ_FN void np_interp_check(const Array<P, 1>& xp, const Array<F, 1>& fp) {
  if (xp.shape[0] == 0) raise("ValueError", "array of sample points is empty");
  if (xp.shape[0] != fp.shape[0]) raise("ValueError", "fp and xp are not of the same size.");
}
template <class R, class X, class P, class F>
CJ_FN R np_interp(const X& x, const Array<P, 1>& xp, const Array<F, 1>& fp) {
  np_interp_check(xp, fp);
  return np_interp_one<R>((double)x, xp, fp);
}
template <class R, class X, int N, class P, class F>
CJ_FN Array<R, N> np_interp(const Array<X, N>& x, const Array<P, 1>& xp, const Array<F, 1>& fp) {
  np_interp_check(xp, fp);
  Array<R, N> r = empty_like<R>(x);
  R* o = r.data;
  for_each(x, [&](X& v) { *o++ = np_interp_one<R>((double)v, xp, fp); });
  return r;
}

// np.isclose/np.allclose: |x - y| <= atol + rtol * |y| where both are finite, else x == y
// (infinities of one sign), NaNs equal only with equal_nan; arrays and numbers broadcast.
template <class X, class Y>
CJ_FN bool np_close(const X& xv, const Y& yv, double rtol, double atol, bool equal_nan) {
  const double x = (double)xv, y = (double)yv;
  if (std::isfinite(x) && std::isfinite(y)) return std::fabs(x - y) <= atol + rtol * std::fabs(y);
  if (x == y) return true;
  return equal_nan && x != x && y != y;
}
template <class T> struct np_ndim_of { static constexpr int value = 0; };
template <class T, int N> struct np_ndim_of<Array<T, N>> { static constexpr int value = N; };
// Folds an operand's shape into the broadcast shape d[0..K); false where it does not fit.
template <class T> CJ_FN bool np_bfold(const T&, int64_t*, int) { return true; }
template <class T, int M>
CJ_FN bool np_bfold(const Array<T, M>& a, int64_t* d, int K) {
  for (int j = 0; j < M; ++j) {
    int64_t& s = d[K - M + j];
    if (s == 1) s = a.shape[j];
    else if (a.shape[j] != 1 && a.shape[j] != s) return false;
  }
  return true;
}
// An operand's element at index idx of the broadcast shape (a number: itself).
template <int K, class T> CJ_FN T np_bget(const T& v, const int64_t*) { return v; }
template <int K, class T, int M>
CJ_FN std::remove_cv_t<T> np_bget(const Array<T, M>& a, const int64_t* idx) {
  const char* p = (const char*)a.data;
  for (int j = 0; j < M; ++j)
    if (a.shape[j] != 1) p += idx[K - M + j] * a.strides[j];
  return *(const T*)p;
}
// The broadcast shape of a and b (K axes) into d; Numba's ValueError where they do not broadcast.
template <int K, class A, class B>
CJ_FN void np_bshape(const A& a, const B& b, int64_t* d) {
  for (int k = 0; k < K; ++k) d[k] = 1;
  if (!np_bfold(a, d, K) || !np_bfold(b, d, K)) raise("ValueError", "shape mismatch: objects cannot be broadcast to a single shape");
}
// Calls f(index) over shape d (K axes, from np_bshape) in C order while f returns true.
template <int K, class F>
CJ_FN void np_bloop(const int64_t* d, F&& f) {
  int64_t n = 1;
  for (int k = 0; k < K; ++k) n *= d[k];
  int64_t idx[K > 0 ? K : 1] = {};
  for (int64_t i = 0; i < n; ++i) {
    if (!f((const int64_t*)idx)) return;
    for (int k = K - 1; k >= 0; --k) {
      if (++idx[k] < d[k]) break;
      idx[k] = 0;
    }
  }
}
template <class A, class B>
CJ_FN auto np_isclose(const A& a, const B& b, double rtol, double atol, bool equal_nan) {
  constexpr int K = np_ndim_of<A>::value > np_ndim_of<B>::value ? np_ndim_of<A>::value : np_ndim_of<B>::value;
  if constexpr (K == 0) {
    return np_close(a, b, rtol, atol, equal_nan);
  } else {
    int64_t d[K];
    np_bshape<K>(a, b, d);
    Array<bool, K> r = new_c_array<bool, K>(d);
    bool* o = r.data;
    np_bloop<K>(d, [&](const int64_t* idx) {
      *o++ = np_close(np_bget<K>(a, idx), np_bget<K>(b, idx), rtol, atol, equal_nan);
      return true;
    });
    return r;
  }
}
template <class A, class B>
CJ_FN bool np_allclose(const A& a, const B& b, double rtol, double atol, bool equal_nan) {
  constexpr int K = np_ndim_of<A>::value > np_ndim_of<B>::value ? np_ndim_of<A>::value : np_ndim_of<B>::value;
  if constexpr (K == 0) {
    return np_close(a, b, rtol, atol, equal_nan);
  } else {
    int64_t d[K];
    np_bshape<K>(a, b, d);
    bool all = true;
    np_bloop<K>(d, [&](const int64_t* idx) {
      all = np_close(np_bget<K>(a, idx), np_bget<K>(b, idx), rtol, atol, equal_nan);
      return all;
    });
    return all;
  }
}

// np.histogram(a, bins: int[, range]): equal bins over range (a's min and max where not given),
// a value on the top edge counted in the last bin; the edges as np.linspace gives them.
template <class T, int N>
CJ_FN void np_histogram(Array<int64_t, 1>* hist, Array<double, 1>* edges, const Array<T, N>& a, int64_t bins,
                        bool has_range, double lo, double hi) {
  if (!has_range) {
    lo = CJ_INF, hi = -CJ_INF;
    for_each(a, [&](T& x) {
      const double v = (double)x;
      if (lo > v) lo = v;
      if (hi < v) hi = v;
    });
  }
  if (bins <= 0) raise("ValueError", "histogram(): `bins` should be a positive integer");
  if (!(lo <= hi)) raise("ValueError", "histogram(): max must be larger than min in range parameter");
  *hist = np_zeros<int64_t, 1>(bins);
  if (hi > lo) {
    const double ratio = (double)bins / (hi - lo);
    for_each(a, [&](T& x) {
      const double v = (double)x;
      const double k = std::floor((v - lo) * ratio);
      if (k >= 0 && k < (double)bins) hist->data[(int64_t)k] += 1;
      else if (v == hi) hist->data[bins - 1] += 1;
    });
  }
  *edges = np_empty<double, 1>(bins + 1);
  const double step = (hi - lo) / (double)bins;
  for (int64_t i = 0; i <= bins; ++i) edges->data[i] = (double)i * step + lo;
  edges->data[bins] = hi;
}
// np.histogram(a, bins: array): bins[i] <= v < bins[i + 1], the last bin closed; values outside
// (and NaN) not counted. The edges are `bins` itself.
template <class T, int N, class B>
CJ_FN void np_histogram(Array<int64_t, 1>* hist, const Array<T, N>& a, const Array<B, 1>& bins) {
  const int64_t nb = bins.shape[0] - 1;
  auto e = [&](int64_t i) { return (double)at_stride(bins.data, i, bins.strides[0]); };
  for (int64_t i = 0; i < nb; ++i)
    if (!(e(i) <= e(i + 1))) raise("ValueError", "histogram(): bins must increase monotonically");
  if (nb < 0) raise("ValueError", "negative dimensions not allowed");
  *hist = np_zeros<int64_t, 1>(nb);
  if (nb == 0) return;
  const double lo = e(0), hi = e(nb);
  for_each(a, [&](T& x) {
    const double v = (double)x;
    if (!(lo <= v && v <= hi)) return;
    int64_t l = 0, h = nb - 1;
    while (l < h) {
      const int64_t mid = (l + h + 1) >> 1;
      if (v < e(mid)) h = mid - 1;
      else l = mid;
    }
    hist->data[l] += 1;
  });
}

}  // namespace cj
