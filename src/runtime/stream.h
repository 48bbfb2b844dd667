// Streams and events for both backends (cuda.stream(), cuda.event()).
//
// GPU: a Stream made by create() owns a CUstream (cuStreamCreate with CU_STREAM_DEFAULT: it
// synchronises with the legacy default stream, as Numba's streams do) and destroys it when the last
// reference goes (the Python object, and every Buffer allocated on it: memory.h). The built-in
// streams wrap the special handles: null (the default stream), CU_STREAM_LEGACY and
// CU_STREAM_PER_THREAD. An Event owns a CUevent.
//
// Simulator: every operation completes when it is called, so a stream has nothing to order:
// synchronize is a no-op and query is always true. Its handle is 0 for every simulator stream, so
// passing a simulator stream to a GPU operation is harmless (it runs on the default stream, which
// only adds ordering), and the simulator ignores the handle of a GPU stream. A simulator event
// records the host's steady clock, so elapsed times are real, non-negative milliseconds.
//
// Devices: a created stream and an event belong to the device current when they were made
// (device()), on both backends. CUDA's rules for using them while another device is current
// (the programming guide's "Stream and Event Behavior") hold here, checked by cujit so the
// simulator's devices follow them too: a kernel launch on another device's stream fails, a copy
// on it works (it runs in the stream's context); recording an event on another device's stream,
// and timing events of two devices, fail; synchronising or querying an event or stream of another
// device, and making a stream wait for another device's event, work.
//
// Nothing calls the driver after shutdown() (memory.h): destruction then leaks the handle.
#pragma once
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/driver.h"
#include "runtime/memory.h"

namespace cujit::rt {

class Stream {
 public:
  enum class Kind { Created, Default, Legacy, PerThread, External };

  /// A new stream on `backend`. Throws CudaSupportError / CudaAPIError on the GPU.
  static std::shared_ptr<Stream> create(Backend backend);
  /// A CUstream another library made (cuda.external_stream): used as it is, never destroyed here;
  /// the caller keeps it alive. GPU only.
  static std::shared_ptr<Stream> external(void* handle);
  /// One of the default streams (Kind::Default, Legacy or PerThread) on `backend`.
  static std::shared_ptr<Stream> builtin(Backend backend, Kind kind);

  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  Backend backend() const { return backend_; }
  Kind kind() const { return kind_; }
  /// The device the stream was made on. Meaningful for Kind::Created: a default stream is the
  /// default stream of whichever device is current, and another library's stream is its own.
  int device() const { return device_; }
  /// True for a stream of one device (Kind::Created) other than the calling thread's current one.
  bool on_other_device() const { return kind_ == Kind::Created && device_ != current_device(); }
  /// What the driver is passed (see above): a CUstream, null, CU_STREAM_LEGACY or CU_STREAM_PER_THREAD.
  void* handle() const { return handle_; }
  /// Waits for the work queued on the stream (cuStreamSynchronize).
  void synchronize();
  /// True when all work queued on the stream is complete (cuStreamQuery).
  bool query();
  /// "<CUDA stream 94318...>", "<Default CUDA stream>", ... (Numba's wording, plus the backend on the simulator).
  std::string repr() const;

 private:
  Stream(Backend b, Kind k, void* h)
      : backend_(b), kind_(k), handle_(h), generation_(context_generation()), device_(current_device()) {}
  Backend backend_;
  Kind kind_;
  void* handle_;
  uint64_t generation_;  // the context generation (driver.h) a created stream belongs to
  int device_;

 public:
  /// Throws ContextLostError for a created GPU stream of a context a kernel fault destroyed.
  void check_live() const;
};

/// The live Stream that create() made for `handle`, or null (a default stream, another library's
/// stream, a simulator handle). Buffers hold it so the stream outlives their stream-ordered free.
std::shared_ptr<Stream> find_stream(void* handle);

class Event {
 public:
  /// timing: whether elapsed_time works (GPU: without it, CU_EVENT_DISABLE_TIMING, cheaper).
  static std::shared_ptr<Event> create(Backend backend, bool timing);
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  Backend backend() const { return backend_; }
  int device() const { return device_; }  // the device current when it was made
  bool timing() const { return timing_; }
  void* handle() const { return handle_; }  // the CUevent (null on the simulator)
  /// Records the event on `stream`: it completes when the work queued there before it does.
  /// `stream_device`: the device of a created stream (Stream::device()), -1 for a default or
  /// external stream, which are the current device's; another device than the event's fails.
  void record(void* stream, int stream_device = -1);
  /// Waits until the recorded work is complete (cuEventSynchronize).
  void synchronize();
  /// Makes later work on `stream` wait for this event, without blocking the host (cuStreamWaitEvent).
  void wait(void* stream, int stream_device = -1);
  /// True when the recorded work is complete, or nothing was recorded (cuEventQuery).
  bool query();

  /// Milliseconds from `start` to `end` (cuEventElapsedTime). Throws CudaAPIError
  /// CUDA_ERROR_INVALID_HANDLE when either was not recorded or has no timing, as the driver does
  /// (on the simulator too), and std::invalid_argument for events of different backends.
  static float elapsed_ms(Event& start, Event& end);

 private:
  Event(Backend b, bool timing, void* h)
      : generation_(context_generation()), device_(current_device()), backend_(b), timing_(timing), handle_(h) {}
  uint64_t generation_;  // the context generation (driver.h) the event belongs to
  int device_;
  void check_live() const;
  Backend backend_;
  bool timing_;
  void* handle_;
  // Simulator only: when record() was last called.
  std::mutex mu_;
  bool recorded_ = false;
  std::chrono::steady_clock::time_point at_{};
};

}  // namespace cujit::rt
