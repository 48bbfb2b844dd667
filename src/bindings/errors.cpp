// C++ exceptions -> the Python classes of cujit.errors (python/cujit/errors.py). The classes are
// looked up when an exception is translated, not at import, so _core can be imported before
// cujit.errors (or without the package at all: the fallback is a RuntimeError with the message).
#include <pybind11/pybind11.h>

#include <exception>
#include <string>

#include "compiler/diagnostics.h"
#include "abi/errors.h"
#include "runtime/simulator.h"
#include "toolchain/host_compiler.h"
#include "toolchain/nvrtc.h"

namespace py = pybind11;

namespace cujit {
namespace {

// Sets the Python error to cujit.errors.<cls>(message) with `attrs` set on the instance. Must not
// throw: it runs inside pybind11's translator, with the C++ exception being handled.
template <typename Attrs>
void raise(const char* cls, const std::string& message, Attrs&& attrs) {
  try {
    py::object type = py::module_::import("cujit.errors").attr(cls);
    py::object exc = type(message);
    attrs(exc);
    PyErr_SetObject(type.ptr(), exc.ptr());
  } catch (const std::exception& e) {
    // cujit.errors is missing or broken: still report the original error, and why.
    std::string text = std::string(cls) + ": " + message + "\n(cujit.errors could not be used: " + e.what() + ")";
    PyErr_SetString(PyExc_RuntimeError, text.c_str());
  }
}

void raise(const char* cls, const std::string& message) {
  raise(cls, message, [](py::object&) {});
}

const char* compile_error_class(ErrorKind k) {
  switch (k) {
    case ErrorKind::Typing: return "TypingError";
    case ErrorKind::Unsupported: return "UnsupportedError";
    case ErrorKind::Syntax: return "CompileSyntaxError";
  }
  return "TypingError";
}

// Ctrl-C during a simulated launch or a compile (runtime/simulator.h InterruptHooks). Python runs
// signal handlers on the main thread only, so only it polls; PyErr_CheckSignals needs the GIL,
// which the waiting thread released. The handler's exception (KeyboardInterrupt, or whatever a
// user's handler raised) is kept here, with the GIL, until the translator raises it.
unsigned long g_main_thread = 0;
PyObject *g_pending_type = nullptr, *g_pending_value = nullptr, *g_pending_tb = nullptr;

bool can_poll() { return g_main_thread != 0 && PyThread_get_thread_ident() == g_main_thread; }

bool poll_signals() {
  if (!Py_IsInitialized()) return false;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0) return false;
  Py_XDECREF(g_pending_type);
  Py_XDECREF(g_pending_value);
  Py_XDECREF(g_pending_tb);
  PyErr_Fetch(&g_pending_type, &g_pending_value, &g_pending_tb);
  return true;
}

void raise_interrupted() {
  if (g_pending_type) {
    PyErr_Restore(g_pending_type, g_pending_value, g_pending_tb);
    g_pending_type = g_pending_value = g_pending_tb = nullptr;
  } else {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
  }
}

}  // namespace

void define_errors(py::module_& m) {
  (void)m;
  try {
    g_main_thread = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  } catch (const std::exception&) {
    g_main_thread = 0;  // no polling: launches and compiles then ignore Ctrl-C, as before
  }
  rt::set_interrupt_hooks({&can_poll, &poll_signals});
  toolchain::set_interrupt_poll([] { return can_poll() && poll_signals(); });
  // Most derived classes first: the first matching catch wins. Exceptions not listed fall
  // through (rethrown) to pybind11's own translators (std::invalid_argument -> ValueError, ...).
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const rt::Interrupted&) {
      raise_interrupted();
    } catch (const rt::CudaOutOfMemoryError& e) {
      raise("CudaOutOfMemoryError", e.what(), [&](py::object& x) {
        x.attr("call") = e.call;
        x.attr("code") = e.code;
        x.attr("name") = e.name;
        x.attr("requested") = e.requested;
        x.attr("free") = e.free_bytes;
        x.attr("total") = e.total_bytes;
      });
    } catch (const rt::ContextLostError& e) {
      raise("CudaContextLostError", e.what(), [&](py::object& x) {
        x.attr("call") = e.call;
        x.attr("code") = e.code;
        x.attr("name") = e.name;
      });
    } catch (const rt::CudaAPIError& e) {
      raise("CudaAPIError", e.what(), [&](py::object& x) {
        x.attr("call") = e.call;
        x.attr("code") = e.code;
        x.attr("name") = e.name;
      });
    } catch (const rt::CudaSupportError& e) {
      raise("CudaSupportError", e.what());
    } catch (const rt::CudaDriverError& e) {
      raise("CudaDriverError", e.what());
    } catch (const rt::NvrtcCompileError& e) {
      raise("NvrtcError", e.what(), [&](py::object& x) {
        x.attr("log") = e.log;
        x.attr("arch") = e.arch;
        x.attr("code") = e.code;
        x.attr("program_name") = e.program_name;
      });
    } catch (const rt::HostCompileError& e) {
      raise("ToolchainError", e.what(), [&](py::object& x) {
        x.attr("output") = e.output;
        x.attr("command") = e.command;
      });
    } catch (const rt::ToolchainError& e) {
      raise("ToolchainError", e.what());
    } catch (const CompileError& e) {
      raise(compile_error_class(e.kind), e.what(), [&](py::object& x) {
        x.attr("msg") = e.message;
        x.attr("filename") = e.filename;
        x.attr("lineno") = e.loc.line;
        x.attr("col") = e.loc.col;
        if (e.kind == ErrorKind::Syntax) x.attr("offset") = e.loc.col + 1;  // SyntaxError's is 1-based
      });
    } catch (const rt::KernelIndexError& e) {
      raise("KernelIndexError", e.what());
    } catch (const rt::SimulatorIndexError& e) {
      raise("SimulatorIndexError", e.what());
    } catch (const rt::SimulatorRaceError& e) {
      raise("SimulatorRaceError", e.what());
    } catch (const rt::SimulatorError& e) {
      raise("SimulatorError", e.what());
    } catch (const InternalError& e) {
      raise("InternalError", e.what());
    }
  });
}

}  // namespace cujit
