// What compiled CPU code (@jit functions, CPU ufuncs, the simulator) gets from the extension at
// run time (cj::HostServices, src/abi/cujit_abi.h): the per-thread random
// generator states, and the arena that owns the arrays a call allocates. The CPU dispatcher
// opens an arena around each call, hands the returned arrays' blocks to NumPy and frees the rest.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "abi/cujit_abi.h"

namespace cujit::rt {

/// The function table a compiled library receives (src/abi/cujit_abi.h).
using HostServices = cj::HostServices;
const HostServices* host_services();
/// The BLAS/LAPACK library compiled code calls (runtime/lapack.cpp): its path, from Python; the
/// routine `routine` (a cj::LapackFn) found in it, or null.
void set_lapack_library(const std::string& path);
void* lapack_routine(int routine);

/// Threads a parallel loop may use: at most max_threads() (NUMBA_NUM_THREADS or
/// CUJIT_NUM_THREADS, else the machine's hardware threads), as Numba's set_num_threads.
int max_threads();
int num_threads();
void set_num_threads(int n);  // 1 <= n <= max_threads(), checked by the caller

/// The memory one call to compiled CPU code allocated (np.empty and friends).
class CallArena {
 public:
  CallArena() = default;
  CallArena(const CallArena&) = delete;
  CallArena& operator=(const CallArena&) = delete;
  ~CallArena();  // frees every block not released
  void* alloc(int64_t bytes);
  /// Takes the block that holds `p` out of the arena (the caller frees it with std::free) and
  /// returns its start and size; null when no block of this arena holds `p`.
  void* release(const void* p, int64_t* bytes);
  void clear();  // frees every block

 private:
  std::mutex mu_;  // prange workers allocate into their caller's arena
  struct Block {
    char* data;
    int64_t bytes;
  };
  std::vector<Block> blocks_;
};

/// Makes `a` the current thread's arena for its lifetime (restoring the previous one).
class ArenaScope {
 public:
  explicit ArenaScope(CallArena* a);
  ~ArenaScope();
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

 private:
  CallArena* prev_;
};

}  // namespace cujit::rt
