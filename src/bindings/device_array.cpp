// cujit._core.DeviceNDArray (rt::DeviceArray) and the functions that make and fill device arrays:
// to_device, device_array(_like). Element data never passes through Python: copies are rt:: calls
// on whole buffers (runtime/device_array.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/assign.h"
#include "bindings/common.h"
#include "runtime/array_views.h"
#include "runtime/device_array.h"
#include "runtime/memory.h"

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
  if (py::isinstance<py::tuple>(shape) || py::isinstance<py::list>(shape)) {
    for (auto d : shape) v.push_back(as_int(d));
  } else {
    v.push_back(as_int(shape));
  }
  return v;
}

// dtype=: anything np.dtype accepts, and objects with a .dtype (cujit.float32, ...).
Scalar dtype_arg(const py::object& dtype) {
  py::dtype dt;
  try {
    dt = py::dtype::from_args(dtype);
  } catch (py::error_already_set&) {
    if (!py::hasattr(dtype, "dtype")) throw;
    dt = py::dtype::from_args(dtype.attr("dtype"));
  }
  Scalar s;
  if (!rt::scalar_from_numpy_dtype(dt, &s))
    throw py::type_error("unsupported dtype " + py::str(dt).cast<std::string>() +
                         " for a device array (supported: bool, int8-64, uint8-64, float32, float64)");
  return s;
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
  return "<cujit.cuda.DeviceNDArray shape=" + shape + " dtype=" + scalar_name(a.dtype) + strides + " on " +
         rt::backend_name(a.backend()) + ">";
}

bool is_device_array(const py::handle& h) {
  return py::isinstance<DeviceArray>(h) || (!is_exact_ndarray(h) && py::hasattr(h, "__cuda_array_interface__"));
}

std::shared_ptr<DeviceArray> as_device_array(const py::handle& h) {
  if (py::isinstance<DeviceArray>(h)) return h.cast<std::shared_ptr<DeviceArray>>();
  return rt::device_array_from_cai(h);
}

// The host data of `obj` as a NumPy array: arrays as they are, anything else through
// np.asarray (lists, tuples, NumPy and Python scalars), converted to `dtype` when given.
py::array host_array(const py::object& obj, const Scalar* dtype) {
  if (py::isinstance<py::array>(obj)) return py::reinterpret_borrow<py::array>(obj);
  py::module_ np = py::module_::import("numpy");
  if (dtype) return py::array(np.attr("asarray")(obj, rt::numpy_dtype(*dtype)));
  return py::array(np.attr("asarray")(obj));
}

void copy_to_device(DeviceArray& self, const py::object& ary, const py::object& stream) {
  void* s = stream_handle(stream);
  if (is_device_array(ary)) {
    auto src = as_device_array(ary);
    rt::copy_device_array(self, *src, s);
    return;
  }
  rt::copy_numpy_to_device_array(self, host_array(ary, &self.dtype), s);
}

py::object to_device(const py::object& obj, const py::object& stream, bool copy, const py::object& to) {
  void* s = stream_handle(stream);
  if (!to.is_none()) {
    if (!py::isinstance<DeviceArray>(to)) throw py::type_error("to_device: to= must be a DeviceNDArray");
    copy_to_device(to.cast<DeviceArray&>(), obj, stream);
    return to;
  }
  if (py::isinstance<DeviceArray>(obj)) return obj;
  if (is_device_array(obj)) return py::cast(rt::device_array_from_cai(obj));
  py::array host = host_array(obj, nullptr);
  return py::cast(rt::device_array_from_numpy(host, copy, rt::current_backend(), s));
}

py::object device_array(const py::object& shape, const py::object& dtype, const py::object& strides,
                        const std::string& order, const py::object& stream) {
  void* s = stream_handle(stream);
  std::vector<int64_t> sh = shape_arg(shape, "shape");
  Scalar dt = dtype_arg(dtype);
  if (!strides.is_none()) {
    std::vector<int64_t> st = shape_arg(strides, "strides");
    return py::cast(rt::new_device_array_strided(rt::current_backend(), dt, sh, st, s));
  }
  if (order != "C" && order != "F") throw py::value_error("order must be 'C' or 'F', got '" + order + "'");
  return py::cast(rt::new_device_array(rt::current_backend(), dt, sh, order[0], s));
}

// Numba's rule: the new array is Fortran-ordered if `ary` is F- and not C-contiguous, else C.
py::object device_array_like(const py::object& ary, const py::object& stream) {
  void* s = stream_handle(stream);
  if (is_device_array(ary)) {
    auto a = as_device_array(ary);
    char order = a->is_f_contiguous() && !a->is_c_contiguous() ? 'F' : 'C';
    return py::cast(rt::new_device_array(a->backend(), a->dtype, a->shape, order, s));
  }
  py::array h = host_array(ary, nullptr);
  Scalar dt;
  if (!rt::scalar_from_numpy_dtype(h.dtype(), &dt)) dt = dtype_arg(h.dtype());  // throws with the reason
  bool f = (h.flags() & py::array::f_style) && !(h.flags() & py::array::c_style);
  std::vector<int64_t> shape(h.shape(), h.shape() + h.ndim());
  return py::cast(rt::new_device_array(rt::current_backend(), dt, shape, f ? 'F' : 'C', s));
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

py::object getitem(const DeviceArray& a, const py::handle& key) {
  bool element = false;
  auto v = std::make_shared<DeviceArray>(rt::index(a, index_key(key), &element));
  if (!element) return py::cast(v);
  // One element: a NumPy scalar, as indexing a NumPy array gives.
  py::array host = rt::device_array_to_numpy(*v, py::none());
  return host.attr("__getitem__")(py::tuple());
}

void setitem(DeviceArray& a, const py::handle& key, const py::handle& value) {
  bool element = false;
  DeviceArray v = rt::index(a, index_key(key), &element);
  assign(v, value, nullptr);
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
  py::array h = rt::device_array_to_numpy(a, py::none());
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
      .def_property_readonly("dtype", [](const DeviceArray& a) { return rt::numpy_dtype(a.dtype); })
      .def_property_readonly("size", &DeviceArray::size)
      .def_property_readonly("ndim", &DeviceArray::ndim)
      .def_property_readonly("nbytes", &DeviceArray::nbytes)
      .def_property_readonly("itemsize", &DeviceArray::itemsize)
      .def_property_readonly("_device_pointer",
                             [](const DeviceArray& a) { return py::int_(reinterpret_cast<uintptr_t>(a.data)); })
      // True for a read-only __cuda_array_interface__ or DLPack tensor (and views of one), which
      // cujit never writes. Not in flags, whose keys are Numba's (C_ and F_CONTIGUOUS only).
      .def_property_readonly("_readonly", [](const DeviceArray& a) { return a.readonly; })
      .def_property_readonly("_backend", [](const DeviceArray& a) { return rt::backend_name(a.backend()); })
      .def_property_readonly(
          "__cuda_array_interface__",
          [](const DeviceArray& a) -> py::dict {
            // AttributeError, so hasattr() says a simulator array is not a CUDA array.
            if (a.backend() != rt::Backend::GPU)
              throw py::attribute_error("a simulator device array has no __cuda_array_interface__ (it is not in GPU memory)");
            return rt::cuda_array_interface(a);
          })
      .def("copy_to_host",
           [](const DeviceArray& a, const py::object& ary, const py::object& stream) {
             return rt::device_array_to_numpy(a, ary, stream_handle(stream));
           },
           "ary"_a = py::none(), "stream"_a = 0,
           "Copies the data to the host: into `ary` (same shape and dtype) or a new array, which is returned.")
      .def("copy_to_device", &copy_to_device, "ary"_a, "stream"_a = 0,
           "Copies a host array (or a device array of the same backend) of the same shape and dtype into this one.")
      .def("is_c_contiguous", &DeviceArray::is_c_contiguous)
      .def("is_f_contiguous", &DeviceArray::is_f_contiguous)
      .def("__len__",
           [](const DeviceArray& a) -> int64_t {
             if (a.shape.empty()) throw py::type_error("len() of unsized object");
             return a.shape[0];
           })
      .def("__repr__", &repr)
      .def("__getitem__", &getitem,
           "An int, slice, None or Ellipsis key (or a tuple of them): a view sharing this memory, or "
           "for one element its value as a NumPy scalar.")
      .def("__setitem__", &setitem,
           "Writes a scalar, sequence, NumPy array or device array into the elements the key selects, "
           "broadcasting and converting to this array's dtype.")
      .def("getitem", [](const DeviceArray& a, const py::handle& key, const py::object&) { return getitem(a, key); },
           "item"_a, "stream"_a = 0)
      .def("setitem",
           [](DeviceArray& a, const py::handle& key, const py::handle& value, const py::object& stream) {
             bool element = false;
             DeviceArray v = rt::index(a, index_key(key), &element);
             assign(v, value, stream_handle(stream));
           },
           "key"_a, "value"_a, "stream"_a = 0)
      .def("reshape", &reshape, "A view with another shape (one dimension may be -1); order='C' or 'F'. "
                                "NotImplementedError where the strides cannot express it without a copy.")
      .def("ravel", &ravel, "order"_a = "C", "A 1-d view of a contiguous array (NotImplementedError otherwise).")
      .def("transpose",
           [](const DeviceArray& a, const py::args& axes) {
             return std::make_shared<DeviceArray>(rt::transpose(a, axes_arg(axes)));
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
                               return py::module_::import("ctypes").attr("c_void_p")(reinterpret_cast<uintptr_t>(a.data));
                             });
  define_dlpack(m, cls);

  m.def("as_cuda_array",
        [](const py::object& obj, bool sync) -> py::object {
          (void)sync;  // the interface's stream is always synchronised with (protocol v3)
          if (py::isinstance<DeviceArray>(obj)) return obj;
          if (py::isinstance<py::array>(obj) || !py::hasattr(obj, "__cuda_array_interface__"))
            throw py::type_error("as_cuda_array: " + py::type::of(obj).attr("__name__").cast<std::string>() +
                                 " does not implement the CUDA array interface (__cuda_array_interface__); "
                                 "use cuda.to_device to copy host data");
          return py::cast(rt::device_array_from_cai(obj));
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
