
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



#ifdef _OPENMP
}  // namespace cj
#include <omp.h>
namespace cj {
#endif
// ---- whole-array expressions (@jit code; lower.cpp fuses them, codegen_arrayexpr.cpp calls these)
// `f` computes one element of the result from one element (or the value) of each input; the
// inputs are the expression's leaves: arrays, broadcast as NumPy does, and numbers. The result
// is written in C order into a new array (array_expr_new), into out= (array_expr_out) or into
// the first input itself (a += b: array_expr_inplace), so a whole expression is one loop and
// makes no temporary arrays.

// An input seen from the output: an array as a view of the output's shape whose broadcast axes
// have stride 0; a number as itself.
template <int N, class T> CJ_FN T ex_view(const T& v, const int64_t*) { return v; }
template <int N, class T, int M> CJ_FN Array<T, N> ex_view(const Array<T, M>& a, const int64_t* d) {
  Array<T, N> v;
  v.data = a.data;
  for (int k = 0; k < N; ++k) {
    const int j = k - (N - M);
    v.shape[k] = d[k];
    v.strides[k] = j >= 0 && a.shape[j] != 1 ? a.strides[j] : 0;
  }
  return v;
}
// Folds input number `arg`'s shape into the broadcast shape d[0..N); Numba's ValueError where it
// does not fit.
template <class T> CJ_FN void ex_fold(const T&, int64_t*, int, int) {}
template <class T, int M> CJ_FN void ex_fold(const Array<T, M>& a, int64_t* d, int n, int arg) {
  bool ok = M <= n;
  for (int k = 0; k < M && ok; ++k) {
    int64_t& s = d[n - M + k];
    if (s == 1) s = a.shape[k];
    else if (a.shape[k] != 1 && a.shape[k] != s) ok = false;
  }
  if (!ok) {
    static thread_local char msg[64];  // PyError keeps the pointer: the text must outlive the throw
    std::snprintf(msg, sizeof msg, "unable to broadcast argument %d to output array", arg);
    raise("ValueError", msg);
  }
}
// One row of an input along the output's last axis.
template <class T> struct ExConst {
  T v;
  CJ_METHOD T at(int64_t) const { return v; }
  CJ_METHOD T dense(int64_t) const { return v; }
  CJ_METHOD bool contiguous() const { return true; }
  CJ_METHOD ExConst from(int64_t) const { return *this; }
};
template <class T> struct ExRow {
  const char* p;
  int64_t step;
  CJ_METHOD T at(int64_t i) const { return *(const T*)(p + i * step); }
  CJ_METHOD T dense(int64_t i) const { return ((const T*)p)[i]; }
  CJ_METHOD bool contiguous() const { return step == (int64_t)sizeof(T); }
  CJ_METHOD ExRow from(int64_t i) const { return {p + i * step, step}; }
};
template <int N, class T> CJ_FN ExConst<T> ex_row(const T& v, const int64_t*, int) { return {v}; }
template <int N, class T> CJ_FN ExRow<T> ex_row(const Array<T, N>& a, const int64_t* idx, int last) {
  const char* p = (const char*)a.data;
  for (int k = 0; k < last; ++k) p += idx[k] * a.strides[k];
  return {p, a.strides[last]};
}
template <class T> CJ_FN ExConst<T> ex_row_flat(const T& v) { return {v}; }
template <class T, int N> CJ_FN ExRow<T> ex_row_flat(const Array<T, N>& a) { return {(const char*)a.data, (int64_t)sizeof(T)}; }
template <class T> CJ_FN bool ex_flat(const T&, const int64_t*) { return true; }
template <class T, int N> CJ_FN bool ex_flat(const Array<T, N>& a, const int64_t* d) {  // C-contiguous, no broadcast axis
  int64_t s = (int64_t)sizeof(T);
  for (int k = N - 1; k >= 0; --k) {
    if (d[k] != 1 && a.strides[k] != s) return false;
    s *= d[k];
  }
  return true;
}
// The dense loop is vectorised: GCC's -O2 cost model leaves loops of unknown length scalar, so
// this one function asks for -O3's; a new output (Fresh) aliases no input, which __restrict
// tells the compiler (an in-place or out= output may be an input, read before written at each
// index, or overlap one: a[1:] += a[:-1] must run in order as Numba's loop does).
#if defined(__GNUC__) && !defined(__clang__)
#define CJ_VECTORIZE __attribute__((optimize("O3")))
#else
#define CJ_VECTORIZE
#endif
template <class R, class F, class... C>
CJ_VECTORIZE CJ_FN void ex_dense_fresh(R* __restrict o, int64_t n, F& f, const C&... c) {
  for (int64_t i = 0; i < n; ++i) o[i] = (R)f(c.dense(i)...);
}
template <bool Fresh, class R, class F, class... C>
CJ_VECTORIZE CJ_FN void ex_dense(R* o, int64_t n, F& f, const C&... c) {
  if constexpr (Fresh) return ex_dense_fresh(o, n, f, c...);
  for (int64_t i = 0; i < n; ++i) o[i] = (R)f(c.dense(i)...);
}
template <class R, bool Fresh = false, class F, class... C>
CJ_FN void ex_line(char* po, int64_t so, int64_t n, F& f, const C&... c) {
  if (so == (int64_t)sizeof(R) && (c.contiguous() && ...)) {
    ex_dense<Fresh>((R*)po, n, f, c...);
  } else {
    for (int64_t i = 0; i < n; ++i) *(R*)(po + i * so) = (R)f(c.at(i)...);
  }
}
// One C-contiguous line of n elements; with P (@jit(parallel=True)) split in contiguous pieces
// over the OpenMP threads when it is long enough to pay for waking them (as numpy_loop.h's
// kParallelMinElements), as Numba's parfors run an array expression.
template <bool P, bool Fresh, class R, class F, class... C>
CJ_FN void ex_flat_line(char* po, int64_t n, F& f, const C&... c) {
#ifdef _OPENMP
  if (P && n >= (int64_t(1) << 14)) {
#pragma omp parallel num_threads(cj::host_services.num_threads())
    {
      const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      const int64_t begin = n * t / nt, end = n * (t + 1) / nt;
      if (begin < end) ex_line<R, Fresh>(po + begin * (int64_t)sizeof(R), (int64_t)sizeof(R), end - begin, f, c.from(begin)...);
    }
    return;
  }
#endif
  ex_line<R, Fresh>(po, (int64_t)sizeof(R), n, f, c...);
}
// out[...] = f(views...), the views of out's shape (ex_view): rows along the last axis, or one
// line when everything is C-contiguous.
template <bool P, bool Fresh, class R, int N, class F, class... V>
CJ_FN void ex_run(const Array<R, N>& out, F& f, const V&... v) {
  if constexpr (N == 0) {
    ex_line<R>((char*)out.data, (int64_t)sizeof(R), 1, f, ex_row_flat(v)...);  // one element
  } else {
    const int64_t n = size(out);
    if (n == 0) return;
    if (ex_flat(out, out.shape) && (ex_flat(v, out.shape) && ...)) {
      return ex_flat_line<P, Fresh, R>((char*)out.data, n, f, ex_row_flat(v)...);
    }
    const int64_t inner = out.shape[N - 1], outer = n / inner;
    int64_t idx[N] = {};
    for (int64_t o = 0; o < outer; ++o) {
      char* po = (char*)out.data;
      for (int k = 0; k < N - 1; ++k) po += idx[k] * out.strides[k];
      ex_line<R, Fresh>(po, out.strides[N - 1], inner, f, ex_row<N>(v, idx, N - 1)...);
      for (int k = N - 2; k >= 0; --k) {
        if (++idx[k] < out.shape[k]) break;
        idx[k] = 0;
      }
    }
  }
}
template <bool P, class R, int N, class F, class... In>
CJ_FN Array<R, N> array_expr_out(const Array<R, N>& out, F f, const In&... in) {
  // NumPy's checks and messages (Numba checks nothing here and writes past the output): the
  // inputs broadcast together, and their shape fits the output's without growing it.
  int64_t d[N > 0 ? N : 1];
  for (int k = 0; k < N; ++k) d[k] = 1;
  bool ok = true;
  ((ok = uf_broadcast(in, d, N) && ok), ...);
  if (!ok) raise("ValueError", "operands could not be broadcast together");
  for (int k = 0; k < N; ++k)
    if (d[k] != out.shape[k] && d[k] != 1)
      raise("ValueError", "non-broadcastable output operand: its shape does not match the inputs' broadcast shape");
  for (int k = 0; k < N; ++k) d[k] = out.shape[k];
  ex_run<P, false>(out, f, ex_view<N>(in, d)...);
  return out;
}
template <bool P, class R, int N, class F, class... In>
CJ_FN Array<R, N> array_expr_inplace(F f, const Array<R, N>& out, const In&... in) {
  return array_expr_out<P>(out, f, out, in...);
}
// An input of `target op= expression` as it was before the loop: a copy of an array that shares
// memory with the target (unless it is the target's own view, read at each index before that
// index is written), as Numba evaluates the expression into a new array first.
template <class R, int N, class T>
CJ_FN const T& ex_unaliased(const Array<R, N>&, const T& v) { return v; }
template <class R, int N, class T, int M>
CJ_FN Array<T, M> ex_unaliased(const Array<R, N>& out, const Array<T, M>& a) {
  if (size(out) == 0 || size(a) == 0 || !byte_ranges_overlap(out, a)) return a;
  bool same = M == N && (const void*)a.data == (const void*)out.data && sizeof(T) == sizeof(R);
  for (int k = 0; same && k < M; ++k) same = a.shape[k] == out.shape[k] && a.strides[k] == out.strides[k];
  if (same) return a;
  using V = std::remove_cv_t<T>;
  int64_t d[M > 0 ? M : 1];
  for (int k = 0; k < M; ++k) d[k] = a.shape[k];
  Array<V, M> copy = new_c_array<V, M>(d);
  const int64_t n = size(a);
  for (int64_t k = 0; k < n; ++k) copy.data[k] = *flat_elem(a, k);
  return Array<T, M>(copy);
}
template <bool P, class R, int N, class F, class... In>
CJ_FN Array<R, N> array_expr_inplace_expr(F f, const Array<R, N>& out, const In&... in) {
  return array_expr_out<P>(out, f, out, ex_unaliased(out, in)...);
}
template <bool P, class R, int N, class F, class... In>
CJ_FN Array<R, N> array_expr_new(F f, const In&... in) {
  int64_t d[N > 0 ? N : 1];
  for (int k = 0; k < N; ++k) d[k] = 1;
  int arg = 0;
  (ex_fold(in, d, N, arg++), ...);
  Array<R, N> out = new_c_array<R, N>(d);
  ex_run<P, true>(out, f, ex_view<N>(in, d)...);
  return out;
}

}  // namespace cj
