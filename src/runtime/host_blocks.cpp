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
HostBlockConfig hb_default_config() {
  HostBlockConfig c;
  c.min_bytes = size_t(32) << 20;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const size_t phys = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(16) << 30;
  c.cache_bytes = std::min(size_t(2) << 30, phys / 8);
  c.populate = true;
  return c;
}

struct HbCached {
  char* ptr;
  size_t bytes;
};

struct HbState {
  std::mutex mu;
  HostBlockConfig config = hb_default_config();
  std::unordered_map<void*, size_t> live;  // block -> its mapped size
  std::vector<HbCached> cache;             // dead blocks, oldest first
  size_t cached_bytes = 0;
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

// Unmaps the oldest cached blocks until at most `keep` bytes are cached (mu held).
std::vector<HbCached> hb_evict(HbState& s, size_t keep) {
  std::vector<HbCached> out;
  size_t i = 0;
  while (s.cached_bytes > keep && i < s.cache.size()) {
    s.cached_bytes -= s.cache[i].bytes;
    out.push_back(s.cache[i++]);
  }
  s.cache.erase(s.cache.begin(), s.cache.begin() + i);
  s.stats.unmapped += int64_t(out.size());
  return out;
}

void hb_unmap(const std::vector<HbCached>& blocks) noexcept {
  for (const HbCached& b : blocks) munmap(b.ptr, b.bytes);
}

}  // namespace

HostBlockConfig host_block_config() {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  return s.config;
}

void set_host_block_config(const HostBlockConfig& c) {
  HbState& s = hb_state();
  std::vector<HbCached> gone;
  {
    std::lock_guard<std::mutex> g(s.mu);
    s.config = c;
    gone = hb_evict(s, c.cache_bytes);
  }
  hb_unmap(gone);
}

HostBlockStats host_block_stats() {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  HostBlockStats r = s.stats;
  r.live = int64_t(s.live.size());
  r.cached = int64_t(s.cache.size());
  r.cached_bytes = s.cached_bytes;
  return r;
}

void* host_block_alloc(size_t nbytes) noexcept {
  if (nbytes == 0 || nbytes > (SIZE_MAX >> 1)) return nullptr;
  const size_t want = hb_round(nbytes);
  HbState& s = hb_state();
  bool populate = true;
  {
    std::lock_guard<std::mutex> g(s.mu);
    populate = s.config.populate;
    // The smallest cached block that fits and wastes at most a quarter of what it holds.
    int best = -1;
    for (size_t i = 0; i < s.cache.size(); ++i) {
      const size_t b = s.cache[i].bytes;
      if (b >= want && b - want <= b / 4 && (best < 0 || b < s.cache[size_t(best)].bytes)) best = int(i);
    }
    if (best >= 0) {
      HbCached c = s.cache[size_t(best)];
      s.cache.erase(s.cache.begin() + best);
      s.cached_bytes -= c.bytes;
      s.live.emplace(c.ptr, c.bytes);
      ++s.stats.reused;
      return c.ptr;
    }
  }
  char* p = hb_map(want);
  if (p == nullptr) {
    // The cache may be what stands in the way: give it back and try once more.
    trim_host_blocks();
    p = hb_map(want);
    if (p == nullptr) return nullptr;
  }
  if (populate) hb_populate(p, want);
  std::lock_guard<std::mutex> g(s.mu);
  s.live.emplace(p, want);
  ++s.stats.fresh;
  return p;
}

bool host_block_free(void* p) noexcept {
  if (p == nullptr) return false;
  HbState& s = hb_state();
  size_t bytes = 0, limit = 0;
  {
    std::lock_guard<std::mutex> g(s.mu);
    auto it = s.live.find(p);
    if (it == s.live.end()) return false;
    bytes = it->second;
    s.live.erase(it);
    limit = s.config.cache_bytes;
  }
  if (bytes > limit) {
    munmap(p, bytes);
    std::lock_guard<std::mutex> g(s.mu);
    ++s.stats.unmapped;
    return true;
  }
  // Outside the lock: it walks the block's page tables. With 4 KiB pages (no THP) MADV_FREE cost
  // as much as unmapping and the pages faulted in again on reuse, so they are kept as they are.
  if (hb_thp()) madvise(p, bytes, MADV_FREE);
  std::vector<HbCached> gone;
  {
    std::lock_guard<std::mutex> g(s.mu);
    s.cache.push_back({static_cast<char*>(p), bytes});
    s.cached_bytes += bytes;
    gone = hb_evict(s, s.config.cache_bytes);
  }
  hb_unmap(gone);
  return true;
}

size_t host_block_size(const void* p) noexcept {
  HbState& s = hb_state();
  std::lock_guard<std::mutex> g(s.mu);
  auto it = s.live.find(const_cast<void*>(p));
  return it == s.live.end() ? 0 : it->second;
}

void trim_host_blocks() noexcept {
  HbState& s = hb_state();
  std::vector<HbCached> gone;
  {
    std::lock_guard<std::mutex> g(s.mu);
    gone = hb_evict(s, 0);
  }
  hb_unmap(gone);
}

}  // namespace cujit::rt
