// Writing into device arrays from Python values: DeviceNDArray.__setitem__ (and anything else that
// assigns with broadcasting and dtype conversion).
#pragma once
#include <pybind11/pybind11.h>

#include "bindings/numpy_arrays.h"

namespace cujit {

/// dst[...] = value, as Numba's DeviceNDArray.__setitem__ does it: `value` (a scalar, a sequence,
/// a NumPy array or a device array) is broadcast to dst's shape, with size-1 and missing leading
/// dimensions stretched, and converted to dst's dtype as a C cast would. Throws
/// pybind11::value_error when the shapes do not fit (naming both).
///
/// The simulator does it with NumPy on the host memory that stands in for device memory; the GPU
/// copies directly when the layouts match, else launches an assignment loop (the CUDA ufunc
/// machinery: any strides, broadcast dimensions read with stride 0).
void assign(rt::DeviceArray& dst, const pybind11::handle& value, void* stream);

}  // namespace cujit
