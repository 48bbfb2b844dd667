// Device arrays and NumPy: conversions between rt::DeviceArray (runtime/device_array.h) and NumPy
// arrays, dtypes and __cuda_array_interface__ objects, and the copies that need NumPy to place
// elements. Used by the DeviceNDArray bindings and the kernel and ufunc dispatchers.
//
// Functions taking py:: objects need the GIL; they release it around the copies.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/device_array.h"

namespace cujit {

/// A NumPy array viewing a simulator array's memory in place (it keeps the Buffer alive). Only
/// for rt::Backend::Sim, whose device memory is host memory.
pybind11::array sim_view(const rt::DeviceArray& a);

/// The cujit scalar of a NumPy dtype (by kind and size, so np.intc and np.int32 agree), or false
/// for dtypes cujit has no scalar for (complex, object, structured, non-native byte order, ...).
bool scalar_from_numpy_dtype(pybind11::dtype dt, Scalar* out);
/// A NumPy array's shape as the runtime holds shapes.
inline std::vector<int64_t> shape_of(const pybind11::array& a) { return std::vector<int64_t>(a.shape(), a.shape() + a.ndim()); }
/// The NumPy dtype of a cujit scalar (np.dtype('float32') for Float32).
pybind11::dtype numpy_dtype(Scalar s);
/// A device array's dtype from NumPy's: a scalar, or a structured dtype (its Record, records.h);
/// false for what a device array cannot hold (complex, object, non-native byte order, ...).
/// Throws TypeError for a structured dtype with a field compiled code cannot hold.
bool dtype_from_numpy(pybind11::dtype dt, rt::Dtype* out);
/// The scalar dtype of `a` for code that handles scalars only (ufuncs, DLPack): a TypeError naming
/// `what` for a device array of record dtype.
Scalar scalar_dtype(const rt::DeviceArray& a, const char* what);
/// The NumPy dtype of a device array's dtype (the structured dtype a Record was read from).
pybind11::dtype numpy_dtype(const rt::Dtype& d);

/// A device copy of the host array `arr` on `backend` (the current backend when not given): a C
/// array stays C, an F array stays F, anything else becomes C. `copy` false allocates without
/// copying the data. Throws pybind11::type_error for a dtype cujit does not support.
std::shared_ptr<rt::DeviceArray> device_array_from_numpy(pybind11::array arr, bool copy);
std::shared_ptr<rt::DeviceArray> device_array_from_numpy(pybind11::array arr, bool copy, rt::Backend backend,
                                                     void* stream = nullptr);

/// A new, uninitialised NumPy array for a result cujit fills (C order, or Fortran order when
/// `fortran`). From 32 MiB up (HostBlockConfig::min_bytes) its data is a block of
/// runtime/host_blocks.h, mapped and faulted in already, reused from an earlier result when one
/// fits; the array owns it as np.empty's array owns its data (bindings/host_results.cpp).
/// `pinned` (the ufunc host path's split calls): from pinned_min_bytes (1 MiB) up the block is
/// page-locked on `backend`'s GPU, so the pipeline DMAs the result straight into it.
pybind11::array new_host_array(const pybind11::dtype& dt, const std::vector<int64_t>& shape, bool fortran = false,
                               bool pinned = false, rt::Backend backend = rt::Backend::GPU);
/// _core's functions of the host blocks (settings, counters; for tests and benchmarks).
void define_host_results(pybind11::module_& m);

/// Copies `a` to the host: into `out` (a NumPy array of the same shape and dtype, any layout) or,
/// when `out` is None, into a new array (Fortran order if `a` is F- and not C-contiguous, else C).
/// Returns the array written. Non-contiguous device views are copied correctly.
/// Throws pybind11::type_error / value_error when `out` does not fit.
pybind11::array device_array_to_numpy(const rt::DeviceArray& a, pybind11::object out, void* stream = nullptr);

/// Copies the host array `src` (same shape; its dtype must equal dst's, a non-native byte order of
/// it is converted) into `dst`, whatever the two layouts.
void copy_numpy_to_device_array(rt::DeviceArray& dst, pybind11::array src, void* stream = nullptr);
/// Copies device array `src` into `dst` (same shape and dtype). Throws std::invalid_argument when
/// they are on different backends.
void copy_device_array(rt::DeviceArray& dst, const rt::DeviceArray& src, void* stream = nullptr);

/// A GPU rt::DeviceArray viewing the memory another library exports through __cuda_array_interface__
/// (versions 0 to 3); it keeps `obj` alive. When the interface names a stream, that stream is
/// synchronised first, as the protocol asks. Throws pybind11::type_error / value_error when the
/// interface is malformed or its dtype unsupported.
std::shared_ptr<rt::DeviceArray> device_array_from_cai(pybind11::handle obj);

/// The __cuda_array_interface__ dict (version 3) of a GPU array. Throws std::invalid_argument for
/// a simulator array, which has no GPU memory to export.
pybind11::dict cuda_array_interface(const rt::DeviceArray& a);

}  // namespace cujit
