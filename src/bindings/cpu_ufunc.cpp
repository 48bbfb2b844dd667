// CPU @vectorize and @guvectorize from Python: _core.NumpyLoops compiles NumPy inner loops (one
// per signature, pipeline's build_numpy_ufunc / build_numpy_gufunc) and wraps every loop it has
// into a real numpy.ufunc with NumPy's own C API (PyUFunc_FromFuncAndData, or ...AndSignature
// for a gufunc). From there on NumPy does everything: loop selection and casting, broadcasting,
// out=, reduce/accumulate/outer/at, the outer loop of a gufunc. Nothing of cujit runs per call.
//
// A lazy @vectorize (no signatures) adds loops as calls need them; each addition makes a new
// numpy.ufunc holding all loops so far (NumPy has no supported way to add a loop whose types
// are new to an existing ufunc). This is the only file that uses NumPy's C API; it is imported
// lazily, on the first ufunc made.
#define NPY_NO_DEPRECATED_API NPY_API_VERSION
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <set>

#include "bindings/common.h"
#include "pipeline.h"

namespace py = pybind11;

namespace cujit {
namespace {

void import_numpy_api() {
  static bool done = false;
  if (done) return;
  if (_import_array() < 0) throw py::error_already_set();
  if (_import_umath() < 0) throw py::error_already_set();
  done = true;
}

// NumPy's type number of a scalar, from its dtype string in the type table (read once).
int npy_type(Scalar s) {
  static const std::vector<int> nums = [] {
    std::vector<int> v;
    for (int i = 0; i < kNumScalars; ++i) v.push_back(py::dtype(std::string(scalar_dtype_str(Scalar(i)))).num());
    return v;
  }();
  return nums[int(s)];
}

// What a loop and every numpy.ufunc made from it need alive: the library its code is in.
struct Loop {
  std::vector<int> types;  // NumPy type numbers, inputs then outputs
  std::vector<bool> written;  // gufunc: per operand, whether the body stores into it
  PyUFuncGenericFunction fn = nullptr;
  std::shared_ptr<toolchain::HostLibrary> lib;
};

// Owned by one numpy.ufunc (through PyUFuncObject::obj, which NumPy releases on dealloc): the
// arrays and strings PyUFunc_FromFuncAndData keeps pointers into, and the libraries.
struct UfuncOwned {
  std::vector<PyUFuncGenericFunction> fns;
  std::vector<void*> data;
  std::vector<char> types;
  std::string name, doc, signature;
  std::vector<std::shared_ptr<toolchain::HostLibrary>> libs;
};

int identity_code(const std::string& id) {
  if (id == "none") return PyUFunc_None;
  if (id == "zero") return PyUFunc_Zero;
  if (id == "one") return PyUFunc_One;
  if (id == "reorderable") return PyUFunc_ReorderableNone;
  throw py::value_error("Invalid identity value '" + id + "'");
}

class NumpyLoops {
 public:
  /// nin: the input count. core_dims: empty for a vectorize; for a guvectorize one list per
  /// operand, as EntryPoint::core_dims.
  NumpyLoops(std::shared_ptr<FunctionSource> src, bool parallel, int nin, std::vector<std::vector<int>> core_dims,
             py::object snapshot = py::none())
      : src_(std::move(src)), snapshot_(std::move(snapshot)), parallel_(parallel), gufunc_(!core_dims.empty()),
        nin_(nin), core_dims_(std::move(core_dims)) {}

  /// Compiles a loop for each signature not compiled yet ("float32(float32, float64)"; a
  /// vectorize signature may leave out the return type, "(float32, float64)", which is then
  /// inferred). Typing errors are raised here. Returns the ufunc type string of each new loop.
  std::vector<std::string> add(const std::vector<std::string>& sig_text) {
    std::vector<Signature> sigs;
    std::set<std::string> seen;
    for (const auto& t : sig_text) {
      Signature s = parse_signature_or_raise(t);
      // A datetime64/timedelta64 loop is registered by its type number (NumPy keeps no unit in
      // a ufunc's loop types), as Numba's is: NumPy's default type resolver then takes operands
      // of the generic unit only (np.timedelta64(2)), whose counts the loop reads in its
      // signature's unit, and gives results of the generic unit; operands with a unit are
      // NumPy's TypeError ("not supported for the input types"). Numba 0.68 does the same.
      std::string key = arg_key(s.args);
      if (have_.count(key) || !seen.insert(key).second) continue;
      sigs.push_back(s);
    }
    if (sigs.empty()) return {};
    NumpyUfuncBuild b;
    try {
      std::shared_ptr<FunctionSource> src = source_for_compile(src_, snapshot_);  // the globals now
      b = gufunc_ ? build_numpy_gufunc(src, sigs, core_dims_, parallel_, (int)loops_.size())
                  : build_numpy_ufunc(src, sigs, parallel_, (int)loops_.size());
    } catch (const std::invalid_argument& e) {
      throw py::type_error(e.what());
    }
    std::shared_ptr<toolchain::HostLibrary> lib;
    {
      CompileProgress progress((gufunc_ ? "gufunc " : "ufunc ") + src_->name);
      py::gil_scoped_release nogil;
      lib = compile_host(b);
    }
    if (parallel_) {
      // Never unloaded: the first OpenMP library loaded also loads the OpenMP runtime, whose
      // worker threads outlive every parallel region; unloading the runtime under them crashes.
      static std::vector<std::shared_ptr<toolchain::HostLibrary>> pinned;
      pinned.push_back(lib);
    }
    // State changes only under the GIL, after compiling: a call on another thread meanwhile may
    // have added the same loop, which then is not added twice.
    std::vector<std::string> added;
    for (const auto& v : b.variants) {
      std::string key = arg_key(v.args);
      if (!have_.insert(key).second) continue;
      Loop l;
      // A record (scalar or array of them) is NumPy's void type; RecordUFunc checks the dtypes.
      auto num = [](const Type& t) { return t.is_record() || t.is_record_array() ? (int)NPY_VOID : npy_type(t.scalar); };
      for (const auto& a : v.args) l.types.push_back(num(a));
      if (!gufunc_) l.types.push_back(num(v.output));
      l.written = v.written;
      l.fn = reinterpret_cast<PyUFuncGenericFunction>(lib->symbol(v.symbol));
      l.lib = lib;
      loops_.push_back(l);
      added.push_back(type_string(l));
    }
    sources_.push_back(b.host_source);
    return added;
  }

  /// A new numpy.ufunc (a gufunc when `signature` is given) with every loop so far, in order.
  py::object make(const std::string& name, const std::string& doc, int nin, int nout, const std::string& identity,
                  const std::string& signature) {
    import_numpy_api();
    for (const auto& l : loops_)
      if ((int)l.types.size() != nin + nout)
        throw py::type_error(name + "(): a signature has " + std::to_string(l.types.size()) + " operand(s) but the " +
                             (gufunc_ ? "layout has " : "function takes ") + std::to_string(nin + nout) +
                             (gufunc_ ? " (inputs and outputs)" : " (with the result)"));
    auto owned = std::make_unique<UfuncOwned>();
    owned->name = name;
    owned->doc = doc;
    owned->signature = signature;
    for (const auto& l : loops_) {
      owned->fns.push_back(l.fn);
      owned->data.push_back(nullptr);
      for (int t : l.types) owned->types.push_back((char)t);
      owned->libs.push_back(l.lib);
    }
    const int ntypes = (int)loops_.size();
    PyObject* uf = PyUFunc_FromFuncAndDataAndSignature(
        owned->fns.data(), owned->data.data(), owned->types.data(), ntypes, nin, nout, identity_code(identity),
        owned->name.c_str(), owned->doc.c_str(), 0, gufunc_ ? owned->signature.c_str() : nullptr);
    if (!uf) throw py::error_already_set();
    // An input the body stores into is opened read-write, as Numba's writable_args does: NumPy
    // then refuses a read-only one ("operand array with iterator write flag set is read-only")
    // instead of the loop writing into read-only memory, and writes a cast copy back.
    auto* ufo = reinterpret_cast<PyUFuncObject*>(uf);
    for (int i = 0; gufunc_ && ufo->op_flags && i < nin; ++i)
      for (const auto& l : loops_)
        if (i < (int)l.written.size() && l.written[i]) ufo->op_flags[i] = NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY;
    py::object result = py::reinterpret_steal<py::object>(uf);
    py::capsule keep(owned.release(), [](void* p) { delete static_cast<UfuncOwned*>(p); });
    reinterpret_cast<PyUFuncObject*>(uf)->obj = keep.release().ptr();
    return result;
  }

  std::vector<std::string> types() const {
    std::vector<std::string> r;
    for (const auto& l : loops_) r.push_back(type_string(l));
    return r;
  }

  /// The generated C++ of each library built so far (prelude included), in build order.
  const std::vector<std::string>& sources() const { return sources_; }

 private:
  std::shared_ptr<FunctionSource> src_;
  py::object snapshot_;  // decorators.snapshot, called on each compile (a lazy ufunc's new loop)
  bool parallel_, gufunc_;
  size_t nin_;
  std::vector<std::vector<int>> core_dims_;
  std::vector<Loop> loops_;
  std::set<std::string> have_;  // argument types of every loop, as arg_key
  std::vector<std::string> sources_;

  static std::string arg_key(const std::vector<Type>& args) {
    std::string k;
    for (const auto& a : args) k += a.str() + ";";
    return k;
  }

  // NumPy's spelling, "fdd->d"; a gufunc's loop has no result, so its last nout operands are
  // the outputs (ufunc.types writes them the same way).
  std::string type_string(const Loop& l) const {
    import_numpy_api();
    std::string s;
    for (size_t i = 0; i < l.types.size(); ++i) {
      if (i == nin_) s += "->";
      PyArray_Descr* d = PyArray_DescrFromType(l.types[i]);
      s += d->type;
      Py_DECREF(d);
    }
    return s;
  }
};

NumpyLoops& live_loops(py::handle l) { return initialized<NumpyLoops>(l, "NumpyLoops"); }

}  // namespace

void define_cpu_ufunc(py::module_& m) {
  py::class_<NumpyLoops>(m, "NumpyLoops",
                         "Compiled NumPy loops of a CPU @vectorize/@guvectorize, and numpy.ufuncs made from them.")
      .def(py::init<std::shared_ptr<FunctionSource>, bool, int, std::vector<std::vector<int>>, py::object>(),
           py::arg("source"), py::arg("parallel"), py::arg("nin"), py::arg("core_dims"), py::arg("snapshot") = py::none())
      .def("add", [](py::handle l, const std::vector<std::string>& s) { return live_loops(l).add(s); }, py::arg("signatures"))
      .def("make", [](py::handle l, const std::string& name, const std::string& doc, int nin, int nout,
                      const std::string& identity, const std::string& signature) {
             return live_loops(l).make(name, doc, nin, nout, identity, signature);
           }, py::arg("name"), py::arg("doc"), py::arg("nin"), py::arg("nout"), py::arg("identity"), py::arg("signature"))
      .def_property_readonly("types", [](py::handle l) { return live_loops(l).types(); })
      .def_property_readonly("sources", [](py::handle l) { return live_loops(l).sources(); });
}

}  // namespace cujit
