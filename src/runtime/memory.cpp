// See memory.h. The GPU paths go through runtime/driver.h (ensure_context before each driver call,
// since the calling thread may not have our context current); the simulator paths never do.
#include "runtime/memory.h"


#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <stdexcept>

#include "runtime/driver.h"
#include "runtime/host_memory.h"
#include "runtime/simulator.h"
#include "runtime/stream.h"

namespace cujit::rt {
namespace {

std::atomic<Backend> g_backend{Backend::GPU};
std::atomic<bool> g_memory_shutdown{false};

// -1 unknown, 0 no pools (cuMemAlloc), 1 the device's default pool (cuMemAllocAsync).
std::atomic<int> g_pools{-1};
std::atomic<uint64_t> g_pools_generation{0};  // the context the threshold was set in
std::mutex g_pools_mutex;

constexpr size_t kHostAlign = 64;

// Whether to use the stream-ordered pool; on first use also raises the default pool's release
// threshold, so memory freed to the pool is reused instead of being unmapped at every
// synchronisation (the default threshold of 0 makes each alloc/free pair cost a page mapping).
bool use_pool() {
  // A new context (after a kernel fault) has a new default pool, threshold 0 again.
  const uint64_t gen = context_generation();
  int p = g_pools.load(std::memory_order_acquire);
  if (p >= 0 && g_pools_generation.load(std::memory_order_relaxed) == gen) return p == 1;
  std::lock_guard<std::mutex> g(g_pools_mutex);
  p = g_pools.load();
  if (p >= 0 && g_pools_generation.load() == gen) return p == 1;
  g_pools_generation.store(gen);
  bool pools = memory_pools_supported();
  if (pools) {
    const Driver& d = Driver::get();
    if (d.api.cuDeviceGetDefaultMemPool && d.api.cuMemPoolSetAttribute) {
      CUmemoryPool pool = nullptr;
      CUJIT_CU(cuDeviceGetDefaultMemPool, &pool, device());
      cuuint64_t threshold = UINT64_MAX;
      CUJIT_CU(cuMemPoolSetAttribute, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold);
    }
  }
  g_pools.store(pools ? 1 : 0, std::memory_order_release);
  return pools;
}

// Gives the memory the pool holds back to the device (after an out-of-memory).
void trim_pool() noexcept {
  try {
    const Driver& d = Driver::get();
    synchronize();  // pending cuMemFreeAsync calls complete and return their memory to the pool
    if (!d.api.cuDeviceGetDefaultMemPool || !d.api.cuMemPoolTrimTo) return;
    CUmemoryPool pool = nullptr;
    if (d.api.cuDeviceGetDefaultMemPool(&pool, device()) == CUDA_SUCCESS) d.api.cuMemPoolTrimTo(pool, 0);
  } catch (...) {
  }
}

// Throws CudaOutOfMemoryError for a request of `nbytes` that `call` could not satisfy, naming the
// request and what memory is left, so the user sees at once whether the request or the device is
// the problem (a size computed wrongly is the usual cause of a petabyte request).
[[noreturn]] void throw_out_of_memory(Backend backend, const char* call, size_t nbytes) {
  std::pair<size_t, size_t> info{0, 0};
  bool known = true;
  try {
    info = memory_info(backend);
  } catch (...) {
    known = false;
  }
  std::string detail = ": cannot allocate " + std::to_string(nbytes) + " bytes (" + format_bytes(nbytes) + ") ";
  detail += backend == Backend::GPU ? "on the GPU" : "for the simulator (in host memory)";
  if (known) detail += "; " + format_bytes(info.first) + " free of " + format_bytes(info.second);
  throw CudaOutOfMemoryError(call, int(CUDA_ERROR_OUT_OF_MEMORY), "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", detail,
                             nbytes, info.first, info.second);
}

CUdeviceptr gpu_alloc(size_t nbytes, CUstream stream, bool pool_ok, Buffer::Origin* origin) {
  ensure_context();
  CUdeviceptr p = 0;
  if (pool_ok && use_pool()) {
    *origin = Buffer::Origin::Pool;
    const Driver& d = Driver::get();
    CUresult rc = d.api.cuMemAllocAsync(&p, nbytes, stream);
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) {
      trim_pool();
      rc = d.api.cuMemAllocAsync(&p, nbytes, stream);
    }
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) {
      trim_pool();  // the failed request may have grown the pool's reservation; give it back
      throw_out_of_memory(Backend::GPU, "cuMemAllocAsync", nbytes);
    }
    check(rc, "cuMemAllocAsync");
  } else {
    *origin = Buffer::Origin::Plain;
    const Driver& d = Driver::get();
    if (!d.api.cuMemAlloc) missing_driver_function("cuMemAlloc");
    CUresult rc = d.api.cuMemAlloc(&p, nbytes);
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) {
      synchronize();  // nothing is cached without pools, but queued work may still hold memory
      rc = d.api.cuMemAlloc(&p, nbytes);
    }
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) throw_out_of_memory(Backend::GPU, "cuMemAlloc", nbytes);
    check(rc, "cuMemAlloc");
  }
  if (p == 0) throw CudaSupportError("the CUDA driver returned a null allocation of " + std::to_string(nbytes) + " bytes");
  return p;
}

void check_copy_args(const void* dst, const void* src, size_t n, const char* what) {
  if (n != 0 && (dst == nullptr || src == nullptr))
    throw std::invalid_argument(std::string(what) + ": null pointer for a copy of " + std::to_string(n) + " bytes");
}


// ---- Copies ----------------------------------------------------------------------------------

// Below this, a host memcpy is not worth splitting over threads (waking the pool costs ~10-50 us).
constexpr int64_t kMemcpyPiece = 1 << 20;

}  // namespace

// One core copies at roughly 6-12 GB/s, a fraction of the host's memory bandwidth and of the
// ~53 GB/s PCIe/C2C DMA rate, hence the thread pool.
void parallel_memcpy(void* dst, const void* src, size_t n) {
  if (int64_t(n) < 2 * kMemcpyPiece) {
    std::memcpy(dst, src, n);
    return;
  }
  parallel_for(int64_t(n), kMemcpyPiece, [&](int64_t b, int64_t e) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, size_t(e - b));
  });
}

namespace {

// The simulator's copies: memmove semantics (ranges may overlap), in parallel when they do not.
void host_copy(void* dst, const void* src, size_t n) {
  const auto d = uintptr_t(dst), s = uintptr_t(src);
  if (d + n <= s || s + n <= d)
    parallel_memcpy(dst, src, n);
  else
    std::memmove(dst, src, n);
}

// Pageable copies from this size on go through the staging buffers; below it, the driver's own
// staging costs less than a chunk's bookkeeping.
constexpr size_t kStagedMin = size_t(1) << 20;

// The staging set: kStagingBuffers pinned buffers of kStagingBytes, each with an event recorded
// after the DMA that last used it. Why these sizes: a 16 MiB chunk moves in ~0.3 ms at ~53 GB/s,
// so the per-chunk costs (a cuMemcpyAsync and a cuEventRecord, ~5-10 us, and waking the memcpy
// threads) stay at a few per cent; chunks start at 2 MiB and double up to 16 MiB, so the first
// memcpy (not overlapped with any DMA) and the last DMA (not overlapped with any memcpy) are short.
// Two buffers would be enough for double buffering; four absorb jitter between the host memcpy and
// the DMA rates. 64 MiB of pinned memory, allocated on the first large pageable copy and kept for the
// life of the process (freeing it at exit could race the driver's teardown).
constexpr int kStagingBuffers = 4;
constexpr size_t kStagingBytes = size_t(16) << 20;
constexpr size_t kFirstChunk = size_t(2) << 20;

struct Staging {
  std::mutex mu;      // held for a whole staged copy; a second thread falls back to plain copies
  int state = 0;      // 0 not tried yet, 1 ready, -1 failed (pinned memory refused): plain copies
  void* buf[kStagingBuffers] = {};
  CUevent done[kStagingBuffers] = {};
  uint64_t generation = 0;  // the context the set was allocated in

  // With mu held: allocates the set on first use. A failure is remembered, not thrown: the copy
  // still works through the driver's own staging.
  bool ready() {
    if (state == 1 && generation != context_generation()) {
      // A kernel fault destroyed the context and the set with it: forget the dead handles.
      state = 0;
      for (int i = 0; i < kStagingBuffers; ++i) buf[i] = nullptr, done[i] = nullptr;
    }
    if (state != 0) return state == 1;
    generation = context_generation();
    const Driver& d = Driver::get();
    state = -1;
    for (int i = 0; i < kStagingBuffers; ++i) {
      if (!d.api.cuMemHostAlloc || d.api.cuMemHostAlloc(&buf[i], kStagingBytes, 0) != CUDA_SUCCESS) return false;
      if (!d.api.cuEventCreate || d.api.cuEventCreate(&done[i], CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) return false;
    }
    state = 1;
    return true;
  }
};

Staging& staging() {
  static auto* s = new Staging();  // leaked on purpose, see kStagingBytes
  return *s;
}

static_assert(kStagingBuffers == StagingLease::kBuffers && kStagingBytes == StagingLease::kBytes,
              "memory.h's StagingLease describes this set");

size_t next_chunk(size_t chunk) { return std::min(kStagingBytes, chunk * 2); }

// After a failure part-way through a staged copy: wait for whatever DMA it queued (the buffers are
// reused by the next copy), ignoring errors, since the first error is what the caller should see.
void drain(CUstream s) noexcept {
  try {
    const Driver& d = Driver::get();
    if (d.api.cuStreamSynchronize) d.api.cuStreamSynchronize(s);
  } catch (...) {
  }
}

// Pageable host -> device through the staging set (st.mu held). For each chunk: wait until its
// buffer's previous DMA is done, memcpy the chunk into it (parallel), queue its DMA and record the
// buffer's event. The memcpy of chunk i+1 thus runs while chunk i is on the bus. Returns when every
// DMA is complete.
void staged_h2d(Staging& st, CUdeviceptr dst, const char* src, size_t n, CUstream s) {
  bool used[kStagingBuffers] = {};
  try {
    size_t off = 0, chunk = kFirstChunk;
    for (int i = 0; off < n; ++i, chunk = next_chunk(chunk)) {
      const int b = i % kStagingBuffers;
      const size_t len = std::min(chunk, n - off);
      if (used[b]) CUJIT_CU(cuEventSynchronize, st.done[b]);
      parallel_memcpy(st.buf[b], src + off, len);
      CUJIT_CU(cuMemcpyHtoDAsync, dst + off, st.buf[b], len, s);
      used[b] = true;
      CUJIT_CU(cuEventRecord, st.done[b], s);
      off += len;
    }
    // Stream order: the last chunk's event completes after all the others.
    for (int b = 0; b < kStagingBuffers; ++b)
      if (used[b]) CUJIT_CU(cuEventSynchronize, st.done[b]);
  } catch (...) {
    drain(s);
    throw;
  }
}

// Device -> pageable host through the staging set (st.mu held). Up to kStagingBuffers DMAs are kept
// in flight; each chunk, in order: wait for its DMA, memcpy it out of its buffer (parallel), and
// queue the next chunk's DMA into that buffer. The memcpy of chunk i overlaps the DMAs after it.
void staged_d2h(Staging& st, char* dst, CUdeviceptr src, size_t n, CUstream s) {
  size_t at[kStagingBuffers] = {}, len[kStagingBuffers] = {};
  size_t next = 0, chunk = kFirstChunk;
  auto issue = [&](int b) {
    at[b] = next;
    len[b] = std::min(chunk, n - next);
    CUJIT_CU(cuMemcpyDtoHAsync, st.buf[b], src + next, len[b], s);
    CUJIT_CU(cuEventRecord, st.done[b], s);
    next += len[b];
    chunk = next_chunk(chunk);
  };
  try {
    int queued = 0;
    for (int b = 0; b < kStagingBuffers && next < n; ++b, ++queued) issue(b);
    for (int i = 0; i < queued; ++i) {
      const int b = i % kStagingBuffers;
      CUJIT_CU(cuEventSynchronize, st.done[b]);
      parallel_memcpy(dst + at[b], st.buf[b], len[b]);
      if (next < n) {
        issue(b);
        ++queued;
      }
    }
  } catch (...) {
    drain(s);
    throw;
  }
}

}  // namespace

StagingLease lease_staging() {
  StagingLease l;
  Staging& st = staging();
  std::unique_lock<std::mutex> lock(st.mu, std::try_to_lock);
  if (!lock.owns_lock()) return l;
  ensure_context();
  if (!st.ready()) return l;
  for (int i = 0; i < kStagingBuffers; ++i) {
    l.buf_[i] = st.buf[i];
    l.done_[i] = st.done[i];
  }
  l.lock_ = std::move(lock);
  return l;
}

const char* backend_name(Backend b) noexcept { return b == Backend::GPU ? "GPU" : "simulator"; }

Backend current_backend() noexcept { return g_backend.load(std::memory_order_relaxed); }
void set_current_backend(Backend b) noexcept { g_backend.store(b, std::memory_order_relaxed); }

Buffer::~Buffer() {
  try {
    switch (origin) {
      case Origin::Host:
        std::free(ptr);
        break;
      case Origin::External:
        owner.reset();  // the owner's deleter takes care of its own locking (the GIL)
        break;
      case Origin::Pool:
      case Origin::Plain: {
        if (ptr == nullptr || g_memory_shutdown.load(std::memory_order_acquire) || driver_shut_down()) break;
        // Memory of a context a kernel fault destroyed is gone; its address may be reused.
        if (generation != context_generation()) break;
        ensure_context();
        const Driver& d = Driver::get();
        // Results are ignored: a failed free (say after a sticky kernel error) cannot be
        // reported from a destructor, and the memory is lost either way.
        if (origin == Origin::Pool) {
          if (d.api.cuMemFreeAsync) d.api.cuMemFreeAsync(CUdeviceptr(uintptr_t(ptr)), static_cast<CUstream>(stream));
        } else if (d.api.cuMemFree) {
          d.api.cuMemFree(CUdeviceptr(uintptr_t(ptr)));
        }
        break;
      }
    }
  } catch (...) {
  }
  ptr = nullptr;
}

std::shared_ptr<Buffer> allocate(Backend backend, size_t nbytes, void* stream) {
  auto buf = std::make_shared<Buffer>();
  buf->backend = backend;
  buf->nbytes = nbytes;
  if (backend == Backend::Sim) {
    // At least one aligned block, so even an empty array has a valid, unique data pointer.
    // A failure is the simulated device running out of memory, so it raises what the GPU would.
    if (nbytes > SIZE_MAX - kHostAlign) throw_out_of_memory(backend, "posix_memalign", nbytes);
    size_t rounded = nbytes == 0 ? kHostAlign : (nbytes + kHostAlign - 1) / kHostAlign * kHostAlign;
    void* p = nullptr;
    if (posix_memalign(&p, kHostAlign, rounded) != 0 || p == nullptr) throw_out_of_memory(backend, "posix_memalign", nbytes);
    buf->origin = Buffer::Origin::Host;
    buf->ptr = p;
    return buf;
  }
  if (nbytes == 0) {
    // Nothing to allocate, but a GPU array without a GPU should still fail here, not later.
    ensure_context();
    buf->origin = Buffer::Origin::Plain;
    return buf;
  }
  Buffer::Origin origin = Buffer::Origin::Plain;
  buf->generation = context_generation();
  // Pool memory is freed on its stream (cuMemFreeAsync), so that stream must outlive the Buffer: a
  // default stream always does, and a stream cujit made is kept alive by stream_owner. Another
  // library's stream (cuda.core's, cuda.external_stream's) may be destroyed first, and a
  // cuMemFreeAsync on a destroyed stream crashes the driver (seen when the garbage collector
  // took a cuda.core stream before an array allocated on it). Such arrays get plain memory
  // (cuMemAlloc, not stream-ordered; cuMemFree waits for the device), as numba-cuda's always are.
  std::shared_ptr<Stream> owner;
  const bool builtin = stream == nullptr || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD;
  if (!builtin) owner = find_stream(stream);
  CUdeviceptr p = gpu_alloc(nbytes, static_cast<CUstream>(stream), builtin || owner != nullptr, &origin);
  buf->generation = context_generation();  // the allocation's own context, if a fault intervened
  buf->origin = origin;
  buf->ptr = reinterpret_cast<void*>(uintptr_t(p));
  buf->stream = stream;
  if (origin == Buffer::Origin::Pool) buf->stream_owner = std::move(owner);
  return buf;
}

void Buffer::check_live(const char* what) const {
  if ((origin == Origin::Pool || origin == Origin::Plain) && generation != context_generation())
    throw_stale(what, generation);
}

std::shared_ptr<Buffer> wrap_external(Backend backend, void* ptr, size_t nbytes, std::shared_ptr<void> owner) {
  auto buf = std::make_shared<Buffer>();
  buf->backend = backend;
  buf->origin = Buffer::Origin::External;
  buf->ptr = ptr;
  buf->nbytes = nbytes;
  buf->owner = std::move(owner);
  return buf;
}

void copy_host_to_device(Backend backend, void* dst, const void* src, size_t n, void* stream, bool wait) {
  check_copy_args(dst, src, n, "copy_host_to_device");
  if (n == 0) return;
  if (backend == Backend::Sim) {
    host_copy(dst, src, n);
    return;
  }
  ensure_context();
  const CUdeviceptr d = CUdeviceptr(uintptr_t(dst));
  CUstream s = static_cast<CUstream>(stream);
  if (is_pinned(src, n)) {
    CUJIT_CU(cuMemcpyHtoDAsync, d, src, n, s);
    if (wait) stream_synchronize(s);
    return;
  }
  if (n >= kStagedMin) {
    Staging& st = staging();
    std::unique_lock<std::mutex> lock(st.mu, std::try_to_lock);
    if (lock.owns_lock() && st.ready()) {
      staged_h2d(st, d, static_cast<const char*>(src), n, s);
      return;
    }
  }
  // Small, or another thread holds the staging buffers: the driver stages it itself.
  CUJIT_CU(cuMemcpyHtoDAsync, d, src, n, s);
  // The host memory is pageable and the caller may free it as soon as we return.
  stream_synchronize(s);
}

void copy_device_to_host(Backend backend, void* dst, const void* src, size_t n, void* stream, bool wait) {
  check_copy_args(dst, src, n, "copy_device_to_host");
  if (n == 0) return;
  if (backend == Backend::Sim) {
    host_copy(dst, src, n);
    return;
  }
  ensure_context();
  const CUdeviceptr sp = CUdeviceptr(uintptr_t(src));
  CUstream s = static_cast<CUstream>(stream);
  if (is_pinned(dst, n)) {
    CUJIT_CU(cuMemcpyDtoHAsync, dst, sp, n, s);
    if (wait) stream_synchronize(s);
    return;
  }
  if (n >= kStagedMin) {
    Staging& st = staging();
    std::unique_lock<std::mutex> lock(st.mu, std::try_to_lock);
    if (lock.owns_lock() && st.ready()) {
      staged_d2h(st, static_cast<char*>(dst), sp, n, s);
      return;
    }
  }
  CUJIT_CU(cuMemcpyDtoHAsync, dst, sp, n, s);
  stream_synchronize(s);
}

void copy_device_to_device(Backend backend, void* dst, const void* src, size_t n, void* stream, bool wait) {
  check_copy_args(dst, src, n, "copy_device_to_device");
  if (n == 0) return;
  if (backend == Backend::Sim) {
    host_copy(dst, src, n);
    return;
  }
  ensure_context();
  CUJIT_CU(cuMemcpyDtoDAsync, CUdeviceptr(uintptr_t(dst)), CUdeviceptr(uintptr_t(src)), n,
           static_cast<CUstream>(stream));
  if (wait) stream_synchronize(static_cast<CUstream>(stream));
}

void fill_device_bytes(Backend backend, void* dst, unsigned char value, size_t n, void* stream, bool wait) {
  if (n == 0) return;
  if (dst == nullptr) throw std::invalid_argument("fill_device_bytes: null pointer");
  if (backend == Backend::Sim) {
    std::memset(dst, value, n);
    return;
  }
  ensure_context();
  CUJIT_CU(cuMemsetD8Async, CUdeviceptr(uintptr_t(dst)), value, n, static_cast<CUstream>(stream));
  if (wait) stream_synchronize(static_cast<CUstream>(stream));
}

std::pair<size_t, size_t> memory_info(Backend backend) {
  if (backend == Backend::Sim) {
    const long page = sysconf(_SC_PAGESIZE);
    const long avail = sysconf(_SC_AVPHYS_PAGES);
    const long total = sysconf(_SC_PHYS_PAGES);
    if (page <= 0 || avail < 0 || total <= 0) throw std::runtime_error("the host's memory size is unknown (sysconf failed)");
    return {size_t(avail) * size_t(page), size_t(total) * size_t(page)};
  }
  ensure_context();
  size_t free_b = 0, total_b = 0;
  CUJIT_CU(cuMemGetInfo, &free_b, &total_b);
  return {free_b, total_b};
}

std::string format_bytes(size_t n) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (n < 1024) return std::to_string(n) + " B";
  double v = double(n);
  int u = -1;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f %s", v, units[u]);
  return buf;
}

void release_cached_memory() noexcept {
  if (g_memory_shutdown.load(std::memory_order_acquire) || driver_shut_down() || g_pools.load() != 1) return;
  trim_pool();
}

void shutdown() noexcept {
  g_memory_shutdown.store(true, std::memory_order_release);
  mark_driver_shutdown();
}

bool is_shut_down() noexcept { return g_memory_shutdown.load(std::memory_order_acquire); }

}  // namespace cujit::rt
