// The ABI between cujit's runtime and the code it generates: every layout, entry signature and
// symbol name that both sides must agree on, declared once. This one header is
//   - the first part of the prelude of every generated program (src/pipeline.cpp with_prelude,
//     embedded as text by src/prelude/embed.cmake), for NVRTC and for the host compiler;
//   - included by the runtime and the bindings, which read and write these layouts.
// So it is plain C++17 with no dependencies: NVRTC has no include path, and the runtime must not
// see the prelude's device code. Only layouts live here; what generated code does with them is
// the prelude's (src/prelude/), what the runtime does is src/runtime/'s.
//
// Changing a layout here changes both sides at once; the static_asserts below pin the sizes the
// runtime's word packing (bindings/marshal.cpp, runtime/ufunc.cpp) relies on.
#pragma once

#ifdef __CUDACC_RTC__
// NVRTC: no <stdint.h>. These are the LP64 types the host side has.
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#else
#include <stddef.h>
#include <stdint.h>
#endif

// The word-offset helpers are usable in device code too (NVRTC refuses unannotated functions).
#ifdef __CUDACC__
#define CJ_ABI_FN __host__ __device__ constexpr
#else
#define CJ_ABI_FN constexpr
#endif

namespace cj {

// ---- Symbols ----------------------------------------------------------------------------------
// Entry points are `extern "C"`, named PREFIX + the Python function's name (ufunc and NumPy-loop
// entries also + "_" + the loop's index). The pipeline names them, the runtime finds and names them
// back in messages.
constexpr const char kKernelPrefix[] = "cj_kernel_";    // @cuda.jit kernels (both targets)
constexpr const char kUfuncPrefix[] = "cj_ufunc_";      // CUDA ufunc loops (both targets)
constexpr const char kGufuncPrefix[] = "cj_gufunc_";    // CPU guvectorize inner loops
constexpr const char kNpyLoopPrefix[] = "cj_npyloop_";  // CPU vectorize inner loops
constexpr const char kCpuPrefix[] = "cj_cpu_";          // @jit functions
// Identifiers the prelude defines and the runtime looks up by name.
#define CJ_ABI_HOST_BIND cj_host_bind        // host libraries: void(const cj::HostServices*)
#define CJ_ABI_FAULT_RECORD cj_fault_record  // GPU debug builds: a __device__ cj::FaultRecord
#define CJ_ABI_STR2(x) #x
#define CJ_ABI_STR(x) CJ_ABI_STR2(x)

// ---- Arrays -----------------------------------------------------------------------------------
/// Dimensions of a ufunc launch's broadcast shape (UfuncArgs); kernels' arrays have any ndim.
constexpr int kMaxDims = 8;

/// An array argument: data pointer, then shape and byte strides (negative allowed) per dimension.
/// The runtime passes it as 1 + 2 * N 64-bit words (bindings/marshal.cpp array_bytes).
template <class T, int N>
struct Array {
  T* data;
  int64_t shape[N];
  int64_t strides[N];
};
CJ_ABI_FN int array_words(int ndim) { return 1 + 2 * ndim; }
/// The byte offsets [lo, hi) from an array's data pointer that its elements occupy (strides may
/// be negative); lo == hi when it has no element. Shared by generated code (an overlapping
/// source of a slice assignment, prelude/common.h) and the launch (the restrict variant,
/// bindings/kernel_alias.h).
CJ_ABI_FN void array_byte_extent(const int64_t* shape, const int64_t* strides, int ndim, int64_t itemsize,
                                 int64_t* lo, int64_t* hi) {
  int64_t l = 0, h = itemsize;
  for (int k = 0; k < ndim; ++k) {
    if (shape[k] <= 0) { *lo = *hi = 0; return; }
    const int64_t ext = (shape[k] - 1) * strides[k];
    if (ext < 0) l += ext; else h += ext;
  }
  *lo = l;
  *hi = h;
}

/// A ufunc launch (N operands: inputs, then the output): the broadcast shape, dimensions merged
/// where the memory allows, and per operand a base pointer and byte strides (0 where broadcast).
/// runtime/ufunc.cpp pack_ufunc_args writes it as 64-bit words at the offsets below.
template <int N>
struct UfuncArgs {
  int64_t n;      // elements
  int64_t ndim;   // <= kMaxDims
  int64_t shape[kMaxDims];
  char* ptr[N];
  int64_t strides[N][kMaxDims];
};
CJ_ABI_FN int ufunc_args_words(int nops) { return 2 + kMaxDims + nops + nops * kMaxDims; }
CJ_ABI_FN int ufunc_shape_word(int d) { return 2 + d; }
CJ_ABI_FN int ufunc_ptr_word(int k) { return 2 + kMaxDims + k; }
CJ_ABI_FN int ufunc_stride_word(int nops, int k, int d) { return 2 + kMaxDims + nops + k * kMaxDims + d; }

static_assert(sizeof(void*) == 8 && sizeof(int64_t) == 8, "cujit's words are 64-bit");
static_assert(sizeof(Array<char, 3>) == 8 * array_words(3), "Array is its words, no padding");
static_assert(sizeof(UfuncArgs<3>) == 8 * ufunc_args_words(3), "UfuncArgs is its words");

// ---- GPU debug builds -------------------------------------------------------------------------
/// The first out-of-bounds index of a debug=True launch: the module's global CJ_ABI_FAULT_RECORD,
/// set once by the faulting thread (prelude/cuda.h index_fault), read back and cleared by the
/// runtime (runtime/launch.cpp take_index_fault). `site` numbers the access (codegen's CheckSite).
struct FaultRecord {
  uint32_t flag;  // 0: none
  int32_t site, axis, pad;
  int64_t index, size;
  uint32_t thread[3], block[3];
};
static_assert(sizeof(FaultRecord) == 56, "FaultRecord's layout");

// ---- The simulator (host builds of kernels) ----------------------------------------------------
struct Dim3 {
  int32_t x, y, z;
};
/// One simulated launch, or the part of it one CPU thread runs: blocks [block_begin, block_end),
/// linear with x fastest.
struct SimLaunch {
  Dim3 grid, block;
  int64_t block_begin, block_end;
  int64_t shared_bytes;  // dynamic shared memory per block
  char error[512];       // set by the simulated kernel when it must stop; read by the runtime
  void* coop;            // a cooperative launch (cuda.cg.this_grid()): its SimGrid, else null
};
/// The state of a cooperative launch that every block's CPU thread shares (grid.sync()).
struct SimGrid {
  int64_t blocks;      // of the launch
  int64_t arrived;     // blocks at the current grid barrier
  int64_t finished;    // blocks that have returned (or stopped)
  int64_t generation;  // grid barriers passed
  int32_t stop;        // a block failed: the others stop at their next wait
};

// ---- Dicts and sets of @jit code ------------------------------------------------------------
/// The shared header of a dict (or a set: no values) of @jit code (prelude/host_dict.h's
/// cj::Dict<K, V> handles; bindings/dicts.cpp makes one for a typed.Dict or set argument and reads
/// a returned one). Entries lie in insertion order: entry i is live[i] ? (keys[i], vals[i]) : a
/// deleted one; `used` entries were written, `size` of them live. `index` (nslots slots, an entry
/// or -1 empty, -2 deleted) may be null: the generated code rebuilds it (and the hashes) on first
/// use, so the extension fills only the entries. Keys and values lie as layout.h lays them out.
/// A set's entries lie in any order: its index is Numba's set table (its slot order is the
/// set's iteration order, host_dict.h), the entries compacted as the table needs.
struct DictHead {
  int64_t refs;                  // handles holding it (atomic)
  int64_t size, used, cap;       // live entries, entries written, entries allocated
  void* keys;                    // cap keys
  void* vals;                    // cap values (a set: cap bytes, unused)
  uint8_t* live;                 // cap flags
  int64_t* hashes;               // cap hashes, or null with index
  int64_t* index;                // nslots slots, or null
  int64_t nslots;
  void (*destroy)(DictHead*);    // destroys the entries, frees the arrays and the header
  int64_t fill, finger;          // a set's table (Numba's): slots not empty, set.pop()'s position
};

#ifndef __CUDACC_RTC__
/// A kernel's host entry: params[i] points at argument i's bytes (as cuLaunchKernel's).
using HostKernelFn = void (*)(void** params, SimLaunch* launch);
/// A CUDA ufunc loop's host entry: elements [begin, end) of the UfuncArgs at `params`; returns
/// nonzero with a message in `err` when the loop stopped (an index check, Ctrl-C).
using HostUfuncFn = int (*)(const void* params, int64_t begin, int64_t end, char* err, size_t errlen);

// ---- Host libraries ---------------------------------------------------------------------------
/// What compiled CPU code asks of the extension (@jit, CPU ufuncs, the simulator), handed to each
/// library by CJ_ABI_HOST_BIND when it is loaded (pipeline.cpp, runtime/host_calls.cpp).
struct HostServices {
  void* (*random_state)(int which);  // this thread's generator: 0 = random, 1 = np.random
  void* (*alloc)(int64_t bytes);      // memory owned by the current call (64-byte aligned)
  void* (*arena_get)();               // the current call's allocations, to hand to worker threads
  void (*arena_set)(void* arena);     // (prange), which allocate into the same call
  int (*num_threads)();               // threads for a parallel loop (cujit.set_num_threads)
  void* (*arena_open)();              // a new arena for this thread; returns the previous one
  void (*arena_close)(void* prev);    // frees this thread's arena, makes `prev` current again
  void (*arena_reset)();              // frees what this thread's arena holds (NumPy loops, per element)
  int* sim_flags;                     // the simulator's stop/poll word (runtime/simulator.h)
  int (*sim_poll)();                  // called when it is nonzero; 1: stop (Ctrl-C)
  void* (*lapack)(int routine);       // a CJ_LAPACK_ROUTINES entry (by its LapackFn), or null: no library
};
/// The BLAS and LAPACK routines compiled CPU code calls (np.dot, np.linalg), each listed once:
/// the runtime looks each up, with 64-bit integers (ILP64: `scipy_dgemm_64_` in NumPy's bundled
/// OpenBLAS, `dgemm_64_` elsewhere), in the library Python names (cujit/_lapack.py); the prelude
/// (host_linalg.h) calls it through HostServices::lapack(LapackFn::dgemm).
#define CJ_LAPACK_ROUTINES(X)                                                                       \
  X(sgemm) X(dgemm) X(cgemm) X(zgemm) X(sgetrf) X(dgetrf) X(cgetrf) X(zgetrf) X(sgetri) X(dgetri) \
  X(cgetri) X(zgetri) X(sgesv) X(dgesv) X(cgesv) X(zgesv) X(spotrf) X(dpotrf) X(cpotrf) X(zpotrf) \
  X(sgeev) X(dgeev) X(cgeev) X(zgeev) X(ssyevd) X(dsyevd) X(cheevd) X(zheevd) X(sgesdd) X(dgesdd)  \
  X(cgesdd) X(zgesdd) X(sgelsd) X(dgelsd) X(cgelsd) X(zgelsd) X(sgeqrf) X(dgeqrf) X(cgeqrf)        \
  X(zgeqrf) X(sorgqr) X(dorgqr) X(cungqr) X(zungqr) X(snrm2) X(dnrm2) X(scnrm2) X(dznrm2)
enum class LapackFn : int {
#define CJ_LAPACK_ENUM(name) name,
  CJ_LAPACK_ROUTINES(CJ_LAPACK_ENUM)
#undef CJ_LAPACK_ENUM
  count
};
using HostBindFn = void (*)(const HostServices*);

// ---- Lists of @jit code -----------------------------------------------------------------------
/// The shared, reference-counted header a list handle (prelude/host_list.h's cj::List<T>, one
/// pointer) points at: `size` of `cap` items in `data`, each laid out as the generated code lays
/// out its item type. bindings/lists.cpp makes one for a Python list argument, reads it back to
/// reflect the changes, and reads a returned one.
struct ListHead {
  int64_t refs;                // handles holding it (atomic: prange threads share lists)
  int64_t size, cap;
  void* data;                  // cap items, std::malloc'ed
  void (*destroy)(ListHead*);  // destroys the items, frees data and the header
};

// ---- Strings of @jit code ---------------------------------------------------------------------
/// A str (Numba's unicode_type; prelude/host_str.h's cj::Str is one pointer to this header, null
/// for ""): `length` code points follow the header as uint32_t (UCS-4, so indexing and slicing are
/// by code point as in Python), then a 0. Made with std::malloc, freed with std::free by whoever
/// drops the last reference (the generated code, or bindings/strings.cpp for arguments and
/// results). `hash` is CPython's hash of the str once computed, else -1 (CPython never gives -1).
struct StrHead {
  int64_t refs;    // handles holding it (atomic: prange threads share strings)
  int64_t length;  // code points
  int64_t hash;
};
static_assert(sizeof(StrHead) == 24, "StrHead's layout");
inline uint32_t* str_data(StrHead* h) { return reinterpret_cast<uint32_t*>(h + 1); }

/// A state of the extension's per-thread generators (HostServices::random_state) holds this many
/// bytes; the prelude's generator must fit (host_random.h).
constexpr int kRandomStateBytes = 4096;
#endif

}  // namespace cj
