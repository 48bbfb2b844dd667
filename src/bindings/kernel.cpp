// @cuda.jit kernels from Python: _core.Kernel is the dispatcher. `kernel[grid, block]` makes a
// KernelLaunch; calling it fingerprints the argument types, compiles on a miss (one
// specialisation per fingerprint, as Numba does), marshals the arguments into the byte layout the
// generated entry expects (cj::Array for arrays, the value for scalars) and launches. Host NumPy
// arrays are copied to the device and back around the launch (Numba's semantics); device arrays
// are passed as they are.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <mutex>
#include <unordered_map>

#include "bindings/common.h"
#include "bindings/kernel_checks.h"
#include "bindings/marshal.h"
#include "pipeline.h"
#include "runtime/device_array.h"
#include "runtime/driver.h"
#include "runtime/launch.h"

namespace py = pybind11;

namespace cujit {

namespace {

rt::Dim3 dim3_of(const py::handle& h, const char* what) {
  rt::Dim3 d;
  std::vector<int64_t> v;
  if (py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h)) {
    for (auto x : h) v.push_back(x.cast<int64_t>());
  } else {
    v.push_back(h.cast<int64_t>());
  }
  if (v.empty() || v.size() > 3) throw py::value_error(std::string(what) + " must be an int or a tuple of 1 to 3 ints");
  for (auto x : v)
    if (x <= 0) throw py::value_error(std::string(what) + " sizes must be positive, got " + std::to_string(x));
  d.x = (uint32_t)v[0];
  if (v.size() > 1) d.y = (uint32_t)v[1];
  if (v.size() > 2) d.z = (uint32_t)v[2];
  return d;
}

struct Specialization {
  KernelBuild build;
  std::shared_ptr<rt::LoadedModule> modules[2];  // [0] GPU, [1] simulator
  void* functions[2] = {nullptr, nullptr};       // the kernel in each, once looked up
};

class Kernel;

// `owner` keeps the kernel alive while the launch object lives (`make()[1, 32](a)` drops the
// kernel itself before the call).
struct KernelLaunch {
  Kernel* kernel;
  py::object owner;
  rt::Dim3 grid, block;
  py::object stream;
  size_t shared = 0;
};

class Kernel {
 public:
  // The last kernel[config]: the configuration object and what it parsed to (launch_for).
  py::object last_config;
  KernelLaunch last_launch{};

  Kernel(std::shared_ptr<FunctionSource> src, const std::vector<std::string>& sigs, bool debug = false)
      : src_(std::move(src)), debug_(debug) {
    for (const auto& s : sigs) {
      Signature sig = parse_signature_or_raise(s);
      if (sig.ret.known() && sig.ret.tag != Type::Tag::Void)
        throw py::type_error("a kernel's signature must return void, got '" + s + "'");
      specialize(sig.args);
      declared_.push_back(sig.args);
    }
  }

  KernelLaunch configure(const py::object& config) {
    if (!py::isinstance<py::tuple>(config))
      throw py::type_error("launch a kernel as kernel[blocks, threads] or kernel[blocks, threads, stream, sharedmem]");
    py::tuple t = config;
    if (t.size() < 2 || t.size() > 4)
      throw py::value_error("a launch configuration has 2 to 4 items (blocks, threads[, stream[, sharedmem]]), got " + std::to_string(t.size()));
    KernelLaunch l{this, py::none(), dim3_of(t[0], "the grid (blocks)"), dim3_of(t[1], "the block (threads)"), py::int_(0), 0};
    if (t.size() > 2) l.stream = t[2];
    if (t.size() > 3) {
      int64_t sh = t[3].cast<int64_t>();
      if (sh < 0) throw py::value_error("sharedmem must be >= 0");
      l.shared = (size_t)sh;
    }
    return l;
  }

  void launch(const KernelLaunch& l, const py::args& args) {
    rt::Backend backend = rt::current_backend();
    for (auto a : args)
      if (py::isinstance<rt::DeviceArray>(a)) backend = a.cast<const rt::DeviceArray&>().backend();
    uint64_t threads = (uint64_t)l.block.x * l.block.y * l.block.z;
    uint64_t limit = backend == rt::Backend::GPU ? (uint64_t)rt::max_threads_per_block() : 1024;
    if (threads > limit)
      throw py::value_error("a block of " + std::to_string(threads) + " threads is more than the device's maximum of " +
                            std::to_string(limit) + " threads per block");
    std::vector<KArg> karg;
    std::vector<Type> types;
    karg.reserve(args.size());
    types.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      try {
        karg.push_back(marshal(args[i], backend, (int)i));
      } catch (const UnknownArgumentType& e) {
        throw py::type_error("argument " + std::to_string(i) + " of " + src_->name + "(): " + e.what());
      }
      types.push_back(karg.back().type);
    }
    if (!declared_.empty()) types = bind_declared(declared_, karg, types, src_->name);
    // The launch plan: the same argument types as the last launch reuse its specialisation
    // without building the cache's string key. Read and written with the GIL held.
    if (!last_ || types != last_types_) {
      last_ = &specialize(types);
      last_types_ = types;
    }
    Specialization& sp = *last_;
    if (sp.build.arg_types.size() != args.size())
      throw py::type_error(src_->name + "() takes " + std::to_string(sp.build.arg_types.size()) + " arguments, got " + std::to_string(args.size()));
    check_launch(sp.build, backend, l.shared, karg);  // shared memory, arrays of a lost context
    const int slot = backend == rt::Backend::GPU ? 0 : 1;
    if (!sp.functions[slot] || sp.modules[slot]->stale()) sp.functions[slot] = module(sp, backend).function(sp.build.symbol);
    rt::LoadedModule& mod = *sp.modules[slot];
    void* params[kMaxInlineArgs];
    std::vector<void*> more;
    void** p = params;
    if (karg.size() > kMaxInlineArgs) p = (more.resize(karg.size()), more.data());
    for (size_t i = 0; i < karg.size(); ++i) p[i] = karg[i].bytes.data();
    void* stream = stream_handle(l.stream);
    try {
      py::gil_scoped_release nogil;
      mod.launch_kernel(sp.functions[slot], sp.build.symbol, l.grid, l.block, l.shared, stream, p);
    } catch (const rt::SimulatorIndexError& e) {
      throw rt::SimulatorIndexError(name_files(e.what(), sp.build.file_order));
    }
    if (sp.build.debug && backend == rt::Backend::GPU) check_index_fault(sp.build, mod, stream);
    for (auto& a : karg)
      if (a.dev && a.host_back && !a.host_back.is_none()) rt::device_array_to_numpy(*a.dev, a.host_back);
  }

  std::vector<std::string> signatures() {
    std::vector<std::string> r;
    for (const Specialization* sp : specs_.all()) {
      std::string s = "(";
      for (size_t i = 0; i < sp->build.arg_types.size(); ++i) s += (i ? ", " : "") + sp->build.arg_types[i].str();
      r.push_back(s + ")");
    }
    return r;
  }

  std::string inspect_source(const std::vector<std::string>& arg_types, bool cuda) {
    std::vector<Type> t;
    for (auto& a : arg_types) t.push_back(parse_type(a));
    Specialization& sp = specialize(t);
    return cuda ? sp.build.cuda_source : sp.build.host_source;
  }

 private:
  std::shared_ptr<FunctionSource> src_;
  bool debug_ = false;  // @cuda.jit(debug=True): the GPU code checks indices (kernel_checks.h)
  std::mutex mu_;
  SpecCache<Specialization> specs_;
  // Signatures given at decoration. As in Numba, such a kernel compiles nothing else: a call
  // must fit one of them, and its scalars are converted to the declared types.
  std::vector<std::vector<Type>> declared_;
  Specialization* last_ = nullptr;  // the launch plan of the last launch (see launch)
  std::vector<Type> last_types_;
  static constexpr size_t kMaxInlineArgs = 16;

  Specialization& specialize(const std::vector<Type>& types) {
    return specs_.get(types, [&] {
      auto sp = std::make_unique<Specialization>();
      sp->build = build_kernel(src_, types, debug_);
      return sp;
    });
  }

  rt::LoadedModule& module(Specialization& sp, rt::Backend b) {
    auto g = lock_without_gil(mu_);  // load_build may compile with the GIL released
    auto& slot = sp.modules[b == rt::Backend::GPU ? 0 : 1];
    if (!slot || slot->stale()) slot = load_build(sp.build, b, "kernel " + describe_call(sp.build.name, sp.build.arg_types));
    return *slot;
  }
};

// kernel[config]: a KernelLaunch. A configuration equal to the last one reuses its parsed values,
// so `k[blocks, threads](...)` in a loop only allocates the small launch object.
py::object launch_for(py::object self, py::object config) {
  Kernel& k = self.cast<Kernel&>();
  if (!(k.last_config && (k.last_config.is(config) || k.last_config.equal(config)))) {
    k.last_launch = k.configure(config);
    k.last_config = config;
  }
  KernelLaunch l = k.last_launch;
  l.owner = self;
  return py::cast(std::move(l));
}

}  // namespace

void define_kernel(py::module_& m) {
  py::class_<KernelLaunch>(m, "KernelLaunch", "A kernel with its launch configuration; call it with the arguments.")
      .def("__call__", [](KernelLaunch& l, py::args args) { l.kernel->launch(l, args); });
  py::class_<Kernel>(m, "Kernel", py::dynamic_attr(), "A @cuda.jit kernel dispatcher.")
      .def(py::init<std::shared_ptr<FunctionSource>, const std::vector<std::string>&, bool>(), py::arg("source"),
           py::arg("signatures"), py::arg("debug") = false)
      .def("__getitem__", &launch_for)
      .def("configure", [](py::object self, py::object grid, py::object block, py::object stream, int64_t shared) {
             return launch_for(self, py::make_tuple(grid, block, stream, shared));
           }, py::arg("griddim"), py::arg("blockdim"), py::arg("stream") = 0, py::arg("sharedmem") = 0)
      .def_property_readonly("signatures", &Kernel::signatures)
      .def("inspect_source", &Kernel::inspect_source, py::arg("arg_types"), py::arg("cuda") = true,
           "The generated C++ (with prelude) for argument types given as strings ('float32[::1]').");
}

}  // namespace cujit
