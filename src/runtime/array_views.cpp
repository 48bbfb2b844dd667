// See array_views.h. Every function here only computes a new (data, shape, strides) over the
// same Buffer, following NumPy's rules for basic indexing and for reshape without copying.
#include "runtime/array_views.h"

#include <algorithm>
#include <string>

namespace cujit::rt {
namespace {

DeviceArray with_layout(const DeviceArray& a, char* data, std::vector<int64_t> shape, std::vector<int64_t> strides) {
  DeviceArray v;
  v.buf = a.buf;
  v.data = data;
  v.dtype = a.dtype;
  v.readonly = a.readonly;
  v.bound_stream = a.bound_stream;
  v.shape = std::move(shape);
  v.strides = std::move(strides);
  return v;
}

int64_t normalize_axis(int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw std::invalid_argument("axis " + std::to_string(axis) + " is out of bounds for an array of dimension " +
                                std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

// Python's slice.indices() followed by the length of the range it gives.
void resolve_slice(const IndexItem& s, int64_t len, int64_t* start, int64_t* step, int64_t* count) {
  if (s.step == 0) throw std::invalid_argument("slice step cannot be zero");
  const int64_t st = s.step;
  auto clamp = [&](int64_t v, bool given, int64_t dflt, int64_t lo, int64_t hi) {
    if (!given) return dflt;
    if (v < 0) v += len;
    return std::min(std::max(v, lo), hi);
  };
  // |step| in unsigned arithmetic: a step of -2**63 (Python's -2**64 clamped) has no int64 negation.
  const uint64_t mag = st > 0 ? uint64_t(st) : uint64_t(-(st + 1)) + 1;
  int64_t b, e;
  if (st > 0) {
    b = clamp(s.start, s.has_start, 0, 0, len);
    e = clamp(s.stop, s.has_stop, len, 0, len);
    *count = e > b ? int64_t(uint64_t(e - b - 1) / mag) + 1 : 0;
  } else {
    b = clamp(s.start, s.has_start, len - 1, -1, len - 1);
    e = clamp(s.stop, s.has_stop, -1, -1, len - 1);
    *count = b > e ? int64_t(uint64_t(b - e - 1) / mag) + 1 : 0;
  }
  *start = b;
  *step = st;
}

// NumPy's reshape without a copy: groups of old dimensions whose product equals a group of new
// dimensions must be contiguous (in `order`) among themselves; each group then gets new strides
// derived from the stride of its innermost old dimension. False when some group is not.
bool nocopy_strides(const DeviceArray& a, const std::vector<int64_t>& shape, char order, std::vector<int64_t>* out) {
  std::vector<int64_t> od, os;
  for (size_t i = 0; i < a.shape.size(); ++i)
    if (a.shape[i] != 1) {
      od.push_back(a.shape[i]);
      os.push_back(a.strides[i]);
    }
  const size_t oldnd = od.size(), newnd = shape.size();
  std::vector<int64_t>& ns = *out;
  ns.assign(newnd, 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np = shape[ni], op = od[oi];
    while (np != op) {
      if (np < op) {
        if (nj >= newnd) return false;
        np *= shape[nj++];
      } else {
        if (oj >= oldnd) return false;
        op *= od[oj++];
      }
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok) {
      if (order == 'C' ? os[ok] != od[ok + 1] * os[ok + 1] : os[ok + 1] != od[ok] * os[ok]) return false;
    }
    if (order == 'C') {
      ns[nj - 1] = os[oj - 1];
      for (size_t nk = nj - 1; nk > ni; --nk) ns[nk - 1] = ns[nk] * shape[nk];
    } else {
      ns[ni] = os[oi];
      for (size_t nk = ni + 1; nk < nj; ++nk) ns[nk] = ns[nk - 1] * shape[nk - 1];
    }
    ni = nj++;
    oi = oj++;
  }
  // Trailing size-1 dimensions: any stride works; give the one a dense array would have.
  int64_t last = ni == 0 ? a.itemsize() : (order == 'C' ? ns[ni - 1] : ns[ni - 1] * shape[ni - 1]);
  for (size_t nk = ni; nk < newnd; ++nk) ns[nk] = last;
  return true;
}

std::vector<int64_t> dense_strides(const std::vector<int64_t>& shape, int64_t item, char order) {
  std::vector<int64_t> st(shape.size());
  int64_t step = item;
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t d = order == 'C' ? shape.size() - 1 - k : k;
    st[d] = step;
    step *= std::max<int64_t>(shape[d], 1);
  }
  return st;
}

char resolve_order(const DeviceArray& a, char order) {
  if (order == 'A') return a.is_f_contiguous() && !a.is_c_contiguous() ? 'F' : 'C';
  if (order != 'C' && order != 'F')
    throw std::invalid_argument(std::string("order must be one of 'C', 'F', 'A', got '") + order + "'");
  return order;
}

}  // namespace

DeviceArray index(const DeviceArray& a, const std::vector<IndexItem>& key, bool* element) {
  int consumed = 0, ellipses = 0;
  for (const IndexItem& it : key) {
    if (it.kind == IndexItem::Kind::Int || it.kind == IndexItem::Kind::Slice) ++consumed;
    if (it.kind == IndexItem::Kind::Ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw std::out_of_range("an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim())
    throw std::out_of_range("too many indices for array: array is " + std::to_string(a.ndim()) +
                            "-dimensional, but " + std::to_string(consumed) + " were indexed");
  char* data = a.data;
  std::vector<int64_t> shape, strides;
  bool all_int = consumed == a.ndim();
  int dim = 0;
  auto take = [&](const IndexItem& it) {
    switch (it.kind) {
      case IndexItem::Kind::Int: {
        int64_t len = a.shape[dim], i = it.index;
        if (i < -len || i >= len)
          throw std::out_of_range("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(dim) +
                                  " with size " + std::to_string(len));
        if (i < 0) i += len;
        data += i * a.strides[dim];
        ++dim;
        break;
      }
      case IndexItem::Kind::Slice: {
        int64_t start, step, count;
        resolve_slice(it, a.shape[dim], &start, &step, &count);
        if (count > 0) data += start * a.strides[dim];
        shape.push_back(count);
        // NumPy's stride is stride * step even for one element; a huge step (d[::2**63]) can only
        // give one element, whose stride is never used, so an overflow keeps the old stride.
        int64_t stride;
        if (__builtin_mul_overflow(a.strides[dim], step, &stride)) stride = a.strides[dim];
        strides.push_back(stride);
        all_int = false;
        ++dim;
        break;
      }
      case IndexItem::Kind::NewAxis:
        shape.push_back(1);
        strides.push_back(0);
        all_int = false;
        break;
      case IndexItem::Kind::Ellipsis:
        for (int n = a.ndim() - consumed; n > 0; --n, ++dim) {
          shape.push_back(a.shape[dim]);
          strides.push_back(a.strides[dim]);
        }
        break;
    }
  };
  for (const IndexItem& it : key) take(it);
  for (; dim < a.ndim(); ++dim) {  // dimensions the key left out are taken whole
    shape.push_back(a.shape[dim]);
    strides.push_back(a.strides[dim]);
  }
  *element = all_int;
  return with_layout(a, data, std::move(shape), std::move(strides));
}

DeviceArray reshape(const DeviceArray& a, std::vector<int64_t> shape, char order) {
  order = resolve_order(a, order);
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown >= 0) throw std::invalid_argument("can only specify one unknown dimension");
      unknown = (int)i;
    } else if (shape[i] < 0) {
      throw std::invalid_argument("negative dimensions not allowed, got shape " + shape_str(shape));
    } else {
      known *= shape[i];
    }
  }
  const int64_t size = a.size();
  if (unknown >= 0) {
    if (known == 0 || size % known != 0)
      throw std::invalid_argument("cannot reshape array of size " + std::to_string(size) + " into shape " +
                                  shape_str(shape));
    shape[unknown] = size / known;
    known *= shape[unknown];
  }
  if (known != size)
    throw std::invalid_argument("cannot reshape array of size " + std::to_string(size) + " into shape " +
                                shape_str(shape));
  std::vector<int64_t> strides;
  if (size == 0) {
    strides = dense_strides(shape, a.itemsize(), order);
  } else if (!nocopy_strides(a, shape, order, &strides)) {
    throw RequiresCopy("reshaping this device array (shape " + shape_str(a.shape) + ", strides " +
                       shape_str(a.strides) + ") to " + shape_str(shape) +
                       " requires copying; copy it to a contiguous array first");
  }
  return with_layout(a, a.data, std::move(shape), std::move(strides));
}

DeviceArray ravel(const DeviceArray& a, char order) {
  order = resolve_order(a, order);
  if (!(order == 'C' ? a.is_c_contiguous() : a.is_f_contiguous()))
    throw RequiresCopy("ravel of a device array that is not " + std::string(order == 'C' ? "C" : "F") +
                       "-contiguous requires copying");
  return with_layout(a, a.data, {a.size()}, {a.itemsize()});
}

DeviceArray transpose(const DeviceArray& a, const std::vector<int64_t>& axes) {
  const int nd = a.ndim();
  std::vector<int64_t> perm;
  if (axes.empty()) {
    for (int i = nd - 1; i >= 0; --i) perm.push_back(i);
  } else {
    if ((int)axes.size() != nd) throw std::invalid_argument("axes don't match array");
    std::vector<bool> seen(nd, false);
    for (int64_t ax : axes) {
      int64_t d = normalize_axis(ax, nd);
      if (seen[d]) throw std::invalid_argument("repeated axis in transpose");
      seen[d] = true;
      perm.push_back(d);
    }
  }
  std::vector<int64_t> shape, strides;
  for (int64_t d : perm) {
    shape.push_back(a.shape[d]);
    strides.push_back(a.strides[d]);
  }
  return with_layout(a, a.data, std::move(shape), std::move(strides));
}

DeviceArray view_as(const DeviceArray& a, const Dtype& dtype) {
  const int64_t old_item = a.itemsize(), new_item = dtype.itemsize();
  DeviceArray v = with_layout(a, a.data, a.shape, a.strides);
  v.dtype = dtype;
  if (old_item == new_item) return v;
  if (a.ndim() == 0) throw std::invalid_argument("changing the dtype of a 0-d array to one of a different size is not supported");
  if (!a.is_c_contiguous())
    throw std::invalid_argument("To change to a dtype of a different size, the array must be C-contiguous");
  int64_t bytes = a.shape.back() * old_item;
  if (bytes % new_item != 0)
    throw std::invalid_argument("When changing to a larger dtype, its size must be a divisor of the total size in "
                                "bytes of the last axis of the array.");
  v.shape.back() = bytes / new_item;
  v.strides.back() = new_item;
  return v;
}

std::vector<DeviceArray> split(const DeviceArray& a, int64_t section) {
  if (a.ndim() != 1) throw std::invalid_argument("only support 1d array");
  if (a.strides[0] != a.itemsize() && a.shape[0] > 1) throw std::invalid_argument("only support unit stride");
  if (section <= 0) throw std::invalid_argument("section must be a positive number of elements, got " + std::to_string(section));
  std::vector<DeviceArray> parts;
  for (int64_t begin = 0; begin < a.shape[0]; begin += section) {
    int64_t end = std::min(begin + section, a.shape[0]);
    parts.push_back(with_layout(a, a.data + begin * a.itemsize(), {end - begin}, {a.itemsize()}));
  }
  return parts;
}

DeviceArray squeeze(const DeviceArray& a, const std::vector<int64_t>& axes) {
  std::vector<bool> drop(a.ndim(), axes.empty());
  if (axes.empty()) {
    for (int d = 0; d < a.ndim(); ++d) drop[d] = a.shape[d] == 1;
  } else {
    for (int64_t ax : axes) {
      int64_t d = normalize_axis(ax, a.ndim());
      if (a.shape[d] != 1) throw std::invalid_argument("cannot select an axis to squeeze out which has size not equal to one");
      drop[d] = true;
    }
  }
  std::vector<int64_t> shape, strides;
  for (int d = 0; d < a.ndim(); ++d)
    if (!drop[d]) {
      shape.push_back(a.shape[d]);
      strides.push_back(a.strides[d]);
    }
  return with_layout(a, a.data, std::move(shape), std::move(strides));
}

}  // namespace cujit::rt
