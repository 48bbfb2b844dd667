// @cuda.jit kernels from Python: _core.Kernel is the dispatcher. `kernel[grid, block]` makes a
// KernelLaunch; calling it fingerprints the argument types, compiles on a miss (one
// specialisation per fingerprint, as Numba does), marshals the arguments into the byte layout the
// generated entry expects (cj::Array for arrays, the value for scalars) and launches. Host NumPy
// arrays are copied to the device and back around the launch (Numba's semantics); device arrays
// are passed as they are.
//
// The launch path is the hot loop of many programs, so its two steps are plain CPython slots, not
// pybind11 methods (whose generic dispatch cost more than the driver's own launch):
// `kernel[config]` is the Kernel type's mp_subscript, and the KernelLaunch it returns is a small
// C type called through vectorcall. A call whose arguments match the last launch's plan (the same
// Python types, and for device arrays the same dtype, ndim, layout and backend) writes their words
// straight into a stack buffer and launches; anything else takes the general path (marshal.h),
// which then records the plan for the next call.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <structmember.h>

#include <cstring>
#include <iostream>
#include <mutex>

#include "bindings/ufunc_fuse.h"
#include "bindings/common.h"
#include "bindings/exceptions.h"
#include "bindings/kernel_alias.h"
#include "bindings/kernel_checks.h"
#include "bindings/marshal.h"
#include "pipeline.h"
#include "bindings/numpy_arrays.h"
#include "runtime/driver.h"
#include "runtime/launch.h"

namespace py = pybind11;

namespace cujit {

namespace {

// One launch dimension, as numba-cuda's normalize_kernel_dimensions takes it: an int or a tuple
// or list of 1 to 3 ints (numbers.Integral: also NumPy ints and bools); `name` is "griddim" or
// "blockdim". A value too large for int64 is kept as INT64_MAX, so the limit check names it.
std::vector<int64_t> launch_dims(const py::handle& h, const char* name) {
  std::vector<py::handle> items;
  const bool seq = py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h);
  if (seq) {
    for (auto x : h) items.push_back(x);
  } else {
    items.push_back(h);
  }
  auto shown = [&] {
    py::list l;
    for (py::handle x : items) l.append(x);
    return py::repr(l).cast<std::string>();
  };
  if (items.size() > 3) throw py::value_error(std::string(name) + " must be a sequence of 1, 2 or 3 integers, got " + shown());
  static py::object integral = py::module_::import("numbers").attr("Integral");
  std::vector<int64_t> v;
  for (py::handle x : items) {
    if (!PyObject_IsInstance(x.ptr(), integral.ptr()))
      throw py::type_error(std::string(name) + " must be a sequence of integers, got " + shown());
    py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(x.ptr()));
    if (!i) throw py::error_already_set();
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    v.push_back(overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : n);
  }
  if (v.empty()) throw py::value_error(std::string(name) + " must be a sequence of 1, 2 or 3 integers, got []");
  return v;
}

rt::Dim3 dim3_of(const py::handle& h, const char* what, const char* name) {
  std::vector<int64_t> v = launch_dims(h, name);
  for (auto x : v)
    if (x <= 0) throw py::value_error(std::string(what) + " sizes must be positive, got " + std::to_string(x));
  while (v.size() < 3) v.push_back(1);
  // The GPU's limits (every CUDA device since compute capability 3.0): the driver refuses more with
  // CUDA_ERROR_INVALID_VALUE, and the simulator refuses the same launches the same way.
  const bool grid = name[0] == 'g';
  const int64_t lim[3] = {grid ? INT32_MAX : 1024, grid ? 65535 : 1024, grid ? 65535 : 64};
  const char axis[3] = {'x', 'y', 'z'};
  auto invalid = [&](const std::string& detail) {
    throw rt::CudaAPIError("cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument", ": " + detail);
  };
  for (int k = 0; k < 3; ++k)
    if (v[k] > lim[k])
      invalid(std::string(what) + " is " + (v[k] == INT64_MAX ? std::string(">= 2**63") : std::to_string(v[k])) + " in " + axis[k] + ", above the GPU's limit of " +
              std::to_string(lim[k]) + (grid ? " blocks (2**31 - 1 in x, 65535 in y and z)"
                                             : " threads (1024 in x and y, 64 in z, 1024 in all)"));
  if (!grid && v[0] * v[1] * v[2] > 1024)
    invalid("the block has " + std::to_string(v[0] * v[1] * v[2]) + " threads (" + std::to_string(v[0]) + " x " +
            std::to_string(v[1]) + " x " + std::to_string(v[2]) + "), above the GPU's limit of 1024 threads per block");
  rt::Dim3 d;
  d.x = (uint32_t)v[0];
  d.y = (uint32_t)v[1];
  d.z = (uint32_t)v[2];
  return d;
}

struct Specialization {
  KernelBuild build;
  // Every argument an array or a scalar (kernel_restrict_candidate): a launch whose arrays do not
  // overlap runs the restrict variant [1] (variant_build, made at its first such launch), any
  // other launch the plain one [0]. The simulator's host code is the same for both; its variant
  // [1] exists so that CUJIT_CHECK_PTX proves the restrict program builds.
  // Bit 2 of the variant is the narrow one (kNarrow): every array argument's elements lie
  // within 2^31 bytes of its data pointer (narrow_array), so indexing runs in 32-bit arithmetic
  // (prelude/common.h IndexWidth); the simulator runs it too. Variant v's build is
  // variant_builds[v] (made at its first launch), [0] being `build`.
  bool restrict_candidate = false;
  bool narrow_candidate = false;  // restrict_candidate and CUJIT_INDEX32=1 (narrow_enabled)
  static constexpr int kNarrow = 2, kVariants = 4;
  std::unique_ptr<KernelBuild> variant_builds[kVariants];
  // [v][d] variant v's GPU module loaded in device d's context (a module belongs to one
  // context), and [v][kSimSlot] the simulator's, for every simulated device.
  static constexpr int kSimSlot = rt::kMaxDevices;
  std::shared_ptr<rt::LoadedModule> modules[kVariants][rt::kMaxDevices + 1];
  void* functions[kVariants][rt::kMaxDevices + 1] = {};  // the kernel in each, once looked up
};

/// Whether every dimension of an array (words: data, shape[ndim], strides[ndim]) is shorter than
/// 2^31 and every element lies within 2^31 bytes of its data pointer, so that 32-bit index
/// arithmetic reaches each one exactly (prelude/common.h offset32).
inline bool narrow_array(const int64_t* words, int ndim, int64_t itemsize) {
  for (int k = 0; k < ndim; ++k)
    if (words[1 + k] > (int64_t)INT32_MAX) return false;
  int64_t lo, hi;
  cj::array_byte_extent(words + 1, words + 1 + ndim, ndim, itemsize, &lo, &hi);
  return lo > -(int64_t)INT32_MAX && hi <= (int64_t)INT32_MAX;
}

/// The module slot of `backend` on the calling thread's current device.
int module_slot(rt::Backend backend) {
  return backend == rt::Backend::GPU ? rt::current_device() : Specialization::kSimSlot;
}

/// A parsed `kernel[blocks, threads, stream, sharedmem]`.
struct LaunchConfig {
  rt::Dim3 grid, block;
  size_t shared = 0;
  py::object stream_obj;  // keeps the stream alive while launches use its handle
  void* stream = nullptr;
  int stream_device = -1;  // a created stream's device (it must be the current one), else -1
};

/// How the last launch's arguments were marshalled: a later call whose arguments match it slot by
/// slot skips marshal() (see Kernel::try_fast_launch).
struct ArgPlan {
  enum Kind : uint8_t { DeviceArray, PyFloat, PyInt, PyBool, PyComplex, NumpyScalar } kind;
  PyTypeObject* pytype;  // exact type of the argument
  Scalar scalar;         // arrays: the dtype; scalars: the value's own kind
  Scalar declared;       // scalars: the kind the specialisation takes (a declared signature converts)
  int ndim = 0;
  char layout = 'A';
  bool readonly = false;  // arrays: part of the type (a read-only array has its own specialisation)
  int words = 1;          // scalars: 8-byte words of the declared value in the parameter buffer
};

struct LaunchPlan {
  std::vector<ArgPlan> args;
  size_t words = 0;           // the marshalled size, in 8-byte words
  rt::Backend backend = rt::Backend::Sim;
  // The context generation (driver.h) the module and arrays were live in: a token of the device
  // current at the plan (on the simulator the device's token, rt::sim_generation), so arrays and
  // launches of another device take the general path, which refuses them.
  uint64_t generation = 0;
  Specialization* sp = nullptr;
  rt::LoadedModule* module[Specialization::kVariants] = {};  // per variant (Specialization); null: not loaded yet
  void* function[Specialization::kVariants] = {};
};

/// CUJIT_INDEX32=1 (read at each new specialisation): kernels with a restrict variant also have
/// narrow ones (32-bit indexing). Off by default until the H100 says it pays: the SASS has fewer
/// index instructions, but NVVM no longer merges a tile's shared-memory loads into LDS.128
/// (benchmarks/NOTES-compile.md, "Tighter kernels").
bool narrow_enabled() {
  const char* v = std::getenv("CUJIT_INDEX32");
  if (!v) return false;
  const std::string s = v;
  return !(s.empty() || s == "0" || s == "false" || s == "False" || s == "off" || s == "no");
}

/// CUJIT_RESTRICT=0 (read at each new specialisation): kernels have no restrict variant, nor
/// a narrow one.
bool restrict_enabled() {
  const char* v = std::getenv("CUJIT_RESTRICT");
  if (!v) return true;
  const std::string s = v;
  return !(s == "0" || s == "false" || s == "False" || s == "off" || s == "no");
}

PyTypeObject* device_array_type() {
  static PyTypeObject* t = (PyTypeObject*)py::type::of<rt::DeviceArray>().ptr();
  return t;
}

/// The C++ object of a Python object whose type is exactly DeviceNDArray (no type-map lookup).
rt::DeviceArray* device_array_of(PyObject* o) {
  return reinterpret_cast<py::detail::instance*>(o)->get_value_and_holder().value_ptr<rt::DeviceArray>();
}

class Kernel {
 public:
  // The last kernel[config]: the configuration object and what it parsed to (see subscript).
  py::object last_config;
  LaunchConfig last_launch;
  // numba-cuda's kernel extensions (a Python list, changed in place by users): while it is not
  // empty, every launch goes through Dispatcher._prepare_launch (launch_through_python).
  py::object extensions;
  // The variant (Specialization) the last launch ran: bit 1 restrict, bit 2 narrow, 0 plain
  // (tests read it).
  int last_variant = -1;

  Kernel(std::shared_ptr<FunctionSource> src, const std::vector<std::string>& sigs, bool debug = false,
         py::object snapshot = py::none(), std::vector<std::string> nvrtc_flags = {})
      : src_(std::move(src)), snapshot_(std::move(snapshot)), debug_(debug), nvrtc_flags_(std::move(nvrtc_flags)) {
    for (const auto& s : sigs) {
      Signature sig = parse_signature_or_raise(s);
      if (sig.ret.known() && sig.ret.tag != Type::Tag::Void)
        throw py::type_error("a kernel's signature must return void, got '" + s + "'");
      specialize(sig.args);
      declared_.push_back(sig.args);
    }
  }

  LaunchConfig configure(const py::handle& config) {
    if (!py::isinstance<py::tuple>(config))
      throw py::type_error("launch a kernel as kernel[blocks, threads] or kernel[blocks, threads, stream, sharedmem]");
    py::tuple t = py::reinterpret_borrow<py::tuple>(config);
    if (t.size() < 2 || t.size() > 4)
      throw py::value_error("a launch configuration has 2 to 4 items (blocks, threads[, stream[, sharedmem]]), got " + std::to_string(t.size()));
    LaunchConfig l;
    if (t[0].is_none() || t[1].is_none())
      throw py::value_error("a kernel launch needs both a grid and a block size: kernel[blocks, threads]");
    l.grid = dim3_of(t[0], "the grid (blocks)", "griddim");
    l.block = dim3_of(t[1], "the block (threads)", "blockdim");
    l.stream_obj = t.size() > 2 ? py::object(t[2]) : py::object(py::int_(0));
    l.stream = stream_handle(l.stream_obj);
    l.stream_device = stream_device(l.stream_obj);
    if (t.size() > 3) {
      static py::object integral = py::module_::import("numbers").attr("Integral");
      if (!PyObject_IsInstance(t[3].ptr(), integral.ptr()))
        throw py::type_error("sharedmem must be an integer (bytes), got " + py::repr(t[3]).cast<std::string>());
      py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(t[3].ptr()));
      if (!i) throw py::error_already_set();
      int overflow = 0;
      long long sh = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
      if (overflow < 0 || (!overflow && sh < 0)) throw py::value_error("sharedmem must be >= 0");
      // Above any GPU's shared memory; the launch checks give the device's own limit.
      l.shared = overflow > 0 || sh > (1LL << 40) ? (size_t)(1ULL << 40) : (size_t)sh;
    }
    return l;
  }

  /// The launch when the arguments match the plan of the last one; false (nothing done) when they
  /// do not, and the caller takes launch().
  bool try_fast_launch(const LaunchConfig& l, PyObject* const* args, size_t n) {
    const LaunchPlan& p = plan_;
    if (!p.sp || n != p.args.size() || n > kMaxInlineArgs || p.words > kMaxInlineWords) return false;
    if (l.stream_device >= 0) check_stream_device(l);
    int64_t words[kMaxInlineWords];
    void* params[kMaxInlineArgs];
    ByteSpan spans[kMaxInlineArgs];
    size_t nspans = 0;
    const bool restrict_candidate = p.sp->restrict_candidate;
    bool narrow = p.sp->narrow_candidate;
    int64_t* w = words;
    bool any_array = false;
    for (size_t i = 0; i < n; ++i) {
      const ArgPlan& a = p.args[i];
      PyObject* o = args[i];
      if (Py_TYPE(o) != a.pytype) return false;
      params[i] = w;
      switch (a.kind) {
        case ArgPlan::DeviceArray: {
          const rt::DeviceArray* d = device_array_of(o);
          fuse::observe(*d);  // the kernel may read or write it: pending ufunc writes run first
          if (d->dtype.record || d->dtype.scalar != a.scalar || d->ndim() != a.ndim || d->backend() != p.backend || d->readonly != a.readonly)
            return false;
          // An array from before a kernel fault, or of another device: the general path raises.
          if (d->buf && d->buf->generation != p.generation && d->buf->origin != rt::Buffer::Origin::External)
            return false;
          const int itemsize = scalar_size(a.scalar);
          if (layout_of(d->shape, d->strides, itemsize) != a.layout) return false;
          *w++ = (int64_t)(intptr_t)d->data;  // a cj::Array's words
          for (int k = 0; k < a.ndim; ++k) *w++ = d->shape[k];
          for (int k = 0; k < a.ndim; ++k) *w++ = d->strides[k];
          if (restrict_candidate) {
            spans[nspans++] = array_span((const int64_t*)params[i], a.ndim, itemsize);
            narrow = narrow && narrow_array((const int64_t*)params[i], a.ndim, itemsize);
          }
          any_array = true;
          continue;
        }
        case ArgPlan::PyFloat: {
          double v = PyFloat_AS_DOUBLE(o);
          std::memcpy(w, &v, 8);
          break;
        }
        case ArgPlan::PyInt: {
          int overflow = 0;
          long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
          if (overflow) return false;  // the general path reports it
          *w = v;
          break;
        }
        case ArgPlan::PyBool:
          *w = 0;
          *(bool*)w = o == Py_True;
          break;
        case ArgPlan::PyComplex: {
          const double v[2] = {PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)};
          std::memcpy(w, v, 16);
          break;
        }
        case ArgPlan::NumpyScalar:
          numpy_scalar_bytes(o, a.scalar, w);
          break;
      }
      if (a.scalar != a.declared) convert_scalar_word(w, a.scalar, a.declared);
      w += a.words;
    }
    if (!any_array && rt::current_backend() != p.backend) return false;
    if (p.backend == rt::Backend::GPU) {
      // A fault since the plan was made left its module dead; and a launch asking for more
      // dynamic shared memory than allowed gets its message from the general path.
      if (p.generation != rt::context_generation()) return false;
      if (l.shared > (size_t)rt::device_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)) return false;
    } else if (l.shared > (size_t)rt::kSimMaxSharedOptin || p.generation != rt::sim_generation(rt::current_device())) {
      return false;
    }
    const int v = (restrict_candidate && spans_disjoint(spans, nspans) ? 1 : 0) | (narrow ? Specialization::kNarrow : 0);
    if (!p.function[v]) return false;  // the general path loads this variant
    check_config(l, p.backend);
    last_variant = v;
    run(*p.sp, *p.module[v], p.function[v], l, params);
    return true;
  }

  /// The general path: types and marshals every argument, compiles on a miss, launches, copies
  /// host arrays back, and records the plan that try_fast_launch follows next time.
  void launch(const LaunchConfig& l, PyObject* const* args, size_t n) {
    rt::Backend backend = rt::current_backend();
    for (size_t i = 0; i < n; ++i)
      if (py::isinstance<rt::DeviceArray>(args[i])) backend = py::handle(args[i]).cast<const rt::DeviceArray&>().backend();
    check_config(l, backend);
    if (l.stream_device >= 0) check_stream_device(l);
    std::vector<KArg> karg;
    std::vector<Type> types;
    karg.reserve(n);
    types.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      try {
        karg.push_back(marshal(args[i], backend, (int)i));
        if (karg.back().from_host) warn_implicit_copy();
      } catch (const UnknownArgumentType& e) {
        throw py::type_error("argument " + std::to_string(i) + " of " + src_->name + "(): " + e.what());
      }
      types.push_back(karg.back().type);
    }
    const std::vector<Type> actual = types;
    if (!declared_.empty()) types = bind_declared(declared_, karg, types, src_->name);
    Specialization& sp = specialize(types);
    if (sp.build.arg_types.size() != n)
      throw py::type_error(src_->name + "() takes " + std::to_string(sp.build.arg_types.size()) + " arguments, got " + std::to_string(n));
    check_launch(sp.build, backend, l.shared, karg);  // shared memory, arrays of a lost context
    const int slot = module_slot(backend);
    const int v = launch_variant(sp, karg);
    if (!sp.functions[v][slot] || sp.modules[v][slot]->stale())
      sp.functions[v][slot] = module(sp, backend, v).function(sp.build.symbol);
    rt::LoadedModule& mod = *sp.modules[v][slot];
    void* params[kMaxInlineArgs];
    std::vector<void*> more;
    void** p = params;
    if (karg.size() > kMaxInlineArgs) p = (more.resize(karg.size()), more.data());
    for (size_t i = 0; i < karg.size(); ++i) p[i] = karg[i].bytes.data();
    last_variant = v;
    run(sp, mod, sp.functions[v][slot], l, p);
    if (sp.build.debug && backend == rt::Backend::GPU) check_index_fault(sp.build, mod, l.stream);
    for (auto& arg : karg)
      for_each_item(arg, [](const KArg& a) {
        if (a.dev && a.host_back && !a.host_back.is_none()) device_array_to_numpy(*a.dev, a.host_back);
      });
    record_plan(args, n, karg, actual, types, backend, sp);
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

  /// Specialisation `index` (in the order of `signatures`): Numba's overload.cooperative and
  /// overload.max_cooperative_grid_blocks(blockdim, dynsmemsize), on the current backend.
  Specialization& compiled(int64_t index) {
    auto all = specs_.all();
    if (index < 0 || index >= (int64_t)all.size())
      throw py::index_error(src_->name + "() has " + std::to_string(all.size()) + " compiled specialisation(s); there is no number " +
                            std::to_string(index));
    return const_cast<Specialization&>(*all[index]);  // the cache owns it; all() lists it read-only
  }
  bool cooperative(int64_t index) { return compiled(index).build.cooperative; }
  int max_cooperative_grid_blocks(int64_t index, int64_t threads, int64_t shared) {
    if (threads < 1 || threads > 1024) throw py::value_error("a block has 1 to 1024 threads, not " + std::to_string(threads));
    if (shared < 0) throw py::value_error("dynsmemsize must not be negative");
    Specialization& sp = compiled(index);
    rt::LoadedModule& mod = module(sp, rt::current_backend());
    py::gil_scoped_release nogil;
    return mod.max_cooperative_blocks(sp.build.symbol, (int)threads, (size_t)shared);
  }

  bool has_extensions() const {
    return extensions && PyList_Check(extensions.ptr()) && PyList_GET_SIZE(extensions.ptr()) > 0;
  }

  /// Whether an argument is a copy hint (cuda.In/Out/InOut), which Python unwraps.
  static bool has_hint(PyObject* const* args, size_t n) {
    static PyObject* hint = py::object(py::module_::import("cujit.cuda.args").attr("ArgHint")).release().ptr();  // kept
    for (size_t i = 0; i < n; ++i) {
      int r = PyObject_IsInstance(args[i], hint);
      if (r < 0) throw py::error_already_set();
      if (r) return true;
    }
    return false;
  }

  /// A launch whose arguments Python prepares first: the extensions' prepare_args, then the copy
  /// hints (Dispatcher._prepare_launch), and whose post-call functions run after it.
  void launch_through_python(PyObject* owner, const LaunchConfig& l, PyObject* const* args, size_t n) {
    py::tuple a(n);
    for (size_t i = 0; i < n; ++i) a[i] = py::reinterpret_borrow<py::object>(args[i]);
    py::tuple r = py::handle(owner).attr("_prepare_launch")(a, l.stream_obj);
    py::tuple prepared = r[0].cast<py::tuple>();
    py::list after = r[1].cast<py::list>();
    std::vector<PyObject*> p;
    for (auto x : prepared) p.push_back(x.ptr());
    launch(l, p.data(), p.size());
    for (auto f : after) f();
  }

  /// The argument types of each specialisation, as type names, in compile order.
  std::vector<std::vector<std::string>> arg_signatures() {
    std::vector<std::vector<std::string>> r;
    for (const Specialization* sp : specs_.all()) {
      r.emplace_back();
      for (const Type& t : sp->build.arg_types) r.back().push_back(t.str());
    }
    return r;
  }

  std::vector<std::string> annotations() {
    std::vector<std::string> r;
    for (const Specialization* sp : specs_.all()) r.push_back(sp->build.annotated);
    return r;
  }

  /// Specialisation `i`: its generated code, and on the GPU (loaded into the current context)
  /// the function's attributes the driver reports.
  py::dict info(size_t i, bool gpu) {
    Specialization& sp = specs_.at(i);
    py::dict d;
    d["cuda_source"] = sp.build.cuda_source;
    d["host_source"] = sp.build.host_source;
    if (gpu) {
      const int slot = module_slot(rt::Backend::GPU);
      if (!sp.functions[0][slot] || sp.modules[0][slot]->stale())
        sp.functions[0][slot] = module(sp, rt::Backend::GPU).function(sp.build.symbol);
      CUfunction f = (CUfunction)sp.functions[0][slot];
      d["regs_per_thread"] = rt::function_attribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
      d["shared_mem_per_block"] = rt::function_attribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
      d["const_mem_size"] = rt::function_attribute(f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
      d["local_mem_per_thread"] = rt::function_attribute(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
      d["max_threads_per_block"] = rt::function_attribute(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    }
    return d;
  }

  /// Specialisation `i` through NVRTC (and the disk cache) for `arch`: PTX text ("compute_XY")
  /// or CUBIN bytes ("sm_XY").
  py::bytes image(size_t i, const std::string& arch, bool restrict_variant = false, bool narrow = false) {
    Specialization& sp = specs_.at(i);
    if (restrict_variant && !sp.restrict_candidate)
      throw py::value_error(sp.build.name + "() has no restrict variant: some argument is neither an array nor a scalar");
    if (narrow && !sp.narrow_candidate)
      throw py::value_error(sp.build.name + "() has no narrow variant: CUJIT_INDEX32=1 was not set when it was specialised, "
                            "or some argument is neither an array nor a scalar");
    const int v = (restrict_variant ? 1 : 0) | (narrow ? Specialization::kNarrow : 0);
    toolchain::NvrtcOutput o;
    {
      py::gil_scoped_release nogil;
      o = compile_cuda(variant_build(sp, v), arch);
    }
    return py::bytes(o.image);
  }

  std::string inspect_source(const std::vector<std::string>& arg_types, bool cuda) {
    std::vector<Type> t;
    for (auto& a : arg_types) t.push_back(parse_type(a));
    Specialization& sp = specialize(t);
    return cuda ? sp.build.cuda_source : sp.build.host_source;
  }

 private:
  std::shared_ptr<FunctionSource> src_;  // the text: names and carets; compiles take snapshot_'s
  py::object snapshot_;                  // decorators.snapshot, called on each compile (a miss)
  bool debug_ = false;  // @cuda.jit(debug=True): the GPU code checks indices (kernel_checks.h)
  std::vector<std::string> nvrtc_flags_;  // lineinfo, max_registers, opt, fastmath as NVRTC options
  std::mutex mu_;
  SpecCache<Specialization> specs_;
  // Signatures given at decoration. As in Numba, such a kernel compiles nothing else: a call
  // must fit one of them, and its scalars are converted to the declared types.
  std::vector<std::vector<Type>> declared_;
  LaunchPlan plan_;  // read and written with the GIL held
  static constexpr size_t kMaxInlineArgs = 16;
  static constexpr size_t kMaxInlineWords = 128;

  Specialization& specialize(const std::vector<Type>& types) {
    return specs_.get(types, [&] {
      auto sp = std::make_unique<Specialization>();
      sp->build = build_kernel(with_function_args(source_for_compile(src_, snapshot_), types), types, debug_);
      sp->build.nvrtc_flags = nvrtc_flags_;
      sp->restrict_candidate = restrict_enabled() && kernel_restrict_candidate(sp->build.arg_types);
      sp->narrow_candidate = sp->restrict_candidate && narrow_enabled();
      return sp;
    });
  }

  rt::LoadedModule& module(Specialization& sp, rt::Backend b, int variant = 0) {
    auto g = lock_without_gil(mu_);  // load_build may compile with the GIL released
    auto& slot = sp.modules[variant][module_slot(b)];
    if (!slot || slot->stale()) {
      const std::string what = "kernel " + describe_call(sp.build.name, sp.build.arg_types);
      if (sp.restrict_candidate && debug_level() >= 1)
        std::cerr << "cujit: " << what
                  << ((variant & 1) ? ": restrict variant (no two array arguments overlap)"
                                    : ": plain variant (array arguments may overlap)")
                  << ((variant & Specialization::kNarrow) ? ", 32-bit indexing\n" : "\n");
      slot = load_build(variant_build(sp, variant), b, what);
    }
    return *slot;
  }

  /// The build of variant v: the plain one for 0, else a copy with CJ_RESTRICT (bit 1) and
  /// CJ_INDEX32 (kNarrow) defined (made once; the caller holds mu_ or the GIL, as specs_ is read).
  static const KernelBuild& variant_build(Specialization& sp, int v) {
    if (v == 0) return sp.build;
    if (!sp.variant_builds[v]) {
      auto b = std::make_unique<KernelBuild>(sp.build);
      kernel_variant_sources(*b, (v & 1) != 0, (v & Specialization::kNarrow) != 0);
      sp.variant_builds[v] = std::move(b);
    }
    return *sp.variant_builds[v];
  }

  /// The variant for the marshalled arguments when the specialisation has variants: bit 1 when
  /// no two arrays share a byte, kNarrow when every array is narrow (narrow_array); else 0.
  static int launch_variant(const Specialization& sp, const std::vector<KArg>& karg) {
    if (!sp.restrict_candidate) return 0;
    std::vector<ByteSpan> spans;
    bool narrow = sp.narrow_candidate;
    for (const KArg& a : karg) {
      if (!a.type.is_array()) continue;
      const int64_t itemsize = a.type.record ? a.type.record->size : scalar_size(a.type.scalar);
      spans.push_back(array_span(a.bytes.data(), a.type.ndim, itemsize));
      narrow = narrow && narrow_array(a.bytes.data(), a.type.ndim, itemsize);
    }
    return (spans_disjoint(spans.data(), spans.size()) ? 1 : 0) | (narrow ? Specialization::kNarrow : 0);
  }

  /// The block size the backend allows (the device's attribute is cached). The dynamic shared
  /// memory is checked by check_launch (kernel_checks.h), and by the fast path against the same limit.
  static void check_config(const LaunchConfig& l, rt::Backend backend) {
    uint64_t threads = (uint64_t)l.block.x * l.block.y * l.block.z;
    uint64_t limit = backend == rt::Backend::GPU ? (uint64_t)rt::max_threads_per_block() : 1024;
    if (threads > limit)  // what the driver answers such a launch; configure() already holds blocks to 1024
      throw rt::CudaAPIError("cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument",
                             ": a block of " + std::to_string(threads) + " threads is more than the device's maximum of " +
                                 std::to_string(limit) + " threads per block");
  }

  /// CUDA refuses a launch on a stream of another device than the current one (the driver's
  /// CUDA_ERROR_INVALID_HANDLE); the simulator's devices follow the same rule.
  static void check_stream_device(const LaunchConfig& l) { check_launch_stream_device(l.stream_device); }

  static void run(const Specialization& sp, rt::LoadedModule& mod, void* function, const LaunchConfig& l, void** params) {
    try {
      py::gil_scoped_release nogil;
      mod.launch_kernel(function, sp.build.symbol, l.grid, l.block, l.shared, l.stream, params, sp.build.cooperative);
    } catch (const rt::SimulatorIndexError& e) {
      throw rt::SimulatorIndexError(name_files(e.what(), sp.build.file_order));
    } catch (const rt::SimulatorRaceError& e) {
      throw rt::SimulatorRaceError(name_files(e.what(), sp.build.file_order));
    } catch (const rt::KernelRaise& e) {  // a raise statement (exceptions.h); the GIL is back here
      raise_kernel_exception(sp.build, e.site, e.thread, e.block);
    }
  }

  /// Remembers how this launch's arguments were marshalled, when every one of them is of a kind
  /// the fast path knows; otherwise clears the plan (host arrays need their copies each call).
  void record_plan(PyObject* const* args, size_t n, const std::vector<KArg>& karg, const std::vector<Type>& actual,
                   const std::vector<Type>& declared, rt::Backend backend, Specialization& sp) {
    plan_ = LaunchPlan{};
    if (sp.build.debug) return;  // a debug launch reads its fault record after each launch
    LaunchPlan p;
    for (size_t i = 0; i < n; ++i) {
      PyObject* o = args[i];
      ArgPlan a{};
      a.pytype = Py_TYPE(o);
      const Type& t = actual[i];
      if (t.is_array()) {
        // Not record arrays: the plan's dtype is a scalar (a record array's would read as uint8,
        // and a uint8 array would then launch the record kernel), and adding a record to it would
        // add a compare to every launch. They take the general path.
        if (a.pytype != device_array_type() || karg[i].host_back || t.is_record_array()) return;
        a.kind = ArgPlan::DeviceArray;
        a.scalar = a.declared = t.scalar;
        a.ndim = t.ndim;
        a.layout = t.layout;
        a.readonly = t.readonly;
        p.words += (size_t)cj::array_words(t.ndim);
      } else if (t.is_scalar()) {
        Scalar np_kind;
        if (PyBool_Check(o)) a.kind = ArgPlan::PyBool;
        else if (PyLong_CheckExact(o)) a.kind = ArgPlan::PyInt;
        else if (PyFloat_CheckExact(o)) a.kind = ArgPlan::PyFloat;
        else if (PyComplex_CheckExact(o)) a.kind = ArgPlan::PyComplex;
        else if (numpy_scalar_kind(o, &np_kind)) a.kind = ArgPlan::NumpyScalar;
        else return;
        if (is_time(t.scalar)) return;  // its unit is the value's, not its Python type's: no plan by type
        a.scalar = t.scalar;
        a.declared = declared[i].is_scalar() ? declared[i].scalar : t.scalar;
        a.words = scalar_words(a.declared);
        // The value is written in its own type, then converted in place: room for the wider.
        p.words += std::max(scalar_words(a.scalar), a.words);
      } else {
        return;
      }
      p.args.push_back(a);
    }
    p.backend = backend;
    p.generation = backend == rt::Backend::GPU ? rt::context_generation() : rt::sim_generation(rt::current_device());
    p.sp = &sp;
    const int slot = module_slot(backend);
    for (int v = 0; v < Specialization::kVariants; ++v)  // a variant not loaded yet is loaded by the general path
      if (sp.functions[v][slot] && !sp.modules[v][slot]->stale()) {
        p.module[v] = sp.modules[v][slot].get();
        p.function[v] = sp.functions[v][slot];
      }
    plan_ = std::move(p);
  }
};

// ---- The CPython side: Kernel's subscript slot and the KernelLaunch type ----

Kernel* kernel_of(PyObject* self) { return &initialized<Kernel>(self, "kernel"); }

/// `kernel[config]` bound: a strong reference to the kernel (`make()[1, 32](a)` drops the kernel
/// itself before the call) and its parsed configuration.
struct LaunchObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* owner;
  Kernel* kernel;
  LaunchConfig config;
  // numba-cuda's pre_launch_callbacks: a list made on first use (null until then, so a launch
  // without callbacks pays one pointer test), and the arguments of the launch in progress, which
  // `args` reads while the callbacks run.
  PyObject* callbacks;
  PyObject* current_args;
};

PyTypeObject* g_launch_type = nullptr;

/// Turns the C++ exception being handled into the Python one pybind11's translators map it to.
PyObject* raise_current() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (...) {
    py::detail::try_translate_exceptions();
  }
  return nullptr;
}

/// numba-cuda's pre-launch callbacks: each `callback(kernel, launch)` in order, before the launch;
/// `launch.args` is the launch's arguments meanwhile. The kernel is the dispatcher (numba-cuda
/// passes its compiled overload, which cujit has no Python object for). False when one raised.
bool run_pre_launch_callbacks(LaunchObject* self, PyObject* const* args, size_t n) {
  PyObject* tuple = PyTuple_New((Py_ssize_t)n);
  if (!tuple) return false;
  for (size_t i = 0; i < n; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, args[i]);
  }
  PyObject* previous = self->current_args;  // a callback may launch through this object again
  self->current_args = tuple;
  // A copy of the list: a callback that appends or removes callbacks changes the next launch.
  PyObject* list = PySequence_List(self->callbacks);
  bool ok = list != nullptr;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(list); ++i) {
    PyObject* r = PyObject_CallFunctionObjArgs(PyList_GET_ITEM(list, i), self->owner, (PyObject*)self, nullptr);
    ok = r != nullptr;
    Py_XDECREF(r);
  }
  Py_XDECREF(list);
  self->current_args = previous;
  Py_DECREF(tuple);
  return ok;
}

PyObject* launch_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* self = reinterpret_cast<LaunchObject*>(callable);
  if (kwnames && PyTuple_GET_SIZE(kwnames) > 0) {
    PyErr_SetString(PyExc_TypeError, "a kernel takes no keyword arguments");
    return nullptr;
  }
  const size_t n = PyVectorcall_NARGS(nargsf);
  if (self->callbacks && PyList_GET_SIZE(self->callbacks) > 0 && !run_pre_launch_callbacks(self, args, n))
    return nullptr;
  try {
    Kernel* k = self->kernel;
    if (k->has_extensions()) {
      k->launch_through_python(self->owner, self->config, args, n);
    } else if (!k->try_fast_launch(self->config, args, n)) {
      if (PyErr_Occurred()) return nullptr;
      if (Kernel::has_hint(args, n)) k->launch_through_python(self->owner, self->config, args, n);
      else k->launch(self->config, args, n);
    }
  } catch (...) {
    return raise_current();
  }
  Py_RETURN_NONE;
}

void launch_dealloc(PyObject* o) {
  auto* self = reinterpret_cast<LaunchObject*>(o);
  self->config.~LaunchConfig();
  Py_XDECREF(self->callbacks);
  Py_XDECREF(self->owner);
  PyTypeObject* tp = Py_TYPE(o);
  tp->tp_free(o);
  Py_DECREF(tp);  // instances of heap types own a reference to their type
}

py::tuple dim3_tuple(const rt::Dim3& d) { return py::make_tuple(d.x, d.y, d.z); }

/// `griddim` and `blockdim` of a configured launch, as numba-cuda's launch configuration has them.
PyObject* launch_griddim(PyObject* o, void*) {
  return dim3_tuple(reinterpret_cast<LaunchObject*>(o)->config.grid).release().ptr();
}

PyObject* launch_blockdim(PyObject* o, void*) {
  return dim3_tuple(reinterpret_cast<LaunchObject*>(o)->config.block).release().ptr();
}

PyObject* launch_callbacks(PyObject* o, void*) {
  auto* self = reinterpret_cast<LaunchObject*>(o);
  if (!self->callbacks && !(self->callbacks = PyList_New(0))) return nullptr;
  Py_INCREF(self->callbacks);
  return self->callbacks;
}

/// numba-cuda's `launch.args`: the arguments of the launch whose callbacks are running, else None.
PyObject* launch_args(PyObject* o, void*) {
  PyObject* a = reinterpret_cast<LaunchObject*>(o)->current_args;
  if (!a) Py_RETURN_NONE;
  Py_INCREF(a);
  return a;
}

/// pickle of `kernel[grid, block, stream, shared]`: the kernel (by value, cujit/_pickle.py) and
/// the configuration, which the reader configures again (numba-cuda pickles its launches too).
PyObject* launch_reduce(PyObject* o, PyObject*) {
  try {
    auto* self = reinterpret_cast<LaunchObject*>(o);
    if (self->callbacks && PyList_GET_SIZE(self->callbacks) > 0) {  // numba-cuda's refusal, word for word
      PyErr_SetString(py::module_::import("pickle").attr("PicklingError").ptr(),
                      "Cannot pickle configured launches with pre-launch callbacks");
      return nullptr;
    }
    const LaunchConfig& c = self->config;
    py::object stream = c.stream_obj ? c.stream_obj : py::int_(0);
    py::object again = py::module_::import("cujit._pickle").attr("configured");
    return py::make_tuple(again, py::make_tuple(py::reinterpret_borrow<py::object>(self->owner), dim3_tuple(c.grid),
                                                dim3_tuple(c.block), stream, c.shared))
        .release()
        .ptr();
  } catch (...) {
    return raise_current();
  }
}

PyObject* make_launch(PyObject* kernel_obj, Kernel* k, const LaunchConfig& config) {
  LaunchObject* l = PyObject_New(LaunchObject, g_launch_type);
  if (!l) return nullptr;
  l->vectorcall = launch_vectorcall;
  Py_INCREF(kernel_obj);
  l->owner = kernel_obj;
  l->kernel = k;
  l->callbacks = nullptr;
  l->current_args = nullptr;
  new (&l->config) LaunchConfig(config);
  return reinterpret_cast<PyObject*>(l);
}

/// Whether configuration `key` is the last one: equal, and item by item of the same types, since
/// (2.0, 32) == (2, 32) but a float grid must be refused, not take the int one's parsed values.
bool same_config(const py::handle& last, const py::handle& key) {
  if (Py_TYPE(last.ptr()) != Py_TYPE(key.ptr())) return false;
  if (PyTuple_Check(key.ptr()) || PyList_Check(key.ptr())) {
    py::sequence a = py::reinterpret_borrow<py::sequence>(last), b = py::reinterpret_borrow<py::sequence>(key);
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!same_config(a[i], b[i])) return false;
    return true;
  }
  return last.equal(key);
}

/// Kernel's mp_subscript. A configuration equal to the last one (in a loop it is usually the same
/// tuple object, a constant of the caller's code) reuses its parsed values.
PyObject* kernel_subscript(PyObject* self, PyObject* key) {
  try {
    Kernel* k = kernel_of(self);
    if (!(k->last_config && (k->last_config.ptr() == key || same_config(k->last_config, key)))) {
      LaunchConfig parsed = k->configure(key);
      warn_low_occupancy(parsed.grid);
      // The old values die at the end of this block, after both are replaced: their destructors
      // may run Python code, and another thread must never see a configuration with the wrong key.
      py::object old_key = std::move(k->last_config);
      LaunchConfig old = std::move(k->last_launch);
      k->last_launch = std::move(parsed);
      k->last_config = py::reinterpret_borrow<py::object>(key);
    }
    else
      warn_low_occupancy(k->last_launch.grid);  // numba-cuda warns at every kernel[config]
    return make_launch(self, k, k->last_launch);
  } catch (...) {
    return raise_current();
  }
}

PyTypeObject* make_launch_type() {
  static PyMemberDef members[] = {
      {"__vectorcalloffset__", T_PYSSIZET, (Py_ssize_t)offsetof(LaunchObject, vectorcall), READONLY, nullptr},
      {nullptr, 0, 0, 0, nullptr}};
  static PyMethodDef methods[] = {
      {"__reduce__", (PyCFunction)launch_reduce, METH_NOARGS, "Pickles the kernel and its configuration."},
      {nullptr, nullptr, 0, nullptr}};
  static PyGetSetDef getset[] = {
      {"griddim", launch_griddim, nullptr, "The grid's dimensions (x, y, z).", nullptr},
      {"blockdim", launch_blockdim, nullptr, "The block's dimensions (x, y, z).", nullptr},
      {"pre_launch_callbacks", launch_callbacks, nullptr,
       "numba-cuda's list of callback(kernel, launch) run before each launch of this configuration.", nullptr},
      {"args", launch_args, nullptr, "The arguments of the launch whose pre-launch callbacks are running, else None.",
       nullptr},
      {nullptr, nullptr, nullptr, nullptr, nullptr}};
  static PyType_Slot slots[] = {
      {Py_tp_dealloc, (void*)launch_dealloc},
      {Py_tp_methods, methods},
      {Py_tp_getset, getset},
      {Py_tp_call, (void*)PyVectorcall_Call},
      {Py_tp_members, members},
      {Py_tp_doc, (void*)"A kernel with its launch configuration; call it with the arguments."},
      {0, nullptr}};
  static PyType_Spec spec = {"cujit._core.KernelLaunch", (int)sizeof(LaunchObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL, slots};
  return (PyTypeObject*)PyType_FromSpec(&spec);
}

}  // namespace

void define_kernel(py::module_& m) {
  g_launch_type = make_launch_type();
  if (!g_launch_type) throw py::error_already_set();
  m.add_object("KernelLaunch", py::reinterpret_borrow<py::object>((PyObject*)g_launch_type));
  m.def("_config_changed", &config_changed, "cujit.config changed: the launch checks read it again");
  // The subscript slot is set before PyType_Ready, which then gives the type a `__getitem__`
  // slot wrapper: a Python subclass (cuda.jit's Dispatcher) inherits the C function itself
  // rather than a lookup of a Python-level method on every `kernel[config]`.
  py::class_<Kernel>(m, "Kernel", py::dynamic_attr(), "A @cuda.jit kernel dispatcher.",
                     py::custom_type_setup([](PyHeapTypeObject* ht) { ht->as_mapping.mp_subscript = kernel_subscript; }))
      .def(py::init<std::shared_ptr<FunctionSource>, const std::vector<std::string>&, bool, py::object, std::vector<std::string>>(),
           py::arg("source"), py::arg("signatures"), py::arg("debug") = false, py::arg("snapshot") = py::none(),
           py::arg("nvrtc_flags") = std::vector<std::string>{})
      .def("configure", [](py::object self, py::object grid, py::object block, py::object stream, py::object shared) {
             Kernel& k = *kernel_of(self.ptr());
             LaunchConfig c = k.configure(py::make_tuple(grid, block, stream, shared));
             warn_low_occupancy(c.grid);
             PyObject* l = make_launch(self.ptr(), &k, std::move(c));
             if (!l) throw py::error_already_set();
             return py::reinterpret_steal<py::object>(l);
           }, py::arg("griddim"), py::arg("blockdim"), py::arg("stream") = 0, py::arg("sharedmem") = 0)
      .def_property_readonly("signatures", [](py::handle self) { return kernel_of(self.ptr())->signatures(); })
      .def("cooperative", [](py::handle self, int64_t index) { return kernel_of(self.ptr())->cooperative(index); },
           py::arg("index"), "Whether specialisation `index` uses cuda.cg.this_grid() (launched cooperatively).")
      .def("_max_cooperative_grid_blocks", [](py::handle self, int64_t index, int64_t threads, int64_t shared) {
             return kernel_of(self.ptr())->max_cooperative_grid_blocks(index, threads, shared);
           }, py::arg("index"), py::arg("threads"), py::arg("dynsmemsize") = 0,
           "The most blocks of `threads` threads a cooperative launch of specialisation `index` may have.")
      .def_property_readonly("_signatures", [](py::handle self) { return kernel_of(self.ptr())->arg_signatures(); })
      .def("_annotations", [](py::handle self) { return kernel_of(self.ptr())->annotations(); })
      .def("_info", [](py::handle self, size_t i, bool gpu) { return kernel_of(self.ptr())->info(i, gpu); },
           py::arg("index"), py::arg("gpu"))
      .def("_image", [](py::handle self, size_t i, const std::string& arch, bool restrict_variant, bool narrow) {
             return kernel_of(self.ptr())->image(i, arch, restrict_variant, narrow);
           }, py::arg("index"), py::arg("arch"), py::arg("restrict_variant") = false, py::arg("narrow") = false,
           "PTX or CUBIN of specialisation `index`; restrict_variant: the program launched when no two array "
           "arguments overlap; narrow: the one launched when every array lies within 2^31 bytes (32-bit indexing)")
      .def_property_readonly("_last_variant", [](py::handle self) {
             const int v = kernel_of(self.ptr())->last_variant;
             return v < 0 ? v : (v & 1);
           }, "1 when the last launch ran the restrict variant, 0 the plain one, -1 before any")
      .def_property_readonly("_last_narrow", [](py::handle self) {
             const int v = kernel_of(self.ptr())->last_variant;
             return v < 0 ? v : (v & Specialization::kNarrow) ? 1 : 0;
           }, "1 when the last launch ran a narrow variant (32-bit indexing), 0 when not, -1 before any")
      .def("_set_extensions", [](py::handle self, py::object l) { kernel_of(self.ptr())->extensions = std::move(l); })
      .def("inspect_source", [](py::handle self, const std::vector<std::string>& arg_types, bool cuda) {
             return kernel_of(self.ptr())->inspect_source(arg_types, cuda);
           }, py::arg("arg_types"), py::arg("cuda") = true,
           "The generated C++ (with prelude) for argument types given as strings ('float32[::1]').");
}

}  // namespace cujit
