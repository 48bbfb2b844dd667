// Device memory for both backends behind one API. The GPU backend allocates from the driver's
// stream-ordered pool (cuMemAllocAsync / cuMemFreeAsync; cuMemAlloc / cuMemFree on devices without
// pools) and copies with the driver; the simulator backend keeps "device" memory in ordinary
// 64-byte aligned host memory and copies with memcpy, never touching libcuda.
//
// Copies and streams (the contract the array and launch code relies on):
//  - Every copy is queued on `stream` (a CUstream: null is the legacy default stream; handles made
//    by runtime/stream.h, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD and other libraries' streams all
//    work), so it is ordered after earlier work on that stream.
//  - Host memory that cujit page-locked (runtime/host_memory.h: pinned_array, mapped_array,
//    cuda.pinned) is DMA'd directly. With wait == false such a copy returns as soon as it is
//    queued: the caller must keep both sides alive and untouched until the stream is synchronised
//    (Numba's asynchronous copy on a non-default stream). With wait == true (the default) the
//    stream is synchronised before returning.
//  - Pageable host memory always completes before the call returns, whatever `wait` says (the
//    caller may free it at once). Above 1 MiB it goes through cujit's pinned staging buffers in
//    chunks, the host memcpy of one chunk (split over the simulator's CPU thread pool) overlapping
//    the DMA of the previous one, so it runs near the pinned rate instead of the driver's own,
//    slower staging.
//  - Device-to-device copies never touch host memory: wait == false leaves them queued.
//  - The simulator ignores `stream` and `wait`: every copy is complete when it returns.
//
// Which backend new arrays use is process-wide state set from Python (_core.set_simulator); every
// Buffer remembers its own. At interpreter exit Python calls shutdown(): from then on GPU memory
// is not freed (the driver may already be torn down; the process is ending anyway).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace cujit::rt {

enum class Backend { GPU, Sim };

/// "GPU" or "simulator", for messages.
const char* backend_name(Backend b) noexcept;

/// 64-byte aligned host memory from malloc (null when it has none), freed with sim_free. Not
/// posix_memalign: glibc's asks for more than the block it keeps, so a freed block never fit
/// the next request of its size and each new array page-faulted fresh memory (8 MB arrays made
/// in a loop cost ~2,000 faults each, for ever); from malloc the freed block is reused warm.
void* sim_alloc(size_t nbytes) noexcept;
void sim_free(void* p) noexcept;

/// The backend new device arrays go to (default GPU). Thread-safe.
Backend current_backend() noexcept;
void set_current_backend(Backend b) noexcept;

/// One allocation. Never copied; shared through std::shared_ptr by the arrays viewing it.
struct Buffer {
  enum class Origin {
    Pool,      // cuMemAllocAsync: freed with cuMemFreeAsync on `stream`
    Plain,     // cuMemAlloc: freed with cuMemFree
    Host,      // the simulator's host memory: freed with free()
    External,  // memory of another library (__cuda_array_interface__): `owner` keeps it alive
  };

  Backend backend = Backend::Sim;
  Origin origin = Origin::Host;
  void* ptr = nullptr;     // the device address (GPU) or host address (Sim); null when nbytes is 0 on the GPU
  size_t nbytes = 0;       // usable bytes from ptr
  void* stream = nullptr;  // the CUstream of the allocation (Pool), freed on it too: it must outlive
                           // the Buffer. Null is the legacy default stream.
  std::shared_ptr<void> owner;  // External only
  uint64_t generation = 0;  // Pool, Plain: the context generation (driver.h) the memory belongs to
  int device = 0;           // the device (an ordinal of the backend) the memory was allocated on
  std::shared_ptr<void> stream_owner;  // Pool: the rt::Stream `stream` belongs to (when cujit made it), so the
                                       // stream outlives the cuMemFreeAsync queued on it; released after the free

  // Its address was handed out (__cuda_array_interface__, DLPack, a pointer): other code may write
  // it at any time, so no ufunc call reading or writing it is deferred (bindings/ufunc_fuse.cpp).
  bool escaped = false;

  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  /// Frees the memory as its origin says; after shutdown() GPU memory is left alone. Never throws
  /// (a failing free is ignored: there is no caller to report it to).
  ~Buffer();

  char* data() const { return static_cast<char*>(ptr); }

  /// Throws ContextLostError when this is GPU memory of a context that a kernel fault destroyed
  /// (its address may now belong to a new allocation). `what` names the object for the message.
  void check_live(const char* what = "this device array") const;
  /// Throws std::invalid_argument (ValueError) when this memory belongs to another device than the
  /// calling thread's current one, for work that runs on the current device only (a kernel, a
  /// ufunc): numba-cuda would pass the pointer on and the kernel would fault (or, with peer access,
  /// read across the bus). Another library's memory (External) is not checked: its device is not
  /// known. `what` names the object, `work` the work ("kernel launch").
  void check_device(const char* what, const char* work) const;
};

/// `nbytes` of uninitialised memory on `backend`. GPU: on `stream` (a CUstream, null for the legacy
/// default stream), usable by work ordered after it on that stream, and by the host after a sync;
/// on out-of-memory the pool's cached memory is released and the allocation retried once. A stream
/// made by runtime/stream.h is kept alive by the Buffer until the memory is freed on it; on another
/// library's stream (which may die first) the memory is plain cuMemAlloc memory, not the pool's.
/// Throws CudaSupportError (no GPU), CudaOutOfMemoryError (the device, or on the simulator the host,
/// has not enough memory; the pool is trimmed, so a later, smaller allocation can work),
/// CudaAPIError (the driver failed otherwise).
std::shared_ptr<Buffer> allocate(Backend backend, size_t nbytes, void* stream = nullptr);

/// A Buffer over memory that another object owns; `owner` is released (not the memory) when the
/// Buffer dies.
std::shared_ptr<Buffer> wrap_external(Backend backend, void* ptr, size_t nbytes, std::shared_ptr<void> owner);

// Copies of `n` bytes on `stream`; see "Copies and streams" above for when they are complete.
// n == 0 does nothing; a null pointer with n > 0 throws std::invalid_argument. Host pointers may be
// pageable or pinned memory.
void copy_host_to_device(Backend backend, void* dst_device, const void* src_host, size_t n, void* stream = nullptr,
                         bool wait = true);
void copy_device_to_host(Backend backend, void* dst_host, const void* src_device, size_t n, void* stream = nullptr,
                         bool wait = true);
void copy_device_to_device(Backend backend, void* dst_device, const void* src_device, size_t n,
                           void* stream = nullptr, bool wait = true);
/// Sets `n` bytes of device memory to `value` (cuMemsetD8Async on `stream`; waits for it when
/// `wait`), numba-cuda's device_memset. A memset on the simulator.
void fill_device_bytes(Backend backend, void* dst_device, unsigned char value, size_t n, void* stream = nullptr,
                       bool wait = true);

/// memcpy of non-overlapping ranges, split over the simulator's CPU thread pool from 2 MiB up (one
/// core copies at a fraction of the host's memory bandwidth and of the DMA rate).
void parallel_memcpy(void* dst, const void* src, size_t n);

/// Exclusive use of the pinned staging set that large pageable copies go through (see "Copies and
/// streams"), for code that runs its own pipeline through it (runtime/ufunc_pipeline.h). A lease
/// is empty (!ok()) when another thread holds the set or pinned memory was refused: the caller
/// then takes a path without it. Invariant: when a lease ends, no DMA on the buffers is pending
/// (the holder synchronises first), so the next holder may write them at once.
class StagingLease {
 public:
  static constexpr int kBuffers = 4;                        // kStagingBuffers in memory.cpp
  static constexpr size_t kBytes = size_t(16) << 20;        // kStagingBytes, each
  StagingLease() = default;
  StagingLease(StagingLease&&) = default;
  StagingLease& operator=(StagingLease&&) = default;
  bool ok() const { return lock_.owns_lock(); }
  char* buffer(int i) const { return static_cast<char*>(buf_[i]); }
  /// The buffer's event (a CUevent): record it after the last DMA that reads or writes the buffer.
  void* done(int i) const { return done_[i]; }

 private:
  friend StagingLease lease_staging();
  std::unique_lock<std::mutex> lock_;
  void* buf_[kBuffers] = {};
  void* done_[kBuffers] = {};
};

/// Tries to take the staging set (GPU only; allocates it on first use). Never blocks.
StagingLease lease_staging();

/// (free, total) bytes: the device's (cuMemGetInfo) on the GPU, the host's available and physical
/// memory on the simulator.
std::pair<size_t, size_t> memory_info(Backend backend);

/// "1.50 GiB": a byte count in binary units, for messages.
std::string format_bytes(size_t n);

/// Waits for pending work and returns the memory the GPU pools cache to the devices (cuda.close(),
/// and after an out-of-memory), on every device cujit used. Does nothing on the simulator or when
/// the GPU was never used.
void release_cached_memory() noexcept;

/// Interpreter exit: stop calling the driver (GPU frees are skipped, later GPU use throws
/// CudaSupportError). Idempotent; never throws.
void shutdown() noexcept;
bool is_shut_down() noexcept;

}  // namespace cujit::rt
