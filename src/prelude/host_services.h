#include <type_traits>
#ifdef _OPENMP
#include <omp.h>
#endif

// ---- What compiled CPU code asks of the cujit extension (host target only) -------------------
// Some state must be shared by every library compiled in the process, or must outlive the call
// that made it: the random generators (a function that seeds and one that draws may be compiled
// separately) and arrays a function allocates (returned to Python, or freed when the outermost
// call ends). The extension owns both and hands each library its services when it loads it
// (pipeline.cpp, compile_host); the table is cj::HostServices (src/abi/cujit_abi.h).
namespace cj {
inline HostServices host_services = {};

/// Makes `arena` this thread's for the scope (a prange worker allocates into its caller's call),
/// restoring the previous one after: pool threads outlive the call.
struct ArenaUse {
  void* prev;
  explicit ArenaUse(void* arena) : prev(host_services.arena_get()) { host_services.arena_set(arena); }
  ~ArenaUse() { host_services.arena_set(prev); }
  ArenaUse(const ArenaUse&) = delete;
  ArenaUse& operator=(const ArenaUse&) = delete;
};

/// An arena of its own for a NumPy loop call (CPU ufuncs have no dispatcher around them): arrays
/// the loop body makes are freed when NumPy's call of the loop returns.
struct CallScope {
  void* prev;
  CallScope() : prev(host_services.arena_open()) {}
  ~CallScope() { host_services.arena_close(prev); }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
};

[[noreturn]] inline void raise(const char* type, const char* msg);
/// len(range(start, stop, step)); a zero step raises ValueError, as in Python.
template <class T>
inline int64_t range_len(T start, T stop, T step) {
  if (step == 0) raise("ValueError", "range() arg 3 must not be zero");
  if (step > 0) return start < stop ? (int64_t)((stop - start - 1) / step + 1) : 0;
  if constexpr (std::is_signed_v<T>) {
    if (step < 0) return start > stop ? (int64_t)((start - stop - 1) / (-step) + 1) : 0;
  }
  return 0;
}

// ---- Python exceptions from compiled CPU code --------------------------------------------------
// @jit code raises as Python does (error_model='python'): a PyError, caught by the entry point,
// which hands it to the dispatcher (bindings/cpu.cpp, whose ExcRecord mirrors this layout) to
// raise. Either `type` names a builtin class and `msg` is its message (the run-time checks
// below; both literals), or `cls` numbers the class a raise statement named (the build's
// exc_classes) and `args` are its arguments' values (strings are literals of the library).
// prange workers keep the first one and the loop rethrows it after the region; CPU ufunc loops
// (NumPy error model) leave the element 0.
struct ExcNone {};
struct PyArg {
  enum : int32_t { TNone, TInt, TUInt, TFloat, TBool, TComplex, TStr };
  int32_t tag = TNone;
  int32_t pad = 0;
  int64_t i = 0;
  double f = 0, g = 0;
  const char* s = nullptr;
};
constexpr int kMaxExcArgs = 8;  // typeinfer_exc.cpp refuses more
struct PyError {
  const char* type = nullptr;
  const char* msg = nullptr;
  int32_t cls = -1;
  int32_t base_only = 0;  // the class derives from BaseException only: `except Exception` lets it pass
  int32_t nargs = 0;
  int32_t pad = 0;
  PyArg args[kMaxExcArgs] = {};
  bool raised() const { return type || cls >= 0; }
};
[[noreturn]] inline void raise(const char* type, const char* msg) { throw PyError{type, msg}; }
inline PyArg exc_arg(const char* s) {
  PyArg a;
  a.tag = PyArg::TStr, a.s = s;
  return a;
}
inline PyArg exc_arg(ExcNone) { return PyArg{}; }
template <class F>
inline PyArg exc_arg(Complex<F> z) {
  PyArg a;
  a.tag = PyArg::TComplex, a.f = (double)z.re, a.g = (double)z.im;
  return a;
}
template <class T>
inline PyArg exc_arg(T v) {
  PyArg a;
  if constexpr (std::is_same_v<T, bool>) a.tag = PyArg::TBool, a.i = v;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) a.tag = PyArg::TInt, a.i = (int64_t)v;
  else if constexpr (std::is_integral_v<T>) a.tag = PyArg::TUInt, a.i = (int64_t)(uint64_t)v;
  else a.tag = PyArg::TFloat, a.f = (double)v;  // float16/32/64: a Python float, as in Numba
  return a;
}
/// A raise statement of @jit code (codegen_exc.cpp): class `cls` of the build's table.
template <class... A>
[[noreturn]] inline void raise_exc(int cls, int is_exception, A... args) {
  PyError e;
  e.cls = cls;
  e.base_only = !is_exception;
  e.nargs = (int32_t)sizeof...(A);
  int k = 0;
  ((e.args[k++] = args), ...);
  throw e;
}
// An optional (common.h) used as a value in @jit code: TypeError where it is None, as Numba raises.
template <class T>
inline T unwrap(const Optional<T>& o, const char* msg) {
  if (!o.valid) raise("TypeError", msg);
  return o.value;
}
inline void keep_first(PyError& slot, const PyError& e) {
#pragma omp critical(cj_first_error)
  {
    if (!slot.raised()) slot = e;
  }
}
/// What the @jit entry point hands the dispatcher: a copy that outlives the catch.
inline const PyError* error_record(const PyError& e) {
  static thread_local PyError kept;
  kept = e;
  return &kept;
}

template <class T>
inline T py_truediv(T a, T b) {
  if (b == 0) raise("ZeroDivisionError", "division by zero");
  return a / b;
}
template <class F>
inline Complex<F> py_truediv(Complex<F> a, Complex<F> b) {  // Numba's message for complex
  if (b.re == 0 && b.im == 0) raise("ZeroDivisionError", "complex division by zero");
  return a / b;
}
template <class T>
inline T py_floordiv(T a, T b) {
  if (b == 0) raise("ZeroDivisionError", std::is_integral_v<T> ? "integer division by zero" : "division by zero");
  return floordiv(a, b);
}
template <class T>
inline T py_mod(T a, T b) {
  if (b == 0) raise("ZeroDivisionError", std::is_integral_v<T> ? "integer modulo by zero" : "modulo by zero");
  return pymod(a, b);
}

// The checks Numba's @jit makes whatever the error model (cpython/numbers.py, rangeobj.py).
template <class T>
inline T py_range_step(T step) {
  if (step == 0) raise("ValueError", "range() arg 3 must not be zero");
  return step;
}
// int ** negative int: 0 unless the base is 1 or -1; a zero base raises (error_model='python').
template <class T, class U>
inline T py_ipow(T a, U b) {
  if (pow_exp_negative(b) && a == 0) raise("ZeroDivisionError", "0 cannot be raised to a negative power");
  return ipow(a, b);
}
// float ** negative int is 1 / (x ** n), and Numba's 1 / 0 there raises even with
// error_model='numpy' (0.0 ** -1, or 1e-200 ** -2 whose power underflows); an exponent beyond
// 0x10000 goes to pow() without the division (0.0 ** -70000 is inf in Numba).
template <class F, class U>
inline F py_powi(F x, U n) {
  if (!pow_exp_negative(n) || pow_exp_large(n)) return powi(x, n);
  F r = 1;
  for (uint64_t e = (uint64_t)0 - (uint64_t)n; e; e >>= 1) {  // powi's squaring, before its 1 / r
    if (e & 1) r *= x;
    x *= x;
  }
  if (r == 0) raise("ZeroDivisionError", "division by zero");
  return (F)1 / r;
}

// @jit(boundscheck=True): an index outside the array raises IndexError with Numba's message
// (negative indices count from the end first, as without the check).
template <class T, int N, class... I>
inline void bc_check(const Array<T, N>& a, I... ix) {
  const int64_t idx[] = {(int64_t)ix...};
  for (int k = 0; k < (int)sizeof...(I); ++k) {
    const int64_t i = idx[k] < 0 ? idx[k] + a.shape[k] : idx[k];
    if ((uint64_t)i >= (uint64_t)a.shape[k]) raise("IndexError", "index is out of bounds");
  }
}
template <class T, int N, class... I>
inline T& elem_bc(const Array<T, N>& a, I... ix) {
  bc_check(a, ix...);
  return elem(a, ix...);
}
template <class T, int N, class... I>
inline Array<T, N - (int)sizeof...(I)> subarray_bc(const Array<T, N>& a, I... ix) {
  bc_check(a, ix...);
  return subarray(a, ix...);
}

template <int M, class T, int N, class... S>
inline Array<T, M> view_bc(const Array<T, N>& a, S... s) {
  const Ix ix[] = {s...};
  int64_t bad = 0;
  if (bad_view_axis(a, ix, (int)sizeof...(S), &bad) >= 0) raise("IndexError", "index is out of bounds");
  return view<M>(a, s...);
}

inline void py_tuple_index_error() { raise("IndexError", "tuple index out of range"); }

/// numba.get_thread_id(): the OpenMP thread running this prange iteration, 0 elsewhere.
inline int64_t thread_id() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}
// ---- Cooperative groups: the grid's barrier -------------------------------------------------------
// A kernel that calls cuda.cg.this_grid() is launched cooperatively: every block on a CPU thread
// of its own, all at once (runtime/launch.cpp), sharing one SimGrid (src/abi/cujit_abi.h). grid.sync()
// is a block barrier, then the block's first thread waits for every block's, then a block barrier.
inline thread_local SimGrid* sim_grid = nullptr;
struct GridGroup {};
CJ_FN GridGroup this_grid() { return {}; }
__attribute__((noinline)) static void sim_grid_wait() {
  SimGrid& g = *sim_grid;
  const int64_t gen = __atomic_load_n(&g.generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&g.arrived, 1, __ATOMIC_ACQ_REL) == g.blocks) {
    // The last one in: no block can arrive at the next barrier before the generation moves.
    __atomic_store_n(&g.arrived, 0, __ATOMIC_RELAXED);
    __atomic_add_fetch(&g.generation, 1, __ATOMIC_RELEASE);
    return;
  }
  for (int spins = 0; __atomic_load_n(&g.generation, __ATOMIC_ACQUIRE) == gen; ++spins) {
    if (__atomic_load_n(&g.stop, __ATOMIC_ACQUIRE)) throw SimFault("GridStopped: another block failed");
    // A block that returned never passed this barrier (it could not leave it before it opened).
    const int64_t done = __atomic_load_n(&g.finished, __ATOMIC_ACQUIRE);
    if (done > 0) {
      char buf[400];
      std::snprintf(buf, sizeof buf,
                    "deadlock in the grid: block (%d, %d, %d) waits at grid.sync() but %lld of the %lld blocks "
                    "have already returned and will never reach it",
                    sim_thread.blockIdx.x, sim_thread.blockIdx.y, sim_thread.blockIdx.z, (long long)done,
                    (long long)g.blocks);
      throw SimFault(buf);
    }
    if (CJ_SIM_STOPPING()) throw SimFault("interrupted");
    if (spins > 100) {
      struct timespec ts{0, 20000};  // 20 us: the other blocks' threads need the cores
      ::nanosleep(&ts, nullptr);  // POSIX's, not cj::nanosleep (cuda.nanosleep)
    }
  }
}
CJ_FN void grid_sync(GridGroup) {
  if (!sim_grid) throw SimFault("grid.sync() outside a cooperative launch");
  syncthreads();
  const SimThread& t = sim_thread;
  if (t.threadIdx.x == 0 && t.threadIdx.y == 0 && t.threadIdx.z == 0) sim_grid_wait();
  syncthreads();
}

}  // namespace cj

extern "C" CJ_EXPORT void CJ_ABI_HOST_BIND(const cj::HostServices* s) { cj::host_services = *s; }
