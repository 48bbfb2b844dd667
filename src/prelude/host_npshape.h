
// ---- np.expand_dims/atleast_nd/swapaxes/moveaxis (views), np.repeat/take, np.flatnonzero,
// np.array_equal, np.digitize, np.convolve/correlate in CPU code (host target, @jit only; typed in
// typeinfer_npshape.cpp). Results and messages are Numba 0.68's (numba/np/arrayobj.py,
// arraymath.py). Views share their input's memory; new arrays are C-ordered, in the call's arena.
// Included with host_nplib.h (search_one, np_truth, for_each_at).
#include <cstring>

namespace cj {

// A view of `a` with a length-1 axis inserted at `axis` (in [0, N], checked by the caller).
template <class T, int N>
CJ_FN Array<T, N + 1> np_insert_axis(const Array<T, N>& a, int64_t axis) {
  Array<T, N + 1> v;
  v.data = a.data;
  for (int k = 0, j = 0; k <= N; ++k) {
    if (k == axis) {
      v.shape[k] = 1;
      v.strides[k] = k < N ? a.strides[k] * (a.shape[k] > 0 ? a.shape[k] : 1) : (int64_t)sizeof(T);
      continue;
    }
    v.shape[k] = a.shape[j];
    v.strides[k] = a.strides[j];
    ++j;
  }
  return v;
}
// np.expand_dims(a, axis): axis in [-(N + 1), N].
template <class T, int N>
CJ_FN Array<T, N + 1> np_expand_dims(const Array<T, N>& a, int64_t axis) {
  if (axis < 0) axis += N + 1;
  if (axis < 0 || axis > N) raise("IndexError", "np.expand_dims(): axis out of bounds");
  return np_insert_axis(a, axis);
}
// np.atleast_1d/2d/3d: an array of M >= N dimensions is itself; fewer gain axes as NumPy's do
// (1-d: (n,) -> (1, n) -> (1, n, 1); 2-d: (m, n) -> (m, n, 1); 0-d: all ones).
template <int M, class T, int N>
CJ_FN Array<T, (N > M ? N : M)> np_atleast(const Array<T, N>& a) {
  if constexpr (N >= M) {
    return a;
  } else if constexpr (N == 0) {
    Array<T, M> v;
    v.data = a.data;
    for (int k = 0; k < M; ++k) v.shape[k] = 1, v.strides[k] = (int64_t)sizeof(T);
    return v;
  } else if constexpr (N == 1) {
    if constexpr (M == 2) return np_insert_axis(a, 0);
    else return np_insert_axis(np_insert_axis(a, 0), 2);
  } else {
    return np_insert_axis(a, 2);  // N == 2, M == 3
  }
}
// np.swapaxes(a, axis1, axis2): a view with the two axes exchanged.
template <class T, int N>
CJ_FN Array<T, N> np_swapaxes(Array<T, N> a, int64_t i, int64_t j) {
  if (i < 0) i += N;
  if (i < 0 || i >= N) raise("ValueError", "np.swapaxes: Argument axis1 out of bounds for dimensions of the array");
  if (j < 0) j += N;
  if (j < 0 || j >= N) raise("ValueError", "np.swapaxes: Argument axis2 out of bounds for dimensions of the array");
  const int64_t sh = a.shape[i], st = a.strides[i];
  a.shape[i] = a.shape[j], a.strides[i] = a.strides[j];
  a.shape[j] = sh, a.strides[j] = st;
  return a;
}
// np.moveaxis(a, source, destination) with one axis each: the axis taken out and put back at
// destination, the others in their order.
template <class T, int N>
CJ_FN Array<T, N> np_moveaxis(const Array<T, N>& a, int64_t s, int64_t d) {
  if (s < 0) s += N;
  if (s < 0 || s >= N) raise("ValueError", "np.moveaxis: Argument source out of bounds for dimensions of the array");
  if (d < 0) d += N;
  if (d < 0 || d >= N) raise("ValueError", "np.moveaxis: Argument destination out of bounds for dimensions of the array");
  int order[N];
  for (int k = 0, j = 0; k < N; ++k) {
    if (j == s) ++j;
    if (k == d) order[k] = (int)s;
    else order[k] = j++;
  }
  Array<T, N> v;
  v.data = a.data;
  for (int k = 0; k < N; ++k) v.shape[k] = a.shape[order[k]], v.strides[k] = a.strides[order[k]];
  return v;
}
// np.moveaxis(a, source, destination) with tuples of K1 and K2 axes (each array one slot longer):
// each normalised in turn (out of bounds, then repeated: ValueError), then their lengths compared;
// the moved axes land at their destinations, the others fill the rest in their order.
template <int K, int N>
CJ_FN void np_axes_normalize(int64_t* ax, const char* bounds, const char* repeated) {
  for (int i = 0; i < K; ++i) {
    if (ax[i] < 0) ax[i] += N;
    if (ax[i] < 0 || ax[i] >= N) raise("ValueError", bounds);
  }
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < i; ++j)
      if (ax[i] == ax[j]) raise("ValueError", repeated);
}
template <int K1, int K2, class T, int N>
CJ_FN Array<T, N> np_moveaxis_tuples(const Array<T, N>& a, const int64_t (&source)[K1 + 1], const int64_t (&dest)[K2 + 1]) {
  int64_t s[K1 + 1], d[K2 + 1];
  for (int i = 0; i < K1; ++i) s[i] = source[i];
  for (int i = 0; i < K2; ++i) d[i] = dest[i];
  np_axes_normalize<K1, N>(s, "np.moveaxis: Argument source out of bounds for dimensions of the array",
                           "np.moveaxis: repeated axis in source argument");
  np_axes_normalize<K2, N>(d, "np.moveaxis: Argument destination out of bounds for dimensions of the array",
                           "np.moveaxis: repeated axis in destination argument");
  if constexpr (K1 != K2) {
    raise("ValueError", "`source` and `destination` arguments must have the same number of parameters");
    return a;
  } else {
    int64_t order[N > 0 ? N : 1];
    bool moved[N > 0 ? N : 1], taken[N > 0 ? N : 1];
    for (int k = 0; k < N; ++k) order[k] = -1, moved[k] = false, taken[k] = false;
    for (int i = 0; i < K1; ++i) order[d[i]] = s[i], moved[s[i]] = true, taken[d[i]] = true;
    for (int k = 0, j = 0; k < N; ++k) {
      if (taken[k]) continue;
      while (moved[j]) ++j;
      order[k] = j++;
    }
    Array<T, N> v;
    v.data = a.data;
    for (int k = 0; k < N; ++k) v.shape[k] = a.shape[order[k]], v.strides[k] = a.strides[order[k]];
    return v;
  }
}

// np.take(a, indices, axis=) / a.take(...): a new C array of a's shape with the axis as long as
// the 1-d indices; slab i is a's slab indices[i] (negative counts from the end; out of range is
// IndexError, checked in order as Numba's a[..., i] does).
template <class T, int N, class I>
CJ_FN Array<std::remove_cv_t<T>, N> np_take_axis(const Array<T, N>& a, const Array<I, 1>& idx, int64_t axis) {
  using V = std::remove_cv_t<T>;
  const int64_t ax = axis;
  if (axis < 0) axis += N;
  if (axis < 0 || axis >= N) {
    static thread_local char msg[96];  // PyError keeps the pointer: the text must outlive the throw
    std::snprintf(msg, sizeof msg, "axis %lld is out of bounds for array of dimension %d", (long long)ax, N);
    raise("ValueError", msg);
  }
  const int64_t n = idx.shape[0], len = a.shape[axis];
  int64_t nd[1] = {n};
  int64_t* at = new_c_array<int64_t, 1>(nd).data;
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = (int64_t) * (const I*)((const char*)idx.data + i * idx.strides[0]);
    if (j < 0) j += len;
    if (j < 0 || j >= len) raise("IndexError", "index out of bounds");
    at[i] = j;
  }
  int64_t d[N];
  for (int k = 0; k < N; ++k) d[k] = k == axis ? n : a.shape[k];
  Array<V, N> r = new_c_array<V, N>(d);
  V* o = r.data;
  const int64_t total = size(r);
  int64_t pos[N];
  for (int k = 0; k < N; ++k) pos[k] = 0;
  for (int64_t e = 0; e < total; ++e) {
    const char* p = (const char*)a.data;
    for (int k = 0; k < N; ++k) p += (k == axis ? at[pos[k]] : pos[k]) * a.strides[k];
    *o++ = *(const T*)p;
    for (int k = N - 1; k >= 0; --k) {
      if (++pos[k] < d[k]) break;
      pos[k] = 0;
    }
  }
  return r;
}
// np.take(a, i, axis=) with one int: the slab without the axis (a 1-d array's element).
template <class T, int N>
CJ_FN auto np_take_axis_one(const Array<T, N>& a, int64_t i, int64_t axis) {
  const int64_t one[1] = {i};
  auto r = np_take_axis(a, Array<const int64_t, 1>{one, {1}, {8}}, axis);
  if constexpr (N == 1) {
    return r.data[0];
  } else {
    if (axis < 0) axis += N;
    Array<std::remove_cv_t<T>, N - 1> v;
    v.data = r.data;
    for (int k = 0, j = 0; k < N; ++k)
      if (k != axis) v.shape[j] = r.shape[k], v.strides[j] = r.strides[k], ++j;
    return v;
  }
}

// np.kron(a, b) (Numba's): each operand as a matrix (a 1-d array is one row, a number 1 x 1);
// block (i, j) of the (am * bm, an * bn) result is a[i, j] * b, multiplied in P (the dtypes'
// promotion) and stored as D (a's dtype); the result has R dimensions (a 1-d result is the
// matrix flattened, as Numba's reshapes).
template <class T>
struct KronOperand {
  const T* p;
  int64_t m, n, s0, s1;
  CJ_METHOD T at(int64_t i, int64_t j) const { return *(const T*)((const char*)p + i * s0 + j * s1); }
};
template <class T> CJ_FN KronOperand<T> kron_operand(const Array<T, 2>& a) {
  return {a.data, a.shape[0], a.shape[1], a.strides[0], a.strides[1]};
}
template <class T> CJ_FN KronOperand<T> kron_operand(const Array<T, 1>& a) { return {a.data, 1, a.shape[0], 0, a.strides[0]}; }
template <class T> CJ_FN KronOperand<T> kron_operand(const T& x) { return {&x, 1, 1, 0, 0}; }
template <class D, class P, int R, class A, class B>
CJ_FN Array<D, R> np_kron(const A& a_in, const B& b_in) {
  const auto a = kron_operand(a_in);
  const auto b = kron_operand(b_in);
  int64_t d[2] = {a.m * b.m, a.n * b.n};
  Array<D, 2> c = new_c_array<D, 2>(d);
  for (int64_t i = 0; i < a.m; ++i)
    for (int64_t j = 0; j < a.n; ++j) {
      const P x = (P)a.at(i, j);
      for (int64_t k = 0; k < b.m; ++k) {
        D* row = c.data + (i * b.m + k) * d[1] + j * b.n;
        for (int64_t l = 0; l < b.n; ++l) row[l] = (D)uf_multiply(x, (P)b.at(k, l));
      }
    }
  if constexpr (R == 2) {
    return c;
  } else {
    Array<D, 1> v;
    v.data = c.data;
    v.shape[0] = d[0] * d[1];
    v.strides[0] = (int64_t)sizeof(D);
    return v;
  }
}

// np.repeat(a, n) / a.repeat(n): each element of the flattened array (C order) n times.
template <class T, int N>
CJ_FN Array<std::remove_cv_t<T>, 1> np_repeat(const Array<T, N>& a, int64_t n) {
  using V = std::remove_cv_t<T>;
  if (n < 0) raise("ValueError", "negative dimensions are not allowed");
  Array<V, 1> r = np_empty<V, 1>(size(a) * n);
  V* o = r.data;
  for_each(a, [&](T& x) {
    for (int64_t k = 0; k < n; ++k) *o++ = x;
  });
  return r;
}
template <class T>
CJ_FN Array<T, 1> np_repeat(const T& x, int64_t n) {
  Array<T, 0> a;
  a.data = (T*)&x;
  return np_repeat(a, n);
}
// np.repeat(a, counts): element i counts[i] times; one count applies to every element.
template <class T, int N, class I, int M>
CJ_FN Array<std::remove_cv_t<T>, 1> np_repeat(const Array<T, N>& a, const Array<I, M>& counts) {
  using V = std::remove_cv_t<T>;
  const int64_t nc = size(counts);
  if (nc == 1) return np_repeat(a, (int64_t)counts.data[0]);
  if (nc != size(a)) raise("ValueError", "operands could not be broadcast together");
  int64_t total = 0;
  for_each(counts, [&](I& c) {
    if (c < 0) raise("ValueError", "negative dimensions are not allowed");
    total += (int64_t)c;
  });
  Array<V, 1> r = np_empty<V, 1>(total);
  Array<int64_t, 1> cs = np_empty<int64_t, 1>(nc);
  int64_t i = 0;
  for_each(counts, [&](I& c) { cs.data[i++] = (int64_t)c; });
  V* o = r.data;
  i = 0;
  for_each(a, [&](T& x) {
    for (int64_t k = 0; k < cs.data[i]; ++k) *o++ = x;
    ++i;
  });
  return r;
}
template <class T, class I, int M>
CJ_FN Array<T, 1> np_repeat(const T& x, const Array<I, M>& counts) {
  Array<T, 0> a;
  a.data = (T*)&x;
  return np_repeat(a, counts);
}

// np.take(a, i) / a.take(i): elements of the flattened array (C order), negative indices from
// the end; an array of indices gives an array of its shape.
template <class T, int N>
CJ_FN T* np_take_at(const Array<T, N>& a, int64_t i) {
  const int64_t n = size(a);
  if (i < -n || i >= n) raise("IndexError", "Index out of bounds");
  if (i < 0) i += n;
  char* p = (char*)a.data;
  for (int k = N - 1; k >= 0; --k) {
    p += (i % a.shape[k]) * a.strides[k];
    i /= a.shape[k];
  }
  return (T*)p;
}
template <class T, int N>
CJ_FN std::remove_cv_t<T> np_take(const Array<T, N>& a, int64_t i) { return *np_take_at(a, i); }
template <class T, int N, class I, int M>
CJ_FN Array<std::remove_cv_t<T>, M> np_take(const Array<T, N>& a, const Array<I, M>& idx) {
  using V = std::remove_cv_t<T>;
  Array<V, M> r = empty_like<V>(idx);
  V* o = r.data;
  for_each(idx, [&](I& i) { *o++ = *np_take_at(a, (int64_t)i); });
  return r;
}

// np.flatnonzero(a): the C-order positions of the nonzero elements.
template <class T, int N>
CJ_FN Array<int64_t, 1> np_flatnonzero(const Array<T, N>& a) {
  int64_t n = 0;
  for_each(a, [&](T& x) { n += np_truth(x) ? 1 : 0; });
  Array<int64_t, 1> r = np_empty<int64_t, 1>(n);
  int64_t i = 0, j = 0;
  for_each(a, [&](T& x) {
    if (np_truth(x)) r.data[j++] = i;
    ++i;
  });
  return r;
}

// np.array_equal(a, b): the same shape and every element equal (NaN is not equal to itself).
template <class T, int N, class U, int M>
CJ_FN bool np_array_equal(const Array<T, N>& a, const Array<U, M>& b) {
  if constexpr (N != M) {
    return false;
  } else {
    for (int k = 0; k < N; ++k)
      if (a.shape[k] != b.shape[k]) return false;
    bool eq = true;
    for_each_at(a, [&](T& x, const int64_t* idx) {
      const char* p = (const char*)b.data;
      for (int k = 0; k < N; ++k) p += idx[k] * b.strides[k];
      eq = eq && uf_equal(x, *(const U*)p);
    });
    return eq;
  }
}
template <class T, int N, class U>
CJ_FN bool np_array_equal(const Array<T, N>& a, const U& y) {
  Array<const U, 0> b;
  b.data = &y;
  return np_array_equal(a, b);
}
template <class T, class U, int M>
CJ_FN bool np_array_equal(const T& x, const Array<U, M>& b) { return np_array_equal(b, x); }

// np.digitize(x, bins, right=False): bins must be monotonic (either way, repeats allowed); the
// index of x's bin by searchsorted on the bins (reversed where they decrease).
template <class T>
CJ_FN int digitize_monotonicity(const Array<T, 1>& b) {
  const int64_t n = b.shape[0];
  if (n == 0) return 1;
  auto at = [&](int64_t i) { return at_stride(b.data, i, b.strides[0]); };
  int64_t i = 1;
  while (i < n && at(i) == at(0)) ++i;
  if (i == n) return 1;
  const bool up = at(0) < at(i);
  for (++i; i < n; ++i)
    if (up ? at(i - 1) > at(i) : at(i - 1) < at(i)) return 0;
  return up ? 1 : -1;
}
template <class T>
CJ_FN int digitize_check(const Array<T, 1>& bins) {
  const int mono = digitize_monotonicity(bins);
  if (mono == 0) raise("ValueError", "bins must be monotonically increasing or decreasing");
  return mono;
}
template <class X, class T>
CJ_FN int64_t digitize_one(const X& x, const Array<T, 1>& bins, int mono, bool right) {
  if (mono == 1) return search_one(bins, x, !right);
  Array<T, 1> rev = bins;  // the bins reversed: a view from the last
  if (bins.shape[0] > 0) rev.data = &at_stride(bins.data, bins.shape[0] - 1, bins.strides[0]);
  rev.strides[0] = -bins.strides[0];
  return bins.shape[0] - search_one(rev, x, !right);
}
template <class X, class T>
CJ_FN int64_t np_digitize(const X& x, const Array<T, 1>& bins, bool right) {
  return digitize_one(x, bins, digitize_check(bins), right);
}
template <class X, int N, class T>
CJ_FN Array<int64_t, N> np_digitize(const Array<X, N>& x, const Array<T, 1>& bins, bool right) {
  const int mono = digitize_check(bins);
  Array<int64_t, N> r = empty_like<int64_t>(x);
  int64_t* o = r.data;
  for_each(x, [&](X& v) { *o++ = digitize_one((std::remove_cv_t<X>)v, bins, mono, right); });
  return r;
}

// np.convolve(a, v, mode='full') and np.correlate(a, v, mode='valid') of 1-d arrays, as Numba
// computes them: the longer operand first, each output a sum of products from 0 in the
// promoted type R (Acc: int64 for integers and bool, R otherwise). Mode: 0 valid, 1 same, 2 full.
template <class R, class Acc, class A, class B>
CJ_FN Array<R, 1> np_correlate_core(const Array<A, 1>& p1, const Array<B, 1>& p2, int mode, bool backward) {
  const int64_t n1 = p1.shape[0], n = p2.shape[0];
  int64_t length = n1, nl = 0, nr = 0;
  if (mode == 0) length = n1 - n + 1;
  else if (mode == 2) nl = nr = n - 1, length = n1 + n - 1;
  else nl = n / 2, nr = n - nl - 1;
  Array<R, 1> r = np_zeros<R, 1>(length);
  int64_t idx = backward ? length - 1 : 0;
  const int64_t inc = backward ? -1 : 1;
  auto x = [&](int64_t i) { return (Acc)at_stride(p1.data, i, p1.strides[0]); };
  auto y = [&](int64_t i) { return (Acc)at_stride(p2.data, i, p2.strides[0]); };
  auto put = [&](int64_t o1, int64_t o2, int64_t k) {  // sum of x[o1 + t] * y[o2 + t], t < k
    Acc acc = Acc(0);
    for (int64_t t = 0; t < k; ++t) acc = acc + x(o1 + t) * y(o2 + t);
    r.data[idx] = (R)acc;
    idx += inc;
  };
  for (int64_t i = 0; i < nl; ++i) {
    const int64_t k = i + n - nl;
    put(0, n - k, k);
  }
  for (int64_t i = 0; i < n1 - n + 1; ++i) put(i, 0, n);
  for (int64_t i = 0; i < nr; ++i) {
    const int64_t k = n - i - 1;
    put(n1 - k, 0, k);
  }
  return r;
}
template <class T>
CJ_FN Array<std::remove_cv_t<T>, 1> np_conj_copy(const Array<T, 1>& a) {
  using V = std::remove_cv_t<T>;
  Array<V, 1> r = np_empty<V, 1>(a.shape[0]);
  for (int64_t i = 0; i < a.shape[0]; ++i) r.data[i] = conj(at_stride(a.data, i, a.strides[0]));
  return r;
}
CJ_FN int np_correlate_mode(const char* m) {
  if (!std::strcmp(m, "valid")) return 0;
  if (!std::strcmp(m, "same")) return 1;
  if (!std::strcmp(m, "full")) return 2;
  raise("ValueError", "Invalid 'mode', valid are 'full', 'same', 'valid'");
}
template <class R, class Acc, class A, class B>
CJ_FN Array<R, 1> np_convolve(const Array<A, 1>& a, const Array<B, 1>& v, const char* mode) {
  const int m = np_correlate_mode(mode);
  if (a.shape[0] == 0) raise("ValueError", "'a' cannot be empty");
  if (v.shape[0] == 0) raise("ValueError", "'v' cannot be empty");
  auto reversed = [](auto x) {
    if (x.shape[0] > 0) x.data = &at_stride(x.data, x.shape[0] - 1, x.strides[0]);
    x.strides[0] = -x.strides[0];
    return x;
  };
  if (a.shape[0] < v.shape[0]) return np_correlate_core<R, Acc>(v, reversed(a), m, false);
  return np_correlate_core<R, Acc>(a, reversed(v), m, false);
}
// Numba conjugates v where it is complex, else a (a no-op for real a).
template <class R, class Acc, class A, class B>
CJ_FN Array<R, 1> np_correlate(const Array<A, 1>& a, const Array<B, 1>& v, const char* mode) {
  const int m = np_correlate_mode(mode);
  if (a.shape[0] == 0) raise("ValueError", "'a' cannot be empty");
  if (v.shape[0] == 0) raise("ValueError", "'v' cannot be empty");
  if constexpr (np_complex_t<std::remove_cv_t<B>>::value) {
    const Array<std::remove_cv_t<B>, 1> cv = np_conj_copy(v);
    if (a.shape[0] < v.shape[0]) return np_correlate_core<R, Acc>(cv, a, m, true);
    return np_correlate_core<R, Acc>(a, cv, m, false);
  } else {
    if (a.shape[0] < v.shape[0]) return np_correlate_core<R, Acc>(v, a, m, true);
    return np_correlate_core<R, Acc>(a, v, m, false);
  }
}

}  // namespace cj
