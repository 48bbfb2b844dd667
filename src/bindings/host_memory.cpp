// Page-locked host memory for Python (runtime/host_memory.h): _core.HostAllocation (a buffer that
// NumPy arrays are built on, so the memory is freed when the last view dies), host_alloc,
// host_register, and mapped_device_array (a DeviceNDArray over mapped host memory). The NumPy-facing
// API (pinned_array, mapped_array, pinned, mapped, MappedNDArray) is python/cujit/cuda/host_memory.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bindings/numpy_arrays.h"
#include "runtime/host_memory.h"
#include "runtime/memory.h"

namespace py = pybind11;

namespace cujit {
namespace {

using rt::HostAllocation;

unsigned flags_of(bool mapped, bool portable, bool wc) {
  return (mapped ? rt::kHostMapped : 0u) | (portable ? rt::kHostPortable : 0u) | (wc ? rt::kHostWriteCombined : 0u);
}

// The bytes [lo, hi) relative to the array's data pointer that its elements occupy ((0, 0) if empty).
void numpy_extent(const py::array& a, int64_t* lo, int64_t* hi) {
  *lo = *hi = 0;
  for (py::ssize_t d = 0; d < a.ndim(); ++d)
    if (a.shape(d) == 0) return;
  int64_t l = 0, h = a.itemsize();
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    int64_t span = int64_t(a.shape(d) - 1) * int64_t(a.strides(d));
    if (span < 0) l += span; else h += span;
  }
  *lo = l;
  *hi = h;
}

py::array as_numpy(const py::object& obj, const char* what) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(std::string(what) + ": expected NumPy arrays, got " + py::repr(py::type::of(obj)).cast<std::string>());
  return py::reinterpret_borrow<py::array>(obj);
}

// A reference to a Python object for a Buffer's owner: dropped with the GIL held, leaked once
// Python is gone.
std::shared_ptr<void> hold(py::object o) {
  auto* ref = new py::object(std::move(o));
  return std::shared_ptr<void>(ref, [](void* p) {
    if (!Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    delete static_cast<py::object*>(p);
  });
}

}  // namespace

void define_host_memory(py::module_& m) {
  using namespace py::literals;
  define_host_results(m);
  py::class_<HostAllocation, std::shared_ptr<HostAllocation>>(m, "HostAllocation", py::buffer_protocol(),
                                                              "Page-locked host memory (pinned or mapped), as a writable byte buffer.")
      .def_buffer([](HostAllocation& a) {
        if (a.ptr == nullptr && a.nbytes != 0) throw py::value_error("the host allocation was released");
        return py::buffer_info(a.ptr, 1, py::format_descriptor<uint8_t>::format(), 1, {py::ssize_t(a.nbytes)}, {py::ssize_t(1)});
      })
      .def_property_readonly("ptr", [](const HostAllocation& a) { return uintptr_t(a.ptr); })
      .def_property_readonly("device_ptr", [](const HostAllocation& a) { return uintptr_t(a.device_ptr); },
                             "The device address of mapped memory (its host address on the simulator); 0 if not mapped.")
      .def_property_readonly("nbytes", [](const HostAllocation& a) { return a.nbytes; })
      .def_property_readonly("mapped", [](const HostAllocation& a) { return (a.flags & rt::kHostMapped) != 0; })
      .def_property_readonly("managed", [](const HostAllocation& a) { return (a.flags & rt::kHostManaged) != 0; })
      .def_property_readonly("registered", [](const HostAllocation& a) { return a.registered; })
      .def_property_readonly("backend", [](const HostAllocation& a) { return std::string(rt::backend_name(a.backend)); })
      .def("release", [](HostAllocation& a) {
        if (!a.registered)
          throw py::value_error("only a registration (cuda.pinned, cuda.mapped) can be released early; allocated "
                                "memory is freed when the last array viewing it dies");
        a.release();
      }, "Unregisters memory locked by host_register (cuda.pinned / cuda.mapped on exit).");

  m.def("host_alloc",
        [](size_t nbytes, bool mapped, bool portable, bool wc) {
          py::gil_scoped_release nogil;  // cuMemHostAlloc of a large block takes a while
          return rt::host_alloc(rt::current_backend(), nbytes, flags_of(mapped, portable, wc));
        },
        "nbytes"_a, "mapped"_a = false, "portable"_a = false, "wc"_a = false,
        "nbytes of page-locked host memory (cuMemHostAlloc) on the current backend.");
  m.def("managed_alloc",
        [](size_t nbytes, bool attach_global) {
          py::gil_scoped_release nogil;
          return rt::host_alloc(rt::current_backend(), nbytes,
                                rt::kHostManaged | (attach_global ? 0u : unsigned(rt::kHostAttachHost)));
        },
        "nbytes"_a, "attach_global"_a = true,
        "nbytes of managed memory (cuMemAllocManaged) on the current backend (host memory on the simulator): "
        "one address for the host and the device.");
  m.def("host_register",
        [](const py::object& obj, bool mapped, bool portable) {
          py::array a = as_numpy(obj, "cuda.pinned/mapped");
          int64_t lo = 0, hi = 0;
          numpy_extent(a, &lo, &hi);
          char* base = static_cast<char*>(const_cast<void*>(a.data())) + lo;
          return rt::host_register(rt::current_backend(), base, size_t(hi - lo), flags_of(mapped, portable, false));
        },
        "ary"_a, "mapped"_a = false, "portable"_a = false,
        "Page-locks the memory of a NumPy array in place (cuMemHostRegister); release() undoes it.");
  m.def("mapped_device_array",
        [](const py::object& obj, std::shared_ptr<HostAllocation> alloc) {
          py::array a = as_numpy(obj, "mapped_device_array");
          if (!alloc || !(alloc->flags & rt::kHostMapped) || (alloc->ptr == nullptr && alloc->nbytes != 0))
            throw py::value_error("mapped_device_array: the host memory is not mapped");
          rt::Dtype dt;
          if (!dtype_from_numpy(a.dtype(), &dt))
            throw py::type_error("unsupported dtype " + py::str(a.dtype()).cast<std::string>() + " for a device array");
          int64_t lo = 0, hi = 0;
          numpy_extent(a, &lo, &hi);
          const intptr_t host = intptr_t(a.data());
          const intptr_t start = intptr_t(alloc->ptr);
          if (hi > lo && (host + lo < start || host + hi > start + intptr_t(alloc->nbytes)))
            throw py::value_error("mapped_device_array: the array is not inside the mapped memory");
          // The same offset into the device mapping as into the host memory (negative when the
          // array's element 0 is not its lowest address).
          char* dev = reinterpret_cast<char*>(intptr_t(alloc->device_ptr) + (host - start));
          auto d = std::make_shared<rt::DeviceArray>();
          d->buf = rt::wrap_external(alloc->backend, hi > lo ? dev + lo : dev, size_t(hi - lo),
                                     hold(py::make_tuple(obj, py::cast(alloc))));
          d->data = dev;
          d->dtype = dt;
          for (py::ssize_t k = 0; k < a.ndim(); ++k) {
            d->shape.push_back(a.shape(k));
            d->strides.push_back(a.strides(k));
          }
          d->readonly = !a.writeable();
          return d;
        },
        "ary"_a, "alloc"_a,
        "A DeviceNDArray viewing the device mapping of `ary`, which lies in the mapped memory `alloc`.");
}

}  // namespace cujit
