// DeviceArray: an n-dimensional view (dtype, shape, byte strides) of device memory on one backend
// — what Python sees as cujit.cuda.DeviceNDArray — and its conversions to and from NumPy arrays
// and __cuda_array_interface__ objects. The bindings (bindings/runtime.cpp) and the kernel and
// ufunc dispatchers use these; the copies themselves are memory.h's.
//
// Functions taking py:: objects need the GIL; they release it around the copies.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/types.h"
#include "runtime/memory.h"

namespace cujit::rt {

struct DeviceArray {
  std::shared_ptr<Buffer> buf;  // keeps the memory alive; may be shared by several views
  char* data = nullptr;         // element [0, 0, ...] (within buf; may be past its start when a stride is negative)
  Scalar dtype = Scalar::Float64;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // bytes, one per dimension
  bool readonly = false;         // from a read-only __cuda_array_interface__
  // numba-cuda's DeviceNDArray.stream: the Python stream object given at creation or by .bind(),
  // the default for the array's copies when none is passed. Opaque here (the bindings hold it and
  // drop it with the GIL); views inherit it.
  std::shared_ptr<void> bound_stream;

  int ndim() const { return int(shape.size()); }
  int64_t itemsize() const;
  int64_t size() const;    // the number of elements (1 for 0-d)
  int64_t nbytes() const;  // size() * itemsize()
  /// NumPy's rules: dimensions of length 1 may have any stride; an empty array is both.
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  Backend backend() const { return buf ? buf->backend : Backend::Sim; }
  /// The byte range [*lo, *hi) relative to `data` that the elements occupy (both 0 when empty).
  void extent(int64_t* lo, int64_t* hi) const;
};

/// NumPy's spelling of a shape or strides tuple, for messages: "(2, 3)", "(5,)", "()".
std::string shape_str(const std::vector<int64_t>& s);

/// A NumPy array viewing a simulator array's memory in place (it keeps the Buffer alive). Only
/// for Backend::Sim, whose device memory is host memory.
pybind11::array sim_view(const DeviceArray& a);

/// The cujit scalar of a NumPy dtype (by kind and size, so np.intc and np.int32 agree), or false
/// for dtypes cujit has no scalar for (complex, object, structured, non-native byte order, ...).
bool scalar_from_numpy_dtype(pybind11::dtype dt, Scalar* out);
/// The NumPy dtype of a cujit scalar (np.dtype('float32') for Float32).
pybind11::dtype numpy_dtype(Scalar s);

/// A new, uninitialised array on `backend`, C ('C') or Fortran ('F') ordered. Throws
/// std::invalid_argument for a negative dimension, another order, or a size past the address space.
std::shared_ptr<DeviceArray> new_device_array(Backend backend, Scalar dtype, std::vector<int64_t> shape,
                                              char order, void* stream = nullptr);
/// A new array with the given byte strides (any sign, multiples of the itemsize); the allocation
/// covers exactly the bytes they reach.
std::shared_ptr<DeviceArray> new_device_array_strided(Backend backend, Scalar dtype, std::vector<int64_t> shape,
                                                      std::vector<int64_t> strides, void* stream = nullptr);

/// A device copy of the host array `arr` on `backend` (the current backend when not given): a C
/// array stays C, an F array stays F, anything else becomes C. `copy` false allocates without
/// copying the data. Throws pybind11::type_error for a dtype cujit does not support.
std::shared_ptr<DeviceArray> device_array_from_numpy(pybind11::array arr, bool copy);
std::shared_ptr<DeviceArray> device_array_from_numpy(pybind11::array arr, bool copy, Backend backend,
                                                     void* stream = nullptr);

/// Copies `a` to the host: into `out` (a NumPy array of the same shape and dtype, any layout) or,
/// when `out` is None, into a new array (Fortran order if `a` is F- and not C-contiguous, else C).
/// Returns the array written. Non-contiguous device views are copied correctly.
/// Throws pybind11::type_error / value_error when `out` does not fit.
pybind11::array device_array_to_numpy(const DeviceArray& a, pybind11::object out, void* stream = nullptr);

/// Copies the host array `src` (same shape; its dtype must equal dst's, a non-native byte order of
/// it is converted) into `dst`, whatever the two layouts.
void copy_numpy_to_device_array(DeviceArray& dst, pybind11::array src, void* stream = nullptr);
/// Copies device array `src` into `dst` (same shape and dtype). Throws std::invalid_argument when
/// they are on different backends.
void copy_device_array(DeviceArray& dst, const DeviceArray& src, void* stream = nullptr);

/// A GPU DeviceArray viewing the memory another library exports through __cuda_array_interface__
/// (versions 0 to 3); it keeps `obj` alive. When the interface names a stream, that stream is
/// synchronised first, as the protocol asks. Throws pybind11::type_error / value_error when the
/// interface is malformed or its dtype unsupported.
std::shared_ptr<DeviceArray> device_array_from_cai(pybind11::handle obj);

/// The __cuda_array_interface__ dict (version 3) of a GPU array. Throws std::invalid_argument for
/// a simulator array, which has no GPU memory to export.
pybind11::dict cuda_array_interface(const DeviceArray& a);

}  // namespace cujit::rt
