// Views of device arrays: indexing, reshape, ravel, transpose, dtype views, split and squeeze.
// Each returns a DeviceArray sharing the Buffer of its source (no device memory is touched), with
// NumPy's results for shape and strides. Pure C++: the bindings (bindings/device_array.cpp) turn
// Python keys into IndexItems and these exceptions into Python's.
//
// Errors: std::out_of_range (an index past a dimension: IndexError), std::invalid_argument (a bad
// key, shape or axis: ValueError), RequiresCopy (a reshape/ravel the strides cannot express as a
// view: NotImplementedError, as in Numba).
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "runtime/device_array.h"

namespace cujit::rt {

/// Numba's DeviceNDArray.reshape/ravel refuse to copy; the bindings raise NotImplementedError.
class RequiresCopy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One item of an index key, already resolved against nothing (slices keep Python's raw values).
struct IndexItem {
  enum class Kind { Int, Slice, NewAxis, Ellipsis } kind = Kind::Int;
  int64_t index = 0;  // Int: may be negative (counts from the end)
  // Slice: Python's start/stop/step; has_* false where the key left them out (None).
  int64_t start = 0, stop = 0, step = 1;
  bool has_start = false, has_stop = false;
};

/// a[key]. `*element` is set when every dimension was indexed by an integer (the result is then
/// a 0-d view of that element, which Python turns into a scalar).
DeviceArray index(const DeviceArray& a, const std::vector<IndexItem>& key, bool* element);

/// a.reshape(shape, order): one dimension may be -1. A view when the layout allows it (NumPy's
/// rule: contiguous in `order`, or only size-1 dimensions added/removed), else RequiresCopy.
DeviceArray reshape(const DeviceArray& a, std::vector<int64_t> shape, char order);

/// a.ravel(order): a 1-d view of a contiguous array; RequiresCopy otherwise.
DeviceArray ravel(const DeviceArray& a, char order);

/// a.transpose(axes): the dimensions permuted (reversed when `axes` is empty).
DeviceArray transpose(const DeviceArray& a, const std::vector<int64_t>& axes);

/// a.view(dtype): the same bytes as another dtype. Sizes that differ need a C-contiguous array
/// whose last dimension's bytes divide into the new itemsize (Numba's rule).
DeviceArray view_as(const DeviceArray& a, const Dtype& dtype);

/// a.split(section): consecutive views of `section` elements (the last may be shorter) of a 1-d
/// array with unit stride.
std::vector<DeviceArray> split(const DeviceArray& a, int64_t section);

/// a.squeeze(axes): size-1 dimensions removed (all of them when `axes` is empty).
DeviceArray squeeze(const DeviceArray& a, const std::vector<int64_t>& axes);

}  // namespace cujit::rt
