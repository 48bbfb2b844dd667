// The CUDA driver, reached through dlopen: libcuda.so.1 is opened on first use and every function
// of runtime/cuda_api.def is resolved into one table, so cujit imports and runs the simulator on
// machines without a GPU. Above the table: the primary context of the device (made current on any
// thread that needs it), device queries, modules and launches. Every driver call is checked; a
// failure throws rt::CudaAPIError, a missing driver or GPU rt::CudaSupportError (abi/errors.h).
//
// All functions are thread-safe. After shutdown() (memory.h; Python's atexit) the driver is never
// called again: cleanup functions (unload_module, Buffer's destructor) become no-ops and the rest
// throw CudaSupportError.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "abi/errors.h"
#include "runtime/cuda_types.h"

namespace cujit::rt {

/// One pointer per function of cuda_api.def, named as code calls it (`api.cuMemAlloc(...)`) and
/// bound to the versioned symbol the row names (cuMemAlloc_v2). A pointer is null when the
/// loaded libcuda lacks that function (an old driver); CUJIT_CU reports it.
struct CudaApi {
#define CUDA_API(name, symbol, params) CUresult(*name) params = nullptr;
#include "runtime/cuda_api.def"
#undef CUDA_API
};

/// The loaded driver, initialised (cuInit) with at least one device. Loaded once per process.
class Driver {
 public:
  /// The driver, loading and initialising it on first use. Throws CudaSupportError (the same
  /// message every time) when libcuda cannot be loaded, cuInit fails or there is no device, and
  /// after shutdown.
  static const Driver& get();

  CudaApi api;
  std::string library_path;  // the file libcuda was loaded from
  int version = 0;           // cuDriverGetVersion: 13000 for CUDA 13.0
  int device_count = 0;
};

/// Throws CudaAPIError(call, rc, cuGetErrorName, cuGetErrorString) unless rc is CUDA_SUCCESS.
/// A sticky error (is_sticky_error: a kernel faulted, the context is unusable) first resets the
/// primary context (a new context generation) and then throws ContextLostError, whose message
/// says what was lost.
void check(CUresult rc, const char* call);

/// Whether `rc` leaves the context unusable (CUDA_ERROR_ILLEGAL_ADDRESS, _LAUNCH_FAILED,
/// _ILLEGAL_INSTRUCTION, _MISALIGNED_ADDRESS, _ASSERT, ...): only a new context recovers.
bool is_sticky_error(int rc) noexcept;

/// The most devices cujit addresses (ordinals 0 .. kMaxDevices - 1): per-device state is kept in
/// fixed arrays, so the hot paths index them without a lock.
constexpr int kMaxDevices = 32;

/// The context generation: a token naming one device's primary context, (device << 56) | n, where
/// n is 0 for that device's first primary context and one more each time a sticky error made
/// cujit reset it. Every object that holds a driver handle (a loaded module, device memory, a
/// stream, an event, the pool and staging buffers) remembers the token of the context it was made
/// in: a token of another device means the object belongs to another device's context, an older
/// one of the same device that its handle died with the old context, so it must be neither used
/// nor freed. context_generation() is the calling thread's current device's: a relaxed atomic
/// load and a thread-local read, cheap enough for every launch.
uint64_t context_generation() noexcept;
/// The current token of `device`'s context.
uint64_t context_generation_of(int device) noexcept;
/// The device a token names.
inline int generation_device(uint64_t token) noexcept { return int(token >> 56); }
/// Whether the context a token names is still alive (no fault has reset that device since).
inline bool generation_live(uint64_t token) noexcept {
  return context_generation_of(generation_device(token)) == token;
}
/// The simulator's stand-in for a token: simulated memory never dies, so only the device counts
/// (Buffer::generation of simulator memory, so one compare tells a launch's plan its arrays match).
inline uint64_t sim_generation(int device) noexcept { return uint64_t(device) << 56; }
/// How many fault resets have happened on any device: page-locked host memory (host_memory.cpp),
/// which no one device owns, is forgotten after any.
uint64_t reset_count() noexcept;

/// Registers `fn` to run right after a fault's context reset (under the context lock, before any
/// other thread can use the new context). host_memory.cpp uses it to put memory back under the
/// page-locked host arrays the reset freed, so touching them cannot crash. At most 4; idempotent.
void on_context_reset(void (*fn)());

/// Registers `fn` to run once, right after the process's first primary context is retained (on
/// that thread, under the context lock: it must only start work, not wait for it), with the
/// device's compute capability. bindings/common.cpp starts NVRTC's warm-up there.
void on_first_context(void (*fn)(int cc_major, int cc_minor));

/// Throws ContextLostError for using `what` ("this device array") made in context generation
/// `generation`, which a kernel fault has since destroyed.
[[noreturn]] void throw_stale(const std::string& what, uint64_t generation);

/// The message of a launch that failed with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: kernel `kernel`
/// needs `regs` registers per thread, so at most `max_threads` threads fit a block, and the launch
/// asked for `threads`. Pure (unit-tested without a GPU).
std::string launch_resources_message(const std::string& kernel, int regs, long long threads, int max_threads);

/// Throws CudaSupportError saying the driver lacks `call`; returns a CUresult only so it can
/// stand in a ?: with a driver call.
CUresult missing_driver_function(const char* call);

/// Calls a driver function through the table and checks the result; the error names the function
/// as written (`#fn` is not macro-expanded: "cuMemAlloc", not "cuMemAlloc_v2").
#define CUJIT_CU(fn, ...)                                                                    \
  ::cujit::rt::check(::cujit::rt::Driver::get().api.fn                                       \
                         ? ::cujit::rt::Driver::get().api.fn(__VA_ARGS__)                    \
                         : ::cujit::rt::missing_driver_function(#fn),                        \
                     #fn)

/// Folders searched for libcuda.so.1 after the plain name (the system loader's own search).
/// Only has an effect before the driver is first used.
void set_library_search_paths(const std::vector<std::string>& dirs);

/// True when a CUDA GPU can be used: libcuda loads, cuInit succeeds, a device exists. Loads the
/// driver on its first call; never throws.
bool gpu_available() noexcept;

/// The calling thread's current device (an ordinal), as numba-cuda's context stack has one per
/// thread: 0 on a thread that chose none (numba-cuda activates device 0 there too). The same
/// number serves the simulator, whose devices are simulated (sim_device_count).
int current_device() noexcept;
/// Makes GPU `ordinal` the calling thread's current device (cuda.select_device, `with
/// cuda.gpus[i]`). Throws std::invalid_argument for an ordinal the driver does not report and
/// CudaSupportError without a GPU. Other threads keep theirs.
void set_device(int ordinal);
/// Sets the calling thread's device without asking the driver (the simulator's devices, and
/// DeviceScope). `ordinal` must be in 0 .. kMaxDevices - 1.
void set_thread_device(int ordinal) noexcept;
/// How many devices the simulator pretends to have: $CUJIT_SIM_DEVICES (1 to kMaxDevices),
/// else 1, as numba-cuda's simulator. Read at each call, so a test can change it.
int sim_device_count() noexcept;
/// Makes `device` the calling thread's device for the scope (work on an object of that device:
/// freeing its memory, destroying its stream), then puts the previous one back.
class DeviceScope {
 public:
  explicit DeviceScope(int device) noexcept : old_(current_device()) { set_thread_device(device); }
  ~DeviceScope() { set_thread_device(old_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int old_;
};
/// How many devices the driver reports (loads it; throws CudaSupportError without a GPU).
int device_count();

/// Retains the primary context of the calling thread's current device on first use and makes it
/// current on the calling thread if it is not already. Every function below (and memory.h) calls it.
void ensure_context();
/// The retained primary context of the current device (after ensure_context()).
CUcontext context();
/// The primary context of GPU `device`, retained on first use (not made current): a peer copy
/// names both contexts.
CUcontext context_of(int device);
/// The CUdevice of current_device().
CUdevice device();

// Device queries (of the current device). Each loads the driver and may throw as above.
std::pair<int, int> compute_capability();  // (major, minor), e.g. (9, 0)
std::string device_name();                 // "NVIDIA H100 80GB HBM3"
/// "GPU-8c1e3f5a-...": cuDeviceGetUuid of GPU `ordinal`, formatted as nvidia-smi does (no context needed).
std::string device_uuid(int ordinal);
size_t total_memory();                     // bytes
int device_attribute(CUdevice_attribute attr);
int multiprocessor_count();
int max_threads_per_block();
int driver_version();                      // cuDriverGetVersion: 13000 for CUDA 13.0
/// Whether the device supports cuMemAllocAsync (CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED).
bool memory_pools_supported();

/// Loads a CUBIN or PTX image into the context (cuModuleLoadDataEx). A failed PTX JIT puts the
/// driver's error log in the CudaAPIError's message. Throws std::invalid_argument on an empty image.
CUmodule load_module(const std::string& image);
/// One input of link_images: its kind (CU_JIT_INPUT_PTX, _CUBIN, _FATBINARY, _OBJECT, _LIBRARY),
/// bytes and a name for the linker's messages.
struct LinkInput {
  CUjitInputType type;
  std::string data, name;
};
/// Links relocatable code into one CUBIN (cuLinkCreate/AddData/Complete). A failure throws
/// CudaAPIError with the linker's error log in its message.
std::string link_images(const std::vector<LinkInput>& inputs);
/// Unloads a module loaded in the context `generation` names (in that context, whichever device
/// is current); errors are ignored (it runs from destructors) and nothing is done after shutdown
/// or when a fault destroyed that context (the handle died with it). Never throws.
void unload_module(CUmodule module, uint64_t generation) noexcept;
/// The kernel `name` (its mangled or extern "C" name) of `module`.
CUfunction get_function(CUmodule module, const std::string& name);
/// cuLaunchKernel. Dynamic shared memory above the default 48 KiB is opted into first
/// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). Throws std::invalid_argument on zero sizes.
/// `cooperative`: cuLaunchCooperativeKernel (a kernel using cuda.cg.this_grid()); the driver
/// refuses a grid larger than can be resident (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
void launch(CUfunction f, const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
            CUstream stream, void** params, bool cooperative = false);
/// The most blocks of `f` of `threads` threads and `shared_bytes` dynamic shared memory that can
/// be resident at once on the device: cuOccupancyMaxActiveBlocksPerMultiprocessor times the SMs.
int max_cooperative_blocks(CUfunction f, int threads, size_t shared_bytes);
/// Waits for all work in the context (cuCtxSynchronize).
void synchronize();
/// Waits for the work queued on `stream` (0: the legacy default stream).
void stream_synchronize(CUstream stream);

/// Where libcuda was loaded from (diagnostics); loads it if needed, throws like Driver::get().
std::string driver_library_path();

/// The kernel's static shared memory (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES), registers per thread
/// (NUM_REGS) and largest block (MAX_THREADS_PER_BLOCK).
int function_attribute(CUfunction f, CUfunction_attribute attr);

/// Set by memory.h's shutdown(): from then on the driver is not called.
void mark_driver_shutdown() noexcept;
bool driver_shut_down() noexcept;

}  // namespace cujit::rt
