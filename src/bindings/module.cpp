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
  m.def("set_check_ptx", &cujit::set_check_ptx, "Also compile simulator programs to PTX (CUJIT_CHECK_PTX).");
}
