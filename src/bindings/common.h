// What the binding files share: turning a Build into loaded code for a backend, and reading a
// Python stream argument.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>

#include "pipeline.h"
#include "runtime/launch.h"

namespace cujit {

/// Compiles (through the disk cache) and loads `b` for `backend`: NVRTC for the GPU's own
/// architecture, or the host compiler for the simulator (plus an NVRTC check to PTX when
/// check_ptx is on, so CI proves the GPU code builds). Releases the GIL while compiling.
std::shared_ptr<rt::LoadedModule> load_build(const Build& b, rt::Backend backend);

/// The CUstream for a Python stream argument: 0 or None is the default stream.
void* stream_handle(const pybind11::object& stream);

/// True for an object whose type is exactly numpy.ndarray. Subclasses may carry
/// __cuda_array_interface__ (cuda.mapped_array's MappedNDArray: host memory the GPU can address),
/// which then takes precedence over the host-array path.
bool is_exact_ndarray(const pybind11::handle& h);

/// On the simulator, also compile every program to PTX (CUJIT_CHECK_PTX; the tests turn it on).
void set_check_ptx(bool on);

}  // namespace cujit
