// NumPy inner loops for CPU @vectorize and @guvectorize (host target only; pipeline.cpp adds this
// after common.h when a build has such entry points). NumPy calls a loop as
// loop(args, dimensions, steps, data): dimensions[0] is the element count (a gufunc's outer
// count, followed by its core dimension sizes), steps[k] the byte step of operand k.
//
// An element-wise loop picks one of three paths per call. The dense one (every step equal to the
// itemsize, or 0 for an input NumPy broadcast from a scalar) is a plain typed-pointer loop with
// the scalar inputs known at compile time, so the compiler vectorises it; everything else takes
// the strided path. With Parallel the range is split over OpenMP threads, when the build has
// -fopenmp and the range is long enough to pay for waking them.
#include <optional>
#include <utility>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace cj {

// Below this many elements a parallel ufunc runs on the calling thread: waking the OpenMP team
// costs a few microseconds, about what 16 Ki cheap elements take on one core.
constexpr int64_t kParallelMinElements = int64_t(1) << 14;

template <class R, class... A>
struct NpyLoop {
  static constexpr int nin = (int)sizeof...(A);

  // M[k] is 1 for an input that advances and 0 for one broadcast from a scalar: constants, so
  // the scalar's load leaves the loop and the rest vectorises. __restrict is sound because run()
  // comes here only when the output is disjoint from every input or is the same memory as it
  // (out= an input), where each element is read before it is written. NumPy's accumulate is
  // neither: it passes the output shifted by one element as an input, a recurrence.
  template <int... M, class F>
  static void dense(F& f, int64_t n, R* __restrict out, const A* __restrict... in) {
    for (int64_t i = 0; i < n; ++i) out[i] = f(in[i * M]...);
  }

  template <class F, int... M, size_t... I>
  static void call_dense(F& f, int64_t n, char** args, std::integer_sequence<int, M...>, std::index_sequence<I...>) {
    dense<M...>(f, n, (R*)args[nin], (const A*)args[I]...);
  }

  // Turns the run-time "is input K a broadcast scalar" into template arguments, one input at a
  // time (2^nin instantiations, so only for nin <= kMaxDenseVariants).
  template <int K, class F, int... M>
  static void pick(F& f, int64_t n, char** args, const int64_t* steps, std::integer_sequence<int, M...>) {
    if constexpr (K == nin) {
      call_dense(f, n, args, std::integer_sequence<int, M...>{}, std::index_sequence_for<A...>{});
    } else if (steps[K] == 0) {
      pick<K + 1>(f, n, args, steps, std::integer_sequence<int, M..., 0>{});
    } else {
      pick<K + 1>(f, n, args, steps, std::integer_sequence<int, M..., 1>{});
    }
  }

  template <class F, size_t... I>
  static void strided(F& f, int64_t n, char** args, const int64_t* steps, std::index_sequence<I...>) {
    char* o = args[nin];
    const int64_t so = steps[nin];
    for (int64_t i = 0; i < n; ++i) *(R*)(o + i * so) = f(*(const A*)(args[I] + i * steps[I])...);
  }

  template <class F>
  static void run(F& f, char** args, const int64_t* steps, int64_t n) {
    constexpr bool scalars_too = nin <= 3;
    const int64_t size[] = {(int64_t)sizeof(A)..., (int64_t)sizeof(R)};
    bool dense_ok = steps[nin] == size[nin], all_advance = true;
    for (int k = 0; k < nin; ++k) {
      dense_ok = dense_ok && (steps[k] == size[k] || (scalars_too && steps[k] == 0));
      all_advance = all_advance && steps[k] == size[k];
    }
    const char* o = args[nin];
    const char* o_end = o + n * size[nin];
    for (int k = 0; k < nin && dense_ok; ++k) {
      const char* p = args[k];
      const char* p_end = p + (steps[k] ? n : 1) * size[k];
      dense_ok = (p == o && steps[k] != 0) || p_end <= o || o_end <= p;
    }
    if (!dense_ok) return strided(f, n, args, steps, std::index_sequence_for<A...>{});
    if constexpr (scalars_too) {
      if (!all_advance) return pick<0>(f, n, args, steps, std::integer_sequence<int>{});
    }
    call_dense(f, n, args, std::integer_sequence<int, ((void)sizeof(A), 1)...>{}, std::index_sequence_for<A...>{});
  }
};

/// Runs `body(begin, end)` over [0, n): split in contiguous pieces over the OpenMP threads when
/// Parallel, the build has OpenMP and n >= min_parallel; otherwise in one call.
template <bool Parallel, class Body>
inline void npy_range(int64_t n, int64_t min_parallel, Body&& body) {
#ifdef _OPENMP
  if (Parallel && n >= min_parallel) {
    void* const arena = host_services.arena_get();
#pragma omp parallel num_threads(cj::host_services.num_threads())
    {
      // A loop whose elements make arrays opened an arena (CallScope) and frees it after each
      // element: every worker needs one of its own for that.
      std::optional<CallScope> own;
      if (arena) own.emplace();
      const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      const int64_t begin = n * t / nt, end = n * (t + 1) / nt;
      if (begin < end) body(begin, end);
    }
    return;
  }
#else
  (void)min_parallel;
#endif
  body(int64_t(0), n);
}

/// The body of an element-wise NumPy loop over `f`, returning R from inputs A...
template <bool Parallel, class R, class... A, class F>
inline void npy_ufunc_loop(F f, char** args, const int64_t* dims, const int64_t* steps) {
  constexpr int nargs = (int)sizeof...(A) + 1;
  npy_range<Parallel>(dims[0], kParallelMinElements, [&](int64_t begin, int64_t end) {
    char* a[nargs];
    for (int k = 0; k < nargs; ++k) a[k] = args[k] + begin * steps[k];
    NpyLoop<R, A...>::run(f, a, steps, end - begin);
  });
}

/// An operand of a gufunc as an array view: its C core dimensions (sizes dims[dim_index[k]],
/// byte strides core_steps[k]) come last; leading dimensions the layout does not name have size 1,
/// as in Numba (an output declared float32[:] with layout '()' is a one-element array).
template <class T, int N, int C>
inline Array<T, N> npy_core_view(char* p, const int64_t* dims, const int64_t* core_steps, const int* dim_index) {
  static_assert(C <= N, "the layout names more core dimensions than the array has");
  Array<T, N> a;
  a.data = (T*)p;
  for (int k = 0; k < N - C; ++k) {
    a.shape[k] = 1;
    a.strides[k] = (int64_t)sizeof(T);
  }
  for (int k = 0; k < C; ++k) {
    a.shape[N - C + k] = dims[dim_index[k]];
    a.strides[N - C + k] = core_steps[k];
  }
  return a;
}

/// A gufunc's outer loop: `body(begin, end)` over [0, dims[0]). Split over threads when
/// Parallel and the work, estimated as outer count times the product of the core sizes, is
/// worth it (the same bar as an element-wise loop).
template <bool Parallel, class Body>
inline void npy_gufunc_outer(const int64_t* dims, int ncore, Body&& body) {
  int64_t work = dims[0];
  for (int k = 1; k <= ncore; ++k) work *= dims[k] > 1 ? dims[k] : 1;
  const bool worth = dims[0] >= 2 && work >= kParallelMinElements;
  npy_range<Parallel>(dims[0], worth ? 2 : INT64_MAX, body);
}

}  // namespace cj
