// Prelude for the CPU (the host compiler): @jit functions, CPU ufuncs and the CUDA simulator.
// The simulator runs a kernel's threads one after another on each CPU thread; the thread and
// block indices it would read from hardware registers live in a thread_local here.
#include <cmath>
#include <math.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

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
};
struct SimThread {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
};
inline thread_local SimThread sim_thread;

CJ_FN void syncthreads() {}
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

// Every thread of blocks [block_begin, block_end), in the order x fastest (as warps are formed).
#define CJ_SIM_EACH_THREAD(L, CALL)                                                         \
  cj::SimThread& cj_t = cj::sim_thread;                                                     \
  cj_t.blockDim = (L)->block;                                                               \
  cj_t.gridDim = (L)->grid;                                                                 \
  for (int64_t cj_b = (L)->block_begin; cj_b < (L)->block_end; ++cj_b) {                    \
    cj_t.blockIdx.x = (int32_t)(cj_b % (L)->grid.x);                                        \
    cj_t.blockIdx.y = (int32_t)((cj_b / (L)->grid.x) % (L)->grid.y);                        \
    cj_t.blockIdx.z = (int32_t)(cj_b / ((int64_t)(L)->grid.x * (L)->grid.y));               \
    for (int32_t cj_z = 0; cj_z < (L)->block.z; ++cj_z)                                     \
      for (int32_t cj_y = 0; cj_y < (L)->block.y; ++cj_y)                                   \
        for (int32_t cj_x = 0; cj_x < (L)->block.x; ++cj_x) {                               \
          cj_t.threadIdx.x = cj_x;                                                          \
          cj_t.threadIdx.y = cj_y;                                                          \
          cj_t.threadIdx.z = cj_z;                                                          \
          CALL                                                                              \
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
