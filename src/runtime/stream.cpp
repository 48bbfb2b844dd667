// See stream.h.
#include "runtime/stream.h"


#include <cstdint>
#include <stdexcept>
#include <unordered_map>

#include "runtime/driver.h"

namespace cujit::rt {
namespace {

// Created GPU streams by handle, for find_stream. Leaked on purpose: Streams may be destroyed by
// Python's garbage collection during interpreter teardown, after static destructors would have run.
std::mutex& registry_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::unordered_map<void*, std::weak_ptr<Stream>>& registry() {
  static auto* r = new std::unordered_map<void*, std::weak_ptr<Stream>>();
  return *r;
}

bool driver_usable() noexcept { return !is_shut_down() && !driver_shut_down(); }

CUstream cu(void* h) { return static_cast<CUstream>(h); }

// cuStreamQuery / cuEventQuery: CUDA_SUCCESS is done, CUDA_ERROR_NOT_READY pending, anything else
// an error (a failed kernel, say) that must not read as "still running".
bool ready(CUresult rc, const char* call) {
  if (rc == CUDA_ERROR_NOT_READY) return false;
  check(rc, call);
  return true;
}

[[noreturn]] void invalid_handle(const std::string& why, const char* call = "cuEventElapsedTime") {
  // What the driver answers for an event it cannot time; the simulator raises the same.
  throw CudaAPIError(call, int(CUDA_ERROR_INVALID_HANDLE), "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle",
                     ": " + why);
}

}  // namespace

std::shared_ptr<Stream> Stream::create(Backend backend) {
  if (backend == Backend::Sim) return std::shared_ptr<Stream>(new Stream(backend, Kind::Created, nullptr));
  ensure_context();
  CUstream s = nullptr;
  // CU_STREAM_DEFAULT (not NON_BLOCKING): work on it waits for the legacy default stream and the
  // reverse, as with Numba's cuda.stream(), so code mixing the default stream and streams stays ordered.
  CUJIT_CU(cuStreamCreate, &s, CU_STREAM_DEFAULT);
  std::shared_ptr<Stream> p(new Stream(backend, Kind::Created, s));
  std::lock_guard<std::mutex> g(registry_mutex());
  registry()[s] = p;
  return p;
}

std::shared_ptr<Stream> Stream::builtin(Backend backend, Kind kind) {
  void* h = nullptr;
  if (backend == Backend::GPU) {
    ensure_context();  // so a GPU default stream without a GPU fails here, as Numba's does
    if (kind == Kind::Legacy) h = CU_STREAM_LEGACY;
    if (kind == Kind::PerThread) h = CU_STREAM_PER_THREAD;
  }
  if (kind == Kind::Created) throw std::invalid_argument("Stream::builtin: not a default stream kind");
  return std::shared_ptr<Stream>(new Stream(backend, kind, h));
}

std::shared_ptr<Stream> Stream::external(void* handle) {
  ensure_context();
  return std::shared_ptr<Stream>(new Stream(Backend::GPU, Kind::External, handle));
}

Stream::~Stream() {
  if (kind_ != Kind::Created || backend_ != Backend::GPU || handle_ == nullptr) return;
  try {
    {
      std::lock_guard<std::mutex> g(registry_mutex());
      auto it = registry().find(handle_);
      // Only our own entry: after destruction the driver may hand the same handle to a new stream.
      if (it != registry().end() && it->second.expired()) registry().erase(it);
    }
    if (!driver_usable() || !generation_live(generation_)) return;  // stale: died with its context
    DeviceScope scope(device_);
    ensure_context();
    // Work still queued completes first; the driver releases the stream afterwards.
    Driver::get().api.cuStreamDestroy(cu(handle_));
  } catch (...) {
  }
}

void Stream::check_live() const {
  if (backend_ == Backend::GPU && kind_ == Kind::Created && !generation_live(generation_))
    throw_stale("this stream", generation_);
}

void Event::check_live() const {
  if (backend_ == Backend::GPU && !generation_live(generation_)) throw_stale("this event", generation_);
}

void Stream::synchronize() {
  if (backend_ == Backend::Sim) return;
  check_live();
  DeviceScope scope(kind_ == Kind::Created ? device_ : current_device());
  stream_synchronize(cu(handle_));
}

bool Stream::query() {
  if (backend_ == Backend::Sim) return true;
  check_live();
  DeviceScope scope(kind_ == Kind::Created ? device_ : current_device());
  ensure_context();
  const Driver& d = Driver::get();
  if (!d.api.cuStreamQuery) missing_driver_function("cuStreamQuery");
  return ready(d.api.cuStreamQuery(cu(handle_)), "cuStreamQuery");
}

std::string Stream::repr() const {
  std::string s;
  switch (kind_) {
    case Kind::Default: s = "<Default CUDA stream"; break;
    case Kind::Legacy: s = "<Legacy default CUDA stream"; break;
    case Kind::PerThread: s = "<Per-thread default CUDA stream"; break;
    case Kind::Created:
      s = "<CUDA stream " + std::to_string(uintptr_t(handle_));
      break;
    case Kind::External:
      s = "<External CUDA stream " + std::to_string(uintptr_t(handle_));
      break;
  }
  if (backend_ == Backend::Sim) s += " on the simulator";
  return s + ">";
}

std::shared_ptr<Stream> find_stream(void* handle) {
  if (handle == nullptr || handle == CU_STREAM_LEGACY || handle == CU_STREAM_PER_THREAD) return nullptr;
  std::lock_guard<std::mutex> g(registry_mutex());
  auto it = registry().find(handle);
  return it == registry().end() ? nullptr : it->second.lock();
}

std::shared_ptr<Event> Event::create(Backend backend, bool timing) {
  if (backend == Backend::Sim) return std::shared_ptr<Event>(new Event(backend, timing, nullptr));
  ensure_context();
  CUevent e = nullptr;
  CUJIT_CU(cuEventCreate, &e, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING);
  return std::shared_ptr<Event>(new Event(backend, timing, e));
}

Event::~Event() {
  if (backend_ != Backend::GPU || handle_ == nullptr || !driver_usable()) return;
  if (!generation_live(generation_)) return;  // died with its context (a kernel fault)
  try {
    DeviceScope scope(device_);
    ensure_context();
    Driver::get().api.cuEventDestroy(static_cast<CUevent>(handle_));
  } catch (...) {
  }
}

void Event::record(void* stream, int stream_device) {
  // CUDA refuses an event and a stream of two devices (a default stream is the current device's).
  const int sd = stream_device >= 0 ? stream_device : current_device();
  if (sd != device_)
    invalid_handle("the event belongs to device " + std::to_string(device_) + " and the stream to device " +
                       std::to_string(sd) + "; an event can be recorded only on a stream of its own device (make "
                       "the event inside `with cuda.gpus[" + std::to_string(sd) + "]:`)",
                   "cuEventRecord");
  if (backend_ == Backend::Sim) {
    // Everything queued before this point has already run, so "complete" is now.
    std::lock_guard<std::mutex> g(mu_);
    recorded_ = true;
    at_ = std::chrono::steady_clock::now();
    return;
  }
  check_live();
  DeviceScope scope(device_);
  ensure_context();
  CUJIT_CU(cuEventRecord, static_cast<CUevent>(handle_), cu(stream));
}

void Event::synchronize() {
  if (backend_ == Backend::Sim) return;
  check_live();
  DeviceScope scope(device_);
  ensure_context();
  CUJIT_CU(cuEventSynchronize, static_cast<CUevent>(handle_));
}

void Event::wait(void* stream, int stream_device) {
  if (backend_ == Backend::Sim) return;
  check_live();
  // CUDA lets a stream wait for another device's event; the call is made in the stream's context.
  DeviceScope scope(stream_device >= 0 ? stream_device : current_device());
  ensure_context();
  CUJIT_CU(cuStreamWaitEvent, cu(stream), static_cast<CUevent>(handle_), 0);
}

bool Event::query() {
  if (backend_ == Backend::Sim) return true;
  check_live();
  DeviceScope scope(device_);
  ensure_context();
  const Driver& d = Driver::get();
  if (!d.api.cuEventQuery) missing_driver_function("cuEventQuery");
  return ready(d.api.cuEventQuery(static_cast<CUevent>(handle_)), "cuEventQuery");
}

float Event::elapsed_ms(Event& start, Event& end) {
  if (start.backend_ != end.backend_)
    throw std::invalid_argument(std::string("elapsed_time: the events are on different backends (") +
                                backend_name(start.backend_) + " and " + backend_name(end.backend_) + ")");
  if (start.device_ != end.device_)  // the driver refuses it; the simulator's devices too
    invalid_handle("the events belong to two devices (" + std::to_string(start.device_) + " and " +
                   std::to_string(end.device_) + "); only events of one device can be timed against each other");
  if (start.backend_ == Backend::GPU) {
    start.check_live();
    end.check_live();
    DeviceScope scope(start.device_);
    ensure_context();
    float ms = 0;
    CUJIT_CU(cuEventElapsedTime, &ms, static_cast<CUevent>(start.handle_), static_cast<CUevent>(end.handle_));
    return ms;
  }
  if (!start.timing_ || !end.timing_) invalid_handle("an event was created with timing=False");
  std::chrono::steady_clock::time_point a, b;
  {
    std::lock_guard<std::mutex> g(start.mu_);
    if (!start.recorded_) invalid_handle("the start event was never recorded");
    a = start.at_;
  }
  {
    std::unique_lock<std::mutex> g(end.mu_, std::defer_lock);
    if (&end != &start) g.lock();
    if (!end.recorded_) invalid_handle("the end event was never recorded");
    b = end.at_;
  }
  return std::chrono::duration<float, std::milli>(b - a).count();
}

}  // namespace cujit::rt
