// See device_array.h.
#include "runtime/device_array.h"

#include <algorithm>
#include <stdexcept>
#include <string>


namespace cujit::rt {

bool checked_extent(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t itemsize,
                    int64_t* lo, int64_t* hi) {
  *lo = 0;
  *hi = 0;
  for (int64_t d : shape)
    if (d == 0) return true;
  int64_t l = 0, h = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t span = 0;
    if (__builtin_mul_overflow(shape[i] - 1, strides[i], &span)) return false;
    if (span < 0 ? __builtin_add_overflow(l, span, &l) : __builtin_add_overflow(h, span, &h)) return false;
  }
  if (__builtin_add_overflow(h, itemsize, &h)) return false;
  *lo = l;
  *hi = h;
  return true;
}

void check_shape(const std::vector<int64_t>& shape, const char* what) {
  for (int64_t d : shape)
    if (d < 0) throw std::invalid_argument(std::string(what) + ": negative dimensions are not allowed, got shape " + shape_str(shape));
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

int64_t DeviceArray::itemsize() const { return dtype.itemsize(); }

int64_t DeviceArray::size() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t DeviceArray::nbytes() const { return size() * itemsize(); }

static bool dense(const DeviceArray& a, bool c_order) {
  if (a.size() == 0) return true;
  int64_t expect = a.itemsize();
  for (size_t k = 0; k < a.shape.size(); ++k) {
    size_t d = c_order ? a.shape.size() - 1 - k : k;
    if (a.shape[d] == 1) continue;
    if (a.strides[d] != expect) return false;
    expect *= a.shape[d];
  }
  return true;
}

bool DeviceArray::is_c_contiguous() const { return dense(*this, true); }
bool DeviceArray::is_f_contiguous() const { return dense(*this, false); }

void DeviceArray::extent(int64_t* lo, int64_t* hi) const {
  if (!checked_extent(shape, strides, itemsize(), lo, hi)) *lo = *hi = 0;  // validated at construction
}

std::shared_ptr<DeviceArray> new_device_array(Backend backend, const Dtype& dtype, std::vector<int64_t> shape, char order,
                                              void* stream) {
  if (order != 'C' && order != 'F')
    throw std::invalid_argument(std::string("order must be 'C' or 'F', got '") + order + "'");
  check_shape(shape, "device_array");
  const int64_t item = dtype.itemsize();
  std::vector<int64_t> strides(shape.size());
  int64_t step = item;
  bool overflow = false;
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t d = order == 'C' ? shape.size() - 1 - k : k;
    strides[d] = step;
    overflow = overflow || __builtin_mul_overflow(step, std::max<int64_t>(shape[d], 1), &step);
  }
  int64_t nbytes = item;
  for (int64_t d : shape) overflow = overflow || __builtin_mul_overflow(nbytes, d, &nbytes);
  if (overflow) throw std::invalid_argument("device_array: shape " + shape_str(shape) + " is too large");
  auto a = std::make_shared<DeviceArray>();
  a->buf = allocate(backend, size_t(nbytes), stream);
  a->data = a->buf->data();
  a->dtype = dtype;
  a->shape = std::move(shape);
  a->strides = std::move(strides);
  return a;
}

std::shared_ptr<DeviceArray> new_device_array_strided(Backend backend, const Dtype& dtype, std::vector<int64_t> shape,
                                                      std::vector<int64_t> strides, void* stream) {
  check_shape(shape, "device_array");
  if (strides.size() != shape.size())
    throw std::invalid_argument("device_array: strides has " + std::to_string(strides.size()) +
                                " entries but shape has " + std::to_string(shape.size()));
  const int64_t item = dtype.itemsize();
  for (int64_t s : strides)
    if (s % item != 0)
      throw std::invalid_argument("device_array: strides must be multiples of the itemsize (" + std::to_string(item) +
                                  "), got " + shape_str(strides));
  int64_t lo = 0, hi = 0;
  if (!checked_extent(shape, strides, item, &lo, &hi))
    throw std::invalid_argument("device_array: shape " + shape_str(shape) + " with strides " + shape_str(strides) +
                                " is too large");
  auto a = std::make_shared<DeviceArray>();
  a->buf = allocate(backend, size_t(hi - lo), stream);
  a->data = a->buf->data() ? a->buf->data() - lo : nullptr;
  a->dtype = dtype;
  a->shape = std::move(shape);
  a->strides = std::move(strides);
  return a;
}

}  // namespace cujit::rt
