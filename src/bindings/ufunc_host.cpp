// See ufunc_host.h.
#include "bindings/ufunc_host.h"

#include <cstdint>
#include <stdexcept>

#include "runtime/ufunc.h"
#include "runtime/ufunc_mapped.h"
#include "runtime/ufunc_pipeline.h"

namespace py = pybind11;

namespace cujit {

namespace {


bool c_contiguous(const py::array& a) { return (a.flags() & py::array::c_style) != 0; }

// Whether the bytes of `a` and `b` overlap without being the same array exactly. An element-wise
// loop may write its result over an input it reads at the same index (each chunk's input is
// staged before its result comes back), but not over one it reads elsewhere.
bool overlaps_elsewhere(const py::array& a, const py::array& b) {
  const auto pa = uintptr_t(a.data()), pb = uintptr_t(b.data());
  const auto na = uintptr_t(a.nbytes()), nb = uintptr_t(b.nbytes());
  if (pa + na <= pb || pb + nb <= pa) return false;
  return !(pa == pb && na == nb && shape_of(a) == shape_of(b) && a.itemsize() == b.itemsize());
}

rt::HostOperand device_operand(const rt::DeviceArray& d) {
  rt::HostOperand o;
  o.data = d.data;
  o.shape = d.shape;
  o.strides = d.strides;
  o.itemsize = d.itemsize();
  return o;
}

rt::HostOperand host_operand(const py::array& a) {
  rt::HostOperand o;
  o.host = true;
  o.data = static_cast<char*>(const_cast<void*>(a.data()));
  o.shape = shape_of(a);
  o.itemsize = a.itemsize();
  return o;
}

}  // namespace

py::object ufunc_host_path(const std::vector<UfuncInput>& in, const UfuncVariant& v,
                           const std::shared_ptr<rt::DeviceArray>& out_dev, const py::object& out_obj,
                           bool device_result, rt::Backend backend, void* stream,
                           const std::function<rt::LoadedModule&()>& module, rt::MappedRepeat* rep) {
  // Device operands and a device (or no) result: nothing to stage. Returning before anything is
  // built keeps the device-only call, the common case in a loop, as cheap as it was.
  bool any_host_input = false;
  for (const UfuncInput& a : in) any_host_input = any_host_input || !a.dev;
  if (!any_host_input && out_obj.is_none()) return {};
  const rt::HostPathConfig config = rt::host_path_config();
  // (A default-constructed py::array is a real, empty array, so "no out=" is None here.)
  const bool have_out_host = !out_obj.is_none();
  if (have_out_host && !py::isinstance<py::array>(out_obj)) return {};
  py::array out_host = have_out_host ? py::reinterpret_borrow<py::array>(out_obj) : py::array();
  if (backend == rt::Backend::Sim ? !config.simulator : !config.gpu) return {};  // the simulator reads host arrays in place

  std::vector<rt::HostOperand> ops;
  std::vector<std::vector<int64_t>> shapes;
  for (const UfuncInput& a : in) {
    if (a.dev) {
      ops.push_back(device_operand(*a.dev));
    } else {
      if (!c_contiguous(a.host)) return {};
      ops.push_back(host_operand(a.host));
    }
    shapes.push_back(ops.back().shape);
  }
  std::vector<int64_t> shape;
  try {
    shape = rt::broadcast_shapes(shapes);
  } catch (const std::invalid_argument&) {
    return {};
  }
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n == 0) return {};

  // The result: out=, a new device array (a device input makes the result one), or a new host array.
  const py::dtype out_dtype = numpy_dtype(v.output);
  rt::HostOperand result;
  if (out_dev) {
    if (out_dev->shape != shape || out_dev->dtype != v.output || out_dev->readonly) return {};  // the caller refuses read-only
    result = device_operand(*out_dev);
  } else if (have_out_host) {
    Scalar odt;
    if (!scalar_from_numpy_dtype(out_host.dtype(), &odt) || odt != v.output || shape_of(out_host) != shape ||
        !c_contiguous(out_host) || !out_host.writeable())
      return {};
    for (const UfuncInput& a : in)
      if (!a.dev && overlaps_elsewhere(a.host, out_host)) return {};
    result = host_operand(out_host);
  } else if (device_result) {
    result.shape = shape;  // C-contiguous: new_device_array below
    result.strides.assign(shape.size(), 0);
    result.itemsize = out_dtype.itemsize();
    int64_t step = result.itemsize;
    for (size_t i = shape.size(); i-- > 0;) {
      result.strides[i] = step;
      step *= shape[i];
    }
  } else {
    result.host = true;
    result.shape = shape;
    result.itemsize = out_dtype.itemsize();
  }
  if (!any_host_input && !result.host) return {};
  ops.push_back(result);

  rt::HostPathPlan plan;
  if (!rt::plan_host_path(ops, shape, config, &plan)) return {};
  rt::LoadedModule& mod = module();

  std::shared_ptr<rt::DeviceArray> result_dev;
  py::array result_host;
  if (device_result && !out_dev && !have_out_host) {
    result_dev = rt::new_device_array(backend, v.output, shape, 'C', stream);
    ops.back().data = result_dev->data;
  } else if (!out_dev && !have_out_host) {
    result_host = new_host_array(out_dtype, shape, false, /*pinned=*/plan.split, backend);
    ops.back().data = static_cast<char*>(result_host.mutable_data());
  }
  bool done = false;
  {
    py::gil_scoped_release nogil;
    // A tiny call with a host result: one launch through mapped pinned memory (ufunc_mapped.h).
    if (rt::mapped_fits(ops, plan, backend)) done = rt::run_mapped(mod, v.symbol, ops, shape, plan, stream, rep);
    if (!done) done = rt::run_host_path(mod, v.symbol, ops, shape, plan, stream);
  }
  if (!done) return {};
  if (out_dev || have_out_host) return py::none();  // the caller returns its own out= object
  if (result_dev) return py::cast(result_dev);
  return std::move(result_host);
}

void define_ufunc_host(py::module_& m) {
  m.def(
      "_ufunc_host_path_config",
      []() {
        rt::HostPathConfig c = rt::host_path_config();
        py::dict d;
        d["small_max"] = c.small_max;
        d["split_min"] = c.split_min;
        d["split_max"] = c.split_max;
        d["first_chunk"] = c.first_chunk;
        d["max_chunk"] = c.max_chunk;
        d["gpu"] = c.gpu;
        d["simulator"] = c.simulator;
        return d;
      },
      "The staged host path's settings of CUDA ufunc calls (runtime/ufunc_pipeline.h), as a dict.");
  m.def(
      "_set_ufunc_host_path_config",
      [](size_t small_max, size_t split_min, size_t split_max, size_t first_chunk, size_t max_chunk, bool gpu,
         bool simulator) {
        rt::set_host_path_config({small_max, split_min, split_max, first_chunk, max_chunk, gpu, simulator});
      },
      py::arg("small_max"), py::arg("split_min"), py::arg("split_max"), py::arg("first_chunk"), py::arg("max_chunk"), py::arg("gpu"), py::arg("simulator"),
      "Sets the host path's settings (tests: small chunks, and the simulator running the same chunks; "
      "benchmarks: gpu=False for the general path). ValueError for sizes the staging set cannot hold.");
  m.def("_set_ufunc_host_path_drain_failure", &rt::set_host_path_drain_failure, py::arg("chunk"),
        "Tests: draining this chunk of a split call raises RuntimeError (-1: never).");
  m.def(
      "_ufunc_mapped_config",
      []() {
        rt::MappedConfig c = rt::mapped_config();
        py::dict d;
        d["max_bytes"] = c.max_bytes;
        d["simulator"] = c.simulator;
        return d;
      },
      "The mapped path's settings of tiny CUDA ufunc calls (runtime/ufunc_mapped.h), as a dict.");
  m.def(
      "_set_ufunc_mapped_config",
      [](size_t max_bytes, bool simulator) { rt::set_mapped_config({max_bytes, simulator}); },
      py::arg("max_bytes"), py::arg("simulator"),
      "Sets the mapped path's bound in staged bytes (0: off; benchmarks compare) and whether the "
      "simulator takes it (tests). ValueError past the staging buffer size.");
  m.def("_ufunc_mapped_calls", &rt::mapped_calls, "Calls that took the mapped path since the process started.");
  m.def(
      "_ufunc_host_path_stats",
      []() {
        rt::HostPathStats s = rt::host_path_stats();
        py::dict d;
        // A call of the mapped path (ufunc_mapped.h) is a host-path call of one chunk.
        d["calls"] = s.calls + rt::mapped_calls();
        d["split_calls"] = s.split_calls;
        d["chunks"] = s.chunks + rt::mapped_calls();
        d["direct_out_calls"] = s.direct_out_calls;
        return d;
      },
      "Counters of the host path since the process started: calls, split_calls, chunks.");
}

}  // namespace cujit
