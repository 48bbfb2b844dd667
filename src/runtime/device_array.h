// DeviceArray: an n-dimensional view (dtype, shape, byte strides) of device memory on one backend
// — what Python sees as cujit.cuda.DeviceNDArray — and its allocation. Its conversions to and from
// NumPy arrays and __cuda_array_interface__ objects are the bindings' (bindings/numpy_arrays.h):
// no Python here. The copies themselves are memory.h's.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/types.h"
#include "runtime/memory.h"

namespace cujit::rt {

/// A device array's element type: a scalar of the type table, or a record (a structured NumPy
/// dtype, read once by bindings/records.cpp into the compiler's Record, the layout kernels use).
/// There is no conversion to Scalar: code that handles scalars only asks is_record() first.
struct Dtype {
  Scalar scalar = Scalar::Float64;  // when !record
  RecordPtr record;                 // a record's layout, else null
  Dtype() = default;
  Dtype(Scalar s) : scalar(s) {}  // NOLINT(google-explicit-constructor): every scalar is a dtype
  explicit Dtype(RecordPtr r) : record(std::move(r)) {}
  bool is_record() const { return record != nullptr; }
  int64_t itemsize() const { return record ? record->size : scalar_size(scalar); }
  /// Numba's name: "float32", or the Record's spelling.
  std::string name() const { return record ? record->spelling : std::string(scalar_name(scalar)); }
  /// The type of an array of this dtype, as kernels are typed for it.
  Type array_type(int ndim, char layout) const {
    return record ? Type::record_array(record, ndim, layout) : Type::array(scalar, ndim, layout);
  }
  bool operator==(const Dtype& o) const {
    if (record || o.record) return record && o.record && record->spelling == o.record->spelling;
    return scalar == o.scalar;
  }
  bool operator!=(const Dtype& o) const { return !(*this == o); }
};

struct DeviceArray {
  std::shared_ptr<Buffer> buf;  // keeps the memory alive; may be shared by several views
  char* data = nullptr;         // element [0, 0, ...] (within buf; may be past its start when a stride is negative)
  Dtype dtype;
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

/// Whether elements with these shape/strides fit in [lo, hi) bytes around element 0 without
/// overflowing int64. Sets *lo, *hi (both 0 for an empty array).
bool checked_extent(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t itemsize,
                    int64_t* lo, int64_t* hi);
/// Throws std::invalid_argument ("WHAT: negative dimensions are not allowed, ...") for a negative one.
void check_shape(const std::vector<int64_t>& shape, const char* what);

/// A new, uninitialised array on `backend`, C ('C') or Fortran ('F') ordered. Throws
/// std::invalid_argument for a negative dimension, another order, or a size past the address space.
std::shared_ptr<DeviceArray> new_device_array(Backend backend, const Dtype& dtype, std::vector<int64_t> shape,
                                              char order, void* stream = nullptr);
/// A new array with the given byte strides (any sign, multiples of the itemsize); the allocation
/// covers exactly the bytes they reach.
std::shared_ptr<DeviceArray> new_device_array_strided(Backend backend, const Dtype& dtype, std::vector<int64_t> shape,
                                                      std::vector<int64_t> strides, void* stream = nullptr);

}  // namespace cujit::rt
