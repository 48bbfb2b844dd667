// See kernel_checks.h.
#include "bindings/kernel_checks.h"

#include <pybind11/pybind11.h>

#include <string>

#include "bindings/exceptions.h"
#include "runtime/driver.h"
#include "abi/errors.h"

namespace py = pybind11;

namespace cujit {

void check_launch(const KernelBuild& b, rt::Backend backend, size_t shared_bytes, const std::vector<KArg>& args) {
  const size_t max_shared = backend == rt::Backend::GPU
                                ? (size_t)rt::device_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
                                : (size_t)rt::kSimMaxSharedOptin;
  if (shared_bytes > max_shared)
    throw py::value_error("the launch asks for " + std::to_string(shared_bytes) + " bytes of dynamic shared memory (" +
                          rt::format_bytes(shared_bytes) + "); the " +
                          (backend == rt::Backend::GPU ? "device" : "simulator (an H100's limit)") + " allows at most " +
                          std::to_string(max_shared) + " bytes (" + rt::format_bytes(max_shared) + ") per block");
  const std::string work = "launch of kernel " + b.name;
  for (const KArg& arg : args)
    for_each_item(arg, [&](const KArg& a) {
      if (!a.dev || !a.dev->buf) return;
      a.dev->buf->check_live();
      a.dev->buf->check_device("a device array argument", work.c_str());
    });
}

void check_index_fault(const KernelBuild& b, rt::LoadedModule& m, void* stream) {
  rt::LoadedModule::IndexFault f{};
  bool faulted;
  {
    py::gil_scoped_release nogil;
    faulted = m.take_index_fault(stream, &f);
  }
  if (!faulted) return;
  if (f.axis == -1) raise_kernel_exception(b, f.site, f.thread, f.block);  // a raise (prelude/cuda.h gpu_raise)
  std::string array = "array", where = "?";
  if (f.site >= 0 && (size_t)f.site < b.check_sites.size()) {
    array = b.check_sites[f.site].array;
    where = name_files(b.check_sites[f.site].where, b.file_order);
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "index %lld is out of bounds for axis %d of '", (long long)f.index, f.axis);
  std::string msg = buf + array + "' with size " + std::to_string(f.size);
  std::snprintf(buf, sizeof buf, ", in thread (%u, %u, %u) of block (%u, %u, %u), at ", f.thread[0], f.thread[1],
                f.thread[2], f.block[0], f.block[1], f.block[2]);
  msg += buf + where + " (kernel " + b.name + ", debug=True; the thread stopped there, the rest of the launch ran)";
  throw rt::KernelIndexError(msg);
}

namespace {
// A name as an interned str, made once: the lookups below run at every launch of a small grid,
// and a str made from a char* each time must be allocated, decoded and hashed (most of their cost).
PyObject* interned(const char* name) {
  PyObject* s = PyUnicode_InternFromString(name);
  if (!s) throw py::error_already_set();
  return s;  // kept for the process's life
}

// Bumped by cujit.config's module type at every setattr/delattr (config_changed below): the
// launch path keeps the settings it reads, and reads them again only after a change.
uint64_t config_generation = 1;

// cujit.config's setting `name` is true (numba-cuda's override_config and user code set these
// module attributes at run time). Read again only after the module changed: a module getattr at
// each small-grid launch was a third of the low-occupancy check's cost. The module object is kept
// for the process's life, never released (its destructor must not run after the interpreter).
struct ConfigFlag {
  const char* name;
  PyObject* key = nullptr;
  uint64_t generation = 0;
  bool on = false;
};

bool config_on(ConfigFlag& flag) {
  if (flag.generation == config_generation) return flag.on;
  static PyObject* config = py::module_::import("cujit.config").release().ptr();
  if (!flag.key) flag.key = interned(flag.name);
  py::object v = py::reinterpret_steal<py::object>(PyObject_GetAttr(config, flag.key));
  if (!v) throw py::error_already_set();
  int on = PyObject_IsTrue(v.ptr());
  if (on < 0) throw py::error_already_set();
  flag.on = on != 0;
  flag.generation = config_generation;
  return flag.on;
}

// The last warning PyErr_WarnEx recorded as shown in its caller's __warningregistry__ (the
// default filter's "once per text, category and line"). Why: numba-cuda warns at every
// kernel[config] of a small grid, and PyErr_WarnEx takes 1-4 us to find it was shown already,
// which doubled the host cost of such a launch (benchmarks/launch.py). When the same place in the
// same code warns the same text again, with warnings.filters the same list of the same length
// and the registry still at the version it had, CPython would print nothing, so the call is
// skipped. One case differs: leaving a catch_warnings block restores the same list, where CPython
// would show the warning once more; a warning already shown at that place is not shown again here.
struct LastWarning {
  PyObject* code = nullptr;  // identities only (borrowed): compared, never dereferenced
  int lasti = -1;            // the caller's instruction: same code and offset, same line
  PyObject* globals = nullptr;
  PyObject* filters = nullptr;
  Py_ssize_t nfilters = -1;
  uint64_t what = 0;  // which text (performance_warning's `what`)
  PyObject* key = nullptr;  // owned: CPython's registry key (text, category, line)
  long version = -1;
};

PyObject* warning_registry(PyObject* globals) {
  static PyObject* name = interned("__warningregistry__");
  PyObject* r = globals ? PyDict_GetItem(globals, name) : nullptr;
  return r && PyDict_Check(r) ? r : nullptr;
}

long registry_version(PyObject* registry) {
  static PyObject* name = interned("version");
  PyObject* v = PyDict_GetItem(registry, name);
  return v && PyLong_CheckExact(v) ? PyLong_AsLong(v) : -2;
}

// `what` names the text (a kind and a number): the repeated case compares it instead of building
// and comparing the text, which `text()` makes only when CPython is called.
template <typename Text>
void performance_warning(uint64_t what, Text text) {
  static ConfigFlag disabled{"DISABLE_PERFORMANCE_WARNINGS"};
  if (config_on(disabled)) return;
  static PyObject* cls = py::object(py::module_::import("cujit.errors").attr("NumbaPerformanceWarning")).release().ptr();
  static PyObject* warnings = py::module_::import("warnings").release().ptr();
  static PyObject* filters_name = interned("filters");
  static LastWarning last;
  PyFrameObject* frame = PyEval_GetFrame();
  PyObject* globals = PyEval_GetGlobals();
  py::object filters = py::reinterpret_steal<py::object>(PyObject_GetAttr(warnings, filters_name));
  if (!filters) throw py::error_already_set();
  const Py_ssize_t nfilters = PyList_Check(filters.ptr()) ? PyList_GET_SIZE(filters.ptr()) : -1;
  py::object code = frame ? py::reinterpret_steal<py::object>((PyObject*)PyFrame_GetCode(frame)) : py::object();
  const int lasti = frame ? PyFrame_GetLasti(frame) : -1;
  if (last.key && frame && code.ptr() == last.code && lasti == last.lasti && globals == last.globals &&
      filters.ptr() == last.filters && nfilters == last.nfilters && what == last.what) {
    PyObject* registry = warning_registry(globals);
    if (registry && registry_version(registry) == last.version) {
      PyObject* shown = PyDict_GetItemWithError(registry, last.key);
      if (shown && PyObject_IsTrue(shown) == 1) return;
      if (PyErr_Occurred()) throw py::error_already_set();
    }
  }
  const std::string msg = text();
  if (PyErr_WarnEx(cls, msg.c_str(), 1) < 0) throw py::error_already_set();
  Py_CLEAR(last.key);
  PyObject* registry = frame ? warning_registry(globals) : nullptr;
  if (!registry || nfilters < 0) return;
  py::object key = py::make_tuple(py::str(msg), py::handle(cls), PyFrame_GetLineNumber(frame));
  // The registry's own key object, kept: a later lookup with it matches by identity, where an
  // equal tuple would compare the text character by character at every launch.
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  PyObject* own = nullptr;
  while (!own && PyDict_Next(registry, &pos, &k, &v)) {
    int eq = PyObject_RichCompareBool(k, key.ptr(), Py_EQ);
    if (eq < 0) throw py::error_already_set();
    if (eq && PyObject_IsTrue(v) == 1) own = k;
  }
  if (!own) return;  // "always", or a filter that did not record it
  Py_INCREF(own);
  last = LastWarning{code.ptr(), lasti, globals, filters.ptr(), nfilters, what, own, registry_version(registry)};
}
}  // namespace

void config_changed() { ++config_generation; }

void warn_low_occupancy(const rt::Dim3& grid) {
  // numba-cuda's heuristic bound: about twice the multiprocessors of a large GPU.
  const uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
  static ConfigFlag setting{"CUDA_LOW_OCCUPANCY_WARNINGS"};
  if (blocks >= 128 || !config_on(setting)) return;
  performance_warning(blocks + 1, [blocks] {  // 0 is the implicit copy's text
    return "Grid size " + std::to_string(blocks) + " will likely result in GPU under-utilization due to low occupancy.";
  });
}

void warn_implicit_copy() {
  static ConfigFlag setting{"CUDA_WARN_ON_IMPLICIT_COPY"};
  if (!config_on(setting)) return;
  performance_warning(0, [] { return std::string("Host array used in CUDA kernel will incur copy overhead to/from device."); });
}

}  // namespace cujit
