// What compiled CPU code (@jit functions, CPU ufuncs, the simulator) gets from the extension at
// run time (src/prelude/host_services.h declares the same table): the per-thread random
// generator states, and the arena that owns the arrays a call allocates. The CPU dispatcher
// opens an arena around each call, hands the returned arrays' blocks to NumPy and frees the rest.
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

namespace cujit::rt {

/// The function table a compiled library receives (layout of cj::HostServices in the prelude).
struct HostServices {
  void* (*random_state)(int which);
  void* (*alloc)(int64_t bytes);
  void* (*arena_get)();
  void (*arena_set)(void* arena);
  int (*num_threads)();
  void* (*arena_open)();
  void (*arena_close)(void* prev);
  void (*arena_reset)();
  int* sim_flags;       // simulator.h: nonzero asks simulated code to call sim_poll
  int (*sim_poll)();    // 1: stop (Ctrl-C)
};
const HostServices* host_services();

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
