// See driver.h. libcuda is opened once (std::call_once) and never closed: the table must stay
// valid while destructors run at exit. The Driver object and the context state are leaked on
// purpose for the same reason (no static destructor may run before the last Buffer is freed).
#include "runtime/driver.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstdint>
#include <mutex>
#include <stdexcept>

namespace cujit::rt {
namespace {


const char kSimHint[] =
    "Set CUJIT_ENABLE_CUDASIM=1 (or NUMBA_ENABLE_CUDASIM=1) to run on the CPU simulator.";

std::mutex g_paths_mutex;
std::vector<std::string> g_search_paths;  // guarded by g_paths_mutex

std::once_flag g_load_once;
pid_t g_load_pid = getpid();  // the process that loads the driver (set again by load_driver)
std::atomic<Driver*> g_driver{nullptr};  // set once inside call_once, never freed
std::string g_load_error;                // written inside call_once when loading failed
std::atomic<bool> g_shutdown{false};

// The primary context of each device, retained on first use. g_ctx[d] is read without the lock on
// every call (the fast path of ensure_context); it is written under g_ctx_mutex.
std::mutex g_ctx_mutex;
std::atomic<CUcontext> g_ctx[kMaxDevices] = {};
CUdevice g_dev[kMaxDevices] = {};  // g_dev[d] is valid once g_ctx[d] is set
std::atomic<uint64_t> g_generation[kMaxDevices] = {};  // bumped by reset_after_fault (context_generation)
std::atomic<uint64_t> g_resets{0};                      // reset_count: resets of any device
std::atomic<void (*)()> g_reset_hooks[4] = {};  // on_context_reset
std::atomic<void (*)(int, int)> g_first_context_hook{nullptr};  // on_first_context
bool g_first_context_seen = false;  // under g_ctx_mutex
// The calling thread's device (numba-cuda's per-thread context stack; device 0 until chosen).
thread_local int t_device = 0;
// Set (under g_ctx_mutex) when a fault's reset could not give the device a working context: the
// driver keeps the sticky error for the whole process, as CUDA documents for an illegal address.
// From then on every use of that device throws ContextLostError with this text at once (no retry,
// no hang). Heap-allocated and leaked, like the driver state.
struct Lost {
  std::string text, name;
  int code = 0;
};
Lost* g_lost[kMaxDevices] = {};

// Device attributes never change for a device, and some are read on every launch
// (multiprocessor_count), so each is asked of the driver once per device.
// An entry is 0 while unknown, else (1 << 32) | the value (static zero-initialisation needs no
// constructor to have run).
constexpr int kAttrCache = 256;
std::atomic<uint64_t> g_attr_cache[kMaxDevices][kAttrCache];

constexpr uint64_t kGenerationMask = (uint64_t(1) << 56) - 1;
uint64_t token(int device, uint64_t n) { return (uint64_t(device) << 56) | (n & kGenerationMask); }

// Binds every function of cuda_api.def in `handle`. Missing ones stay null (an old driver may
// lack the pool functions, which then fall back); `missing` names the first missing function
// that nothing can work without.
void bind_all(void* handle, CudaApi& api, std::string& missing) {
#define CUDA_API(name, symbol, params) api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #symbol));
#include "runtime/cuda_api.def"
#undef CUDA_API
  const std::pair<const void*, const char*> required[] = {
      {(const void*)api.cuGetErrorName, "cuGetErrorName"},
      {(const void*)api.cuGetErrorString, "cuGetErrorString"},
      {(const void*)api.cuInit, "cuInit"},
      {(const void*)api.cuDriverGetVersion, "cuDriverGetVersion"},
      {(const void*)api.cuDeviceGetCount, "cuDeviceGetCount"},
      {(const void*)api.cuDeviceGet, "cuDeviceGet"},
      {(const void*)api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
      {(const void*)api.cuCtxGetCurrent, "cuCtxGetCurrent"},
      {(const void*)api.cuCtxSetCurrent, "cuCtxSetCurrent"},
  };
  for (const auto& r : required)
    if (r.first == nullptr) {
      missing = r.second;
      return;
    }
}

std::string result_text(const CudaApi& api, CUresult rc) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName) api.cuGetErrorName(rc, &name);
  if (api.cuGetErrorString) api.cuGetErrorString(rc, &text);
  std::string s = name ? name : "CUresult " + std::to_string(int(rc));
  if (text) s += ": " + std::string(text);
  return s;
}

// Opens `what` and binds it; on failure appends why to `tried` and returns null.
Driver* try_open(const std::string& what, std::string& tried) {
  // RTLD_LOCAL keeps the driver's symbols out of the global namespace; RTLD_NOW fails here.
  void* handle = dlopen(what.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    if (!tried.empty()) tried += "; ";
    tried += err ? err : (what + ": dlopen failed");
    return nullptr;
  }
  auto* d = new Driver();
  std::string missing;
  bind_all(handle, d->api, missing);
  if (!missing.empty()) {
    if (!tried.empty()) tried += "; ";
    tried += what + " has no " + missing + " (not a CUDA driver, or too old)";
    delete d;
    dlclose(handle);
    return nullptr;
  }
  d->library_path = what;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(d->api.cuInit), &info) && info.dli_fname) d->library_path = info.dli_fname;
  return d;
}

void load_driver() {
  g_load_pid = getpid();
  std::vector<std::string> candidates = {"libcuda.so.1"};  // the loader's own search first
  {
    std::lock_guard<std::mutex> g(g_paths_mutex);
    for (const auto& dir : g_search_paths)
      if (!dir.empty()) {
        candidates.push_back(dir + "/libcuda.so.1");
        candidates.push_back(dir + "/libcuda.so");
      }
  }
  std::string tried;
  Driver* d = nullptr;
  for (const auto& c : candidates)
    if ((d = try_open(c, tried)) != nullptr) break;
  if (d == nullptr) {
    g_load_error = "no CUDA GPU is available (libcuda.so.1 could not be loaded: " + tried + "). " + kSimHint;
    return;
  }
  CUresult rc = d->api.cuInit(0);
  if (rc != CUDA_SUCCESS) {
    // The library stays loaded (its handle leaks): unloading a driver mid-process is not safe.
    g_load_error = "no CUDA GPU is available (cuInit failed: " + result_text(d->api, rc) + "; driver " +
                   d->library_path + "). " + kSimHint;
    return;
  }
  if (d->api.cuDriverGetVersion(&d->version) != CUDA_SUCCESS) d->version = 0;
  int count = 0;
  rc = d->api.cuDeviceGetCount(&count);
  if (rc != CUDA_SUCCESS || count <= 0) {
    g_load_error = "no CUDA GPU is available (" +
                   (rc != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + result_text(d->api, rc)
                                       : std::string("the driver reports no device")) +
                   "). " + kSimHint;
    return;
  }
  d->device_count = count;
  g_driver.store(d, std::memory_order_release);
}

// Retains the primary context of GPU `ordinal` (once); returns it.
CUcontext retain_primary(int ordinal) {
  std::lock_guard<std::mutex> g(g_ctx_mutex);
  CUcontext ctx = g_ctx[ordinal].load(std::memory_order_acquire);
  if (ctx) return ctx;
  const Driver& d = Driver::get();
  if (ordinal < 0 || ordinal >= d.device_count)
    throw CudaSupportError("CUDA device " + std::to_string(ordinal) + " does not exist (the driver reports " +
                           std::to_string(d.device_count) + " device(s))");
  if (const Lost* l = g_lost[ordinal])
    throw ContextLostError("cujit", l->code, l->name, "the GPU is lost", ": " + l->text);
  // Checked without check(): a sticky error here must not start a reset, which needs g_ctx_mutex.
  CUdevice dev = 0;
  CUresult rc = d.api.cuDeviceGet(&dev, ordinal);
  if (rc == CUDA_SUCCESS) rc = d.api.cuDevicePrimaryCtxRetain(&ctx, dev);
  if (rc != CUDA_SUCCESS)
    throw CudaAPIError("cuDevicePrimaryCtxRetain", int(rc), result_text(d.api, rc), "could not retain the primary context");
  if (ctx == nullptr) throw CudaSupportError("cuDevicePrimaryCtxRetain returned no context");
  g_dev[ordinal] = dev;
  g_ctx[ordinal].store(ctx, std::memory_order_release);
  if (!g_first_context_seen) {
    g_first_context_seen = true;
    int major = 0, minor = 0;
    if (auto hook = g_first_context_hook.load();
        hook && d.api.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == CUDA_SUCCESS &&
        d.api.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == CUDA_SUCCESS)
      hook(major, minor);
  }
  return ctx;
}

// After a sticky error on the calling thread's device: destroys its faulted primary context and
// retains a fresh one, as a new generation. Returns "" or why recovery failed. The driver is
// called directly (not through check, which calls this). Several threads may see the same fault:
// only the first resets, the others find g_ctx already replaced (their thread still has the old
// context current). Other devices' contexts are left alone.
std::string reset_after_fault(const Driver& d, CUresult fault) noexcept {
  try {
    const int dev_i = t_device;
    std::lock_guard<std::mutex> g(g_ctx_mutex);
    if (const Lost* l = g_lost[dev_i]) return l->text;
    CUcontext old = g_ctx[dev_i].load(std::memory_order_acquire);
    if (old == nullptr) return "";
    CUcontext cur = nullptr;
    if (d.api.cuCtxGetCurrent && d.api.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur != nullptr && cur != old)
      return "";  // another thread reset it already
    if (!d.api.cuDevicePrimaryCtxRelease || !d.api.cuDevicePrimaryCtxReset)
      return "the driver has no cuDevicePrimaryCtxReset";
    const CUdevice dev = g_dev[dev_i];
    // Our reference goes first; the reset then destroys the context even when another library
    // (PyTorch, CuPy) holds one too: the fault has broken it for them as well.
    d.api.cuDevicePrimaryCtxRelease(dev);
    CUresult rc = d.api.cuDevicePrimaryCtxReset(dev);
    g_generation[dev_i].fetch_add(1, std::memory_order_acq_rel);
    g_resets.fetch_add(1, std::memory_order_acq_rel);
    for (auto& h : g_reset_hooks)
      if (auto fn = h.load()) fn();
    CUcontext ctx = nullptr;
    CUresult rr = d.api.cuDevicePrimaryCtxRetain(&ctx, dev);
    if (rr != CUDA_SUCCESS || ctx == nullptr) {
      // Measured on an H100 (driver of CUDA 13): after CUDA_ERROR_ILLEGAL_ADDRESS even a new
      // primary context reports the fault again. The GPU is lost to this process for good.
      if (rr == CUDA_SUCCESS && ctx) d.api.cuDevicePrimaryCtxRelease(dev);
      g_ctx[dev_i].store(nullptr, std::memory_order_release);
      auto* l = new Lost();
      l->code = int(fault);
      const char* name = nullptr;
      if (d.api.cuGetErrorName(fault, &name) != CUDA_SUCCESS) name = nullptr;
      l->name = name ? name : "CUDA_ERROR_" + std::to_string(int(fault));
      l->text = "an earlier kernel fault (" + l->name + ") left CUDA device " + std::to_string(dev_i) +
                " unusable in this process: the driver keeps reporting it even in a new context "
                "(cuDevicePrimaryCtxRetain after cuDevicePrimaryCtxReset failed: " + result_text(d.api, rr) +
                "), as CUDA documents for such errors. Restart Python to use the GPU again; the simulator "
                "(CUJIT_ENABLE_CUDASIM=1) still works in this process";
      g_lost[dev_i] = l;
      return l->text;
    }
    g_ctx[dev_i].store(ctx, std::memory_order_release);
    d.api.cuCtxSetCurrent(ctx);
    if (rc != CUDA_SUCCESS) return "cuDevicePrimaryCtxReset failed: " + result_text(d.api, rc);
    return "";
  } catch (...) {
    return "out of memory while resetting";
  }
}

}  // namespace

bool is_sticky_error(int rc) noexcept {
  switch (rc) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ASSERT:
      return true;
    default:
      return false;
  }
}

void on_first_context(void (*fn)(int, int)) { g_first_context_hook.store(fn); }

void on_context_reset(void (*fn)()) {
  for (auto& h : g_reset_hooks) {
    void (*expected)() = nullptr;
    if (h.load() == fn || h.compare_exchange_strong(expected, fn)) return;
  }
}

uint64_t context_generation_of(int device) noexcept {
  return token(device, g_generation[device].load(std::memory_order_relaxed));
}
uint64_t context_generation() noexcept { return context_generation_of(t_device); }
uint64_t reset_count() noexcept { return g_resets.load(std::memory_order_relaxed); }

void throw_stale(const std::string& what, uint64_t generation) {
  const int dev = generation_device(generation);
  throw ContextLostError("cujit", int(CUDA_ERROR_CONTEXT_IS_DESTROYED), "CUDA_ERROR_CONTEXT_IS_DESTROYED",
                         "context is destroyed",
                         ": " + what + " belongs to a CUDA context that a kernel fault destroyed (device " +
                             std::to_string(dev) + ", context generation " +
                             std::to_string(generation & kGenerationMask) + ", now " +
                             std::to_string(context_generation_of(dev) & kGenerationMask) +
                             "); its memory and handles are gone: create it again");
}

std::string launch_resources_message(const std::string& kernel, int regs, long long threads, int max_threads) {
  std::string s = ": kernel " + kernel + " needs " + std::to_string(regs) + " registers per thread, so a block of " +
                  std::to_string(threads) + " threads needs " + std::to_string((long long)regs * threads) +
                  " registers, more than the device has for one block; at most " + std::to_string(max_threads) +
                  " threads per block fit this kernel. Launch it with ";
  // A power of two at or below the limit, the usual choice of block size.
  int p = 1;
  while (p * 2 <= max_threads) p *= 2;
  s += max_threads >= 32 ? std::to_string(p) + " threads per block (or fewer) and more blocks"
                         : "fewer threads per block";
  return s + ", or make the kernel keep fewer values live at once.";
}

const Driver& Driver::get() {
  if (g_shutdown.load(std::memory_order_acquire))
    throw CudaSupportError("the CUDA driver can no longer be used: cujit's runtime was shut down "
                           "(the interpreter is exiting)");
  std::call_once(g_load_once, [] {
    try {
      load_driver();
    } catch (const std::exception& e) {  // e.g. bad_alloc while building a message
      g_load_error = std::string("no CUDA GPU is available (") + e.what() + "). " + kSimHint;
    }
  });
  Driver* d = g_driver.load(std::memory_order_acquire);
  if (d == nullptr) throw CudaSupportError(g_load_error);
  // A forked child inherits the loaded driver, but CUDA cannot be used there (every call fails
  // with CUDA_ERROR_NOT_INITIALIZED): numba-cuda's error, and its words.
  if (getpid() != g_load_pid) throw CudaDriverError("CUDA initialized before forking");
  return *d;
}

void check(CUresult rc, const char* call) {
  if (rc == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  Driver* d = g_driver.load(std::memory_order_acquire);
  if (d) {
    if (d->api.cuGetErrorName(rc, &name) != CUDA_SUCCESS) name = nullptr;
    if (d->api.cuGetErrorString(rc, &text) != CUDA_SUCCESS) text = nullptr;
  }
  if (d && is_sticky_error(int(rc))) {
    const std::string failed = reset_after_fault(*d, rc);
    std::string detail =
        ": a kernel faulted and the CUDA context was lost. Device arrays, streams, events, pinned and mapped "
        "host memory and loaded kernels made before this error are gone (deleting them is safe; pinned host "
        "arrays read as zeros). ";
    detail += failed.empty()
                  ? "cujit has recreated the context: create the arrays again (kernels and ufuncs reload by "
                    "themselves). "
                  : "cujit could not recreate it: " + failed + ". ";
    detail += "To find the bad access, run the kernel with @cuda.jit(debug=True) or on the simulator "
              "(CUJIT_ENABLE_CUDASIM=1), which check every index.";
    throw ContextLostError(call ? call : "CUDA driver call", int(rc),
                           name ? name : "CUDA_ERROR_" + std::to_string(int(rc)), text ? text : "unknown error",
                           detail);
  }
  throw CudaAPIError(call ? call : "CUDA driver call", int(rc),
                     name ? name : "CUDA_ERROR_" + std::to_string(int(rc)), text ? text : "unknown error");
}

CUresult missing_driver_function(const char* call) {
  throw CudaSupportError(std::string("the installed CUDA driver has no ") + call +
                         "; a newer NVIDIA driver is needed");
}

void set_library_search_paths(const std::vector<std::string>& dirs) {
  std::lock_guard<std::mutex> g(g_paths_mutex);
  g_search_paths = dirs;
}

bool gpu_available() noexcept {
  try {
    return Driver::get().device_count > 0;
  } catch (...) {
    return false;
  }
}

int current_device() noexcept { return t_device; }

void set_thread_device(int ordinal) noexcept {
  if (ordinal >= 0 && ordinal < kMaxDevices) t_device = ordinal;
}

int sim_device_count() noexcept {
  const char* v = std::getenv("CUJIT_SIM_DEVICES");
  if (v == nullptr || *v == 0) return 1;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (end == v || *end != 0 || n < 1) return 1;
  return int(std::min<long>(n, kMaxDevices));
}

int device_count() { return std::min(Driver::get().device_count, kMaxDevices); }

void set_device(int ordinal) {
  const int n = device_count();
  if (ordinal < 0 || ordinal >= n)
    throw std::invalid_argument("CUDA device " + std::to_string(ordinal) + " does not exist (the driver reports " +
                                std::to_string(n) + " device(s))");
  t_device = ordinal;
}

void ensure_context() {
  const int dev = t_device;
  CUcontext ctx = g_ctx[dev].load(std::memory_order_acquire);
  if (ctx == nullptr) ctx = retain_primary(dev);
  // Another library (or the user), or work of another device on this thread, may have made a
  // different context current, so ask each time; cuCtxGetCurrent only reads thread-local state.
  CUcontext cur = nullptr;
  CUJIT_CU(cuCtxGetCurrent, &cur);
  if (cur != ctx) CUJIT_CU(cuCtxSetCurrent, ctx);
}

CUcontext context() {
  ensure_context();
  return g_ctx[t_device].load(std::memory_order_acquire);
}

CUcontext context_of(int device) {
  if (device < 0 || device >= device_count())
    throw std::invalid_argument("CUDA device " + std::to_string(device) + " does not exist (the driver reports " +
                                std::to_string(device_count()) + " device(s))");
  CUcontext ctx = g_ctx[device].load(std::memory_order_acquire);
  return ctx ? ctx : retain_primary(device);
}

CUdevice device() {
  context();
  return g_dev[t_device];
}

int device_attribute(CUdevice_attribute attr) {
  const int a = int(attr);
  const bool cached = a >= 0 && a < kAttrCache;
  if (cached) {
    uint64_t e = g_attr_cache[t_device][a].load(std::memory_order_relaxed);
    if (e != 0) return int(uint32_t(e));
  }
  CUdevice dev = device();
  int v = 0;
  CUJIT_CU(cuDeviceGetAttribute, &v, attr, dev);
  if (cached) g_attr_cache[t_device][a].store((uint64_t(1) << 32) | uint32_t(v), std::memory_order_relaxed);
  return v;
}

std::pair<int, int> compute_capability() {
  return {device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
          device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
}

std::string device_name() {
  CUdevice dev = device();
  char buf[256] = {0};
  CUJIT_CU(cuDeviceGetName, buf, int(sizeof(buf) - 1), dev);
  buf[sizeof(buf) - 1] = 0;
  return buf;
}

std::string device_uuid(int ordinal) {
  CUdevice dev = 0;
  CUJIT_CU(cuDeviceGet, &dev, ordinal);
  CUuuid u{};
  CUJIT_CU(cuDeviceGetUuid, &u, dev);
  static const char hex[] = "0123456789abcdef";
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += hex[(unsigned char)u.bytes[i] >> 4];
    s += hex[(unsigned char)u.bytes[i] & 15];
  }
  return s;
}

size_t total_memory() {
  CUdevice dev = device();
  size_t bytes = 0;
  CUJIT_CU(cuDeviceTotalMem, &bytes, dev);
  return bytes;
}

int multiprocessor_count() { return device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT); }
int max_threads_per_block() { return device_attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK); }
int driver_version() { return Driver::get().version; }

bool memory_pools_supported() {
  const Driver& d = Driver::get();
  if (!d.api.cuMemAllocAsync || !d.api.cuMemFreeAsync) return false;
  return device_attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
}

CUmodule load_module(const std::string& image) {
  if (image.empty()) throw std::invalid_argument("load_module: the CUBIN/PTX image is empty");
  ensure_context();
  const Driver& d = Driver::get();
  if (!d.api.cuModuleLoadDataEx) missing_driver_function("cuModuleLoadDataEx");
  // The JIT's error log says why PTX was rejected; CUBINs fail without one.
  char log[8192] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(uintptr_t(sizeof(log) - 1))};
  CUmodule mod = nullptr;
  // c_str(): PTX must be NUL-terminated; a CUBIN is read by its ELF header and ignores it.
  CUresult rc = d.api.cuModuleLoadDataEx(&mod, image.c_str(), 2, opts, vals);
  if (rc == CUDA_SUCCESS && mod == nullptr) throw CudaSupportError("cuModuleLoadDataEx returned no module");
  if (is_sticky_error(int(rc))) check(rc, "cuModuleLoadData");  // an earlier kernel's fault: recover
  if (rc != CUDA_SUCCESS) {
    log[sizeof(log) - 1] = 0;
    const char* name = nullptr;
    const char* text = nullptr;
    if (d.api.cuGetErrorName(rc, &name) != CUDA_SUCCESS) name = nullptr;
    if (d.api.cuGetErrorString(rc, &text) != CUDA_SUCCESS) text = nullptr;
    std::string t = text ? text : "unknown error";
    if (log[0]) t += "; JIT log: " + std::string(log);
    throw CudaAPIError("cuModuleLoadData", int(rc), name ? name : "CUDA_ERROR_" + std::to_string(int(rc)), t);
  }
  return mod;
}

std::string link_images(const std::vector<LinkInput>& inputs) {
  ensure_context();
  const Driver& d = Driver::get();
  char log[8192] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(uintptr_t(sizeof(log) - 1))};
  CUlinkState state = nullptr;
  CUJIT_CU(cuLinkCreate, 2, opts, vals, &state);
  struct Destroy {  // the CUBIN cuLinkComplete returns lives in the state: copied out first
    CUlinkState s;
    ~Destroy() { Driver::get().api.cuLinkDestroy(s); }
  } destroy{state};
  auto fail = [&](CUresult rc, const char* call, const std::string& what) {
    const char* name = nullptr;
    if (d.api.cuGetErrorName(rc, &name) != CUDA_SUCCESS) name = nullptr;
    log[sizeof(log) - 1] = 0;
    throw CudaAPIError(call, int(rc), name ? name : "CUDA_ERROR_" + std::to_string(int(rc)),
                       "the linker failed" + what + (log[0] ? std::string(": ") + log : std::string()));
  };
  for (const auto& in : inputs) {
    // c_str() and one more byte: PTX must be NUL-terminated; binary inputs ignore the extra byte.
    CUresult rc = d.api.cuLinkAddData(state, in.type, (void*)in.data.c_str(), in.data.size() + 1, in.name.c_str(), 0,
                                      nullptr, nullptr);
    if (rc != CUDA_SUCCESS) fail(rc, "cuLinkAddData", " on " + in.name);
  }
  void* cubin = nullptr;
  size_t size = 0;
  CUresult rc = d.api.cuLinkComplete(state, &cubin, &size);
  if (rc != CUDA_SUCCESS) fail(rc, "cuLinkComplete", "");
  return std::string(static_cast<const char*>(cubin), size);
}

void unload_module(CUmodule module, uint64_t generation) noexcept {
  if (module == nullptr || g_shutdown.load(std::memory_order_acquire) || !generation_live(generation)) return;
  try {
    DeviceScope scope(generation_device(generation));
    ensure_context();
    Driver::get().api.cuModuleUnload(module);  // result ignored: nothing to do about it here
  } catch (...) {
  }
}

CUfunction get_function(CUmodule module, const std::string& name) {
  if (module == nullptr) throw std::invalid_argument("get_function: no module");
  ensure_context();
  CUfunction f = nullptr;
  CUJIT_CU(cuModuleGetFunction, &f, module, name.c_str());
  if (f == nullptr) throw CudaSupportError("cuModuleGetFunction returned no function for " + name);
  return f;
}

void launch(CUfunction f, const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
            CUstream stream, void** params, bool cooperative) {
  if (f == nullptr || grid == nullptr || block == nullptr)
    throw std::invalid_argument("launch: no function or launch configuration");
  for (int i = 0; i < 3; ++i)
    if (grid[i] == 0 || block[i] == 0)
      throw std::invalid_argument("launch: grid and block sizes must be at least 1");
  ensure_context();
  // Above 48 KiB of dynamic shared memory a kernel must opt in; the launch then fails cleanly
  // (CUDA_ERROR_INVALID_VALUE) if the device has less.
  if (shared_bytes > 48u * 1024u) CUJIT_CU(cuFuncSetAttribute, f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(shared_bytes));
  if (cooperative) {
    CUJIT_CU(cuLaunchCooperativeKernel, f, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes,
             stream, params);
    return;
  }
  CUJIT_CU(cuLaunchKernel, f, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes, stream, params,
           nullptr);
}

int max_cooperative_blocks(CUfunction f, int threads, size_t shared_bytes) {
  ensure_context();
  int per_sm = 0;
  CUJIT_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &per_sm, f, threads, shared_bytes);
  return per_sm * multiprocessor_count();
}

int function_attribute(CUfunction f, CUfunction_attribute attr) {
  ensure_context();
  int v = 0;
  CUJIT_CU(cuFuncGetAttribute, &v, attr, f);
  return v;
}

void synchronize() {
  ensure_context();
  // Called directly: CUJIT_CU needs at least one argument in C++17.
  check(Driver::get().api.cuCtxSynchronize ? Driver::get().api.cuCtxSynchronize()
                                           : missing_driver_function("cuCtxSynchronize"),
        "cuCtxSynchronize");
}

void stream_synchronize(CUstream stream) {
  ensure_context();
  CUJIT_CU(cuStreamSynchronize, stream);
}

std::string driver_library_path() { return Driver::get().library_path; }

void mark_driver_shutdown() noexcept { g_shutdown.store(true, std::memory_order_release); }
bool driver_shut_down() noexcept { return g_shutdown.load(std::memory_order_acquire); }

}  // namespace cujit::rt
