// cujit._core.Stream and Event (runtime/stream.h) and the functions that make them: stream,
// default_stream, legacy_default_stream, per_thread_default_stream, event, event_elapsed_time.
// Each object is made on the backend current at the call (like device arrays) and keeps it.
// Streams expose `handle` (an int), which is what bindings/common.cpp's stream_handle reads when a
// stream is passed to a copy, a launch or a ufunc.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

#include "bindings/ufunc_fuse.h"
#include "bindings/common.h"
#include "runtime/memory.h"
#include "runtime/stream.h"

namespace py = pybind11;

namespace cujit {
namespace {

using rt::Event;
using rt::Stream;

// `with stream.auto_synchronize():` synchronises the stream when the block ends normally (after an
// exception it does not, as in Numba: a failed sync would hide the original error).
struct AutoSync {
  std::shared_ptr<Stream> stream;
};

std::shared_ptr<Stream> builtin(Stream::Kind k) { return Stream::builtin(rt::current_backend(), k); }

}  // namespace

void define_streams(py::module_& m) {
  using namespace py::literals;
  py::class_<AutoSync>(m, "_StreamAutoSynchronize")
      .def("__enter__", [](AutoSync& a) { return a.stream; })
      .def("__exit__", [](AutoSync& a, py::object exc_type, py::object, py::object) {
        if (exc_type.is_none()) {
          fuse::flush_all();  // deferred CUDA ufunc calls run before any wait or ordering point
          py::gil_scoped_release nogil;
          a.stream->synchronize();
        }
        return false;
      });

  py::class_<Stream, std::shared_ptr<Stream>>(m, "Stream",
                                                "A CUDA stream (cuda.stream()): a queue of copies and launches that run in order.")
      .def_property_readonly("handle", [](const Stream& s) { return uintptr_t(s.handle()); },
                             "The CUstream as an int (0: the default stream; always 0 on the simulator).")
      .def("__int__", [](const Stream& s) { return uintptr_t(s.handle()); })
      .def("__cuda_stream__", [](const Stream& s) { return py::make_tuple(0, uintptr_t(s.handle())); },
           "The CUDA stream protocol: (version 0, handle).")
      .def("synchronize", [](Stream& s) {
        fuse::flush_all();  // deferred CUDA ufunc calls run before any wait or ordering point
        py::gil_scoped_release nogil;
        s.synchronize();
      }, "Waits until all work queued on the stream is complete.")
      .def("query", [](Stream& s) {
        fuse::flush_all();  // deferred CUDA ufunc calls run before any wait or ordering point
        py::gil_scoped_release nogil;
        return s.query();
      }, "True when all work queued on the stream is complete (always on the simulator).")
      .def("auto_synchronize", [](std::shared_ptr<Stream> s) { return AutoSync{std::move(s)}; },
           "A context manager that yields the stream and synchronises it when the block ends.")
      .def_property_readonly("backend", [](const Stream& s) { return std::string(rt::backend_name(s.backend())); })
      .def_property_readonly("_device_id", &Stream::device, "The device the stream was made on.")
      .def_property_readonly("external", [](const Stream& s) { return s.kind() == Stream::Kind::External; },
                             "True for a stream of another library (cuda.external_stream).")
      .def("__repr__", &Stream::repr);

  py::class_<Event, std::shared_ptr<Event>>(m, "Event", "A CUDA event (cuda.event()): a point in a stream's work.")
      .def_property_readonly("handle", [](const Event& e) { return uintptr_t(e.handle()); },
                             "The CUevent as an int (0 on the simulator).")
      .def_property_readonly("timing", &Event::timing)
      .def_property_readonly("_device_id", &Event::device, "The device the event was made on.")
      .def("record", [](Event& e, const py::object& stream) { fuse::flush_all(); e.record(stream_handle(stream), stream_device(stream)); },
           "stream"_a = 0,
           "Records the event on `stream`: it completes when the work queued there before it has.")
      .def("synchronize", [](Event& e) {
        fuse::flush_all();
        py::gil_scoped_release nogil;
        e.synchronize();
      }, "Waits until the recorded work is complete.")
      .def("wait", [](Event& e, const py::object& stream) { fuse::flush_all(); e.wait(stream_handle(stream), stream_device(stream)); },
           "stream"_a = 0,
           "Makes work queued on `stream` from now on wait for this event (the host does not wait).")
      .def("query", [](Event& e) { fuse::flush_all(); return e.query(); },
           "True when the recorded work is complete, or the event was never recorded.")
      .def("elapsed_time", [](Event& start, const py::object& end) {
             if (!py::isinstance<Event>(end))
               throw py::type_error("elapsed_time(): evtend must be a CUDA event (cuda.event()), got " +
                                    py::repr(end).cast<std::string>());
             return Event::elapsed_ms(start, end.cast<Event&>());
           }, "evtend"_a,
           "Milliseconds from this event to `evtend` (both recorded, both with timing).")
      .def("__repr__", [](const Event& e) {
        return std::string("<CUDA event ") + std::to_string(uintptr_t(e.handle())) + " on the " + rt::backend_name(e.backend()) + ">";
      });

  m.def("stream", [] { return Stream::create(rt::current_backend()); },
        "A new stream (cuStreamCreate; it synchronises with the legacy default stream, as Numba's do).");
  m.def("external_stream",
        [](const py::object& ptr) {
          // numba-cuda's check; a handle is an address, so one no pointer can hold is refused too.
          if (!py::isinstance<py::int_>(ptr) || py::isinstance<py::bool_>(ptr))
            throw py::type_error("ptr for external stream must be an int");
          unsigned long long v = PyLong_AsUnsignedLongLong(ptr.ptr());
          if (PyErr_Occurred()) {
            PyErr_Clear();
            throw py::value_error("ptr for external stream must be a CUstream handle, got " +
                                  py::repr(ptr).cast<std::string>());
          }
          return Stream::external(reinterpret_cast<void*>(uintptr_t(v)));
        },
        "ptr"_a, "A stream object for a CUstream handle another library made (GPU only; not destroyed here).");
  m.def("default_stream", [] { return builtin(Stream::Kind::Default); }, "The default stream (handle 0).");
  m.def("legacy_default_stream", [] { return builtin(Stream::Kind::Legacy); },
        "The legacy default stream (CU_STREAM_LEGACY).");
  m.def("per_thread_default_stream", [] { return builtin(Stream::Kind::PerThread); },
        "The calling thread's default stream (CU_STREAM_PER_THREAD).");
  m.def("event", [](bool timing) { return Event::create(rt::current_backend(), timing); }, "timing"_a = true,
        "A new event; with timing=False, elapsed_time cannot use it (and recording it is cheaper).");
  m.def("event_elapsed_time", [](Event& start, Event& end) { return Event::elapsed_ms(start, end); }, "evtstart"_a,
        "evtend"_a, "Milliseconds between two recorded events.");
}

}  // namespace cujit
