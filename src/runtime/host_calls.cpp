#include "runtime/host_calls.h"

#include "runtime/simulator.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace cujit::rt {
namespace {

thread_local CallArena* t_arena = nullptr;

// Zeroed memory is a generator the prelude seeds on first use (prelude/host_random.h).
void* random_state(int which) {
  alignas(64) static thread_local unsigned char states[2][cj::kRandomStateBytes];
  return states[which & 1];
}

// Memory outside any call is never freed rather than freed too early; every entry point opens
// an arena (the dispatcher for @jit, the loop itself for CPU ufuncs), so this is a last resort.
void* alloc(int64_t bytes) {
  if (t_arena) return t_arena->alloc(bytes);
  return std::aligned_alloc(64, (size_t)((bytes + 63) / 64 * 64 + 64));
}

void* arena_get() { return t_arena; }
void arena_set(void* a) { t_arena = static_cast<CallArena*>(a); }

int env_threads() {
  for (const char* name : {"CUJIT_NUM_THREADS", "NUMBA_NUM_THREADS"}) {
    const char* v = std::getenv(name);
    if (v && std::atoi(v) > 0) return std::atoi(v);
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? (int)hw : 1;
}

std::atomic<int> g_threads{0};  // 0: not read from the environment yet

int threads_service() { return num_threads(); }

void* arena_open() {
  CallArena* prev = t_arena;
  t_arena = new CallArena;
  return prev;
}

void arena_close(void* prev) {
  delete t_arena;
  t_arena = static_cast<CallArena*>(prev);
}

void arena_reset() {
  if (t_arena) t_arena->clear();
}

const HostServices kServices = {&random_state,    &alloc,      &arena_get,   &arena_set,
                                &threads_service, &arena_open, &arena_close, &arena_reset,
                                sim_flags(),      &sim_poll,   &lapack_routine};

}  // namespace

const HostServices* host_services() { return &kServices; }

int max_threads() {
  static const int n = env_threads();
  return n;
}

int num_threads() {
  int n = g_threads.load(std::memory_order_relaxed);
  return n > 0 ? n : max_threads();
}

void set_num_threads(int n) { g_threads.store(n, std::memory_order_relaxed); }

CallArena::~CallArena() { clear(); }

void CallArena::clear() {
  std::lock_guard<std::mutex> g(mu_);
  for (auto& b : blocks_) std::free(b.data);
  blocks_.clear();
}

void* CallArena::alloc(int64_t bytes) {
  // At least one cache line, so empty arrays still get a unique address.
  size_t n = (size_t)((bytes < 1 ? 1 : bytes) + 63) / 64 * 64;
  // malloc and align by hand, not aligned_alloc: glibc's memalign asks for 64 + 32 bytes more
  // than the block it keeps, so a freed 8 MB result never fits the next call's request and the
  // heap grew by a fresh, page-faulting 8 MB each call (go_fast ran at 2x Numba's time, whose
  // allocator reuses the warm block). The block's start stays the pointer std::free takes.
  char* raw = static_cast<char*>(std::malloc(n + 64));
  if (!raw) return nullptr;
  char* p = raw + (64 - reinterpret_cast<uintptr_t>(raw) % 64) % 64;
  std::lock_guard<std::mutex> g(mu_);
  blocks_.push_back({raw, (int64_t)(n + 64)});
  return p;
}

void* CallArena::release(const void* p, int64_t* bytes) {
  const char* c = static_cast<const char*>(p);
  std::lock_guard<std::mutex> g(mu_);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (c >= blocks_[i].data && c < blocks_[i].data + blocks_[i].bytes) {
      char* start = blocks_[i].data;
      *bytes = blocks_[i].bytes;
      blocks_.erase(blocks_.begin() + (long)i);
      return start;
    }
  }
  return nullptr;
}

ArenaScope::ArenaScope(CallArena* a) : prev_(t_arena) { t_arena = a; }
ArenaScope::~ArenaScope() { t_arena = prev_; }

}  // namespace cujit::rt
