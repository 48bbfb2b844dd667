// DLPack both ways: DeviceNDArray.__dlpack__ / __dlpack_device__ (export) and
// cuda.from_dlpack (import, from any object with __dlpack__ or from a bare capsule).
//
// The structs below are the DLPack C ABI (dlpack.h, versions 0.8 and 1.x), declared here because
// the build has no dlpack.h to include; field order and sizes are fixed by that ABI.
// A GPU array is exported as a CUDA tensor; a simulator array, whose memory is host memory, as a
// CPU tensor, so np.from_dlpack reads it without a copy.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bindings/ufunc_fuse.h"
#include "bindings/common.h"
#include "bindings/numpy_arrays.h"
#include "runtime/driver.h"
#include "runtime/memory.h"

namespace py = pybind11;

namespace cujit {
namespace {

// ---- the DLPack ABI -----------------------------------------------------------------------------
enum DLDeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum DLDataTypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLComplex = 5, kDLBool = 6 };
struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null means C-contiguous
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  uint64_t flags;
  DLTensor dl_tensor;
};
constexpr uint64_t kDLFlagReadOnly = 1ull << 0;
constexpr uint64_t kDLFlagIsCopied = 1ull << 1;
constexpr uint32_t kDLPackMajor = 1, kDLPackMinor = 0;
// -------------------------------------------------------------------------------------------------

DLDataType dl_dtype(Scalar s) {
  DLDataType t{255, uint8_t(scalar_size(s) * 8), 1};  // 255: no DLPack code (matches nothing)
  switch (scalar_kind(s)) {  // DLPack's codes by NumPy's kinds
    case 'b': t.code = kDLBool; break;
    case 'i': t.code = kDLInt; break;
    case 'u': t.code = kDLUInt; break;
    case 'f': t.code = kDLFloat; break;
    case 'c': t.code = kDLComplex; break;
  }
  return t;
}

bool scalar_of_dl(DLDataType t, Scalar* out) {
  if (t.lanes != 1) return false;
  for (int i = 0; i < kNumScalars; ++i) {
    DLDataType d = dl_dtype(Scalar(i));
    if (d.code == t.code && d.bits == t.bits) { *out = Scalar(i); return true; }
  }
  // Some producers spell bool as an 8-bit unsigned integer; that is what uint8 reads anyway.
  return false;
}

// What an exported tensor owns: the array (so its memory lives) and the shape/strides arrays
// the DLTensor points into.
struct ExportCtx {
  std::shared_ptr<rt::DeviceArray> array;
  std::vector<int64_t> shape, strides;
};

template <class Managed>
void delete_export(Managed* m) {
  if (!m) return;
  delete static_cast<ExportCtx*>(m->manager_ctx);
  delete m;
}

template <class Managed>
void capsule_destructor(PyObject* cap, const char* name) {
  // A capsule still under its original name was never consumed: its tensor is ours to free.
  if (!PyCapsule_IsValid(cap, name)) return;
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(cap, name));
  if (m && m->deleter) m->deleter(m);
}

std::pair<int32_t, int32_t> device_of(const rt::DeviceArray& a) {
  if (a.backend() == rt::Backend::Sim) return {kDLCPU, 0};
  // The device the memory was allocated on (another library's memory: the current device, the
  // one it was handed to cujit on).
  const bool own = a.buf && a.buf->origin != rt::Buffer::Origin::External;
  return {kDLCUDA, own ? a.buf->device : rt::current_device()};
}

// The producer's side of the stream handshake: the consumer will use the memory on `stream`.
// Everything cujit queues runs on the legacy default stream or completes before returning, so
// only a consumer on another stream needs to wait; waiting on the host for the legacy stream is
// the simple, always-correct way (an event would avoid the host wait).
void make_ready_for(const py::object& stream, const rt::DeviceArray& a) {
  if (a.backend() != rt::Backend::GPU || stream.is_none()) return;
  int overflow = 0;
  long long s = PyIndex_Check(stream.ptr()) ? PyLong_AsLongLongAndOverflow(stream.ptr(), &overflow) : 0;
  if (!PyIndex_Check(stream.ptr()) || overflow || PyErr_Occurred()) {
    PyErr_Clear();
    throw py::type_error("__dlpack__: stream must be None or an integer (-1, 1, 2 or a CUstream handle), got " +
                         py::repr(stream).cast<std::string>());
  }
  if (s == 0) throw py::value_error("__dlpack__: stream=0 is ambiguous for CUDA; use 1 (legacy default) or 2 (per-thread)");
  if (s == -1 || s == 1) return;  // -1: the consumer asked for no synchronisation; 1: our own stream
  py::gil_scoped_release nogil;
  rt::stream_synchronize(CU_STREAM_LEGACY);
}

py::object dlpack_export(const std::shared_ptr<rt::DeviceArray>& self, const py::object& stream,
                         const py::object& max_version, const py::object& dl_device, const py::object& copy) {
  auto dev = device_of(*self);
  fuse::escape(*self);  // the consumer may read or write the memory from now on
  if (!dl_device.is_none()) {
    auto want = dl_device.cast<std::pair<int32_t, int32_t>>();
    if (want != dev) throw py::buffer_error("__dlpack__: cannot export to another device than the array's own");
  }
  std::shared_ptr<rt::DeviceArray> arr = self;
  bool copied = false;
  if (!copy.is_none() && copy.cast<bool>()) {
    arr = rt::new_device_array(self->backend(), self->dtype, self->shape, 'C');
    copy_device_array(*arr, *self, nullptr);
    copied = true;
  }
  make_ready_for(stream, *arr);

  auto* ctx = new ExportCtx{arr, arr->shape, {}};
  for (int64_t st : arr->strides) ctx->strides.push_back(st / arr->itemsize());
  DLTensor t{};
  t.data = arr->data;
  t.device = DLDevice{dev.first, dev.second};
  t.ndim = arr->ndim();
  t.dtype = dl_dtype(scalar_dtype(*arr, "__dlpack__"));  // DLPack has no record types
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;

  bool versioned = false;
  if (!max_version.is_none()) versioned = max_version.cast<std::pair<int, int>>().first >= 1;
  if (versioned) {
    auto* m = new DLManagedTensorVersioned{};
    m->version = DLPackVersion{kDLPackMajor, kDLPackMinor};
    m->manager_ctx = ctx;
    m->deleter = &delete_export<DLManagedTensorVersioned>;
    m->flags = (arr->readonly ? kDLFlagReadOnly : 0) | (copied ? kDLFlagIsCopied : 0);
    m->dl_tensor = t;
    PyObject* cap = PyCapsule_New(m, "dltensor_versioned", [](PyObject* c) {
      capsule_destructor<DLManagedTensorVersioned>(c, "dltensor_versioned");
    });
    if (!cap) { delete_export(m); throw py::error_already_set(); }
    return py::reinterpret_steal<py::object>(cap);
  }
  auto* m = new DLManagedTensor{};
  m->dl_tensor = t;
  m->manager_ctx = ctx;
  m->deleter = &delete_export<DLManagedTensor>;
  PyObject* cap = PyCapsule_New(m, "dltensor", [](PyObject* c) { capsule_destructor<DLManagedTensor>(c, "dltensor"); });
  if (!cap) { delete_export(m); throw py::error_already_set(); }
  return py::reinterpret_steal<py::object>(cap);
}

// A DeviceArray over a consumed tensor; its Buffer calls the producer's deleter when the last
// view dies (with the GIL, since producers such as NumPy release Python objects there).
template <class Managed>
std::shared_ptr<rt::DeviceArray> wrap_tensor(Managed* m, bool readonly) {
  std::shared_ptr<void> owner(m, [](void* p) {
    auto* mt = static_cast<Managed*>(p);
    if (!mt->deleter) return;
    if (!Py_IsInitialized()) return;  // interpreter gone: leak rather than call into a dead runtime
    py::gil_scoped_acquire gil;
    mt->deleter(mt);
  });
  const DLTensor& t = m->dl_tensor;
  Scalar dt;
  if (!scalar_of_dl(t.dtype, &dt))
    throw py::type_error("from_dlpack: unsupported dtype (code " + std::to_string(t.dtype.code) + ", " +
                         std::to_string(t.dtype.bits) + " bits, " + std::to_string(t.dtype.lanes) +
                         " lanes); cujit arrays hold bool, int8-64, uint8-64, float32 and float64");
  rt::Backend backend;
  switch (t.device.device_type) {
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLCUDAManaged:
      backend = rt::Backend::GPU;
      break;
    case kDLCPU:
      if (rt::current_backend() != rt::Backend::Sim)
        throw py::type_error("from_dlpack: the tensor is in CPU memory; cuda.from_dlpack takes GPU tensors "
                             "(use cuda.to_device to copy a host array to the GPU)");
      backend = rt::Backend::Sim;
      break;
    default:
      throw py::type_error("from_dlpack: unsupported device type " + std::to_string(t.device.device_type));
  }
  auto a = std::make_shared<rt::DeviceArray>();
  a->dtype = dt;
  a->readonly = readonly;
  const int64_t item = scalar_size(dt);
  for (int i = 0; i < t.ndim; ++i) a->shape.push_back(t.shape[i]);
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) a->strides.push_back(t.strides[i] * item);
  } else {
    a->strides.assign(t.ndim, 0);
    int64_t step = item;
    for (int i = t.ndim; i-- > 0;) {
      a->strides[i] = step;
      step *= std::max<int64_t>(a->shape[i], 1);
    }
  }
  int64_t lo = 0, hi = 0;
  bool empty = false;
  for (int64_t d : a->shape) empty = empty || d == 0;
  if (!empty) {
    for (int i = 0; i < t.ndim; ++i) {
      int64_t span = (a->shape[i] - 1) * a->strides[i];
      (span < 0 ? lo : hi) += span;
    }
    hi += item;
  }
  char* base = static_cast<char*>(t.data) + t.byte_offset;
  a->buf = rt::wrap_external(backend, base + lo, size_t(hi - lo), std::move(owner));
  a->data = base;
  return a;
}

std::shared_ptr<rt::DeviceArray> from_capsule(const py::object& cap) {
  PyObject* c = cap.ptr();
  if (PyCapsule_IsValid(c, "dltensor_versioned")) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
    if (m->version.major > kDLPackMajor)
      throw py::buffer_error("from_dlpack: DLPack version " + std::to_string(m->version.major) + "." +
                             std::to_string(m->version.minor) + " is newer than cujit reads (1.x)");
    PyCapsule_SetName(c, "used_dltensor_versioned");  // consumed: the capsule no longer frees it
    return wrap_tensor(m, (m->flags & kDLFlagReadOnly) != 0);
  }
  if (PyCapsule_IsValid(c, "dltensor")) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
    PyCapsule_SetName(c, "used_dltensor");
    return wrap_tensor(m, false);
  }
  throw py::type_error("from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got " +
                       py::repr(cap).cast<std::string>() + " (a capsule already consumed cannot be used twice)");
}

std::shared_ptr<rt::DeviceArray> from_dlpack(const py::object& obj) {
  using namespace py::literals;
  if (py::isinstance<rt::DeviceArray>(obj)) return obj.cast<std::shared_ptr<rt::DeviceArray>>();
  if (!py::hasattr(obj, "__dlpack__")) return from_capsule(obj);
  // We consume on the legacy default stream, where cujit queues its own work (1 in the protocol).
  py::object stream = py::none();
  if (py::hasattr(obj, "__dlpack_device__")) {
    auto dev = obj.attr("__dlpack_device__")().cast<std::pair<int32_t, int32_t>>();
    if (dev.first == kDLCUDA || dev.first == kDLCUDAManaged) stream = py::int_(1);
  }
  py::object cap;
  try {
    cap = obj.attr("__dlpack__")("stream"_a = stream, "max_version"_a = py::make_tuple(kDLPackMajor, kDLPackMinor));
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    cap = obj.attr("__dlpack__")("stream"_a = stream);  // a producer from before DLPack 1.0
  }
  return from_capsule(cap);
}

}  // namespace

void define_dlpack(py::module_& m, py::class_<rt::DeviceArray, std::shared_ptr<rt::DeviceArray>>& cls) {
  using namespace py::literals;
  cls.def("__dlpack__", &dlpack_export, "stream"_a = py::none(), "max_version"_a = py::none(),
          "dl_device"_a = py::none(), "copy"_a = py::none(),
          "A DLPack capsule viewing this array (a CUDA tensor; a CPU tensor on the simulator).")
      .def("__dlpack_device__", [](const rt::DeviceArray& a) { return device_of(a); });
  m.def("from_dlpack", &from_dlpack, "obj"_a,
        "A DeviceNDArray viewing the memory of a DLPack producer (CuPy, PyTorch, JAX, ...) without a copy.");
}

}  // namespace cujit
