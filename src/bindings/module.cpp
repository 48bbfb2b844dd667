// The extension module cujit._core: each binding file defines its part.
#include <pybind11/pybind11.h>

#include "bindings/common.h"

namespace py = pybind11;

namespace cujit {
void define_errors(py::module_& m);
void define_runtime(py::module_& m);
void define_device_array(py::module_& m);
void define_compiler(py::module_& m);
void define_ufunc(py::module_& m);
void define_kernel(py::module_& m);
void define_cpu(py::module_& m);
void define_cpu_ufunc(py::module_& m);
void define_streams(py::module_& m);
void define_host_memory(py::module_& m);
void define_records(py::module_& m);

namespace {
// tp_new of the classes only C++ makes (device arrays, streams, events, pinned allocations):
// `DeviceNDArray.__new__(DeviceNDArray)` would give an object with no C++ value behind it, whose
// methods pybind11 would run on uninitialised memory. C++ makes them without tp_new.
PyObject* refuse_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_Format(PyExc_TypeError, "cannot create '%s' instances directly: cujit's functions make them", type->tp_name);
  return nullptr;
}
// numba-cuda's DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None): a new array made
// by cujit's functions (devicearray._construct), so the object is a whole one; its tp_init then
// has nothing left to do.
PyObject* device_array_new(PyTypeObject*, PyObject* args, PyObject* kwargs) {
  try {
    py::object make = py::module_::import("cujit.cuda.cudadrv.devicearray").attr("_construct");
    py::object r = make(*py::reinterpret_borrow<py::tuple>(args),
                        **(kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict()));
    return r.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  }
}
int device_array_init(PyObject*, PyObject*, PyObject*) { return 0; }
}  // namespace
}  // namespace cujit

PYBIND11_MODULE(_core, m) {
  m.doc() = "cujit's C++ core: compiler, toolchain and CUDA runtime.";
  cujit::define_errors(m);
  cujit::define_runtime(m);
  cujit::define_device_array(m);
  cujit::define_compiler(m);
  cujit::define_ufunc(m);
  cujit::define_kernel(m);
  cujit::define_cpu(m);
  cujit::define_cpu_ufunc(m);
  cujit::define_streams(m);
  cujit::define_host_memory(m);
  cujit::define_records(m);
  for (const char* name : {"DeviceNDArray", "Stream", "Event", "HostAllocation", "_StreamAutoSynchronize"})
    reinterpret_cast<PyTypeObject*>(m.attr(name).ptr())->tp_new = cujit::refuse_new;
  auto* darr = reinterpret_cast<PyTypeObject*>(m.attr("DeviceNDArray").ptr());
  darr->tp_new = cujit::device_array_new;
  darr->tp_init = cujit::device_array_init;
  m.def("set_check_ptx", &cujit::set_check_ptx, "Also compile simulator programs to PTX (CUJIT_CHECK_PTX).");
  m.def("_nvrtc_warmup", &cujit::nvrtc_warmup, pybind11::arg("arch"), pybind11::arg("wait") = true,
        "NVRTC's warm-up for `arch` (what the first GPU context starts): loads NVRTC and writes the prelude's PCH.");
  cujit::register_nvrtc_warmup();
}
