
// ---- NumPy arrays made and reduced in CPU code (host target only) ----------------------------
// np.empty/zeros/ones/full/*_like/arange, np.copy, elementwise NumPy math on arrays and the
// ufuncs' results (ufuncs.h). New arrays are C-ordered, in memory the current call's arena
// owns (host_services.h): returned ones go to NumPy, the rest is freed when the call ends.
namespace cj {

// A new C-ordered array of sizes d[0..N), in the current call's arena.
template <class T, int N>
CJ_FN Array<T, N> new_c_array(int64_t* d) {
  int64_t n = 1;
  for (int k = 0; k < N; ++k) {
    if (d[k] < 0) raise("ValueError", "negative dimensions not allowed");  // Numba's words
    n *= d[k];
  }
  return c_array_of<T, N>((T*)host_services.alloc(n * (int64_t)sizeof(T)), d);
}

template <class T, int N, class... D>
CJ_FN Array<T, N> np_empty(D... dims) {
  static_assert(sizeof...(D) == N, "one size per dimension");
  int64_t d[] = {(int64_t)dims...};
  return new_c_array<T, N>(d);
}

template <class T, int N>
CJ_FN Array<T, N> filled(Array<T, N> a, T v) {
  const int64_t n = size(a);
  for (int64_t i = 0; i < n; ++i) a.data[i] = v;  // new arrays are contiguous
  return a;
}

template <class T, int N, class... D>
CJ_FN Array<T, N> np_zeros(D... dims) {
  Array<T, N> a = np_empty<T, N>(dims...);
  std::memset((void*)a.data, 0, (size_t)(size(a) * (int64_t)sizeof(T)));
  return a;
}
template <class T, int N, class... D>
CJ_FN Array<T, N> np_ones(D... dims) { return filled(np_empty<T, N>(dims...), (T)1); }
template <class T, int N, class V, class... D>
CJ_FN Array<T, N> np_full(V v, D... dims) { return filled(np_empty<T, N>(dims...), (T)v); }

// A new C-ordered array of `a`'s shape.
template <class T, class U, int N>
CJ_FN Array<T, N> empty_like(const Array<U, N>& a) {
  int64_t d[N];
  for (int k = 0; k < N; ++k) d[k] = a.shape[k];
  return new_c_array<T, N>(d);
}

template <class T>
CJ_FN Array<T, 1> np_arange(double start, double stop, double step) {
  // A zero step, or an infinite or too long a range, has no length (NumPy raises this too).
  double len = step == 0 ? CJ_INF : std::ceil((stop - start) / step);
  if (len >= 9.2e18) raise("ValueError", "Maximum allowed size exceeded");
  int64_t n = len > 0 ? (int64_t)len : 0;
  Array<T, 1> r = np_empty<T, 1>(n);
  for (int64_t i = 0; i < n; ++i) r.data[i] = (T)(start + (double)i * step);
  return r;
}
// Integer aranges stay exact past 2**53.
template <class T>
CJ_FN Array<T, 1> np_arange_int(int64_t start, int64_t stop, int64_t step) {
  if (step == 0) raise("ValueError", "Maximum allowed size exceeded");  // Numba's message (NumPy's too)
  int64_t n = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
  if (n < 0) n = 0;
  Array<T, 1> r = np_empty<T, 1>(n);
  for (int64_t i = 0; i < n; ++i) r.data[i] = (T)(start + i * step);
  return r;
}

// Calls f on every element of `a` in C order (any strides).
template <class T, int N, class F>
CJ_FN void for_each(const Array<T, N>& a, F&& f) {
  int64_t n = size(a);
  if (n == 0) return;
  int64_t idx[N > 0 ? N : 1] = {};
  char* p = (char*)a.data;
  for (int64_t i = 0; i < n; ++i) {
    f(*(T*)p);
    for (int k = N - 1; k >= 0; --k) {  // odometer: next index, moving the pointer with it
      p += a.strides[k];
      if (++idx[k] < a.shape[k]) break;
      p -= a.strides[k] * a.shape[k];
      idx[k] = 0;
    }
  }
}

// np.sqrt(a) and friends on an array: a new array of f(element).
template <class R, class T, int N, class F>
CJ_FN Array<R, N> np_map(const Array<T, N>& a, F&& f) {
  Array<R, N> r = empty_like<R>(a);
  R* out = r.data;
  for_each(a, [&](T x) { *out++ = f(x); });
  return r;
}

// A ufunc's shape error in @jit code: NumPy's ValueError (ufuncs.h's ufunc_apply).
struct UfErrPy {
  static constexpr bool zero_division = true;  // Python's ZeroDivisionError, as Numba's @jit
  static void fail(const char* msg) {  // "Type: message", a literal
    if (msg[0] == 'Z') raise("ZeroDivisionError", msg + 19);
    raise("ValueError", msg + 12);
  }
};

/// np.sin(a) and friends on arrays without out=: a new C-ordered array of the inputs' broadcast
/// shape, filled by ufunc_apply.
template <class E, class R, int N, class F, class... In>
CJ_FN Array<R, N> ufunc_new(F f, const In&... in) {
  int64_t d[N];
  for (int k = 0; k < N; ++k) d[k] = 1;
  bool ok = true;
  ((ok = uf_broadcast(in, d, N) && ok), ...);
  if (!ok) E::fail("ValueError: operands could not be broadcast together");
  return ufunc_apply<E>(new_c_array<R, N>(d), f, in...);
}

}  // namespace cj
