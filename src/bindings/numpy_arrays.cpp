// See numpy_arrays.h. A copy on a stream other than the default returns once queued when the host
// memory is pinned (Numba's asynchronous copies; memory.h's `wait`); host temporaries made here
// are pageable, and pageable copies always complete before returning. Copies between layouts go through NumPy (np.copyto on strided views), so
// no element loop is written here: a dense device array and a host array of the same order move
// in one copy; anything else moves the device bytes the view spans through a host staging array
// (on the simulator the device memory is viewed directly) and lets NumPy place the elements.
#include "bindings/numpy_arrays.h"
#include "bindings/ufunc_fuse.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "bindings/records.h"
#include "runtime/driver.h"

namespace py = pybind11;

namespace cujit {
using namespace rt;
namespace {

template <typename T>
py::tuple tuple_of(const std::vector<T>& v) {
  py::tuple t(v.size());
  for (size_t i = 0; i < v.size(); ++i) t[i] = py::int_(v[i]);
  return t;
}

std::string dtype_str(const py::handle& dt) { return py::str(dt).cast<std::string>(); }

// NumPy keeps other byte orders as they are; the device only knows the native one.
py::array native_byteorder(py::array a) {
  // NumPy reports the native order as '=' (and '|' where order does not apply).
  std::string bo = a.dtype().attr("byteorder").cast<std::string>();
  if (bo == "=" || bo == "|") return a;
  return py::array(a.attr("astype")(a.dtype().attr("newbyteorder")("=")));
}

bool host_c_contiguous(const py::array& a) { return (a.flags() & py::array::c_style) != 0; }
bool host_f_contiguous(const py::array& a) { return (a.flags() & py::array::f_style) != 0; }

// A NumPy array with `a`'s dtype, shape and strides whose element 0 is at `host_data`; `base`
// keeps that memory alive (no copy is made). Only for non-empty arrays.
py::array strided_view(const DeviceArray& a, char* host_data, py::handle base) {
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end()), strides(a.strides.begin(), a.strides.end());
  return py::array(numpy_dtype(a.dtype), shape, strides, host_data, base);
}

void copyto(const py::array& dst, const py::array& src) { py::module_::import("numpy").attr("copyto")(dst, src); }

void check_alive(const DeviceArray& a) {
  if (!a.buf || a.data == nullptr)  // called for non-empty arrays only
    throw std::invalid_argument("the device array has no memory");
  a.buf->check_live();  // not memory of a context a kernel fault destroyed
}

}  // namespace

py::array sim_view(const DeviceArray& a) {
  auto* keep = new std::shared_ptr<Buffer>(a.buf);
  py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<Buffer>*>(p); });
  return strided_view(a, a.data, owner);
}

namespace {
// scalar_from_numpy_dtype's answers by dtype object (issue 23: four attribute lookups were a
// visible part of a small CUDA ufunc call). NumPy shares dtype objects among arrays (the builtin
// ones are singletons), and a dtype is immutable in what is read here. Entries hold their dtype,
// so an address is never reused by another; the first kSeenDtypes dtypes seen are remembered.
constexpr int kSeenDtypes = 32;
struct SeenDtype {
  PyObject* dtype;
  int scalar;  // -1: not a scalar dtype
};
SeenDtype g_seen_dtypes[kSeenDtypes];
int g_nseen_dtypes = 0;

bool scalar_from_numpy_dtype_uncached(const py::dtype& dt, Scalar* out) {
  std::string bo = dt.attr("byteorder").cast<std::string>();
  if (bo != "=" && bo != "|") return false;  // the device only reads native byte order
  if (!dt.attr("fields").is_none() || !dt.attr("subdtype").is_none()) return false;
  char kind = dt.kind();
  py::ssize_t size = dt.itemsize();
  // datetime64/timedelta64: one row per unit, so the unit must match as well ("<M8[D]").
  const std::string str = (kind == 'M' || kind == 'm') ? dt.attr("str").cast<std::string>() : std::string();
  for (int i = 0; i < kNumScalars; ++i) {
    if (kind == scalar_kind(Scalar(i)) && size == scalar_size(Scalar(i)) && (str.empty() || str == scalar_dtype_str(Scalar(i)))) {
      *out = Scalar(i);
      return true;
    }
  }
  return false;
}
}  // namespace

bool scalar_from_numpy_dtype(py::dtype dt, Scalar* out) {
  if (!dt || out == nullptr) return false;
  for (int i = 0; i < g_nseen_dtypes; ++i) {
    if (g_seen_dtypes[i].dtype != dt.ptr()) continue;
    if (g_seen_dtypes[i].scalar < 0) return false;
    *out = Scalar(g_seen_dtypes[i].scalar);
    return true;
  }
  Scalar s = Scalar::Float64;
  const bool ok = scalar_from_numpy_dtype_uncached(dt, &s);
  if (g_nseen_dtypes < kSeenDtypes) g_seen_dtypes[g_nseen_dtypes++] = {dt.inc_ref().ptr(), ok ? int(s) : -1};
  if (ok) *out = s;
  return ok;
}

py::dtype numpy_dtype(Scalar s) {
  // Made once per scalar (leaked, as Python objects must not be released after the interpreter).
  static py::dtype* made[kNumScalars] = {};
  py::dtype*& d = made[int(s)];
  if (!d) d = new py::dtype(std::string(scalar_dtype_str(s)));
  return *d;
}

bool dtype_from_numpy(py::dtype dt, Dtype* out) {
  if (dt && is_structured_dtype(dt)) {
    *out = Dtype(record_from_dtype(dt));
    return true;
  }
  Scalar s;
  if (!scalar_from_numpy_dtype(dt, &s)) return false;
  *out = s;
  return true;
}

Scalar scalar_dtype(const DeviceArray& a, const char* what) {
  if (a.dtype.record)
    throw py::type_error(std::string(what) + " does not take device arrays of record dtype (" + a.dtype.name() + ")");
  return a.dtype.scalar;
}

py::dtype numpy_dtype(const Dtype& d) { return d.record ? record_dtype(*d.record) : numpy_dtype(d.scalar); }

std::shared_ptr<DeviceArray> device_array_from_numpy(py::array arr, bool copy) {
  return device_array_from_numpy(std::move(arr), copy, current_backend(), nullptr);
}

std::shared_ptr<DeviceArray> device_array_from_numpy(py::array arr, bool copy, Backend backend, void* stream) {
  if (!arr) throw py::type_error("to_device: expected a NumPy array");
  arr = native_byteorder(arr);
  Dtype dt;
  if (!dtype_from_numpy(arr.dtype(), &dt))
    throw py::type_error("unsupported array dtype " + dtype_str(arr.dtype()) +
                         " for a device array (supported: bool, int8-64, uint8-64, float16, float32, float64, "
                         "complex64, complex128, datetime64, timedelta64 and structured dtypes of these)");
  char order = 'C';
  if (host_c_contiguous(arr)) {
    order = 'C';
  } else if (host_f_contiguous(arr)) {
    order = 'F';
  } else {
    using namespace py::literals;
    arr = py::array(py::module_::import("numpy").attr("array")(arr, "order"_a = "C"));
  }
  auto d = new_device_array(backend, dt, shape_of(arr), order, stream);
  // An empty array keeps the host's strides, as numba-cuda's to_device (from_array_like) does:
  // they reach no memory (numba-cuda's test_issue_8477 copies between such arrays).
  if (d->size() == 0) d->strides.assign(arr.strides(), arr.strides() + arr.ndim());
  const int64_t n = d->nbytes();
  if (copy && n > 0) {
    if (arr.nbytes() != n) throw std::logic_error("to_device: host and device sizes differ");
    const void* src = arr.data();
    py::gil_scoped_release nogil;
    copy_host_to_device(backend, d->data, src, size_t(n), stream, /*wait=*/stream == nullptr);
  }
  return d;
}

py::array device_array_to_numpy(const DeviceArray& a, py::object out, void* stream) {
  fuse::observe(a);  // every read of device memory by the host comes here
  py::array result;
  if (out.is_none()) {
    result = new_host_array(numpy_dtype(a.dtype), a.shape, a.is_f_contiguous() && !a.is_c_contiguous());
  } else {
    if (!py::isinstance<py::array>(out))
      throw py::type_error("copy_to_host: ary must be a NumPy array, not " +
                           py::type::of(out).attr("__name__").cast<std::string>());
    result = py::reinterpret_borrow<py::array>(out);
    if (shape_of(result) != a.shape)
      throw py::value_error("copy_to_host: ary has shape " + shape_str(shape_of(result)) +
                            " but the device array has shape " + shape_str(a.shape));
    Dtype odt;
    if (!dtype_from_numpy(result.dtype(), &odt) || odt != a.dtype)
      throw py::value_error("copy_to_host: ary has dtype " + dtype_str(result.dtype()) +
                           " but the device array has dtype " + a.dtype.name());
    if (!result.writeable()) throw py::value_error("copy_to_host: ary is read-only");
  }
  if (a.size() == 0) return result;
  check_alive(a);
  const Backend backend = a.backend();
  if ((a.is_c_contiguous() && host_c_contiguous(result)) || (a.is_f_contiguous() && host_f_contiguous(result))) {
    void* dst = result.mutable_data();
    py::gil_scoped_release nogil;
    copy_device_to_host(backend, dst, a.data, size_t(a.nbytes()), stream, /*wait=*/stream == nullptr);
    return result;
  }
  if (backend == Backend::Sim) {
    copyto(result, sim_view(a));
    return result;
  }
  int64_t lo = 0, hi = 0;
  a.extent(&lo, &hi);
  py::array_t<uint8_t> staging(py::ssize_t(hi - lo));
  {
    void* dst = staging.mutable_data();
    py::gil_scoped_release nogil;
    copy_device_to_host(backend, dst, a.data + lo, size_t(hi - lo), stream);
  }
  copyto(result, strided_view(a, reinterpret_cast<char*>(staging.mutable_data()) - lo, staging));
  return result;
}

void copy_numpy_to_device_array(DeviceArray& dst, py::array src, void* stream) {
  if (!src) throw py::type_error("copy_to_device: expected a NumPy array");
  fuse::observe(dst);
  if (dst.readonly) throw py::value_error("copy_to_device: the device array is read-only");
  src = native_byteorder(src);
  if (shape_of(src) != dst.shape)
    throw py::value_error("copy_to_device: the host array has shape " + shape_str(shape_of(src)) +
                          " but the device array has shape " + shape_str(dst.shape));
  Dtype sdt;
  if (!dtype_from_numpy(src.dtype(), &sdt) || sdt != dst.dtype)
    throw py::value_error("copy_to_device: the host array has dtype " + dtype_str(src.dtype()) +
                         " but the device array has dtype " + dst.dtype.name());
  if (dst.size() == 0) return;
  check_alive(dst);
  const Backend backend = dst.backend();
  const bool c = dst.is_c_contiguous(), f = dst.is_f_contiguous();
  if (c || f) {
    using namespace py::literals;
    if (!(c && host_c_contiguous(src)) && !(f && host_f_contiguous(src)))
      src = py::array(py::module_::import("numpy").attr("array")(src, "order"_a = c ? "C" : "F"));
    const void* p = src.data();
    py::gil_scoped_release nogil;
    copy_host_to_device(backend, dst.data, p, size_t(dst.nbytes()), stream, /*wait=*/stream == nullptr);
    return;
  }
  if (backend == Backend::Sim) {
    copyto(sim_view(dst), src);
    return;
  }
  // A strided device view: read the bytes it spans, place the elements, write them back (the
  // bytes between elements are written back unchanged).
  int64_t lo = 0, hi = 0;
  dst.extent(&lo, &hi);
  py::array_t<uint8_t> staging(py::ssize_t(hi - lo));
  void* host = staging.mutable_data();
  {
    py::gil_scoped_release nogil;
    copy_device_to_host(backend, host, dst.data + lo, size_t(hi - lo), stream);
  }
  copyto(strided_view(dst, static_cast<char*>(host) - lo, staging), src);
  py::gil_scoped_release nogil;
  copy_host_to_device(backend, dst.data + lo, host, size_t(hi - lo), stream);
}

void copy_device_array(DeviceArray& dst, const DeviceArray& src, void* stream) {
  fuse::observe(dst);
  fuse::observe(src);
  if (dst.backend() != src.backend())
    throw std::invalid_argument(std::string("cannot copy a ") + backend_name(src.backend()) +
                                " device array into a " + backend_name(dst.backend()) +
                                " device array: the simulator and the GPU do not share memory");
  if (dst.readonly) throw py::value_error("copy_to_device: the device array is read-only");
  if (src.shape != dst.shape)
    throw py::value_error("copy_to_device: the source has shape " + shape_str(src.shape) +
                          " but the device array has shape " + shape_str(dst.shape));
  if (src.dtype != dst.dtype)
    throw py::value_error("copy_to_device: the source has dtype " + src.dtype.name() +
                          " but the device array has dtype " + dst.dtype.name());
  if (dst.size() == 0) return;
  check_alive(dst);
  check_alive(src);
  if ((dst.is_c_contiguous() && src.is_c_contiguous()) || (dst.is_f_contiguous() && src.is_f_contiguous())) {
    py::gil_scoped_release nogil;
    copy_device_to_device(dst.backend(), dst.data, src.data, size_t(dst.nbytes()), stream, /*wait=*/stream == nullptr);
    return;
  }
  if (dst.backend() == Backend::Sim) {
    copyto(sim_view(dst), sim_view(src));
    return;
  }
  copy_numpy_to_device_array(dst, device_array_to_numpy(src, py::none(), stream), stream);
}

namespace {
// An integer of a foreign __cuda_array_interface__: a clear ValueError for a value that is no
// integer or does not fit, rather than pybind11's "Unable to cast Python instance".
int64_t cai_int(const py::handle& h, const char* field) {
  if (PyIndex_Check(h.ptr())) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr())).ptr(), &overflow);
    if (!PyErr_Occurred() && !overflow) return v;
    PyErr_Clear();
  }
  throw py::value_error(std::string("__cuda_array_interface__ '") + field + "' holds " + py::repr(h).cast<std::string>() +
                        ", not a 64-bit integer");
}
uintptr_t cai_pointer(const py::handle& h, const char* field) {
  if (PyIndex_Check(h.ptr())) {
    unsigned long long v = PyLong_AsUnsignedLongLong(py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr())).ptr());
    if (!PyErr_Occurred()) return (uintptr_t)v;
    PyErr_Clear();
  }
  throw py::value_error(std::string("__cuda_array_interface__ '") + field + "' holds " + py::repr(h).cast<std::string>() +
                        ", not an address");
}
}  // namespace

std::shared_ptr<DeviceArray> device_array_from_cai(py::handle obj) {
  py::object iface = obj.attr("__cuda_array_interface__");
  if (!py::isinstance<py::dict>(iface)) throw py::type_error("__cuda_array_interface__ must be a dict");
  py::dict cai = iface;
  for (const char* key : {"shape", "typestr", "data"})
    if (!cai.contains(key)) throw py::value_error(std::string("__cuda_array_interface__ has no '") + key + "'");
  if (cai.contains("mask") && !cai["mask"].is_none()) {  // numba-cuda's class and words
    PyErr_SetString(PyExc_NotImplementedError, "Masked arrays are not supported");
    throw py::error_already_set();
  }
  auto a = std::make_shared<DeviceArray>();
  for (auto d : py::tuple(cai["shape"])) a->shape.push_back(cai_int(d, "shape"));
  check_shape(a->shape, "__cuda_array_interface__");
  py::dtype dt = py::dtype::from_args(cai["typestr"]);
  // A structured dtype travels as "|V<size>" with its fields in "descr" (NumPy's interface).
  if (dt.kind() == 'V' && cai.contains("descr") && py::isinstance<py::list>(cai["descr"]))
    dt = py::dtype::from_args(cai["descr"]);
  if (!dtype_from_numpy(dt, &a->dtype))
    throw py::type_error("unsupported dtype " + dtype_str(dt) + " in __cuda_array_interface__");
  py::tuple data(cai["data"]);
  if (data.size() != 2) throw py::value_error("__cuda_array_interface__ 'data' must be (pointer, read_only)");
  uintptr_t ptr = cai_pointer(data[0], "data");
  a->readonly = data[1].cast<bool>();
  const int64_t item = a->dtype.itemsize();
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    for (auto s : py::tuple(cai["strides"])) a->strides.push_back(cai_int(s, "strides"));
    if (a->strides.size() != a->shape.size())
      throw py::value_error("__cuda_array_interface__ 'strides' and 'shape' differ in length");
    for (int64_t s : a->strides)
      if (s % item != 0) throw py::value_error("__cuda_array_interface__ strides must be multiples of the itemsize");
  } else {
    a->strides.assign(a->shape.size(), 0);
    int64_t step = item;
    for (size_t k = a->shape.size(); k-- > 0;) {
      a->strides[k] = step;
      if (__builtin_mul_overflow(step, std::max<int64_t>(a->shape[k], 1), &step))
        throw py::value_error("__cuda_array_interface__ shape is too large");
    }
  }
  int64_t lo = 0, hi = 0;
  if (!checked_extent(a->shape, a->strides, item, &lo, &hi))
    throw py::value_error("__cuda_array_interface__ shape and strides are too large");
  if (ptr == 0 && hi > lo) throw py::value_error("__cuda_array_interface__ has a null pointer for a non-empty array");
  // The exporter's work on its stream must finish before we use the memory (protocol v3).
  if (cai.contains("stream") && !cai["stream"].is_none() && hi > lo) {
    auto s = cai_pointer(cai["stream"], "stream");
    py::gil_scoped_release nogil;
    stream_synchronize(reinterpret_cast<CUstream>(s));
  }
  // Holds a reference to the exporter; dropped with the GIL held, and leaked once Python is gone.
  auto* ref = new py::object(py::reinterpret_borrow<py::object>(obj));
  std::shared_ptr<void> owner(ref, [](void* p) {
    if (!Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    delete static_cast<py::object*>(p);
  });
  char* base = reinterpret_cast<char*>(ptr);
  a->buf = wrap_external(Backend::GPU, hi > lo ? base + lo : base, size_t(hi - lo), std::move(owner));
  a->data = base;
  return a;
}

py::dict cuda_array_interface(const DeviceArray& a) {
  fuse::escape(a);  // another library may read or write it from now on
  if (a.buf) a.buf->check_live();
  if (a.backend() != Backend::GPU)
    throw std::invalid_argument("a simulator device array has no __cuda_array_interface__ (it is not in GPU memory)");
  py::dict d;
  d["shape"] = tuple_of(a.shape);
  // A record's typestr is "|V<size>" and its fields are in "descr", as NumPy's interface has them.
  if (a.dtype.record) {
    py::dtype dt = numpy_dtype(a.dtype);
    d["typestr"] = dt.attr("str");
    d["descr"] = dt.attr("descr");
  } else {
    d["typestr"] = scalar_dtype_str(a.dtype.scalar);
  }
  d["data"] = py::make_tuple(py::int_(reinterpret_cast<uintptr_t>(a.data)), py::bool_(a.readonly));
  d["strides"] = a.is_c_contiguous() ? py::object(py::none()) : py::object(tuple_of(a.strides));
  d["version"] = 3;
  // Our work is queued on the legacy default stream (1 in the protocol): a consumer on another
  // stream must synchronise with it first. None would promise there is nothing to wait for.
  d["stream"] = 1;
  return d;
}

}  // namespace cujit
