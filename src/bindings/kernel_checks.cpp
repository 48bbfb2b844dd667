// See kernel_checks.h.
#include "bindings/kernel_checks.h"

#include <pybind11/pybind11.h>

#include <string>

#include "bindings/exceptions.h"
#include "runtime/driver.h"
#include "runtime/errors.h"

namespace py = pybind11;

namespace cujit {

void check_launch(const KernelBuild& b, rt::Backend backend, size_t shared_bytes, const std::vector<KArg>& args) {
  (void)b;
  const size_t max_shared = backend == rt::Backend::GPU
                                ? (size_t)rt::device_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
                                : (size_t)rt::kSimMaxSharedOptin;
  if (shared_bytes > max_shared)
    throw py::value_error("the launch asks for " + std::to_string(shared_bytes) + " bytes of dynamic shared memory (" +
                          rt::format_bytes(shared_bytes) + "); the " +
                          (backend == rt::Backend::GPU ? "device" : "simulator (an H100's limit)") + " allows at most " +
                          std::to_string(max_shared) + " bytes (" + rt::format_bytes(max_shared) + ") per block");
  for (const KArg& arg : args)
    for_each_item(arg, [](const KArg& a) { if (a.dev && a.dev->buf) a.dev->buf->check_live(); });
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
// cujit.config's setting `name` is true (read at each use: numba-cuda's override_config and user
// code set these module attributes at run time). The module objects are kept for the process's
// life, never released (their destructors must not run after the interpreter is gone).
bool config_on(const char* name) {
  static PyObject* config = py::module_::import("cujit.config").release().ptr();
  py::object v = py::reinterpret_steal<py::object>(PyObject_GetAttrString(config, name));
  if (!v) throw py::error_already_set();
  int on = PyObject_IsTrue(v.ptr());
  if (on < 0) throw py::error_already_set();
  return on != 0;
}

void performance_warning(const std::string& msg) {
  if (config_on("DISABLE_PERFORMANCE_WARNINGS")) return;
  static PyObject* cls = py::object(py::module_::import("cujit.errors").attr("NumbaPerformanceWarning")).release().ptr();
  if (PyErr_WarnEx(cls, msg.c_str(), 1) < 0) throw py::error_already_set();
}
}  // namespace

void warn_low_occupancy(const rt::Dim3& grid) {
  // numba-cuda's heuristic bound: about twice the multiprocessors of a large GPU.
  const uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
  if (blocks >= 128 || !config_on("CUDA_LOW_OCCUPANCY_WARNINGS")) return;
  performance_warning("Grid size " + std::to_string(blocks) +
                      " will likely result in GPU under-utilization due to low occupancy.");
}

void warn_implicit_copy() {
  if (!config_on("CUDA_WARN_ON_IMPLICIT_COPY")) return;
  performance_warning("Host array used in CUDA kernel will incur copy overhead to/from device.");
}

}  // namespace cujit
