// See host_memory.h.
#include "runtime/host_memory.h"
#include "runtime/host_blocks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

#include "runtime/driver.h"

namespace cujit::rt {
namespace {

// Live GPU pinned ranges: start -> end. Ranges never overlap (the driver refuses to register memory
// twice, and host_register skips ranges already here). Leaked on purpose, like the driver state:
// HostAllocations may die during interpreter teardown.
std::mutex& pinned_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::map<uintptr_t, uintptr_t>& pinned_ranges() {
  static auto* r = new std::map<uintptr_t, uintptr_t>();
  return *r;
}

// The fault resets (driver.h reset_count) the ranges were made after: a kernel fault's context reset
// unpins what was pinned in that context; which device that was is not tracked, so all are forgotten.
uint64_t g_ranges_generation = 0;  // guarded by pinned_mutex

void add_range(void* p, size_t n) {
  std::lock_guard<std::mutex> g(pinned_mutex());
  if (g_ranges_generation != reset_count()) {
    pinned_ranges().clear();
    g_ranges_generation = reset_count();
  }
  pinned_ranges()[uintptr_t(p)] = uintptr_t(p) + n;
}

void remove_range(void* p) noexcept {
  try {
    std::lock_guard<std::mutex> g(pinned_mutex());
    pinned_ranges().erase(uintptr_t(p));
  } catch (...) {
  }
}

// The live range holding [p, p + n), as (start, end), or (0, 0).
std::pair<uintptr_t, uintptr_t> containing(const void* p, size_t n) {
  std::lock_guard<std::mutex> g(pinned_mutex());
  auto& r = pinned_ranges();
  if (g_ranges_generation != reset_count()) {
    r.clear();
    g_ranges_generation = reset_count();
  }
  auto it = r.upper_bound(uintptr_t(p));
  if (it == r.begin()) return {0, 0};
  --it;
  if (uintptr_t(p) >= it->first && uintptr_t(p) + n <= it->second) return *it;
  return {0, 0};
}

constexpr size_t kSimAlign = 64;

// Live cuMemHostAlloc blocks (start -> bytes), guarded by pinned_mutex. A fault's context reset
// frees them under the NumPy arrays built on them, and touching those would then crash the
// process: remap_lost_allocations maps fresh zeroed pages at the same addresses instead. Those
// pages are never unmapped (the driver may hand the range out again; unmapping could then hit a
// new allocation), a leak bounded by what was pinned before a fault.
std::map<uintptr_t, size_t>& alloc_blocks() {
  static auto* r = new std::map<uintptr_t, size_t>();
  return *r;
}

void remap_lost_allocations() {
  const long page = sysconf(_SC_PAGESIZE);
  std::lock_guard<std::mutex> g(pinned_mutex());
  for (const auto& [start, n] : alloc_blocks()) {
    const uintptr_t lo = start / page * page, hi = (start + n + page - 1) / page * page;
    mmap(reinterpret_cast<void*>(lo), hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  }
  alloc_blocks().clear();
}

}  // namespace

void HostAllocation::release() noexcept {
  void* p = ptr;
  ptr = nullptr;
  device_ptr = nullptr;
  if (p == nullptr) return;
  if (backend == Backend::Sim) {
    if (!registered) sim_free(p);
    return;
  }
  if (registered && !owns_registration) return;
  // Pinned in a context a kernel fault destroyed: the driver has undone it (and freed what it
  // allocated); the same address may be pinned again by now, so touch neither range nor driver.
  if (generation != reset_count()) return;
  remove_range(p);
  if (!registered) {
    std::lock_guard<std::mutex> g(pinned_mutex());
    alloc_blocks().erase(uintptr_t(p));
  }
  if (is_shut_down() || driver_shut_down()) return;
  try {
    ensure_context();
    const Driver& d = Driver::get();
    // Results ignored: nothing can be done about a failure in a destructor.
    if (registered) {
      if (d.api.cuMemHostUnregister) d.api.cuMemHostUnregister(p);
    } else if (flags & kHostManaged) {
      // Waits for the kernels that may use it, as cuMemFree does for ordinary memory.
      if (d.api.cuMemFree) d.api.cuMemFree(CUdeviceptr(uintptr_t(p)));
    } else if (d.api.cuMemFreeHost) {
      d.api.cuMemFreeHost(p);
    }
  } catch (...) {
  }
}

std::shared_ptr<HostAllocation> host_alloc(Backend backend, size_t nbytes, unsigned flags) {
  auto a = std::make_shared<HostAllocation>();
  a->backend = backend;
  a->flags = flags;
  // A zero-byte request still gets a unique, valid pointer (NumPy wants one for empty arrays).
  const size_t n = nbytes == 0 ? 1 : nbytes;
  a->nbytes = nbytes;
  if (backend == Backend::Sim) {
    if (n > SIZE_MAX - kSimAlign) throw std::bad_alloc();
    void* p = sim_alloc((n + kSimAlign - 1) / kSimAlign * kSimAlign);  // memory.h says why not posix_memalign
    if (p == nullptr) throw std::bad_alloc();
    a->ptr = p;
    if (flags & kHostManaged) a->flags |= kHostMapped;
    if (a->flags & kHostMapped) a->device_ptr = p;
    return a;
  }
  ensure_context();
  if (flags & kHostManaged) {
    CUdeviceptr dp = 0;
    a->generation = reset_count();
    CUJIT_CU(cuMemAllocManaged, &dp, n, (flags & kHostAttachHost) ? CU_MEM_ATTACH_HOST : CU_MEM_ATTACH_GLOBAL);
    a->ptr = reinterpret_cast<void*>(uintptr_t(dp));
    a->device_ptr = a->ptr;  // one address on both sides
    a->flags |= kHostMapped;
    {
      // A fault's context reset frees it under the NumPy arrays built on it, as pinned memory.
      static std::once_flag hook;
      std::call_once(hook, [] { on_context_reset(&remap_lost_allocations); });
      std::lock_guard<std::mutex> g(pinned_mutex());
      alloc_blocks()[uintptr_t(a->ptr)] = n;
    }
    return a;
  }
  unsigned cu_flags = 0;
  if (flags & kHostPortable) cu_flags |= CU_MEMHOSTALLOC_PORTABLE;
  if (flags & kHostMapped) cu_flags |= CU_MEMHOSTALLOC_DEVICEMAP;
  if (flags & kHostWriteCombined) cu_flags |= CU_MEMHOSTALLOC_WRITECOMBINED;
  void* p = nullptr;
  a->generation = reset_count();
  CUJIT_CU(cuMemHostAlloc, &p, n, cu_flags);
  a->ptr = p;  // from here the destructor frees it, also if a later step throws
  add_range(p, n);
  {
    static std::once_flag hook;
    std::call_once(hook, [] { on_context_reset(&remap_lost_allocations); });
    std::lock_guard<std::mutex> g(pinned_mutex());
    alloc_blocks()[uintptr_t(p)] = n;
  }
  if (flags & kHostMapped) {
    CUdeviceptr dp = 0;
    CUJIT_CU(cuMemHostGetDevicePointer, &dp, p, 0);
    a->device_ptr = reinterpret_cast<void*>(uintptr_t(dp));
  }
  return a;
}

std::shared_ptr<HostAllocation> host_register(Backend backend, void* ptr, size_t nbytes, unsigned flags) {
  if (ptr == nullptr && nbytes != 0) throw std::invalid_argument("host_register: null pointer");
  auto a = std::make_shared<HostAllocation>();
  a->backend = backend;
  a->ptr = ptr;
  a->nbytes = nbytes;
  a->flags = flags;
  a->registered = true;
  if (backend == Backend::Sim) {
    if (flags & kHostMapped) a->device_ptr = ptr;
    return a;
  }
  ensure_context();
  if (nbytes == 0) return a;  // the driver refuses an empty range; there is nothing to lock
  auto have = containing(ptr, nbytes);
  if (have.first != 0) {
    // Already pinned by cujit (a pinned_array passed to cuda.pinned, say): use it as it is.
    if (flags & kHostMapped) {
      CUdeviceptr dp = 0;
      // Fails (CUDA_ERROR_INVALID_VALUE) when that memory was pinned without mapping.
      CUJIT_CU(cuMemHostGetDevicePointer, &dp, reinterpret_cast<void*>(have.first), 0);
      a->device_ptr = reinterpret_cast<void*>(uintptr_t(dp) + (uintptr_t(ptr) - have.first));
    }
    return a;
  }
  if (host_block_pinned(ptr, nbytes, Backend::GPU)) {
    // A result array that cujit page-locked itself (host_blocks.h, portable and mapped): the
    // driver refuses a second registration. It stays out of the registry, so its copies keep
    // pageable semantics; a mapped view gets its device address.
    if (flags & kHostMapped) {
      CUdeviceptr dp = 0;
      CUJIT_CU(cuMemHostGetDevicePointer, &dp, ptr, 0);
      a->device_ptr = reinterpret_cast<void*>(uintptr_t(dp));
    }
    return a;
  }
  unsigned cu_flags = 0;
  if (flags & kHostPortable) cu_flags |= CU_MEMHOSTREGISTER_PORTABLE;
  if (flags & kHostMapped) cu_flags |= CU_MEMHOSTREGISTER_DEVICEMAP;
  a->generation = reset_count();
  CUJIT_CU(cuMemHostRegister, ptr, nbytes, cu_flags);
  a->owns_registration = true;
  add_range(ptr, nbytes);
  if (flags & kHostMapped) {
    CUdeviceptr dp = 0;
    CUJIT_CU(cuMemHostGetDevicePointer, &dp, ptr, 0);
    a->device_ptr = reinterpret_cast<void*>(uintptr_t(dp));
  }
  return a;
}

bool is_pinned(const void* ptr, size_t n) noexcept {
  try {
    return containing(ptr, n).first != 0;
  } catch (...) {
    return false;
  }
}

}  // namespace cujit::rt
