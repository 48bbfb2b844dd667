
// ---- NumPy's sorting, searching and counting in CPU code (host target, @jit only) -------------
// np.sort/a.sort/np.argsort/np.unique/np.searchsorted/np.diff/np.bincount/np.flip/np.outer and
// np.random.shuffle/permutation (typed in typeinfer_nplib.cpp). Order is NumPy's: NaN after every
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

// a.sort(): each row along the last axis, in place.
template <class T, int N>
CJ_FN void array_sort(const Array<T, N>& a) {
  for_each_row(a, [&](T* p, int64_t n, int64_t stride) {
    if (stride == (int64_t)sizeof(T)) {
      std::sort(p, p + n, np_less<T>);
      return;
    }
    T* tmp = (T*)host_services.alloc(n * (int64_t)sizeof(T));
    for (int64_t i = 0; i < n; ++i) tmp[i] = at_stride(p, i, stride);
    std::sort(tmp, tmp + n, np_less<T>);
    for (int64_t i = 0; i < n; ++i) at_stride(p, i, stride) = tmp[i];
  });
}

template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, N> np_sort(const Array<T, N>& a) {
  auto r = c_copy(a);
  array_sort(r);
  return r;
}

// np.argsort of a 1-d array. Always a stable sort: 'mergesort' must be, and Numba's 'quicksort'
// gives the stable order on the short arrays where ties are visible to a test (its insertion
// sort); on longer ones any order of equal keys is a valid quicksort result.
template <class T>
CJ_FN Array<int64_t, 1> np_argsort(const Array<T, 1>& a, bool /*stable*/) {
  const int64_t n = a.shape[0];
  Array<int64_t, 1> r = np_empty<int64_t, 1>(n);
  for (int64_t i = 0; i < n; ++i) r.data[i] = i;
  const int64_t s = a.strides[0];
  std::stable_sort(r.data, r.data + n, [&](int64_t i, int64_t j) {
    return np_less<std::remove_cv_t<T>>(at_stride(a.data, i, s), at_stride(a.data, j, s));
  });
  return r;
}

// np.unique: the sorted distinct values of the flattened array (NaNs count as one).
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, 1> np_unique(const Array<T, N>& a) {
  using V = std::remove_cv_t<T>;
  auto c = c_copy(a);
  const int64_t n = size(c);
  std::sort(c.data, c.data + n, np_less<V>);
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
  if (have != want && have != 1 && !(have == per && !elems))
    raise("ValueError", "cannot assign slice from input of different size");
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

}  // namespace cj
