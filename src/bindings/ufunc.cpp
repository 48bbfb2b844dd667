// CUDA ufuncs from Python: _core.CudaUfunc. Construction types and generates every signature
// (so typing errors show at decoration, as in Numba); the toolchain runs on the first call for
// each backend. A call selects the signature by Numba's rule (arrays must match exactly,
// scalars adapt), broadcasts, moves host data to the device and back, and launches — all here,
// with no Python on the way.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <mutex>

#include "bindings/common.h"
#include "bindings/ufunc_fuse.h"
#include "bindings/ufunc_host.h"
#include "pipeline.h"
#include "bindings/numpy_arrays.h"
#include "runtime/driver.h"
#include "runtime/launch.h"
#include "runtime/ufunc.h"

namespace py = pybind11;

namespace cujit {

namespace {

std::string ufunc_type_letters(const UfuncVariant& v) {
  std::string s;
  for (Scalar x : v.inputs) s += py::dtype(scalar_dtype_str(x)).attr("char").cast<std::string>();
  return s + "->" + py::dtype(scalar_dtype_str(v.output)).attr("char").cast<std::string>();
}

/// One argument of a call, classified.
struct Arg {
  enum class Kind { Device, Host, Scalar } kind;
  std::shared_ptr<rt::DeviceArray> dev;
  py::array host;
  py::object scalar;
  Scalar dtype = Scalar::Float64;  // arrays: their dtype; scalars: np.asarray(x).dtype
  bool dtype_known = true;         // false for a scalar of a dtype cujit has no type for
};

Arg classify(const py::handle& h) {
  Arg a;
  // An exact ndarray (the usual host operand) is not a DeviceArray: no type-map lookup for it.
  const bool exact_ndarray = is_exact_ndarray(h);
  if (!exact_ndarray && py::isinstance<rt::DeviceArray>(h)) {
    a.kind = Arg::Kind::Device;
    a.dev = h.cast<std::shared_ptr<rt::DeviceArray>>();
    if (a.dev->buf) {
      a.dev->buf->check_live();  // not from a context a kernel fault destroyed
      a.dev->buf->check_device("a device array argument", "CUDA ufunc");  // nor of another device
    }
    a.dtype = scalar_dtype(*a.dev, "a CUDA ufunc");
    return a;
  }
  if (exact_ndarray && py::cast<py::array>(h).ndim() > 0) {
    a.kind = Arg::Kind::Host;
    a.host = py::reinterpret_borrow<py::array>(h);
  } else if (!is_exact_ndarray(h) && py::hasattr(h, "__cuda_array_interface__")) {
    a.kind = Arg::Kind::Device;
    a.dev = device_array_from_cai(h);
    a.dtype = scalar_dtype(*a.dev, "a CUDA ufunc");
    return a;
  } else if ((py::isinstance<py::array>(h) && py::cast<py::array>(h).ndim() > 0) || py::isinstance<py::list>(h) ||
             py::isinstance<py::tuple>(h)) {
    a.kind = Arg::Kind::Host;
    a.host = py::array::ensure(h);
  } else {
    a.kind = Arg::Kind::Scalar;
    a.scalar = py::reinterpret_borrow<py::object>(h);
    a.dtype_known = scalar_from_numpy_dtype(py::array::ensure(h).dtype(), &a.dtype);
    return a;
  }
  if (!scalar_from_numpy_dtype(a.host.dtype(), &a.dtype))
    throw py::type_error("unsupported array dtype " + py::str(a.host.dtype()).cast<std::string>() + " for a CUDA ufunc");
  return a;
}

PyTypeObject* uplan_device_array_type() {
  static PyTypeObject* t = (PyTypeObject*)py::type::of<rt::DeviceArray>().ptr();
  return t;
}

/// The last call's plan (issue 23's per-call cost): a call on cujit device arrays into a device
/// out= that fusion deferred, recorded so that the same call again (the same array objects, the
/// same stream object) skips classification, selection, the new tree and the packing and runs
/// fuse::repeat. Arrays are held weakly: the plan keeps nothing alive, and an array freed since
/// cannot be mistaken for a new one at the same address.
struct UfuncPlan {
  static constexpr int kMaxInputs = 4;
  size_t nargs = 0;            // positional arguments (out= given positionally: nin + 1)
  PyObject* stream = nullptr;  // the stream= object (compared while the pending write holds it), or null: none given
  std::weak_ptr<rt::DeviceArray> in[kMaxInputs], out;
  fuse::Repeat rep;
};

bool g_uplans_enabled = true;  // _core._set_ufunc_plans (benchmarks compare the general path)

/// The last call's host plan (issue 23): a call on host arrays alone that took the mapped path
/// (runtime/ufunc_mapped.h), recorded so that the same call on arrays of the same dtype objects
/// (NumPy shares them) and shapes, C-contiguous, with no keywords, on the same backend and device,
/// skips classification, selection, planning and packing: it stages the new inputs where the
/// recorded words read them, launches, and copies the result into a new array.
struct UfuncHostPlan {
  int variant = 0;
  rt::Backend backend = rt::Backend::Sim;
  int device = 0;
  py::object dtypes[UfuncPlan::kMaxInputs];  // held: compared by identity
  std::vector<int64_t> shapes[UfuncPlan::kMaxInputs];
  py::dtype out_dtype;
  std::vector<py::ssize_t> out_shape;
  rt::MappedRepeat rep;
};

/// Keyword arguments of a planned call: `out` and `stream` only, read without string copies.
bool uplan_kwargs(PyObject* kw, PyObject** out, PyObject** stream) {
  *out = *stream = nullptr;
  if (!kw) return true;
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  while (PyDict_Next(kw, &pos, &k, &v)) {
    if (!PyUnicode_Check(k)) return false;
    if (PyUnicode_CompareWithASCIIString(k, "out") == 0) *out = v;
    else if (PyUnicode_CompareWithASCIIString(k, "stream") == 0) *stream = v;
    else return false;
  }
  return true;
}

/// Whether `o` is exactly the plan's array `w` (alive) and still usable as the slow path checks.
bool uplan_same(PyObject* o, const std::weak_ptr<rt::DeviceArray>& w) {
  if (Py_TYPE(o) != uplan_device_array_type()) return false;
  const rt::DeviceArray* d = reinterpret_cast<py::detail::instance*>(o)->get_value_and_holder().value_ptr<rt::DeviceArray>();
  std::shared_ptr<rt::DeviceArray> p = w.lock();
  if (!p || p.get() != d) return false;
  if (d->buf) {
    d->buf->check_live();  // as classify: an array of a context a fault destroyed raises
    d->buf->check_device("a device array argument", "CUDA ufunc");
  }
  return true;
}

class CudaUfunc {
 public:
  CudaUfunc(std::shared_ptr<FunctionSource> src, const std::vector<std::string>& sigs)
      : core_(std::make_shared<UfuncCore>()), build_(core_->build) {
    static uint64_t next_id = 0;
    core_->id = next_id++;
    core_->src = src;
    std::vector<Signature>& parsed = core_->sigs;
    for (const auto& s : sigs) {
      try {
        parsed.push_back(parse_signature(s));
      } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
      }
    }
    build_ = build_ufunc(src, parsed);
    nin_ = build_.variants.empty() ? 0 : (int)build_.variants[0].inputs.size();
    for (const auto& v : build_.variants)
      if ((int)v.inputs.size() != nin_) throw py::value_error("all signatures of a ufunc must take the same number of arguments");
  }

  int nin() const { return nin_; }
  std::vector<std::string> types() const {
    std::vector<std::string> r;
    for (const auto& v : build_.variants) r.push_back(ufunc_type_letters(v));
    return r;
  }
  const UfuncBuild& build() const { return build_; }

  // The planned call again (see UfuncPlan), from ufunc_tp_call: returns the result (a borrowed
  // out=), or null when the call differs from the plan in anything, or the pending write is no
  // longer the only one. Anything it raises, the general path raises too (with pybind11's
  // translation), so the caller drops the plan and takes it.
  PyObject* try_plan(PyObject* args, PyObject* kw) {
    // Held for the call: the launch releases the GIL, and another thread's call may replace the plan.
    const std::shared_ptr<UfuncPlan> p = plan_;
    if (!p || !g_uplans_enabled) return nullptr;
    const UfuncPlan& plan = *p;
    const size_t n = size_t(PyTuple_GET_SIZE(args));
    if (n != plan.nargs) return nullptr;
    PyObject *out, *stream;
    if (!uplan_kwargs(kw, &out, &stream)) return nullptr;
    if (n == size_t(nin_) + 1) {
      if (out) return nullptr;
      out = PyTuple_GET_ITEM(args, nin_);
    }
    if (!out || stream != plan.stream) return nullptr;
    for (int i = 0; i < nin_; ++i)
      if (!uplan_same(PyTuple_GET_ITEM(args, i), plan.in[i])) return nullptr;
    if (!uplan_same(out, plan.out)) return nullptr;
    if (!fuse::repeat(p->rep)) return nullptr;
    return out;
  }

  // The host plan's call again (see UfuncHostPlan): returns the new result (a new reference), or
  // null when the call differs from the plan or the mapped path cannot take it now.
  PyObject* try_host_plan(PyObject* args, PyObject* kw) {
    const std::shared_ptr<UfuncHostPlan> p = hplan_;  // held for the call, as in try_plan
    if (!p || !g_uplans_enabled || (kw && PyDict_GET_SIZE(kw) != 0) || PyTuple_GET_SIZE(args) != nin_) return nullptr;
    if (rt::current_backend() != p->backend || (p->backend == rt::Backend::GPU && rt::current_device() != p->device))
      return nullptr;
    const char* data[UfuncPlan::kMaxInputs];
    for (int i = 0; i < nin_; ++i) {
      PyObject* o = PyTuple_GET_ITEM(args, i);
      if (!is_exact_ndarray(o)) return nullptr;
      const auto* a = py::detail::array_proxy(o);
      if (a->descr != p->dtypes[i].ptr() || !(a->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) ||
          a->nd != int(p->shapes[i].size()))
        return nullptr;
      for (int d = 0; d < a->nd; ++d)
        if (a->dimensions[d] != p->shapes[i][d]) return nullptr;
      data[i] = a->data;
    }
    py::array result(p->out_dtype, p->out_shape);
    rt::LoadedModule& mod = module(p->backend);
    char* const dst = static_cast<char*>(result.mutable_data());
    bool done = false;
    {
      // An error (a simulated IndexError, a fault) leaves the general path to raise it, named.
      py::gil_scoped_release nogil;
      done = rt::run_mapped_again(mod, build_.variants[p->variant].symbol, p->rep, data, dst, nullptr);
    }
    return done ? result.release().ptr() : nullptr;
  }
  void drop_plan() {
    plan_.reset();
    hplan_.reset();
  }

  py::object call(const py::args& args, const py::kwargs& kw) {
    plan_.reset();
    hplan_.reset();
    py::object out = py::none(), stream = py::int_(0);
    for (auto item : kw) {
      std::string k = item.first.cast<std::string>();
      if (k == "out") out = py::reinterpret_borrow<py::object>(item.second);
      else if (k == "stream") stream = py::reinterpret_borrow<py::object>(item.second);
      else throw py::type_error(build_.name + "() got an unexpected keyword argument '" + k + "'");
    }
    if ((int)args.size() == nin_ + 1 && out.is_none()) {  // ufunc(a, b, out) positional form
      out = args[nin_];
    } else if ((int)args.size() != nin_) {
      throw py::type_error(build_.name + "() takes " + std::to_string(nin_) + " positional argument(s) but " +
                           std::to_string(args.size()) + " were given");
    }
    std::vector<Arg> in;
    for (int i = 0; i < nin_; ++i) in.push_back(classify(args[i]));
    const UfuncVariant& v = select(in);
    void* handle = stream_handle(stream);
    check_launch_stream_device(stream_device(stream));
    bool deferred = false;
    rt::MappedRepeat rep;  // the call's own: the GIL is released while the mapped path fills it
    py::object r = run(v, in, out, stream, handle, &deferred, &rep);
    if (deferred && g_uplans_enabled) record_plan(args, kw, in, out);
    if (rep.valid && g_uplans_enabled) record_host_plan(args, kw, in, v, r, std::move(rep));
    return r;
  }

 private:
  std::shared_ptr<UfuncCore> core_;  // shared with the pending calls that name this ufunc
  UfuncBuild& build_;
  int nin_ = 0;
  std::shared_ptr<UfuncPlan> plan_;       // the device plan; read and written with the GIL held
  std::shared_ptr<UfuncHostPlan> hplan_;  // the host plan; likewise

  // After a call on host arrays alone (exact, C-contiguous ndarrays, no keywords) that took the
  // mapped path: the plan for the same call again on arrays of the same dtype objects and shapes.
  void record_host_plan(const py::args& args, const py::kwargs& kw, const std::vector<Arg>& in,
                        const UfuncVariant& v, const py::object& r, rt::MappedRepeat rep) {
    if (nin_ > UfuncPlan::kMaxInputs || kw.size() != 0 || (int)args.size() != nin_ || !is_exact_ndarray(r)) return;
    auto p = std::make_shared<UfuncHostPlan>();
    for (int i = 0; i < nin_; ++i) {
      PyObject* o = args[i].ptr();
      if (in[i].kind != Arg::Kind::Host || !is_exact_ndarray(o) || in[i].host.ptr() != o ||
          !(in[i].host.flags() & py::array::c_style))
        return;
      p->dtypes[i] = in[i].host.dtype();
      p->shapes[i] = shape_of(in[i].host);
    }
    py::array res = py::reinterpret_borrow<py::array>(r);
    p->out_dtype = res.dtype();
    p->out_shape.assign(res.shape(), res.shape() + res.ndim());
    p->variant = int(&v - build_.variants.data());
    p->backend = rt::current_backend();
    p->device = p->backend == rt::Backend::GPU ? rt::current_device() : 0;
    p->rep = std::move(rep);
    hplan_ = std::move(p);
  }

  // After a call that fusion deferred into a device out=: the plan for the same call again, when
  // it reads only cujit device arrays none of which share out='s memory (such a call would extend
  // the pending tree instead: x = f(x, out=x) fuses).
  void record_plan(const py::args& args, const py::kwargs& kw, const std::vector<Arg>& in, const py::object& out) {
    if (nin_ > UfuncPlan::kMaxInputs || Py_TYPE(out.ptr()) != uplan_device_array_type()) return;
    PyObject *kout, *kstream;
    if (!uplan_kwargs(kw.ptr(), &kout, &kstream)) return;
    std::shared_ptr<rt::DeviceArray> o = out.cast<std::shared_ptr<rt::DeviceArray>>();
    if (!o->buf) return;
    for (int i = 0; i < nin_; ++i) {
      if (in[i].kind != Arg::Kind::Device || Py_TYPE(args[i].ptr()) != uplan_device_array_type() || !in[i].dev->buf ||
          in[i].dev->buf == o->buf)
        return;
      const uintptr_t lo = uintptr_t(in[i].dev->buf->ptr), olo = uintptr_t(o->buf->ptr);
      if (lo < olo + std::max<size_t>(o->buf->nbytes, 1) && olo < lo + std::max<size_t>(in[i].dev->buf->nbytes, 1)) return;
    }
    auto p = std::make_shared<UfuncPlan>();
    if (!fuse::describe_last(*o, &p->rep)) return;
    p->nargs = args.size();
    p->stream = kstream;
    for (int i = 0; i < nin_; ++i) p->in[i] = in[i].dev;
    p->out = o;
    plan_ = std::move(p);
  }

  // Numba's rule: first look for a signature that matches every argument exactly (a scalar by
  // the dtype NumPy gives it); failing that, one where the arrays match exactly and scalars
  // are free. More than one candidate in the second pass is ambiguous.
  const UfuncVariant& select(const std::vector<Arg>& in) {
    auto pass = [&](bool scalars_exact) {
      std::vector<const UfuncVariant*> m;
      for (const auto& v : build_.variants) {
        bool ok = true;
        for (int i = 0; i < nin_ && ok; ++i) {
          if (in[i].kind == Arg::Kind::Scalar && !scalars_exact) continue;
          ok = in[i].dtype_known && in[i].dtype == v.inputs[i];
        }
        if (ok) m.push_back(&v);
      }
      return m;
    };
    bool any_scalar = false;
    for (auto& a : in) any_scalar = any_scalar || a.kind == Arg::Kind::Scalar;
    std::vector<const UfuncVariant*> m;
    if (any_scalar) m = pass(true);
    if (m.empty()) m = pass(false);
    if (m.empty()) {
      std::string got;
      for (int i = 0; i < nin_; ++i)
        got += std::string(i ? ", " : "") + (in[i].kind == Arg::Kind::Scalar ? "scalar" : scalar_name(in[i].dtype));
      throw py::type_error("No matching version of " + build_.name + "() for (" + got +
                           "). GPU ufunc requires array arguments to have the exact types; this "
                           "behaves like a NumPy ufunc with casting='no'. Signatures: " + join(types()));
    }
    if (m.size() > 1)
      throw py::type_error("Failed to resolve " + build_.name + "(): ambiguous signature, too many "
                           "untyped scalars. Use a NumPy scalar (np.float32(x)) to choose the type.");
    return *m[0];
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
  }

  // A simulated loop's IndexError (a device function indexed a constant array) names the files.
  template <class F>
  auto naming_simulator_errors(F f) {
    try {
      return f();
    } catch (const rt::SimulatorIndexError& e) {
      throw rt::SimulatorIndexError(name_files(e.what(), build_.file_order));
    }
  }

  rt::LoadedModule& module(rt::Backend b) { return core_->module(b); }

  py::object run(const UfuncVariant& v, std::vector<Arg>& in, py::object out, const py::object& stream_obj, void* stream,
                 bool* deferred, rt::MappedRepeat* rep) {
    // Where the work happens: the backend of the device arrays involved, else the current one.
    rt::Backend backend = rt::current_backend();
    bool device_result = false;
    for (auto& a : in) if (a.kind == Arg::Kind::Device) { backend = a.dev->backend(); device_result = true; }
    std::shared_ptr<rt::DeviceArray> out_dev;
    py::array out_host;
    bool have_out = !out.is_none();
    py::object out_ret = out;  // what the call returns when out= is given
    if (have_out) {
      if (py::isinstance<rt::DeviceArray>(out) || py::hasattr(out, "__cuda_array_interface__")) {
        out_dev = py::isinstance<rt::DeviceArray>(out) ? out.cast<std::shared_ptr<rt::DeviceArray>>()
                                                       : device_array_from_cai(out);
        // numba-cuda returns another library's out= array as a device array of its memory.
        if (!py::isinstance<rt::DeviceArray>(out)) out_ret = py::cast(out_dev);
        if (out_dev->buf) {
          out_dev->buf->check_live();
          out_dev->buf->check_device("the out= device array", "CUDA ufunc");
        }
        backend = out_dev->backend();
      } else if (py::isinstance<py::array>(out)) {
        out_host = py::reinterpret_borrow<py::array>(out);
      } else {
        throw py::type_error("out= must be a NumPy array or a device array");
      }
      // Refused before any work, on every path: a read-only host array (the GPU path would write
      // a device result back into it) or a read-only device array (written in place).
      if ((out_dev && out_dev->readonly) || (!out_dev && !out_host.writeable())) throw py::value_error("out= is read-only");
    }
    for (auto& a : in)
      if (a.kind == Arg::Kind::Device && a.dev->backend() != backend)
        throw py::value_error("cannot mix simulator and GPU device arrays in one call");

    // A call on cujit's own device arrays is deferred (bindings/ufunc_fuse.cpp); otherwise the
    // pending writes it reads or writes run first.
    if (fuse::enabled()) {
      std::vector<fuse::Input> fin;
      for (const Arg& a : in) fin.push_back({a.dev, a.scalar, a.kind == Arg::Kind::Host});
      py::object r = fuse::try_defer(core_, int(&v - build_.variants.data()), fin, out_dev, have_out && !out_dev,
                                     backend, stream_obj, stream);
      if (r) {
        *deferred = bool(out_dev);
        return have_out ? out_ret : r;
      }
    }
    for (const Arg& a : in)
      if (a.dev) fuse::observe(*a.dev);
    if (out_dev) fuse::observe(*out_dev);

    for (int i = 0; i < nin_; ++i) {
      Arg& a = in[i];
      if (a.kind == Arg::Kind::Scalar) {
        py::array s = py::array(numpy_dtype(v.inputs[i]), std::vector<py::ssize_t>{1});
        s.attr("__setitem__")(0, a.scalar);
        a.kind = Arg::Kind::Host;
        a.host = s;
      }
    }
    // Host data on the GPU: the staged path (bindings/ufunc_host.cpp) takes the calls it fits.
    {
      std::vector<UfuncInput> staged;
      for (const Arg& a : in) staged.push_back({a.host, a.dev});
      py::object r = naming_simulator_errors([&] {
        return ufunc_host_path(staged, v, out_dev, out_dev ? py::object(py::none()) : out, device_result, backend, stream,
                               [&]() -> rt::LoadedModule& { return module(backend); }, rep);
      });
      if (r) return have_out ? out_ret : r;
    }

    // Operands as the loop reads them. On the simulator host memory is device memory, so host
    // arrays are used in place; on the GPU they are copied over.
    std::vector<std::shared_ptr<rt::DeviceArray>> keep;
    std::vector<py::array> keep_host;
    std::vector<rt::Operand> ops;
    std::vector<std::vector<int64_t>> shapes;
    for (int i = 0; i < nin_; ++i) {
      Arg& a = in[i];
      rt::Operand op;
      if (a.kind == Arg::Kind::Host && backend == rt::Backend::Sim) {
        keep_host.push_back(a.host);
        op.data = (char*)a.host.data();
        for (py::ssize_t d = 0; d < a.host.ndim(); ++d) {
          op.shape.push_back(a.host.shape(d));
          op.strides.push_back(a.host.strides(d));
        }
      } else {
        std::shared_ptr<rt::DeviceArray> d = a.kind == Arg::Kind::Device ? a.dev : device_array_from_numpy(a.host, true, backend, stream);
        keep.push_back(d);
        op.data = d->data;
        op.shape = d->shape;
        op.strides = d->strides;
      }
      shapes.push_back(op.shape);
      ops.push_back(op);
    }
    std::vector<int64_t> shape = rt::broadcast_shapes(shapes);

    // The output.
    auto check_out = [&](const std::vector<int64_t>& oshape, Scalar odt) {
      if (oshape != shape)
        throw py::value_error("out= has shape " + rt::shape_str(oshape) + " but the result has shape " + rt::shape_str(shape));
      if (odt != v.output)
        throw py::type_error(std::string("out= has dtype ") + scalar_name(odt) + " but this signature returns " + scalar_name(v.output));
    };
    rt::Operand o;
    std::shared_ptr<rt::DeviceArray> result_dev;
    py::array result_host;
    if (out_dev) {
      check_out(out_dev->shape, scalar_dtype(*out_dev, "a CUDA ufunc's out="));
      result_dev = out_dev;
    } else if (have_out) {
      Scalar odt;
      if (!scalar_from_numpy_dtype(out_host.dtype(), &odt)) throw py::type_error("unsupported out= dtype");
      std::vector<int64_t> oshape(out_host.shape(), out_host.shape() + out_host.ndim());
      check_out(oshape, odt);
      if (backend == rt::Backend::Sim) result_host = out_host;
      else result_dev = rt::new_device_array(backend, v.output, shape, 'C', stream);
    } else if (device_result || backend == rt::Backend::GPU) {
      result_dev = rt::new_device_array(backend, v.output, shape, 'C', stream);
    } else {
      result_host = new_host_array(numpy_dtype(v.output), shape);
    }
    if (result_dev) {
      o.data = result_dev->data;
      o.shape = result_dev->shape;
      o.strides = result_dev->strides;
    } else {
      if (!result_host.writeable()) throw py::value_error("out= is read-only");
      o.data = (char*)result_host.mutable_data();
      for (py::ssize_t d = 0; d < result_host.ndim(); ++d) {
        o.shape.push_back(result_host.shape(d));
        o.strides.push_back(result_host.strides(d));
      }
    }
    ops.push_back(o);

    int64_t n = 0;
    std::vector<int64_t> packed = rt::pack_ufunc_args(shape, ops, &n);
    rt::LoadedModule& mod = module(backend);
    naming_simulator_errors([&] {
      py::gil_scoped_release nogil;
      mod.launch_ufunc(v.symbol, packed, n, stream);
      return 0;
    });

    if (out_dev) return out_ret;
    if (have_out) {
      if (result_dev) device_array_to_numpy(*result_dev, out_host, stream);
      return out;
    }
    if (device_result) return py::cast(result_dev);
    if (result_dev) return device_array_to_numpy(*result_dev, py::none(), stream);
    return result_host;
  }

};

CudaUfunc& live_ufunc(py::handle u) { return initialized<CudaUfunc>(u, "CUDA ufunc"); }

// CudaUfunc's tp_call (a Python subclass inherits the C function): the planned call runs without
// pybind11's argument dispatch; every other call goes to the bound `_call`.
PyObject* ufunc_tp_call(PyObject* self, PyObject* args, PyObject* kw) {
  try {
    CudaUfunc& u = live_ufunc(self);
    try {
      if (PyObject* r = u.try_plan(args, kw)) {
        Py_INCREF(r);
        return r;
      }
      if (PyObject* r = u.try_host_plan(args, kw)) return r;  // a new reference
    } catch (...) {
      u.drop_plan();  // the general path raises it, translated
    }
  } catch (...) {
    // not initialised: `_call` raises it
  }
  static PyObject* name = PyUnicode_InternFromString("_call");
  PyObject* m = PyObject_GetAttr(self, name);
  if (!m) return nullptr;
  PyObject* r = PyObject_Call(m, args, kw);
  Py_DECREF(m);
  return r;
}

}  // namespace

void define_ufunc(py::module_& m) {
  define_ufunc_host(m);
  fuse::define_fusion(m);
  m.def("_set_ufunc_plans", [](bool on) { g_uplans_enabled = on; },
        "Whether CUDA ufunc calls record plans for an identical next call (the default); benchmarks "
        "turn it off to measure the general path.");
  py::class_<CudaUfunc>(m, "CudaUfunc", py::dynamic_attr(),
                        "A CUDA ufunc: compiled loops for each signature, called on arrays and scalars.",
                        py::custom_type_setup([](PyHeapTypeObject* ht) { ht->ht_type.tp_call = ufunc_tp_call; }))
      .def(py::init<std::shared_ptr<FunctionSource>, const std::vector<std::string>&>())
      .def("_call", [](py::handle u, const py::args& a, const py::kwargs& kw) { return live_ufunc(u).call(a, kw); },
           "A call without the plan's shortcut (the type's __call__ tries the plan first).")
      .def_property_readonly("nin", [](py::handle u) { return live_ufunc(u).nin(); })
      .def_property_readonly("nout", [](py::handle u) { return (live_ufunc(u), 1); })
      .def_property_readonly("nargs", [](py::handle u) { return live_ufunc(u).nin() + 1; })
      .def_property_readonly("types", [](py::handle u) { return live_ufunc(u).types(); })
      .def_property_readonly("ntypes", [](py::handle u) { return live_ufunc(u).types().size(); })
      .def("inspect_source", [](py::handle u, bool cuda) {
             return cuda ? live_ufunc(u).build().cuda_source : live_ufunc(u).build().host_source;
           },
           py::arg("cuda") = true, "The generated C++ (with its prelude) for the GPU or for the CPU.");
}

}  // namespace cujit
