// Prelude for the CPU (the host compiler): @jit functions, CPU ufuncs and the CUDA simulator.
// The simulator runs a kernel's threads one after another on each CPU thread; the thread and
// block indices it would read from hardware registers live in a thread_local here.
#include <cmath>
#include <math.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <ucontext.h>

#define CJ_TARGET_HOST 1
#define CJ_FN static inline
#define CJ_METHOD inline
#define CJ_DEVICE
#define CJ_EXPORT __attribute__((visibility("default")))
#define CJ_INF __builtin_inf()
#define CJ_NAN __builtin_nan("")

namespace cj {
struct Dim3 {
  int32_t x, y, z;
};
/// One simulated launch (or the part of it that one CPU thread runs): blocks [begin, end).
struct SimLaunch {
  Dim3 grid, block;
  int64_t block_begin, block_end;
  int64_t shared_bytes;
  char error[512];  // set by the simulated kernel when it must stop (a deadlock); read by the runtime
};
struct SimThread {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
};
inline thread_local SimThread sim_thread;
// Dynamic shared memory of the block this CPU thread is running (the launch's sharedmem bytes).
inline thread_local unsigned char* sim_dyn_smem = nullptr;
inline thread_local int64_t sim_dyn_smem_bytes = 0, sim_dyn_smem_capacity = 0;
CJ_FN void* dyn_shared_ptr() { return sim_dyn_smem; }
CJ_FN int64_t dyn_shared_bytes() { return sim_dyn_smem_bytes; }
CJ_FN void sim_set_dyn_smem(int64_t bytes) {
  if (bytes > sim_dyn_smem_capacity) {
    std::free(sim_dyn_smem);
    sim_dyn_smem = (unsigned char*)std::aligned_alloc(16, (size_t)((bytes + 15) / 16 * 16));
    sim_dyn_smem_capacity = bytes;
  }
  sim_dyn_smem_bytes = bytes;
}

// ---- Barriers: each simulated thread of a block that synchronises runs as a fiber (ucontext)
// with its own stack. cuda.syncthreads() switches back to the block's scheduler, which resumes
// every other thread up to the same barrier before releasing them all, so shared memory written
// before a barrier is seen after it, as on the GPU. A barrier that only part of the block reaches
// (the others have returned) is a deadlock on a GPU; here it is reported.
struct SimFibers {
  ucontext_t scheduler;
  ucontext_t* threads = nullptr;
  char* stacks = nullptr;
  int* state = nullptr;  // 0 runnable, 1 at the barrier, 2 finished
  int count = 0, capacity = 0, current = -1;
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
  int generation = 0;   // barriers passed; syncthreads_count & co. use slot generation % 2
  int votes[2] = {0, 0};
};
inline thread_local SimFibers sim_fibers;
constexpr size_t kFiberStack = 256 * 1024;

CJ_FN void syncthreads() {
  SimFibers& f = sim_fibers;
  if (f.current < 0) return;  // not under the fiber scheduler: a block of one thread
  f.state[f.current] = 1;
  swapcontext(&f.threads[f.current], &f.scheduler);
}

static void sim_fiber_main() {
  SimFibers& f = sim_fibers;
  f.entry(f.arg);
  f.state[f.current] = 2;
  // returning resumes uc_link: the scheduler
}

/// Runs one block's threads as fibers; returns false (and fills err) on a deadlock.
static bool sim_run_block_fibers(int nthreads, void (*entry)(void*), void* arg, char* err, size_t errlen) {
  SimFibers& f = sim_fibers;
  if (f.capacity < nthreads) {
    std::free(f.threads); std::free(f.stacks); std::free(f.state);
    f.threads = (ucontext_t*)std::malloc(sizeof(ucontext_t) * nthreads);
    f.stacks = (char*)std::malloc(kFiberStack * (size_t)nthreads);
    f.state = (int*)std::malloc(sizeof(int) * nthreads);
    f.capacity = nthreads;
  }
  f.count = nthreads;
  f.generation = 0;
  f.votes[0] = f.votes[1] = 0;
  f.entry = entry;
  f.arg = arg;
  for (int t = 0; t < nthreads; ++t) {
    getcontext(&f.threads[t]);
    f.threads[t].uc_stack.ss_sp = f.stacks + kFiberStack * (size_t)t;
    f.threads[t].uc_stack.ss_size = kFiberStack;
    f.threads[t].uc_link = &f.scheduler;
    makecontext(&f.threads[t], (void (*)())sim_fiber_main, 0);
    f.state[t] = 0;
  }
  for (;;) {
    for (int t = 0; t < nthreads; ++t) {
      if (f.state[t] != 0) continue;
      f.current = t;
      sim_thread.threadIdx.x = t % sim_thread.blockDim.x;
      sim_thread.threadIdx.y = (t / sim_thread.blockDim.x) % sim_thread.blockDim.y;
      sim_thread.threadIdx.z = t / (sim_thread.blockDim.x * sim_thread.blockDim.y);
      swapcontext(&f.scheduler, &f.threads[t]);
    }
    f.current = -1;
    int waiting = 0, finished = 0;
    for (int t = 0; t < nthreads; ++t) {
      waiting += f.state[t] == 1;
      finished += f.state[t] == 2;
    }
    if (finished == nthreads) return true;
    if (finished > 0) {
      std::snprintf(err, errlen,
                    "deadlock in block (%d, %d, %d): %d of its %d threads wait at cuda.syncthreads() "
                    "but %d have already returned and will never reach it",
                    sim_thread.blockIdx.x, sim_thread.blockIdx.y, sim_thread.blockIdx.z, waiting, nthreads, finished);
      return false;
    }
    for (int t = 0; t < nthreads; ++t) f.state[t] = 0;  // everyone is at the barrier: release
    ++f.generation;
    f.votes[f.generation % 2] = 0;
  }
}

// A barrier that also counts: each thread adds its vote to this generation's slot, and after the
// release reads the total; the other slot is cleared for the next barrier.
CJ_FN int32_t syncthreads_count(bool p) {
  SimFibers& f = sim_fibers;
  if (f.current < 0) return p ? 1 : 0;
  int slot = f.generation % 2;
  f.votes[slot] += p ? 1 : 0;
  syncthreads();
  return f.votes[slot];
}
CJ_FN int32_t syncthreads_and(bool p) {
  SimFibers& f = sim_fibers;
  int n = f.current < 0 ? 1 : f.count;
  return syncthreads_count(p) == n ? 1 : 0;
}
CJ_FN int32_t syncthreads_or(bool p) { return syncthreads_count(p) > 0 ? 1 : 0; }
// The simulator runs a block's threads on one CPU thread: warps are always in step and memory
// is always coherent within the launch, so these only need to stop the compiler reordering.
CJ_FN void syncwarp() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
CJ_FN void threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
CJ_FN void threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
CJ_FN void threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

template <class Body>
static void sim_fiber_trampoline(void* p) { (*(Body*)p)(); }
CJ_FN int64_t grid_x() { return (int64_t)sim_thread.blockIdx.x * sim_thread.blockDim.x + sim_thread.threadIdx.x; }
CJ_FN int64_t grid_y() { return (int64_t)sim_thread.blockIdx.y * sim_thread.blockDim.y + sim_thread.threadIdx.y; }
CJ_FN int64_t grid_z() { return (int64_t)sim_thread.blockIdx.z * sim_thread.blockDim.z + sim_thread.threadIdx.z; }
CJ_FN int64_t gridsize_x() { return (int64_t)sim_thread.gridDim.x * sim_thread.blockDim.x; }
CJ_FN int64_t gridsize_y() { return (int64_t)sim_thread.gridDim.y * sim_thread.blockDim.y; }
CJ_FN int64_t gridsize_z() { return (int64_t)sim_thread.gridDim.z * sim_thread.blockDim.z; }
// Atomics: blocks of a simulated launch run on several CPU threads at once. Integers use the
// compiler's atomic builtins; floats a compare-and-swap loop on their bits.
template <class T> CJ_FN T atomic_add(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_sub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_exch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
template <class T, class Op> CJ_FN T atomic_update(T* p, T v, Op op) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(p, &old, op(old, v), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
  return old;
}
template <class F, class B, class Op> CJ_FN F atomic_float(F* p, F v, Op op) {
  B* bp = (B*)p;
  B old = __atomic_load_n(bp, __ATOMIC_SEQ_CST), next;
  for (;;) {
    F cur, res;
    std::memcpy(&cur, &old, sizeof(F));
    res = op(cur, v);
    std::memcpy(&next, &res, sizeof(F));
    if (__atomic_compare_exchange_n(bp, &old, next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return cur;
  }
}
struct CjAddOp { template <class F> F operator()(F a, F b) const { return a + b; } };
struct CjSubOp { template <class F> F operator()(F a, F b) const { return a - b; } };
struct CjMaxOp { template <class F> F operator()(F a, F b) const { return b > a ? b : a; } };
struct CjMinOp { template <class F> F operator()(F a, F b) const { return b < a ? b : a; } };
struct CjExchOp { template <class F> F operator()(F, F b) const { return b; } };
template <class T> CJ_FN T atomic_max(T* p, T v) { return atomic_update(p, v, CjMaxOp{}); }
template <class T> CJ_FN T atomic_min(T* p, T v) { return atomic_update(p, v, CjMinOp{}); }
#define CJ_HOST_FLOAT_ATOMICS(F, B)                                                                  \
  CJ_FN F atomic_add(F* p, F v) { return atomic_float<F, B>(p, v, CjAddOp{}); }                    \
  CJ_FN F atomic_sub(F* p, F v) { return atomic_float<F, B>(p, v, CjSubOp{}); }                    \
  CJ_FN F atomic_max(F* p, F v) { return atomic_float<F, B>(p, v, CjMaxOp{}); }                    \
  CJ_FN F atomic_min(F* p, F v) { return atomic_float<F, B>(p, v, CjMinOp{}); }                    \
  CJ_FN F atomic_exch(F* p, F v) { return atomic_float<F, B>(p, v, CjExchOp{}); }
CJ_HOST_FLOAT_ATOMICS(float, uint32_t)
CJ_HOST_FLOAT_ATOMICS(double, uint64_t)
template <class T> CJ_FN T atomic_and(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_or(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_xor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_cas(T* p, T o, T v) {
  __atomic_compare_exchange_n(p, &o, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return o;  // on failure o now holds the value found, on success it was the value found
}
struct CjIncOp { template <class T> T operator()(T a, T b) const { return a >= b ? 0 : a + 1; } };
struct CjDecOp { template <class T> T operator()(T a, T b) const { return (a == 0 || a > b) ? b : a - 1; } };
template <class T> CJ_FN T atomic_inc(T* p, T v) { return atomic_update(p, v, CjIncOp{}); }
template <class T> CJ_FN T atomic_dec(T* p, T v) { return atomic_update(p, v, CjDecOp{}); }
struct CjNanMaxOp { template <class F> F operator()(F a, F b) const { return a != a ? b : (b != b ? a : (b > a ? b : a)); } };
struct CjNanMinOp { template <class F> F operator()(F a, F b) const { return a != a ? b : (b != b ? a : (b < a ? b : a)); } };
template <class T> CJ_FN T atomic_nanmax(T* p, T v) { return atomic_update(p, v, CjMaxOp{}); }
template <class T> CJ_FN T atomic_nanmin(T* p, T v) { return atomic_update(p, v, CjMinOp{}); }
CJ_FN float atomic_nanmax(float* p, float v) { return atomic_float<float, uint32_t>(p, v, CjNanMaxOp{}); }
CJ_FN double atomic_nanmax(double* p, double v) { return atomic_float<double, uint64_t>(p, v, CjNanMaxOp{}); }
CJ_FN float atomic_nanmin(float* p, float v) { return atomic_float<float, uint32_t>(p, v, CjNanMinOp{}); }
CJ_FN double atomic_nanmin(double* p, double v) { return atomic_float<double, uint64_t>(p, v, CjNanMinOp{}); }
}  // namespace cj

#define CJ_threadIdx_x (cj::sim_thread.threadIdx.x)
#define CJ_threadIdx_y (cj::sim_thread.threadIdx.y)
#define CJ_threadIdx_z (cj::sim_thread.threadIdx.z)
#define CJ_blockIdx_x (cj::sim_thread.blockIdx.x)
#define CJ_blockIdx_y (cj::sim_thread.blockIdx.y)
#define CJ_blockIdx_z (cj::sim_thread.blockIdx.z)
#define CJ_blockDim_x (cj::sim_thread.blockDim.x)
#define CJ_blockDim_y (cj::sim_thread.blockDim.y)
#define CJ_blockDim_z (cj::sim_thread.blockDim.z)
#define CJ_gridDim_x (cj::sim_thread.gridDim.x)
#define CJ_gridDim_y (cj::sim_thread.gridDim.y)
#define CJ_gridDim_z (cj::sim_thread.gridDim.z)
#define CJ_warpsize ((int32_t)32)
#define CJ_laneid ((int32_t)((cj::sim_thread.threadIdx.x + cj::sim_thread.blockDim.x * (cj::sim_thread.threadIdx.y + cj::sim_thread.blockDim.y * cj::sim_thread.threadIdx.z)) % 32))

#define CJ_LIBM_F(name) ::name##f
#define CJ_LIBM_D(name) ::name

// Every thread of blocks [block_begin, block_end), in the order x fastest (as warps are formed);
// as fibers when the kernel synchronises (BARRIER), else as a plain loop.
#define CJ_SIM_EACH_THREAD(L, BARRIER, CALL)                                                \
  cj::SimThread& cj_t = cj::sim_thread;                                                     \
  cj_t.blockDim = (L)->block;                                                               \
  cj_t.gridDim = (L)->grid;                                                                 \
  cj::sim_set_dyn_smem((L)->shared_bytes);                                                  \
  auto cj_body = [&]() { CALL };                                                            \
  const int cj_nt = (L)->block.x * (L)->block.y * (L)->block.z;                             \
  for (int64_t cj_b = (L)->block_begin; cj_b < (L)->block_end; ++cj_b) {                    \
    cj_t.blockIdx.x = (int32_t)(cj_b % (L)->grid.x);                                        \
    cj_t.blockIdx.y = (int32_t)((cj_b / (L)->grid.x) % (L)->grid.y);                        \
    cj_t.blockIdx.z = (int32_t)(cj_b / ((int64_t)(L)->grid.x * (L)->grid.y));               \
    if (BARRIER && cj_nt > 1) {                                                             \
      if (!cj::sim_run_block_fibers(cj_nt, &cj::sim_fiber_trampoline<decltype(cj_body)>,    \
                                    &cj_body, (L)->error, sizeof((L)->error)))              \
        return;                                                                             \
      continue;                                                                             \
    }                                                                                       \
    for (int32_t cj_z = 0; cj_z < (L)->block.z; ++cj_z)                                     \
      for (int32_t cj_y = 0; cj_y < (L)->block.y; ++cj_y)                                   \
        for (int32_t cj_x = 0; cj_x < (L)->block.x; ++cj_x) {                               \
          cj_t.threadIdx.x = cj_x;                                                          \
          cj_t.threadIdx.y = cj_y;                                                          \
          cj_t.threadIdx.z = cj_z;                                                          \
          cj_body();                                                                        \
        }                                                                                   \
  }

// A ufunc on the CPU: elements [begin, end); the runtime splits the range over CPU threads.
#define CJ_UFUNC_ENTRY(name, N)                                                          \
  extern "C" CJ_EXPORT void name(const void* params, int64_t begin, int64_t end) {      \
    const cj::UfuncArgs<N>& p = *(const cj::UfuncArgs<N>*)params;                        \
    for (int64_t i = begin; i < end; ++i) {                                              \
      char* a[N];                                                                        \
      cj::ufunc_pointers(p, i, a);                                                       \
      name##_elem(a);                                                                    \
    }                                                                                    \
  }
