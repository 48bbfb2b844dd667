// What the binding files share: turning a Build into loaded code for a backend, and reading a
// Python stream argument.
#pragma once
#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "pipeline.h"
#include "runtime/launch.h"

namespace cujit {

/// Compiles (through the disk cache) and loads `b` for `backend`: NVRTC for the GPU's own
/// architecture, or the host compiler for the simulator (plus an NVRTC check to PTX when
/// check_ptx is on, so CI proves the GPU code builds). Releases the GIL while compiling, and
/// reports a long compile as `what` ("kernel f(int64)"; empty: the function's name).
std::shared_ptr<rt::LoadedModule> load_build(const Build& b, rt::Backend backend, const std::string& what = {});

/// Reports a compile that makes the user wait: python/cujit/_progress.py prints
/// "cujit: compiling <what> ..." on stderr once it has run for a second (a Python timer thread,
/// which can run because the compile releases the GIL), and the total time when it ends. Make and
/// destroy it with the GIL held, outside the GIL-free compile; it never throws.
class CompileProgress {
 public:
  explicit CompileProgress(const std::string& what);
  ~CompileProgress();
  CompileProgress(const CompileProgress&) = delete;
  CompileProgress& operator=(const CompileProgress&) = delete;

 private:
  pybind11::object token_;
};

/// "f(array(float32, 1d, C), int64)": a specialisation as progress lines name it.
std::string describe_call(const std::string& name, const std::vector<Type>& types);

/// The CUstream for a Python stream argument: 0 or None is the default stream.
void* stream_handle(const pybind11::object& stream);
/// The device of a stream cujit made (cuda.stream()), else -1 (a default stream, which is the
/// current device's, a handle, another library's stream).
int stream_device(const pybind11::object& stream);
/// CUDA refuses a launch on a stream of another device than the current one (the driver's
/// CUDA_ERROR_INVALID_HANDLE); so does cujit, for the simulator's devices too. `device` is
/// stream_device's answer (-1: nothing to check).
void check_launch_stream_device(int device);

/// True for an object whose type is exactly numpy.ndarray. Subclasses may carry
/// __cuda_array_interface__ (cuda.mapped_array's MappedNDArray: host memory the GPU can address),
/// which then takes precedence over the host-array path.
bool is_exact_ndarray(const pybind11::handle& h);

/// A decorator's signature string parsed, a malformed one raised as Python's ValueError.
Signature parse_signature_or_raise(const std::string& text);

/// The FunctionSource a dispatcher compiles now: what `snapshot` returns (a Python callable,
/// decorators.snapshot: the function's globals as they are at this compile, as Numba reads them
/// when it compiles), or `text` as it is when there is none. Call it with the GIL held, and only
/// on a compile: a dispatcher's hit path never runs Python.
std::shared_ptr<FunctionSource> source_for_compile(const std::shared_ptr<FunctionSource>& text,
                                                   const pybind11::object& snapshot);

/// The C++ object of a pybind11 instance of T, or a TypeError when it has none: a Python
/// subclass whose __init__ raised before (or while) the base was initialised, or an object made
/// with __new__ alone. pybind11 itself would hand such an object's methods uninitialised memory
/// (it allocates the value lazily for a later placement __init__), so every method of a class
/// that Python subclasses or constructs takes `self` as a handle and goes through this; `what`
/// names the object in the message.
template <class T>
T& initialized(pybind11::handle self, const char* what) {
  static pybind11::detail::type_info* info = pybind11::detail::get_type_info(typeid(T));
  if (!PyObject_TypeCheck(self.ptr(), info->type))
    throw pybind11::type_error(std::string("expected a ") + what + ", got " + Py_TYPE(self.ptr())->tp_name);
  auto* inst = reinterpret_cast<pybind11::detail::instance*>(self.ptr());
  if (inst->simple_layout) {  // one C++ base (every class here): no type-info lookup on the hot path
    if (!inst->simple_holder_constructed || !inst->simple_value_holder[0])
      throw pybind11::type_error(std::string("this ") + what +
                                 " was never initialised (its __init__ raised or was not called)");
    return *static_cast<T*>(inst->simple_value_holder[0]);
  }
  auto vh = inst->get_value_and_holder(info, false);
  if (!vh.inst || !vh.holder_constructed() || !vh.value_ptr())
    throw pybind11::type_error(std::string("this ") + what +
                               " was never initialised (its __init__ raised or was not called)");
  return *vh.template value_ptr<T>();
}

/// A dispatcher's compiled specialisations, one per argument-type fingerprint, in compile order.
/// `get` builds a missing one outside the lock (compiling can take seconds and other threads may
/// call meanwhile); if two threads build the same one, the first stored wins.
template <class Spec>
class SpecCache {
 public:
  Spec& get(const std::vector<Type>& types, const std::function<std::unique_ptr<Spec>()>& build) {
    std::string key;
    for (const auto& t : types) key += t.key() + ";";  // key(): named tuple classes apart
    {
      std::lock_guard<std::mutex> g(mu_);
      auto it = specs_.find(key);
      if (it != specs_.end()) return *it->second;
    }
    std::unique_ptr<Spec> sp = build();
    std::lock_guard<std::mutex> g(mu_);
    auto& slot = specs_[key];
    if (!slot) {
      slot = std::move(sp);
      order_.push_back(slot.get());
    }
    return *slot;
  }

  /// The i-th specialisation in compile order (i < all().size()).
  Spec& at(size_t i) {
    std::lock_guard<std::mutex> g(mu_);
    if (i >= order_.size()) throw std::out_of_range("no specialisation " + std::to_string(i));
    return *const_cast<Spec*>(order_[i]);
  }

  /// Every specialisation, in compile order.
  std::vector<const Spec*> all() {
    std::lock_guard<std::mutex> g(mu_);
    return order_;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<Spec>> specs_;
  std::vector<const Spec*> order_;
};

/// Locks `mu` (GIL held on entry and on return), waiting for it without the GIL: its holder may be
/// compiling with the GIL released and need the GIL back before it unlocks, so waiting with the
/// GIL would deadlock two threads that first launch the same kernel. Uncontended, it costs a
/// try_lock.
inline std::unique_lock<std::mutex> lock_without_gil(std::mutex& mu) {
  std::unique_lock<std::mutex> g(mu, std::try_to_lock);
  if (!g.owns_lock()) {
    pybind11::gil_scoped_release nogil;
    g.lock();
  }
  return g;
}

/// On the simulator, also compile every program to PTX (CUJIT_CHECK_PTX; the tests turn it on).
void set_check_ptx(bool on);

/// NVRTC's warm-up (start_nvrtc_warmup in common.cpp), started by the process's first GPU
/// context; and, for tests and benchmarks, started for `arch` now (wait: until it is done).
void register_nvrtc_warmup();
void nvrtc_warmup(const std::string& arch, bool wait);
/// Interpreter exit (_core._shutdown): no new warm-up; cancels NVRTC's background job and joins
/// its thread, then waits (60 s at most) for every other NVRTC compile still running, so none is
/// inside NVRTC when exit() runs libnvrtc's static destructors.
void nvrtc_warmup_shutdown();

}  // namespace cujit
