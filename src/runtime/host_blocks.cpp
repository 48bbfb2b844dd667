// See host_blocks.h.
#include "runtime/host_blocks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/driver.h"
#include "runtime/memory.h"
#include "runtime/simulator.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL and pages are touched instead
#endif

namespace cujit::rt {
namespace {

constexpr size_t kHbGranule = size_t(2) << 20;  // block sizes are multiples of a huge page

// The defaults:
//  - min_bytes 32 MiB: glibc's largest dynamic mmap threshold on 64-bit, from which every malloc
//    is a fresh mapping; below it glibc reuses freed heap memory, already faulted in.
//  - cache_bytes: 2 GiB, at most an eighth of the machine's memory; a block larger than that is
//    unmapped when its array dies.
//  - pinned_min_bytes 1 MiB: the split range of the ufunc host path starts at 2 MiB staged.
//  - pinned_cache_bytes: 256 MiB, at most 1/64 of the machine's memory: page-locked memory is
//    memory the kernel cannot take back while it is cached.
HostBlockConfig hb_default_config() {
  HostBlockConfig c;
  c.min_bytes = size_t(32) << 20;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const size_t phys = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(16) << 30;
  c.cache_bytes = std::min(size_t(2) << 30, phys / 8);
  c.pinned_min_bytes = size_t(1) << 20;
  c.pinned_cache_bytes = std::min(size_t(256) << 20, phys / 64);
  c.populate = true;
  return c;
}

struct HbBlock {
  char* ptr = nullptr;
  size_t bytes = 0;
  int pin = 0;               // 0 pageable; 1 registered with the GPU's driver; 2 "pinned" on the simulator
  uint64_t generation = 0;   // pin 1: driver.h reset_count() when registered
};

struct HbState {
  std::mutex mu;
  HostBlockConfig config = hb_default_config();
  std::unordered_map<void*, HbBlock> live;
  std::vector<HbBlock> cache;  // dead blocks, oldest first
  size_t cached_bytes = 0, cached_pinned_bytes = 0;
  HostBlockStats stats;
};

HbState& hb_state() {
  static auto* s = new HbState();  // leaked: arrays may die during interpreter teardown
  return *s;
}

size_t hb_round(size_t n) { return (n + kHbGranule - 1) / kHbGranule * kHbGranule; }

// Whether the kernel gives huge pages to regions that ask (MADV_HUGEPAGE): "always" or "madvise".
bool hb_thp() {
  static const bool on = [] {
    FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return false;
    char buf[128] = {};
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    return std::strstr(buf, "[never]") == nullptr;
  }();
  return on;
}

// A fresh block of `bytes` (a multiple of kHbGranule) starting on a 2 MiB boundary, so that every
// part of it can be a huge page: on the H200 machine huge pages faulted in 400 MB in 10-14 ms over
// 16 threads against 26-37 ms for 4 KiB pages, were unmapped in 1.5 ms against 13-21 ms, and
// MADV_FREE of them cost 0.4 ms and left them warm, where 4 KiB pages cost 17 ms and faulted again.
char* hb_map(size_t bytes) noexcept {
  const size_t span = bytes + kHbGranule;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t r = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t p = (r + kHbGranule - 1) / kHbGranule * kHbGranule;
  if (p > r) munmap(raw, p - r);
  if (r + span > p + bytes) munmap(reinterpret_cast<void*>(p + bytes), r + span - (p + bytes));
  if (hb_thp()) madvise(reinterpret_cast<void*>(p), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(p);
}

// Faults the block's pages in, each thread whole 2 MiB granules of one contiguous range.
void hb_populate(char* p, size_t bytes) noexcept {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  try {
    parallel_for(int64_t(bytes / kHbGranule), 1, [&](int64_t b, int64_t e) {
      char* at = p + size_t(b) * kHbGranule;
      const size_t len = size_t(e - b) * kHbGranule;
      if (madvise(at, len, MADV_POPULATE_WRITE) == 0) return;
      for (size_t i = 0; i < len; i += page) static_cast<volatile char*>(at)[i] = 0;
    });
  } catch (...) {
    // Interrupted (Ctrl-C): the pages not yet in fault in on first use.
  }
}

// Page-locks a fresh block for DMA (portable, and mapped so cuda.mapped can view it); false when
// the driver refuses (the block then stays pageable).
bool hb_register(HbBlock& b) noexcept {
  try {
    if (is_shut_down() || driver_shut_down()) return false;
    ensure_context();
    const Driver& d = Driver::get();
    if (!d.api.cuMemHostRegister) return false;
    b.generation = reset_count();
    return d.api.cuMemHostRegister(b.ptr, b.bytes, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP) ==
           CUDA_SUCCESS;
  } catch (...) {
    return false;
  }
}

// Whether a registered block is still registered: a kernel fault's context reset undid it.
bool hb_pin_valid(const HbBlock& b) { return b.pin != 1 || b.generation == reset_count(); }

void hb_release(const std::vector<HbBlock>& blocks) noexcept {
  for (const HbBlock& b : blocks) {
    if (b.pin == 1 && b.generation == reset_count() && !is_shut_down() && !driver_shut_down()) {
      try {
        ensure_context();
        const Driver& d = Driver::get();
        if (d.api.cuMemHostUnregister) d.api.cuMemHostUnregister(b.ptr);
      } catch (...) {
      }
    }
    munmap(b.ptr, b.bytes);
  }
}

size_t& hb_cached_of(HbState& s, const HbBlock& b) { return b.pin ? s.cached_pinned_bytes : s.cached_bytes; }

// Takes the oldest cached blocks out until at most `keep` pageable and `keep_pinned` pinned bytes
// are cached (mu held); the caller releases them outside the lock.
std::vector<HbBlock> hb_evict(HbState& s, size_t keep, size_t keep_pinned) {
  std::vector<HbBlock> out, stay;
  for (const HbBlock& b : s.cache) {
    size_t& cached = hb_cached_of(s, b);
    if (cached > (b.pin ? keep_pinned : keep) || !hb_pin_valid(b)) {
      cached -= b.bytes;
      out.push_back(b);
    } else {
      stay.push_back(b);
    }
  }
  s.cache = std::move(stay);
  s.stats.unmapped += int64_t(out.size());
  return out;
}

}  // namespace

HostBlockConfig host_block_config() {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  return s.config;
}

void set_host_block_config(const HostBlockConfig& c) {
  HbState& s = hb_state();
  std::vector<HbBlock> gone;
  {
    std::lock_guard<std::mutex> g(s.mu);
    s.config = c;
    gone = hb_evict(s, c.cache_bytes, c.pinned_cache_bytes);
  }
  hb_release(gone);
}

HostBlockStats host_block_stats() {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  HostBlockStats r = s.stats;
  r.live = int64_t(s.live.size());
  r.cached = int64_t(s.cache.size());
  r.cached_bytes = s.cached_bytes + s.cached_pinned_bytes;
  for (const auto& kv : s.live) r.live_pinned += kv.second.pin ? 1 : 0;
  return r;
}

void* host_block_alloc(size_t nbytes, bool pinned, Backend backend) noexcept {
  if (nbytes == 0 || nbytes > (SIZE_MAX >> 1)) return nullptr;
  const size_t want = hb_round(nbytes);
  const int pin = !pinned ? 0 : backend == Backend::GPU ? 1 : 2;
  HbState& s = hb_state();
  bool populate = true;
  {
    std::lock_guard<std::mutex> g(s.mu);
    populate = s.config.populate;
    // The smallest cached block of the kind asked for that fits and wastes at most a quarter of
    // what it holds.
    int best = -1;
    for (size_t i = 0; i < s.cache.size(); ++i) {
      const HbBlock& c = s.cache[i];
      if (c.pin != pin || !hb_pin_valid(c)) continue;
      if (c.bytes >= want && c.bytes - want <= c.bytes / 4 && (best < 0 || c.bytes < s.cache[size_t(best)].bytes))
        best = int(i);
    }
    if (best >= 0) {
      HbBlock c = s.cache[size_t(best)];
      s.cache.erase(s.cache.begin() + best);
      hb_cached_of(s, c) -= c.bytes;
      s.live.emplace(c.ptr, c);
      ++s.stats.reused;
      return c.ptr;
    }
  }
  HbBlock b;
  b.bytes = want;
  b.ptr = hb_map(want);
  if (b.ptr == nullptr) {
    // The cache may be what stands in the way: give it back and try once more.
    trim_host_blocks();
    b.ptr = hb_map(want);
    if (b.ptr == nullptr) return nullptr;
  }
  if (populate || pin == 1) hb_populate(b.ptr, want);  // registering faults every page in anyway
  if (pin == 1) b.pin = hb_register(b) ? 1 : 0;
  else b.pin = pin;
  std::lock_guard<std::mutex> g(s.mu);
  s.live.emplace(b.ptr, b);
  ++s.stats.fresh;
  return b.ptr;
}

bool host_block_free(void* p) noexcept {
  if (p == nullptr) return false;
  HbState& s = hb_state();
  HbBlock b;
  size_t limit = 0;
  {
    std::lock_guard<std::mutex> g(s.mu);
    auto it = s.live.find(p);
    if (it == s.live.end()) return false;
    b = it->second;
    s.live.erase(it);
    limit = b.pin ? s.config.pinned_cache_bytes : s.config.cache_bytes;
    if (b.bytes > limit || !hb_pin_valid(b)) ++s.stats.unmapped;
  }
  if (b.bytes > limit || !hb_pin_valid(b)) {
    hb_release({b});
    return true;
  }
  // Outside the lock: it walks the block's page tables. With 4 KiB pages (no THP) MADV_FREE cost
  // as much as unmapping and the pages faulted in again on reuse, so they are kept as they are;
  // page-locked blocks stay locked and are kept as they are too.
  if (b.pin == 0 && hb_thp()) madvise(p, b.bytes, MADV_FREE);
  std::vector<HbBlock> gone;
  {
    std::lock_guard<std::mutex> g(s.mu);
    s.cache.push_back(b);
    hb_cached_of(s, b) += b.bytes;
    gone = hb_evict(s, s.config.cache_bytes, s.config.pinned_cache_bytes);
  }
  hb_release(gone);
  return true;
}

size_t host_block_size(const void* p) noexcept {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  auto it = s.live.find(const_cast<void*>(p));
  return it == s.live.end() ? 0 : it->second.bytes;
}

bool host_block_pinned(const void* p, size_t n, Backend backend) noexcept {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  const auto a = reinterpret_cast<uintptr_t>(p);
  for (const auto& kv : s.live) {  // a handful of live blocks
    const HbBlock& b = kv.second;
    const auto start = reinterpret_cast<uintptr_t>(b.ptr);
    if (a >= start && a - start <= b.bytes && n <= b.bytes - (a - start))
      return b.pin == (backend == Backend::GPU ? 1 : 2) && hb_pin_valid(b);
  }
  return false;
}

void trim_host_blocks() noexcept {
  HbState& s = hb_state();
  std::vector<HbBlock> gone;
  {
    std::lock_guard<std::mutex> g(s.mu);
    gone = hb_evict(s, 0, 0);
  }
  hb_release(gone);
}

}  // namespace cujit::rt
