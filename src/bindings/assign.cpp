// See assign.h. The GPU loop is an ordinary CUDA ufunc `def cj_assign(x): return x` typed for
// (source dtype) -> (destination dtype), so the conversion is the compiler's own; one is built and
// loaded per dtype pair on first use and kept for the process.
#include "bindings/ufunc_fuse.h"
#include "bindings/assign.h"

#include <pybind11/numpy.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "bindings/common.h"
#include "pipeline.h"
#include "runtime/driver.h"
#include "runtime/ufunc.h"

namespace py = pybind11;

namespace cujit {
namespace {

using rt::shape_str;

struct AssignLoop {
  UfuncBuild build;
  std::shared_ptr<rt::LoadedModule> modules[rt::kMaxDevices];  // per device's context; GPU only: the simulator uses NumPy
  rt::LoadedModule& module() {
    auto& m = modules[rt::current_device()];
    if (!m || m->stale()) m = load_build(build, rt::Backend::GPU);  // first use here, or lost to a kernel fault
    return *m;
  }
};

AssignLoop& assign_loop(Scalar from, Scalar to) {
  static std::mutex mu;
  static std::map<std::pair<Scalar, Scalar>, std::unique_ptr<AssignLoop>> loops;
  auto g = lock_without_gil(mu);  // load_build may compile with the GIL released
  auto& slot = loops[{from, to}];
  if (!slot) {
    auto src = std::make_shared<FunctionSource>();
    src->name = "cj_assign";
    src->source.filename = "<cujit device array assignment>";
    src->source.text = "def cj_assign(x):\n    return x\n";
    Signature sig;
    sig.ret = Type::scalar_of(to);
    sig.args = {Type::scalar_of(from)};
    auto loop = std::make_unique<AssignLoop>();
    loop->build = build_ufunc(src, {sig});
    slot = std::move(loop);
  }
  slot->module();
  return *slot;
}

// Numba's rule: the value may have fewer dimensions (missing ones are leading), and each of its
// dimensions must equal dst's or be 1. The messages are numba-cuda's, word for word.
std::vector<int64_t> fit_shape(const std::vector<int64_t>& dst, const std::vector<int64_t>& value) {
  if (value.size() > dst.size())
    throw py::value_error("Can't assign " + std::to_string(value.size()) + "-D array to " +
                          std::to_string(dst.size()) + "-D self");
  std::vector<int64_t> padded(dst.size() - value.size(), 1);
  padded.insert(padded.end(), value.begin(), value.end());
  for (size_t i = 0; i < dst.size(); ++i)
    if (padded[i] != 1 && padded[i] != dst[i])
      throw py::value_error("Can't copy sequence with size " + std::to_string(padded[i]) + " to array axis " +
                            std::to_string(i) + " with dimension " + std::to_string(dst[i]));
  return padded;
}

}  // namespace

void assign(rt::DeviceArray& dst, const py::handle& value, void* stream) {
  if (dst.readonly) throw py::value_error("assignment destination is read-only");
  fuse::observe(dst);
  py::module_ np = py::module_::import("numpy");
  std::shared_ptr<rt::DeviceArray> src_dev;
  py::array src_host;
  if (py::isinstance<rt::DeviceArray>(value)) {
    src_dev = value.cast<std::shared_ptr<rt::DeviceArray>>();
    fuse::observe(*src_dev);
  } else if (!py::isinstance<py::array>(value) && py::hasattr(value, "__cuda_array_interface__")) {
    src_dev = device_array_from_cai(value);
  } else {
    src_host = py::array(np.attr("asarray")(value));
    Scalar s;
    // dtypes the device has no type for (object, ...) are converted on the host; so is anything
    // stored into records (a tuple, np.void, a structured array of the same fields).
    if (dst.dtype.is_record() || !scalar_from_numpy_dtype(src_host.dtype(), &s))
      src_host = py::array(np.attr("asarray")(value).attr("astype")(numpy_dtype(dst.dtype)));
  }
  std::vector<int64_t> vshape = src_dev ? src_dev->shape
                                        : std::vector<int64_t>(src_host.shape(), src_host.shape() + src_host.ndim());
  std::vector<int64_t> padded = fit_shape(dst.shape, vshape);
  if (dst.size() == 0) return;
  if (src_dev && src_dev->backend() != dst.backend())
    throw py::value_error(std::string("cannot assign a ") + rt::backend_name(src_dev->backend()) +
                          " device array to a " + rt::backend_name(dst.backend()) + " device array");

  if (dst.backend() == rt::Backend::Sim) {
    using namespace py::literals;
    py::object v = src_dev ? py::object(sim_view(*src_dev)) : py::object(src_host);
    np.attr("copyto")(sim_view(dst), v, "casting"_a = "unsafe");
    return;
  }

  // The GPU, in the destination's device's context (temporaries and the conversion loop go there;
  // a plain copy from another device's array is a peer copy).
  rt::DeviceScope scope(dst.buf && dst.buf->origin != rt::Buffer::Origin::External ? dst.buf->device
                                                                                   : rt::current_device());
  // Same dtype and shape, both dense in one order: a plain copy.
  rt::Dtype from = dst.dtype;
  if (src_dev) from = src_dev->dtype;
  else dtype_from_numpy(src_host.dtype(), &from);
  if (from == dst.dtype && vshape == dst.shape) {
    if (src_dev && ((src_dev->is_c_contiguous() && dst.is_c_contiguous()) ||
                    (src_dev->is_f_contiguous() && dst.is_f_contiguous()))) {
      copy_device_array(dst, *src_dev, stream);
      return;
    }
    if (!src_dev && (dst.is_c_contiguous() || dst.is_f_contiguous())) {
      copy_numpy_to_device_array(dst, src_host, stream);
      return;
    }
  }
  if (dst.dtype.is_record() || from.is_record()) {
    // Records have no element loop on the GPU: NumPy places them (by field) in a host copy of
    // the bytes the destination spans, which is written back.
    using namespace py::literals;
    py::object v = src_dev ? py::object(device_array_to_numpy(*src_dev, py::none(), stream)) : py::object(src_host);
    py::array host = device_array_to_numpy(dst, py::none(), stream);
    np.attr("copyto")(host, v, "casting"_a = "unsafe");
    copy_numpy_to_device_array(dst, host, stream);
    return;
  }
  // The conversion loop reads the value on the destination's device: another device's array
  // (which a kernel there cannot read) comes over through the host first.
  const bool other_device = src_dev && src_dev->buf && src_dev->buf->origin != rt::Buffer::Origin::External &&
                            src_dev->buf->device != rt::current_device();
  if (other_device) src_dev = device_array_from_numpy(device_array_to_numpy(*src_dev, py::none(), stream), true,
                                                      rt::Backend::GPU, stream);
  if (!src_dev) src_dev = device_array_from_numpy(src_host, true, rt::Backend::GPU, stream);
  std::vector<rt::Operand> ops(2);
  ops[0].data = src_dev->data;
  ops[0].shape = padded;
  ops[0].strides.assign(dst.shape.size() - src_dev->shape.size(), 0);
  ops[0].strides.insert(ops[0].strides.end(), src_dev->strides.begin(), src_dev->strides.end());
  ops[1].data = dst.data;
  ops[1].shape = dst.shape;
  ops[1].strides = dst.strides;
  int64_t n = 0;
  std::vector<int64_t> packed = rt::pack_ufunc_args(dst.shape, ops, &n);
  AssignLoop& loop = assign_loop(from.scalar, dst.dtype.scalar);  // scalars: records returned above
  rt::LoadedModule& mod = loop.module();  // loaded for this device by assign_loop
  py::gil_scoped_release nogil;
  mod.launch_ufunc(loop.build.variants[0].symbol, packed, n, stream);
  // src_dev (a temporary upload) is freed to the pool on its stream, after the loop has read it.
}

}  // namespace cujit
