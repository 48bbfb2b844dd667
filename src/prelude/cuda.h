// Prelude for the GPU: what common.h needs, spelled with CUDA builtins. NVRTC compiles it with
// no include path; the fixed-width integer types come from the ABI header (src/abi/cujit_abi.h),
// which is in front of it.
#define CJ_TARGET_CUDA 1

#define CJ_FN __device__ __forceinline__
#define CJ_METHOD __device__ __forceinline__
#define CJ_DEVICE __device__
#define CJ_INF __longlong_as_double(0x7ff0000000000000LL)
#define CJ_NAN __longlong_as_double(0x7ff8000000000000LL)

// Thread indexing: Numba types these as int32.
#define CJ_threadIdx_x ((int32_t)threadIdx.x)
#define CJ_threadIdx_y ((int32_t)threadIdx.y)
#define CJ_threadIdx_z ((int32_t)threadIdx.z)
#define CJ_blockIdx_x ((int32_t)blockIdx.x)
#define CJ_blockIdx_y ((int32_t)blockIdx.y)
#define CJ_blockIdx_z ((int32_t)blockIdx.z)
#define CJ_blockDim_x ((int32_t)blockDim.x)
#define CJ_blockDim_y ((int32_t)blockDim.y)
#define CJ_blockDim_z ((int32_t)blockDim.z)
#define CJ_gridDim_x ((int32_t)gridDim.x)
#define CJ_gridDim_y ((int32_t)gridDim.y)
#define CJ_gridDim_z ((int32_t)gridDim.z)
#define CJ_warpsize ((int32_t)warpSize)
#define CJ_laneid (cj::laneid())

namespace cj {
CJ_FN int32_t laneid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return (int32_t)r;
}
extern __shared__ __align__(16) unsigned char cj_dyn_smem[];
CJ_FN void* dyn_shared_ptr() { return cj_dyn_smem; }
CJ_FN uint32_t dyn_shared_bytes() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}
CJ_FN void syncthreads() { __syncthreads(); }
CJ_FN int32_t syncthreads_count(bool p) { return __syncthreads_count(p); }
CJ_FN int32_t syncthreads_and(bool p) { return __syncthreads_and(p); }
CJ_FN int32_t syncthreads_or(bool p) { return __syncthreads_or(p); }
CJ_FN void syncwarp(uint32_t mask) { __syncwarp(mask); }
// Cooperative groups: cuda.cg.this_grid() and grid.sync(). A cooperative launch
// (cuLaunchCooperativeKernel, which the runtime uses for every kernel that calls this_grid) gives
// the launch a workspace from the driver, whose address is in %envreg1 (high word) and %envreg2
// (low word); its second 32-bit word is a barrier counter. At each sync the first thread of each
// block adds 1, except block 0's, which adds 2^31 - (blocks - 1): once all have arrived the
// counter has grown by exactly 2^31, so its top bit flips (and its other bits are as before: no
// reset), which every block's first thread waits to see.
struct GridGroup {};
CJ_FN GridGroup this_grid() { return {}; }
__device__ __noinline__ static void grid_sync(GridGroup) {
  unsigned hi, lo;
  asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
  asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
  unsigned* bar = (unsigned*)((((unsigned long long)hi << 32) | lo) + 4);
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
    const unsigned add = (blockIdx.x | blockIdx.y | blockIdx.z) == 0 ? 0x80000000u - (blocks - 1) : 1u;
    __threadfence();
    const unsigned old = atomicAdd(bar, add);
    while (((old ^ *(volatile unsigned*)bar) & 0x80000000u) == 0) {
    }
    __threadfence();
  }
  __syncthreads();
}
// Warp shuffles, votes and matches: CUDA's intrinsics, with a width of 32 as in Numba.
template <class T> CJ_FN T shfl_sync(uint32_t m, T v, int32_t lane) { return __shfl_sync(m, v, lane); }
template <class T> CJ_FN T shfl_up_sync(uint32_t m, T v, int32_t d) { return __shfl_up_sync(m, v, (unsigned)d); }
template <class T> CJ_FN T shfl_down_sync(uint32_t m, T v, int32_t d) { return __shfl_down_sync(m, v, (unsigned)d); }
template <class T> CJ_FN T shfl_xor_sync(uint32_t m, T v, int32_t x) { return __shfl_xor_sync(m, v, x); }
CJ_FN bool all_sync(uint32_t m, bool p) { return __all_sync(m, p) != 0; }
CJ_FN bool any_sync(uint32_t m, bool p) { return __any_sync(m, p) != 0; }
CJ_FN bool eq_sync(uint32_t m, bool p) { return __uni_sync(m, p) != 0; }
CJ_FN int32_t ballot_sync(uint32_t m, bool p) { return (int32_t)__ballot_sync(m, p); }
template <class T> CJ_FN int32_t match_any_sync(uint32_t m, T v) { return (int32_t)__match_any_sync(m, v); }
CJ_FN uint32_t activemask() { return __activemask(); }
CJ_FN uint32_t lanemask_lt() {
  uint32_t r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}
#if CJ_DEBUG_CHECKS
// @cuda.jit(debug=True) (pipeline.cpp defines CJ_DEBUG_CHECKS): every array index is checked, as
// the simulator checks it. A bad one must not trap (a trap destroys the context and every array
// in it), so the thread records it, the first to do so winning the flag, and exits; the others
// run on. The dispatcher reads the record (cj::FaultRecord, src/abi/cujit_abi.h) after the launch
// (rt::LoadedModule::take_index_fault), clears it and raises IndexError.
}  // namespace cj
extern "C" {
__device__ cj::FaultRecord CJ_ABI_FAULT_RECORD;  // unmangled: cuModuleGetGlobal finds it by this name
}
namespace cj {
static __device__ __noinline__ void index_fault(int32_t site, int32_t axis, int64_t index, int64_t size) {
  cj::FaultRecord& r = CJ_ABI_FAULT_RECORD;
  if (atomicCAS(&r.flag, 0u, 1u) == 0u) {
    r.site = site;
    r.axis = axis;
    r.index = index;
    r.size = size;
    r.thread[0] = threadIdx.x, r.thread[1] = threadIdx.y, r.thread[2] = threadIdx.z;
    r.block[0] = blockIdx.x, r.block[1] = blockIdx.y, r.block[2] = blockIdx.z;
    __threadfence();
  }
  asm volatile("exit;");  // this thread only; the launch completes normally
  __builtin_unreachable();
}
// A raise in GPU code (codegen_exc.cpp) with debug=True: recorded as an index fault is, with
// axis -1 and `site` numbering the raise (Build::raise_sites); the dispatcher raises it.
static __device__ __noinline__ void gpu_raise(int32_t site) {
  cj::FaultRecord& r = cj_fault_record;
  if (atomicCAS(&r.flag, 0u, 1u) == 0u) {
    r.site = site;
    r.axis = -1;
    r.thread[0] = threadIdx.x, r.thread[1] = threadIdx.y, r.thread[2] = threadIdx.z;
    r.block[0] = blockIdx.x, r.block[1] = blockIdx.y, r.block[2] = blockIdx.z;
    __threadfence();
  }
  asm volatile("exit;");
  __builtin_unreachable();
}
#else
// Without debug=True numba-cuda ignores an exception: the thread that raised returns.
static __device__ __noinline__ void gpu_raise(int32_t) {
  asm volatile("exit;");
  __builtin_unreachable();
}
#endif
CJ_FN void threadfence() { __threadfence(); }
CJ_FN void threadfence_block() { __threadfence_block(); }
CJ_FN void threadfence_system() { __threadfence_system(); }
CJ_FN void nanosleep(uint32_t ns) { __nanosleep(ns); }
// Numba computes the global index in 64 bits so grids past 2**31 threads do not wrap.
CJ_FN int64_t grid_x() { return (int64_t)blockIdx.x * blockDim.x + threadIdx.x; }
CJ_FN int64_t grid_y() { return (int64_t)blockIdx.y * blockDim.y + threadIdx.y; }
CJ_FN int64_t grid_z() { return (int64_t)blockIdx.z * blockDim.z + threadIdx.z; }
CJ_FN int64_t gridsize_x() { return (int64_t)gridDim.x * blockDim.x; }
CJ_FN int64_t gridsize_y() { return (int64_t)gridDim.y * blockDim.y; }
CJ_FN int64_t gridsize_z() { return (int64_t)gridDim.z * blockDim.z; }
}  // namespace cj

// The math library: CUDA's device functions have the C names (sqrtf/sqrt).
#define CJ_LIBM_F(name) ::name##f
#define CJ_LIBM_D(name) ::name

// A ufunc: a grid-stride loop over every element (the launch sizes the grid to the device).
// When every operand is dense, 1-d and 16-byte aligned (the common case: whole contiguous
// arrays), each thread moves K = 16 / (largest itemsize) elements per operand with one access of
// K * itemsize bytes (16 for the widest operand), runs the element function on registers, and
// writes the result back the same way; the rest (views, broadcasts, the tail) goes element by
// element. `Sizes` lists each operand's itemsize (inputs, then the output), from codegen.
namespace cj {
// Copies `bytes` (16, 8, 4, 2 or 1; a constant once the caller's loop is unrolled) in one access.
CJ_DEVICE __forceinline__ void move_bytes(void* dst, const void* src, int bytes) {
  switch (bytes) {
    case 16: *(uint4*)dst = *(const uint4*)src; break;
    case 8: *(uint2*)dst = *(const uint2*)src; break;
    case 4: *(unsigned*)dst = *(const unsigned*)src; break;
    case 2: *(unsigned short*)dst = *(const unsigned short*)src; break;
    default: *(unsigned char*)dst = *(const unsigned char*)src; break;
  }
}
// Args is cj::UfuncArgs<N> (common.h, which comes after this file).
template <class Sz, void (*Elem)(char**), class Args>
CJ_DEVICE __forceinline__ void ufunc_loop(const Args& p) {
  constexpr int N = Sz::n, K = 16 / Sz::max;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  bool dense = p.ndim == 1;
#pragma unroll
  for (int k = 0; k < N; ++k)
    dense = dense && p.strides[k][0] == Sz::v[k] && ((unsigned long long)p.ptr[k] & 15) == 0;
  int64_t first = 0;
  if (dense) {
    const int64_t nvec = p.n / K;
    for (int64_t v = tid; v < nvec; v += stride) {
      uint4 buf[N];
#pragma unroll
      for (int k = 0; k < N - 1; ++k) move_bytes(&buf[k], p.ptr[k] + v * (K * Sz::v[k]), K * Sz::v[k]);
#pragma unroll
      for (int e = 0; e < K; ++e) {
        char* a[N];
#pragma unroll
        for (int k = 0; k < N; ++k) a[k] = (char*)&buf[k] + e * Sz::v[k];
        Elem(a);
      }
      move_bytes(p.ptr[N - 1] + v * (K * Sz::v[N - 1]), &buf[N - 1], K * Sz::v[N - 1]);
    }
    first = nvec * K;
  }
  for (int64_t i = first + tid; i < p.n; i += stride) {
    char* a[N];
    ufunc_pointers(p, i, a);
    Elem(a);
  }
}
}  // namespace cj

#define CJ_UFUNC_ENTRY(name, N)                                                     \
  extern "C" __global__ void name(const cj::UfuncArgs<N> p) {                      \
    cj::ufunc_loop<name##_sizes, name##_elem>(p);                                   \
  }
