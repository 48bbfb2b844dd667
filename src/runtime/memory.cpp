// See memory.h. The GPU paths go through runtime/driver.h (ensure_context before each driver call,
// since the calling thread may not have our context current); the simulator paths never do.
#include "runtime/memory.h"

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>

#include "runtime/driver.h"

namespace cujit::rt {
namespace {

std::atomic<Backend> g_backend{Backend::GPU};
std::atomic<bool> g_shutdown{false};

// -1 unknown, 0 no pools (cuMemAlloc), 1 the device's default pool (cuMemAllocAsync).
std::atomic<int> g_pools{-1};
std::mutex g_pools_mutex;

constexpr size_t kHostAlign = 64;

// Whether to use the stream-ordered pool; on first use also raises the default pool's release
// threshold, so memory freed to the pool is reused instead of being unmapped at every
// synchronisation (the default threshold of 0 makes each alloc/free pair cost a page mapping).
bool use_pool() {
  int p = g_pools.load(std::memory_order_acquire);
  if (p >= 0) return p == 1;
  std::lock_guard<std::mutex> g(g_pools_mutex);
  p = g_pools.load();
  if (p >= 0) return p == 1;
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

CUdeviceptr gpu_alloc(size_t nbytes, CUstream stream, Buffer::Origin* origin) {
  ensure_context();
  CUdeviceptr p = 0;
  if (use_pool()) {
    *origin = Buffer::Origin::Pool;
    const Driver& d = Driver::get();
    CUresult rc = d.api.cuMemAllocAsync(&p, nbytes, stream);
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) {
      trim_pool();
      rc = d.api.cuMemAllocAsync(&p, nbytes, stream);
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
    check(rc, "cuMemAlloc");
  }
  if (p == 0) throw CudaSupportError("the CUDA driver returned a null allocation of " + std::to_string(nbytes) + " bytes");
  return p;
}

void check_copy_args(const void* dst, const void* src, size_t n, const char* what) {
  if (n != 0 && (dst == nullptr || src == nullptr))
    throw std::invalid_argument(std::string(what) + ": null pointer for a copy of " + std::to_string(n) + " bytes");
}

}  // namespace

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
        if (ptr == nullptr || g_shutdown.load(std::memory_order_acquire) || driver_shut_down()) break;
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
    if (nbytes > SIZE_MAX - kHostAlign) throw std::bad_alloc();
    size_t rounded = nbytes == 0 ? kHostAlign : (nbytes + kHostAlign - 1) / kHostAlign * kHostAlign;
    void* p = nullptr;
    if (posix_memalign(&p, kHostAlign, rounded) != 0 || p == nullptr) throw std::bad_alloc();
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
  CUdeviceptr p = gpu_alloc(nbytes, static_cast<CUstream>(stream), &origin);
  buf->origin = origin;
  buf->ptr = reinterpret_cast<void*>(uintptr_t(p));
  buf->stream = stream;
  return buf;
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

void copy_host_to_device(Backend backend, void* dst, const void* src, size_t n, void* stream) {
  check_copy_args(dst, src, n, "copy_host_to_device");
  if (n == 0) return;
  if (backend == Backend::Sim) {
    std::memmove(dst, src, n);
    return;
  }
  ensure_context();
  CUJIT_CU(cuMemcpyHtoDAsync, CUdeviceptr(uintptr_t(dst)), src, n, static_cast<CUstream>(stream));
  // The host memory may be pageable and the caller may free it as soon as we return.
  stream_synchronize(static_cast<CUstream>(stream));
}

void copy_device_to_host(Backend backend, void* dst, const void* src, size_t n, void* stream) {
  check_copy_args(dst, src, n, "copy_device_to_host");
  if (n == 0) return;
  if (backend == Backend::Sim) {
    std::memmove(dst, src, n);
    return;
  }
  ensure_context();
  CUJIT_CU(cuMemcpyDtoHAsync, dst, CUdeviceptr(uintptr_t(src)), n, static_cast<CUstream>(stream));
  stream_synchronize(static_cast<CUstream>(stream));
}

void copy_device_to_device(Backend backend, void* dst, const void* src, size_t n, void* stream) {
  check_copy_args(dst, src, n, "copy_device_to_device");
  if (n == 0) return;
  if (backend == Backend::Sim) {
    std::memmove(dst, src, n);
    return;
  }
  ensure_context();
  CUJIT_CU(cuMemcpyDtoDAsync, CUdeviceptr(uintptr_t(dst)), CUdeviceptr(uintptr_t(src)), n,
           static_cast<CUstream>(stream));
  stream_synchronize(static_cast<CUstream>(stream));
}

void shutdown() noexcept {
  g_shutdown.store(true, std::memory_order_release);
  mark_driver_shutdown();
}

bool is_shut_down() noexcept { return g_shutdown.load(std::memory_order_acquire); }

}  // namespace cujit::rt
