// The staged host path of a CUDA ufunc call from Python: bindings/ufunc.cpp offers each call here
// first; this file decides whether the call fits runtime/ufunc_pipeline.h and runs it there.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <vector>

#include "pipeline.h"
#include "bindings/numpy_arrays.h"
#include "runtime/launch.h"
#include "runtime/ufunc_mapped.h"

namespace cujit {

/// An input of a call: a host array (a scalar already made a 1-element array of the signature's
/// type) or a device array.
struct UfuncInput {
  pybind11::array host;
  std::shared_ptr<rt::DeviceArray> dev;
};

/// Runs the call through the staged host path when it fits: the backend is the GPU (or the
/// simulator when the tests ask), some input or the result is a host array, every host array is
/// C-contiguous, the operands broadcast and `out=` matches (a host out= also C-contiguous,
/// writeable and sharing no memory with a host input unless it is that input exactly). Returns
/// the result, or a null object when the call does not fit or the staging set is busy: the
/// caller then takes the general path, which also raises whatever error the call deserves.
/// `out_dev` / `out_host`: the out= argument as a device array, or as a host array (None: no out=).
/// `rep`, when given, describes a call that took the mapped path (runtime/ufunc_mapped.h).
pybind11::object ufunc_host_path(const std::vector<UfuncInput>& in, const UfuncVariant& v,
                                 const std::shared_ptr<rt::DeviceArray>& out_dev, const pybind11::object& out_host,
                                 bool device_result, rt::Backend backend, void* stream,
                                 const std::function<rt::LoadedModule&()>& module, rt::MappedRepeat* rep = nullptr);

/// _core's private knobs of the host path, for the tests and the benchmarks.
void define_ufunc_host(pybind11::module_& m);

}  // namespace cujit
