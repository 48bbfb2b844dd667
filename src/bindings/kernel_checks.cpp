// See kernel_checks.h.
#include "bindings/kernel_checks.h"

#include <pybind11/pybind11.h>

#include <string>

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
  for (const KArg& a : args)
    if (a.dev && a.dev->buf) a.dev->buf->check_live();
}

void check_index_fault(const KernelBuild& b, rt::LoadedModule& m, void* stream) {
  rt::LoadedModule::IndexFault f{};
  bool faulted;
  {
    py::gil_scoped_release nogil;
    faulted = m.take_index_fault(stream, &f);
  }
  if (!faulted) return;
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

}  // namespace cujit
