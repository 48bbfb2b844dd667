// cujit._core.DeviceNDArray (rt::DeviceArray) and the functions that make and fill device arrays:
// to_device, device_array(_like). Element data never passes through Python: copies are rt:: calls
// on whole buffers (runtime/device_array.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/ufunc_fuse.h"
#include "bindings/assign.h"
#include "bindings/common.h"
#include "runtime/array_views.h"
#include "bindings/numpy_arrays.h"
#include "bindings/records.h"
#include "runtime/memory.h"
#include "runtime/stream.h"

namespace py = pybind11;

namespace cujit {
namespace {

using rt::DeviceArray;

std::vector<int64_t> shape_arg(const py::handle& shape, const char* what) {
  auto as_int = [&](const py::handle& h) {
    if (!py::hasattr(h, "__index__") || py::isinstance<py::bool_>(h))
      throw py::type_error(std::string(what) + " must be an int or a tuple of ints, got " +
                           py::repr(h).cast<std::string>());
    // An int beyond int64 (2**64) is no size any array can have; pybind11's cast would say only
    // "Unable to cast Python instance".
    Py_ssize_t n = PyNumber_AsSsize_t(h.ptr(), nullptr);  // clamped on overflow
    if (n == -1 && PyErr_Occurred()) {
      // np.array(1.23) has an __index__ that refuses: name the shape rather than NumPy's words.
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
      PyErr_Clear();
      throw py::type_error(std::string(what) + " must be an int or a tuple of ints, got " +
                           py::repr(h).cast<std::string>());
    }
    if (n == PY_SSIZE_T_MAX || n == PY_SSIZE_T_MIN)
      throw py::value_error(std::string(what) + " " + py::repr(h).cast<std::string>() + " is too large");
    return (int64_t)n;
  };
  std::vector<int64_t> v;
  // numba-cuda iterates a shape: a tuple, a list, or a 1-d NumPy array of ints (np.array([2, 3])).
  if (py::isinstance<py::tuple>(shape) || py::isinstance<py::list>(shape) ||
      (py::isinstance<py::array>(shape) && py::reinterpret_borrow<py::array>(shape).ndim() == 1)) {
    for (auto d : shape) v.push_back(as_int(d));
  } else {
    v.push_back(as_int(shape));
  }
  return v;
}

// dtype=: anything np.dtype accepts (structured dtypes too), and objects with a .dtype
// (cujit.float32, ...).
rt::Dtype dtype_arg(const py::object& dtype) {
  py::dtype dt;
  try {
    dt = py::dtype::from_args(dtype);
  } catch (py::error_already_set&) {
    if (!py::hasattr(dtype, "dtype")) throw;
    dt = py::dtype::from_args(dtype.attr("dtype"));
  }
  rt::Dtype d;
  if (!dtype_from_numpy(dt, &d))
    throw py::type_error("unsupported dtype " + py::str(dt).cast<std::string>() +
                         " for a device array (supported: bool, int8-64, uint8-64, float16, float32, float64, "
                         "complex64, complex128, datetime64, timedelta64 and structured dtypes of these)");
  return d;
}

py::tuple to_tuple(const std::vector<int64_t>& v) { return py::tuple(py::cast(v)); }

// Shape, dtype and backend; the strides too when they are not C order's, since a view's layout
// is what one wonders about when a kernel is slow or a copy refuses.
std::string repr(const DeviceArray& a) {
  std::string shape = py::repr(to_tuple(a.shape)).cast<std::string>();
  std::string strides;
  if (!a.is_c_contiguous())
    strides = " strides=" + py::repr(to_tuple(a.strides)).cast<std::string>() +
              (a.is_f_contiguous() ? " (F order)" : "");
  return "<cujit.cuda.DeviceNDArray shape=" + shape + " dtype=" + a.dtype.name() + strides + " on " +
         rt::backend_name(a.backend()) + ">";
}

bool is_device_array(const py::handle& h) {
  return py::isinstance<DeviceArray>(h) || (!is_exact_ndarray(h) && py::hasattr(h, "__cuda_array_interface__"));
}

std::shared_ptr<DeviceArray> as_device_array(const py::handle& h) {
  if (py::isinstance<DeviceArray>(h)) return h.cast<std::shared_ptr<DeviceArray>>();
  return device_array_from_cai(h);
}

// The host data of `obj` as a NumPy array: arrays as they are, anything else through
// np.asarray (lists, tuples, NumPy and Python scalars), converted to `dtype` when given.
py::array host_array(const py::object& obj, const rt::Dtype* dtype) {
  if (py::isinstance<py::array>(obj)) return py::reinterpret_borrow<py::array>(obj);
  py::module_ np = py::module_::import("numpy");
  if (dtype) return py::array(np.attr("asarray")(obj, numpy_dtype(*dtype)));
  return py::array(np.attr("asarray")(obj));
}

// numba-cuda's `not stream`: 0, None (and False) mean "no stream given".
bool no_stream(const py::object& stream) {
  return stream.is_none() || (py::isinstance<py::int_>(stream) && PyObject_IsTrue(stream.ptr()) == 0);
}

// A reference to the Python stream object for DeviceArray::bound_stream (null for no stream),
// dropped with the GIL held, leaked once Python is gone.
std::shared_ptr<void> hold_stream(const py::object& stream) {
  if (no_stream(stream)) return nullptr;
  stream_handle(stream);  // refuses what is no stream now rather than at the first copy
  auto* ref = new py::object(stream);
  return std::shared_ptr<void>(ref, [](void* p) {
    if (!Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    delete static_cast<py::object*>(p);
  });
}

py::object bound_stream(const DeviceArray& a) {
  if (!a.bound_stream) return py::int_(0);
  return *static_cast<py::object*>(a.bound_stream.get());
}

// numba-cuda's _default_stream: the stream passed, else the one the array is bound to.
void* stream_for(const DeviceArray& a, const py::object& stream) {
  if (!no_stream(stream) || !a.bound_stream) return stream_handle(stream);
  return stream_handle(bound_stream(a));
}

std::shared_ptr<DeviceArray> with_stream(std::shared_ptr<DeviceArray> a, const py::object& stream) {
  a->bound_stream = hold_stream(stream);
  return a;
}

// numba-cuda's array_core: the array with each dimension of stride 0 cut to length 1 (the memory
// a broadcast array really has).
DeviceArray array_core(const DeviceArray& a) {
  DeviceArray c = a;
  for (int d = 0; d < c.ndim(); ++d)
    if (c.strides[d] == 0) c.shape[d] = 1;
  return c;
}

// numba-cuda's words (devicearray.errmsg_contiguous_buffer): its copies are single memcpys.
const char* kNotContiguous =
    "Array contains non-contiguous buffer and cannot be transferred as a single memory region. Please "
    "ensure contiguous buffer with numpy .ascontiguousarray()";

void sentry_contiguous(const DeviceArray& a) {
  DeviceArray c = array_core(a);
  if (!c.is_c_contiguous() && !c.is_f_contiguous()) throw py::value_error(kNotContiguous);
}

void squeeze_layout(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                    std::vector<int64_t>* sq_shape, std::vector<int64_t>* sq_strides) {
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) {
      sq_shape->push_back(shape[d]);
      sq_strides->push_back(strides[d]);
    }
}

// numba-cuda's check_array_compatibility: the same dtype (TypeError), the same shape and strides
// but for dimensions of length 1 (ValueError); strides only when there is something to copy.
void check_compatible(const std::string& dt1, const std::string& dt2, const std::vector<int64_t>& shape1,
                      const std::vector<int64_t>& strides1, const std::vector<int64_t>& shape2,
                      const std::vector<int64_t>& strides2, int64_t size1, bool check_strides) {
  if (dt1 != dt2) throw py::type_error("incompatible dtype: " + dt1 + " vs. " + dt2);
  std::vector<int64_t> sh1, st1, sh2, st2;
  squeeze_layout(shape1, strides1, &sh1, &st1);
  squeeze_layout(shape2, strides2, &sh2, &st2);
  if (sh1 != sh2) throw py::value_error("incompatible shape: " + rt::shape_str(shape1) + " vs. " + rt::shape_str(shape2));
  if (check_strides && size1 && st1 != st2)
    throw py::value_error("incompatible strides: " + rt::shape_str(strides1) + " vs. " + rt::shape_str(strides2));
}

std::string dtype_name(const py::dtype& dt) { return py::str(dt).cast<std::string>(); }

std::vector<int64_t> host_shape(const py::array& a) { return std::vector<int64_t>(a.shape(), a.shape() + a.ndim()); }
std::vector<int64_t> host_strides(const py::array& a) { return std::vector<int64_t>(a.strides(), a.strides() + a.ndim()); }

// numba-cuda's copy_to_device: a memcpy, so this array and a device source must each be one
// block of memory (ValueError otherwise) with the same layout; a host source is first made
// contiguous in this array's order. Shapes may differ only in dimensions of length 1. A list or
// scalar (which numba-cuda does not take) is converted to this array's dtype first.
void copy_to_device(DeviceArray& self, const py::object& ary, const py::object& stream) {
  fuse::observe(self);
  void* s = stream_for(self, stream);
  DeviceArray core = array_core(self);
  if (is_device_array(ary)) {
    auto src = as_device_array(ary);
    if (src->size() == 0 && src->shape == self.shape) return;
    sentry_contiguous(self);
    sentry_contiguous(*src);
    DeviceArray src_core = array_core(*src);
    check_compatible(core.dtype.name(), src_core.dtype.name(), core.shape, core.strides,
                     src_core.shape, src_core.strides, core.size(), true);
    // The same bytes in the same order: read the source with this array's (core) layout.
    src_core.shape = core.shape;
    src_core.strides = core.strides;
    copy_device_array(core, src_core, s);
    return;
  }
  py::array h = host_array(ary, &self.dtype);
  if (h.size() == 0 && host_shape(h) == self.shape) return;
  sentry_contiguous(self);
  py::object native = h.dtype().attr("newbyteorder")("=");  // a byte-swapped source is converted
  check_compatible(dtype_name(numpy_dtype(core.dtype)), py::str(native).cast<std::string>(), {}, {}, {}, {}, 0,
                   false);  // the dtype; the shapes below
  // numba-cuda's array_core of the host array, then NumPy's reshape to this array's core shape,
  // which only adds or drops dimensions of length 1 (a view).
  py::tuple cut(h.ndim());
  for (py::ssize_t d = 0; d < h.ndim(); ++d)
    cut[d] = h.strides(d) == 0 ? py::slice(0, 1, 1) : py::slice(py::none(), py::none(), py::none());
  // A broadcast host array copied into a device array that holds every element (cujit's
  // to_device of a broadcast array makes one) is copied whole.
  auto squeezed = [](const std::vector<int64_t>& shape) {
    std::vector<int64_t> a, b;
    squeeze_layout(shape, shape, &a, &b);
    return a;
  };
  py::object hc = h.attr("__getitem__")(cut);
  std::vector<int64_t> hshape = py::cast<std::vector<int64_t>>(hc.attr("shape"));
  if (squeezed(core.shape) != squeezed(hshape) && squeezed(core.shape) == squeezed(host_shape(h))) hc = h;
  else if (squeezed(core.shape) != squeezed(hshape))
    throw py::value_error("incompatible shape: " + rt::shape_str(core.shape) + " vs. " + rt::shape_str(hshape));
  copy_numpy_to_device_array(core, py::array(hc.attr("reshape")(py::cast(core.shape))), s);
}

// copy_to_host with numba-cuda's checks of `ary` (check_array_compatibility's words; shapes may
// differ in dimensions of length 1). Unlike numba-cuda, any layout of `ary` is filled correctly.
// A device array with a negative stride is copied too (numba-cuda's GPU raises NotImplementedError
// for it; its simulator copies it, as cujit does on both).
py::object copy_to_host(const DeviceArray& a, const py::object& ary, const py::object& stream) {
  fuse::observe(a);
  void* s = stream_for(a, stream);
  if (!ary.is_none() && a.ndim() == 0 && is_record_scalar(ary)) {
    // numba-cuda's DeviceRecord.copy_to_host(np.void): the bytes land in the record scalar's own
    // storage (numba-cuda forces its buffer writable), through a 0-d array viewing it.
    py::array view(py::dtype::from_args(ary.attr("dtype")), std::vector<py::ssize_t>{}, std::vector<py::ssize_t>{},
                   record_scalar_data(ary), ary);
    device_array_to_numpy(a, view, s);
    return ary;
  }
  if (ary.is_none() || !py::isinstance<py::array>(ary)) return device_array_to_numpy(a, ary, s);
  py::array h = py::reinterpret_borrow<py::array>(ary);
  check_compatible(dtype_name(numpy_dtype(a.dtype)), dtype_name(h.dtype()), a.shape, a.strides, host_shape(h),
                   host_strides(h), a.size(), false);
  if (host_shape(h) != a.shape) {
    py::array v = py::array(h.attr("reshape")(py::cast(a.shape)));  // only length-1 dimensions differ: a view
    device_array_to_numpy(a, v, s);
    return h;
  }
  return device_array_to_numpy(a, ary, s);
}

// pickle: through the host (numba-cuda's arrays do not pickle). The data travels C-ordered in
// the array's memory order, so the rebuilt array has the same order of strides (C, F or other).
py::object reduce(const py::object& self) {
  return py::module_::import("cujit.cuda.cudadrv.devicearray").attr("_reduce_device_array")(self);
}

// Every byte the elements span, as a 1-d uint8 array of the same memory (for the driver-level
// copies and memset of numba.cuda.cudadrv.driver).
DeviceArray bytes_view(const DeviceArray& a) {
  int64_t lo = 0, hi = 0;
  a.extent(&lo, &hi);
  DeviceArray b = a;
  b.data = a.data + lo;
  b.dtype = Scalar::UInt8;
  b.shape = {hi - lo};
  b.strides = {1};
  return b;
}

py::object to_device(const py::object& obj, const py::object& stream, bool copy, const py::object& to) {
  void* s = stream_handle(stream);
  if (!to.is_none()) {
    if (!py::isinstance<DeviceArray>(to)) throw py::type_error("to_device: to= must be a DeviceNDArray");
    copy_to_device(to.cast<DeviceArray&>(), obj, stream);
    return to;
  }
  if (py::isinstance<DeviceArray>(obj)) return obj;
  if (is_device_array(obj)) return py::cast(device_array_from_cai(obj));
  py::array host = host_array(obj, nullptr);
  return py::cast(with_stream(device_array_from_numpy(host, copy, rt::current_backend(), s), stream));
}

py::object device_array(const py::object& shape, const py::object& dtype, const py::object& strides,
                        const std::string& order, const py::object& stream) {
  void* s = stream_handle(stream);
  std::vector<int64_t> sh = shape_arg(shape, "shape");
  rt::Dtype dt = dtype_arg(dtype);
  if (!strides.is_none()) {
    std::vector<int64_t> st = shape_arg(strides, "strides");
    return py::cast(with_stream(rt::new_device_array_strided(rt::current_backend(), dt, sh, st, s), stream));
  }
  if (order != "C" && order != "F") throw py::value_error("order must be 'C' or 'F', got '" + order + "'");
  return py::cast(with_stream(rt::new_device_array(rt::current_backend(), dt, sh, order[0], s), stream));
}

// Numba's rule: the new array is Fortran-ordered if `ary` is F- and not C-contiguous, else C.
py::object device_array_like(const py::object& ary, const py::object& stream) {
  void* s = stream_handle(stream);
  if (is_device_array(ary)) {
    auto a = as_device_array(ary);
    char order = a->is_f_contiguous() && !a->is_c_contiguous() ? 'F' : 'C';
    return py::cast(with_stream(rt::new_device_array(a->backend(), a->dtype, a->shape, order, s), stream));
  }
  py::array h = host_array(ary, nullptr);
  rt::Dtype dt;
  if (!dtype_from_numpy(h.dtype(), &dt)) dt = dtype_arg(h.dtype());  // throws with the reason
  bool f = (h.flags() & py::array::f_style) && !(h.flags() & py::array::c_style);
  std::vector<int64_t> shape(h.shape(), h.shape() + h.ndim());
  return py::cast(with_stream(rt::new_device_array(rt::current_backend(), dt, shape, f ? 'F' : 'C', s), stream));
}


// A Python index key (an int, slice, None, Ellipsis or a tuple of them) as array_views.h's items.
// Integer and boolean arrays (NumPy's advanced indexing) would need copies: refused.
std::vector<rt::IndexItem> index_key(const py::handle& key) {
  std::vector<rt::IndexItem> items;
  // Slice bounds as Python's slices take them: __index__ only (1.5 is refused, not truncated),
  // and values beyond int64 clamped (a[2**62:2**63] is a[2**62:], empty or not).
  auto opt_int = [](const py::handle& h, int64_t* v) {
    if (h.is_none()) return false;
    if (!PyIndex_Check(h.ptr()))
      throw py::type_error("slice indices must be integers or None or have an __index__ method");
    Py_ssize_t n = PyNumber_AsSsize_t(h.ptr(), nullptr);
    if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
    *v = (int64_t)n;
    return true;
  };
  auto one = [&](const py::handle& h) {
    rt::IndexItem it;
    if (h.is_none()) {
      it.kind = rt::IndexItem::Kind::NewAxis;
    } else if (h.ptr() == Py_Ellipsis) {
      it.kind = rt::IndexItem::Kind::Ellipsis;
    } else if (PySlice_Check(h.ptr())) {
      it.kind = rt::IndexItem::Kind::Slice;
      it.has_start = opt_int(h.attr("start"), &it.start);
      it.has_stop = opt_int(h.attr("stop"), &it.stop);
      if (!opt_int(h.attr("step"), &it.step)) it.step = 1;
    } else if (!py::isinstance<py::bool_>(h) && !py::isinstance<py::array>(h) && py::hasattr(h, "__index__")) {
      it.kind = rt::IndexItem::Kind::Int;
      // NumPy's IndexError for an index beyond int64: "cannot fit 'int' into an index-sized integer".
      Py_ssize_t n = PyNumber_AsSsize_t(h.ptr(), PyExc_IndexError);
      if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
      it.index = (int64_t)n;
    } else {
      throw py::index_error("only integers, slices (`:`), ellipsis (`...`) and None are valid indices of a "
                            "device array (got " + py::repr(h).cast<std::string>() +
                            "); index arrays would need a copy: copy to the host first");
    }
    items.push_back(it);
  };
  if (py::isinstance<py::tuple>(key)) {
    for (auto h : py::reinterpret_borrow<py::tuple>(key)) one(h);
  } else {
    one(key);
  }
  return items;
}

// A field of a record array, as NumPy's a['x']: a view of the same shape over the field's bytes
// (a nested array field adds its dimensions, C-ordered). The layout is the Record's (records.h).
DeviceArray field_view(const DeviceArray& a, const std::string& name) {
  if (!a.dtype.record)
    throw py::index_error("only integers, slices (`:`), ellipsis (`...`) and None are valid indices of a device "
                          "array of dtype " + a.dtype.name() + "; a field name needs a structured dtype");
  const RecordField* f = a.dtype.record->find(name);
  if (!f) throw py::value_error("no field of name " + name);
  if (!f->unsupported.empty() || f->type.is_charseq())  // a string field: no device array dtype holds it
    throw py::type_error("field '" + name + "' has type " + f->type_str() + ", which a device array cannot hold");
  DeviceArray v = a;
  v.data = a.data + f->offset;
  v.dtype = f->type.is_record() ? rt::Dtype(f->type.record) : rt::Dtype(f->type.scalar);
  std::vector<int64_t> strides(f->shape.size());
  int64_t step = v.dtype.itemsize();
  for (size_t k = f->shape.size(); k-- > 0;) {
    strides[k] = step;
    step *= f->shape[k];
  }
  v.shape.insert(v.shape.end(), f->shape.begin(), f->shape.end());
  v.strides.insert(v.strides.end(), strides.begin(), strides.end());
  return v;
}

// A view is bound to the stream given, else to this array's (numba-cuda's getitem). A str key is
// a field of a record array.
// A field no device array dtype holds (a string field 'U5', 'S3', or one compiled code lacks) of one record (a 0-d
// record array, numba-cuda's DeviceRecord): NumPy reads or writes it in a host copy of the
// record's bytes, as numba-cuda copies the field through the host. Null when `a` is no such case.
const RecordField* host_only_field(const DeviceArray& a, const py::handle& key) {
  if (a.ndim() != 0 || !a.dtype.record || !py::isinstance<py::str>(key)) return nullptr;
  const RecordField* f = a.dtype.record->find(key.cast<std::string>());
  return f && (!f->unsupported.empty() || f->type.is_charseq()) ? f : nullptr;
}

py::object getitem(const DeviceArray& a, const py::handle& key, const py::object& stream) {
  fuse::observe(a);
  bool element = false;
  std::shared_ptr<DeviceArray> v;
  if (host_only_field(a, key)) return device_array_to_numpy(a, py::none(), stream_for(a, stream))[key];
  if (py::isinstance<py::str>(key)) {
    v = std::make_shared<DeviceArray>(field_view(a, key.cast<std::string>()));
    element = v->ndim() == 0;
  } else {
    v = std::make_shared<DeviceArray>(rt::index(a, index_key(key), &element));
  }
  if (!no_stream(stream)) v->bound_stream = hold_stream(stream);
  // One record: a 0-d device array of it (numba-cuda's DeviceRecord: shape (), in device memory;
  // its fields are read and written with str keys), never a host copy that writes would miss.
  if (!element || v->dtype.is_record()) return py::cast(v);
  // One element: a NumPy scalar, as indexing a NumPy array gives.
  py::array host = device_array_to_numpy(*v, py::none(), stream_for(a, stream));
  return host.attr("__getitem__")(py::tuple());
}

void setitem(DeviceArray& a, const py::handle& key, const py::handle& value, const py::object& stream) {
  fuse::observe(a);
  bool element = false;
  if (host_only_field(a, key)) {
    if (a.readonly) throw py::value_error("assignment destination is read-only");
    void* s = stream_for(a, stream);
    py::array host = device_array_to_numpy(a, py::none(), s);
    host[key] = value;
    copy_numpy_to_device_array(a, host, s);
    return;
  }
  DeviceArray v = py::isinstance<py::str>(key) ? field_view(a, key.cast<std::string>())
                                               : rt::index(a, index_key(key), &element);
  assign(v, value, stream_for(a, stream));
}

char order_arg(const std::string& order) {
  if (order.size() != 1) throw py::value_error("order must be one of 'C', 'F', 'A', got '" + order + "'");
  return order[0];
}

py::object reshape(const DeviceArray& a, const py::args& args, const py::kwargs& kw) {
  std::string order = "C";
  for (auto item : kw) {
    std::string k = item.first.cast<std::string>();
    if (k != "order") throw py::type_error("reshape() got an unexpected keyword argument '" + k + "'");
    order = item.second.cast<std::string>();
  }
  std::vector<int64_t> shape;
  if (args.size() == 1) shape = shape_arg(args[0], "shape");
  else for (auto d : args) shape.push_back(shape_arg(d, "shape")[0]);
  try {
    return py::cast(std::make_shared<DeviceArray>(rt::reshape(a, shape, order_arg(order))));
  } catch (const rt::RequiresCopy& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
    throw py::error_already_set();
  }
}

// `order` as NumPy takes it: a str, or None for 'C'; anything else is NumPy's TypeError.
py::object ravel(const DeviceArray& a, const py::object& order_obj) {
  std::string order = "C";
  if (!order_obj.is_none()) {
    if (!py::isinstance<py::str>(order_obj))
      throw py::type_error(std::string("order must be str, not ") + Py_TYPE(order_obj.ptr())->tp_name);
    order = order_obj.cast<std::string>();
  }
  try {
    return py::cast(std::make_shared<DeviceArray>(rt::ravel(a, order_arg(order))));
  } catch (const rt::RequiresCopy& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
    throw py::error_already_set();
  }
}

std::vector<int64_t> axes_arg(const py::args& args) {
  // transpose(), transpose(None), transpose((1, 0)), transpose(1, 0)
  if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return {};
  if (args.size() == 1) return shape_arg(args[0], "axes");
  std::vector<int64_t> v;
  for (auto d : args) v.push_back(shape_arg(d, "axes")[0]);
  return v;
}

py::array to_numpy_array(const DeviceArray& a, const py::object& dtype, const py::object& copy) {
  if (!copy.is_none() && !copy.cast<bool>())
    throw py::value_error("`copy=False` is not supported: reading a device array always copies it to the host");
  py::array h = device_array_to_numpy(a, py::none());
  if (dtype.is_none()) return h;
  return py::array(h.attr("astype")(dtype));
}

}  // namespace

void define_dlpack(py::module_& m, py::class_<rt::DeviceArray, std::shared_ptr<rt::DeviceArray>>& cls);

void define_device_array(py::module_& m) {
  using namespace py::literals;
  py::class_<DeviceArray, std::shared_ptr<DeviceArray>> cls(
      m, "DeviceNDArray",
      "An array in device memory (GPU memory, or host memory on the simulator). Make one with "
      "cuda.to_device, cuda.device_array or cuda.device_array_like.");
  cls.def_property_readonly("shape", [](const DeviceArray& a) { return to_tuple(a.shape); })
      .def_property_readonly("strides", [](const DeviceArray& a) { return to_tuple(a.strides); },
                             "Byte strides, as NumPy's.")
      .def_property_readonly("dtype", [](const DeviceArray& a) { return numpy_dtype(a.dtype); })
      .def_property_readonly("size", &DeviceArray::size)
      .def_property_readonly("ndim", &DeviceArray::ndim)
      .def_property_readonly("nbytes", &DeviceArray::nbytes)
      .def_property_readonly("itemsize", &DeviceArray::itemsize)
      .def_property_readonly("_device_pointer",
                             [](const DeviceArray& a) {
                               fuse::escape(a);
                               return py::int_(reinterpret_cast<uintptr_t>(a.data));
                             })
      // True for a read-only __cuda_array_interface__ or DLPack tensor (and views of one), which
      // cujit never writes. Not in flags, whose keys are Numba's (C_ and F_CONTIGUOUS only).
      .def_property_readonly("_readonly", [](const DeviceArray& a) { return a.readonly; })
      .def_property_readonly("_backend", [](const DeviceArray& a) { return rt::backend_name(a.backend()); })
      // The device the memory belongs to (GPU or simulated); None for another library's memory.
      .def_property_readonly("_device_id", [](const DeviceArray& a) -> py::object {
        if (!a.buf || a.buf->origin == rt::Buffer::Origin::External) return py::none();
        return py::int_(a.buf->device);
      })
      .def_property_readonly(
          "__cuda_array_interface__",
          [](const DeviceArray& a) -> py::dict {
            // AttributeError, so hasattr() says a simulator array is not a CUDA array.
            if (a.backend() != rt::Backend::GPU)
              throw py::attribute_error("a simulator device array has no __cuda_array_interface__ (it is not in GPU memory)");
            py::dict d = cuda_array_interface(a);
            // Bound to a stream (numba-cuda's .stream): consumers synchronise with that one.
            if (a.bound_stream) {
              void* h = stream_handle(bound_stream(a));
              if (h != nullptr) d["stream"] = py::int_(uintptr_t(h));
            }
            return d;
          })
      .def("copy_to_host", &copy_to_host, "ary"_a = py::none(), "stream"_a = 0,
           "Copies the data to the host: into `ary` (same shape and dtype) or a new array, which is returned.")
      .def("copy_to_device", &copy_to_device, "ary"_a, "stream"_a = 0,
           "Copies a host array (or a contiguous device array of the same backend and layout) of the same "
           "shape and dtype into this contiguous array.")
      .def_property_readonly("stream", &bound_stream,
                             "The stream this array's copies use when none is given (0: none), as numba-cuda's.")
      .def("bind",
           [](const DeviceArray& a, const py::object& stream) {
             auto c = std::make_shared<DeviceArray>(a);
             c->bound_stream = hold_stream(stream);
             return c;
           },
           "stream"_a = 0, "The same array (same memory) bound to `stream` for its later copies.")
      .def_property_readonly("alloc_size",
                             [](const DeviceArray& a) {
                               int64_t lo = 0, hi = 0;
                               a.extent(&lo, &hi);
                               return hi - lo;
                             },
                             "The bytes the elements span (numba-cuda's alloc_size).")
      .def("_bytes", [](const DeviceArray& a) { return std::make_shared<DeviceArray>(bytes_view(a)); },
           "Every byte the elements span, as a 1-d uint8 array of the same memory.")
      .def("__reduce__", &reduce)
      // copy.copy shares the memory, as numba-cuda's (its bind() is a copy.copy); copy.deepcopy
      // copies the data, through __reduce__.
      .def("__copy__", [](const DeviceArray& a) { return std::make_shared<DeviceArray>(a); })
      .def("_memset",
           [](DeviceArray& a, int value, const py::object& stream) {
             // numba.cuda.cudadrv.driver.device_memset of the bytes of a contiguous array.
             if (value < 0 || value > 255)
               throw py::value_error("device_memset: val must be a byte value (0 to 255), got " + std::to_string(value));
             if (!a.is_c_contiguous() && !a.is_f_contiguous()) throw py::value_error(kNotContiguous);
             if (a.readonly) throw py::value_error("assignment destination is read-only");
             if (a.size() == 0) return;
             fuse::observe(a);
             void* s = stream_for(a, stream);
             const rt::Backend b = a.backend();
             char* p = a.data;
             const size_t n = size_t(a.nbytes());
             py::gil_scoped_release nogil;
             rt::fill_device_bytes(b, p, (unsigned char)value, n, s, /*wait=*/s == nullptr);
           },
           "value"_a, "stream"_a = 0, "Sets every byte of this contiguous array to `value`.")
      .def("is_c_contiguous", &DeviceArray::is_c_contiguous)
      .def("is_f_contiguous", &DeviceArray::is_f_contiguous)
      .def("__len__",
           [](const DeviceArray& a) -> int64_t {
             if (a.shape.empty()) throw py::type_error("len() of unsized object");
             return a.shape[0];
           })
      .def("__repr__", &repr)
      .def("__getitem__", [](const DeviceArray& a, const py::handle& key) { return getitem(a, key, py::int_(0)); },
           "An int, slice, None or Ellipsis key (or a tuple of them): a view sharing this memory, or "
           "for one element its value as a NumPy scalar.")
      .def("__setitem__",
           [](DeviceArray& a, const py::handle& key, const py::handle& value) { setitem(a, key, value, py::int_(0)); },
           "Writes a scalar, sequence, NumPy array or device array into the elements the key selects, "
           "broadcasting and converting to this array's dtype.")
      .def("getitem", &getitem, "item"_a, "stream"_a = 0)
      .def("setitem", &setitem, "key"_a, "value"_a, "stream"_a = 0)
      .def("reshape", &reshape, "A view with another shape (one dimension may be -1); order='C' or 'F'. "
                                "NotImplementedError where the strides cannot express it without a copy.")
      .def("ravel", &ravel, "order"_a = "C", "A 1-d view of a contiguous array (NotImplementedError otherwise).")
      .def("transpose",
           [](const DeviceArray& a, const py::args& args) {
             // numba-cuda's ValueError for axes that are not a permutation of the dimensions.
             std::vector<int64_t> axes = axes_arg(args);
             if (!axes.empty()) {
               std::vector<bool> seen(a.ndim(), false);
               bool ok = (int)axes.size() == a.ndim();
               for (int64_t ax : axes) {
                 if (!ok) break;
                 if (ax < 0) ax += a.ndim();
                 ok = ax >= 0 && ax < a.ndim() && !seen[ax];
                 if (ok) seen[ax] = true;
               }
               if (!ok)
                 throw py::value_error("invalid axes list " +
                                       py::repr(args.size() == 1 ? py::object(args[0]) : py::object(args)).cast<std::string>());
             }
             return std::make_shared<DeviceArray>(rt::transpose(a, axes));
           },
           "A view with the dimensions permuted (reversed by default). Unlike Numba, which copies "
           "2-d arrays through a transpose kernel, no data moves.")
      .def_property_readonly("T", [](const DeviceArray& a) { return std::make_shared<DeviceArray>(rt::transpose(a, {})); })
      .def("view",
           [](const DeviceArray& a, const py::object& dtype) {
             return std::make_shared<DeviceArray>(rt::view_as(a, dtype_arg(dtype)));
           },
           "dtype"_a, "The same memory read as another dtype.")
      .def("split",
           [](const DeviceArray& a, const py::object& section_obj, const py::object&) {
             // operator.index, as numba-cuda's range() over it: 1.5 is a TypeError, not 1.
             if (!PyIndex_Check(section_obj.ptr()))
               throw py::type_error("split(): section must be an integer, got " + py::repr(section_obj).cast<std::string>());
             Py_ssize_t section = PyNumber_AsSsize_t(section_obj.ptr(), PyExc_OverflowError);
             if (section == -1 && PyErr_Occurred()) throw py::error_already_set();
             py::list parts;
             for (auto& p : rt::split(a, section)) parts.append(std::make_shared<DeviceArray>(p));
             return py::iter(parts);
           },
           "section"_a, "stream"_a = 0, "Views of `section` elements each (the last may be shorter) of a 1-d array.")
      .def("squeeze",
           [](const DeviceArray& a, const py::object& axis, const py::object&) {
             std::vector<int64_t> axes;
             if (!axis.is_none()) axes = shape_arg(axis, "axis");
             return std::make_shared<DeviceArray>(rt::squeeze(a, axes));
           },
           "axis"_a = py::none(), "stream"_a = 0, "A view without size-1 dimensions.")
      .def("__array__", &to_numpy_array, "dtype"_a = py::none(), "copy"_a = py::none(),
           "A host copy, so NumPy functions can read a device array.")
      .def_property_readonly("flags",
                             [](const DeviceArray& a) {
                               py::dict f;
                               f["C_CONTIGUOUS"] = a.is_c_contiguous();
                               f["F_CONTIGUOUS"] = a.is_f_contiguous();
                               return f;
                             })
      .def_property_readonly("device_ctypes_pointer",
                             [](const DeviceArray& a) {
                               // numba-cuda's type (its MemoryPointer's): a c_size_t, 0 for an empty array.
                               fuse::escape(a);
                               return py::module_::import("ctypes").attr("c_size_t")(reinterpret_cast<uintptr_t>(a.data));
                             });
  // numba-cuda's markers of device memory (numba.cuda.cudadrv.driver.is_device_memory) and of its
  // device arrays.
  cls.attr("__cuda_memory__") = true;
  cls.attr("__cuda_ndarray__") = true;
  define_dlpack(m, cls);

  m.def("as_cuda_array",
        [](const py::object& obj, bool sync) -> py::object {
          (void)sync;  // the interface's stream is always synchronised with (protocol v3)
          if (py::isinstance<DeviceArray>(obj)) return obj;
          // Mapped and managed arrays are ndarrays with the interface: they view their memory too.
          if (!py::hasattr(obj, "__cuda_array_interface__"))
            throw py::type_error("as_cuda_array: " + py::type::of(obj).attr("__name__").cast<std::string>() +
                                 " does not implement the CUDA array interface (__cuda_array_interface__); "
                                 "use cuda.to_device to copy host data");
          auto a = device_array_from_cai(obj);
          // numba-cuda binds the array to the exporter's stream (an external stream). The default
          // streams (1, 2) are what an unbound array uses anyway, so those stay unbound (stream 0).
          py::object st = obj.attr("__cuda_array_interface__").attr("get")("stream");
          if (!st.is_none() && py::isinstance<py::int_>(st)) {
            uintptr_t h = st.cast<uintptr_t>();
            if (h > 2) a = with_stream(a, py::cast(rt::Stream::external(reinterpret_cast<void*>(h))));
          }
          return py::cast(a);
        },
        "obj"_a, "sync"_a = true,
        "A DeviceNDArray viewing the GPU memory of an object with __cuda_array_interface__ (no copy).");
  m.def("to_device", &to_device, "obj"_a, "stream"_a = 0, "copy"_a = true, "to"_a = py::none(),
        "Copies a NumPy array (or anything np.asarray accepts) to a new device array on the current "
        "backend, keeping C or F order. A device array is returned as it is; with to=, copies into it.");
  m.def("device_array", &device_array, "shape"_a, "dtype"_a = py::module_::import("numpy").attr("float64"),
        "strides"_a = py::none(), "order"_a = "C", "stream"_a = 0,
        "A new, uninitialised device array on the current backend.");
  m.def("device_array_like", &device_array_like, "ary"_a, "stream"_a = 0,
        "A new, uninitialised device array of ary's shape, dtype and order (on ary's backend for a device array).");
}

}  // namespace cujit
