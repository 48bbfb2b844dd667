// Device memory for both backends behind one API. The GPU backend allocates from the driver's
// stream-ordered pool (cuMemAllocAsync / cuMemFreeAsync; cuMemAlloc / cuMemFree on devices without
// pools) and copies with the driver; the simulator backend keeps "device" memory in ordinary
// 64-byte aligned host memory and copies with memcpy, never touching libcuda.
//
// Which backend new arrays use is process-wide state set from Python (_core.set_simulator); every
// Buffer remembers its own. At interpreter exit Python calls shutdown(): from then on GPU memory
// is not freed (the driver may already be torn down; the process is ending anyway).
#pragma once
#include <cstddef>
#include <memory>

namespace cujit::rt {

enum class Backend { GPU, Sim };

/// "GPU" or "simulator", for messages.
const char* backend_name(Backend b) noexcept;

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

  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  /// Frees the memory as its origin says; after shutdown() GPU memory is left alone. Never throws
  /// (a failing free is ignored: there is no caller to report it to).
  ~Buffer();

  char* data() const { return static_cast<char*>(ptr); }
};

/// `nbytes` of uninitialised memory on `backend`. GPU: on `stream` (a CUstream, null for the legacy
/// default stream), usable by work ordered after it on that stream, and by the host after a sync;
/// on out-of-memory the pool's cached memory is released and the allocation retried once.
/// Throws CudaSupportError (no GPU), CudaAPIError (the driver failed), std::bad_alloc (host).
std::shared_ptr<Buffer> allocate(Backend backend, size_t nbytes, void* stream = nullptr);

/// A Buffer over memory that another object owns; `owner` is released (not the memory) when the
/// Buffer dies.
std::shared_ptr<Buffer> wrap_external(Backend backend, void* ptr, size_t nbytes, std::shared_ptr<void> owner);

// Copies of `n` bytes, complete when they return (the GPU ones are queued on `stream`, then that
// stream is synchronised). n == 0 does nothing; a null pointer with n > 0 throws
// std::invalid_argument. Host pointers may be pageable memory.
void copy_host_to_device(Backend backend, void* dst_device, const void* src_host, size_t n, void* stream = nullptr);
void copy_device_to_host(Backend backend, void* dst_host, const void* src_device, size_t n, void* stream = nullptr);
void copy_device_to_device(Backend backend, void* dst_device, const void* src_device, size_t n,
                           void* stream = nullptr);

/// Interpreter exit: stop calling the driver (GPU frees are skipped, later GPU use throws
/// CudaSupportError). Idempotent; never throws.
void shutdown() noexcept;
bool is_shut_down() noexcept;

}  // namespace cujit::rt
