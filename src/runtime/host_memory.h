// Page-locked ("pinned") host memory: allocated by cujit (cuMemHostAlloc: cuda.pinned_array,
// cuda.mapped_array) or locked in place (cuMemHostRegister: cuda.pinned, cuda.mapped). Mapped memory
// also has a device address that kernels can read and write directly over the bus.
//
// Every live pinned range is kept in a registry, so the copies of memory.h know which host pointers
// they may DMA directly (and hand back asynchronously) and which must go through staging.
//
// On the simulator nothing is locked: an allocation is ordinary 64-byte aligned host memory, a
// registration does nothing, and the "device" address of mapped memory is its host address.
#pragma once
#include <cstddef>
#include <memory>

#include "runtime/memory.h"

namespace cujit::rt {

/// Flags of host_alloc / host_register (Numba's memhostalloc arguments).
enum HostFlags : unsigned {
  kHostPortable = 1,       // usable from every context (CU_MEMHOSTALLOC_PORTABLE)
  kHostMapped = 2,         // mapped into the device's address space (CU_MEMHOSTALLOC_DEVICEMAP)
  kHostWriteCombined = 4,  // write-combined: fast host writes and device reads, slow host reads (alloc only)
  // Managed (unified) memory, cuMemAllocManaged: one address for host and device (alloc only; with
  // kHostMapped, which every managed allocation has, device_ptr == ptr). Not pinned: copies of it
  // are staged like pageable memory's. kHostAttachHost: CU_MEM_ATTACH_HOST instead of GLOBAL.
  kHostManaged = 8,
  kHostAttachHost = 16,
};

/// One block of page-locked host memory. Frees (cuMemFreeHost) or unregisters (cuMemHostUnregister)
/// it when destroyed, never after shutdown(); never throws from the destructor.
struct HostAllocation {
  Backend backend = Backend::Sim;
  void* ptr = nullptr;         // host address
  size_t nbytes = 0;
  void* device_ptr = nullptr;  // mapped memory: its device address (the host address on the simulator); else null
  unsigned flags = 0;
  bool registered = false;     // cuMemHostRegister on someone else's memory (unregister), not cuMemHostAlloc (free)
  bool owns_registration = false;  // false when the range was already pinned by cujit: nothing to undo
  uint64_t generation = 0;     // GPU: driver.h reset_count() when made; a fault's reset since undid the pinning

  HostAllocation() = default;
  HostAllocation(const HostAllocation&) = delete;
  HostAllocation& operator=(const HostAllocation&) = delete;
  ~HostAllocation() { release(); }
  /// Frees or unregisters the memory now (idempotent; what the destructor does). For a registration
  /// (cuda.pinned / cuda.mapped leaving their block); for an allocation only when nothing views it.
  void release() noexcept;
};

/// `nbytes` (at least 1) of page-locked host memory (managed memory with kHostManaged). Throws CudaSupportError (no GPU), CudaAPIError
/// (the driver refused, e.g. the locked-memory limit), std::bad_alloc (simulator).
std::shared_ptr<HostAllocation> host_alloc(Backend backend, size_t nbytes, unsigned flags);

/// Locks [ptr, ptr + nbytes) in place (kHostPortable, kHostMapped). A range already inside memory
/// cujit pinned is not registered again (the result then undoes nothing, and a mapped request gets
/// that memory's device address when it has one). nbytes == 0 registers nothing.
std::shared_ptr<HostAllocation> host_register(Backend backend, void* ptr, size_t nbytes, unsigned flags);

/// Whether [ptr, ptr + n) lies inside one live GPU pinned range (host_alloc or host_register).
/// Thread-safe; false for simulator memory.
bool is_pinned(const void* ptr, size_t n) noexcept;

}  // namespace cujit::rt
