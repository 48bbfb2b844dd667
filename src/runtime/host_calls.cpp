#include "runtime/host_calls.h"

#include <cstdlib>
#include <cstring>

namespace cujit::rt {
namespace {

thread_local CallArena* t_arena = nullptr;

// Zeroed memory is a generator the prelude seeds on first use (prelude/host_random.h).
void* random_state(int which) {
  alignas(64) static thread_local unsigned char states[2][4096];
  return states[which & 1];
}

// Memory outside any call is never freed rather than freed too early. That happens only where
// NumPy calls compiled code directly: a CPU ufunc loop whose body makes an array.
void* alloc(int64_t bytes) {
  if (t_arena) return t_arena->alloc(bytes);
  return std::aligned_alloc(64, (size_t)((bytes + 63) / 64 * 64 + 64));
}

void* arena_get() { return t_arena; }
void arena_set(void* a) { t_arena = static_cast<CallArena*>(a); }

const HostServices kServices = {&random_state, &alloc, &arena_get, &arena_set};

}  // namespace

const HostServices* host_services() { return &kServices; }

CallArena::~CallArena() {
  for (auto& b : blocks_) std::free(b.data);
}

void* CallArena::alloc(int64_t bytes) {
  // At least one cache line, so empty arrays still get a unique address.
  size_t n = (size_t)((bytes < 1 ? 1 : bytes) + 63) / 64 * 64;
  char* p = static_cast<char*>(std::aligned_alloc(64, n));
  if (!p) return nullptr;
  std::lock_guard<std::mutex> g(mu_);
  blocks_.push_back({p, (int64_t)n});
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
