// @jit / @njit functions from Python: _core.CpuFunction is the CPU dispatcher. A call types its
// arguments as Numba would (bindings/marshal.h: NumPy arrays are used in place), compiles one
// specialisation per argument-type fingerprint with the host C++ compiler (through the disk
// cache), and calls the loaded function with the GIL released. There is no object mode: a value
// cujit cannot type is a TypingError at that parameter.
#include <pybind11/pybind11.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>

#include "bindings/common.h"
#include "bindings/exceptions.h"
#include "bindings/dicts.h"
#include "bindings/typed_containers.h"
#include "bindings/lists.h"
#include "bindings/marshal.h"
#include "compiler/layout.h"
#include "compiler/scalar_visit.h"
#include "bindings/records.h"
#include "bindings/strings.h"
#include "pipeline.h"
#include "runtime/host_calls.h"

namespace py = pybind11;

namespace cujit {
namespace {

// Returns null, or the record of the Python exception the compiled code raised (exceptions.h).
using CpuEntry = const ExcRecord* (*)(void** params, void* ret);

struct CpuSpec {
  CpuBuild build;
  std::shared_ptr<toolchain::HostLibrary> lib;
  CpuEntry fn = nullptr;
};

// Who owns the memory of the arrays a call returns: blocks of the call's arena become NumPy's
// (one capsule per block, shared by every array in it), views of arguments keep the argument
// as their base, anything else (a global constant array in the library) is copied.
struct ResultOwners {
  rt::CallArena* arena;
  const py::args* args;
  const std::vector<KArg>* kargs = nullptr;  // a returned list that is an argument's is that Python list
  TypedShare* share = nullptr;               // the call's typed containers: one returned shares storage
  int list_depth = 0;                        // lists being read: those inside one are borrowed
  struct Owned {
    const char* start;
    int64_t bytes;
    py::object base;
  };
  std::vector<Owned> owned;

  py::object base_for(const char* p) {
    for (const auto& o : owned)
      if (p >= o.start && p < o.start + o.bytes) return o.base;
    int64_t bytes = 0;
    if (void* start = arena->release(p, &bytes)) {
      py::capsule cap(start, [](void* q) { std::free(q); });
      owned.push_back({static_cast<const char*>(start), bytes, cap});
      return std::move(cap);
    }
    for (const auto& a : *args) {
      if (!py::isinstance<py::array>(a)) continue;
      py::array arr = py::reinterpret_borrow<py::array>(a);
      const char* lo = static_cast<const char*>(arr.data());
      if (p >= lo && p < lo + std::max<py::ssize_t>(arr.nbytes(), 1)) return py::reinterpret_borrow<py::object>(a);
    }
    return py::none();
  }
};

py::object array_result(const Type& t, const char* p, ResultOwners& owners) {
  const char* data;
  std::memcpy(&data, p, sizeof data);
  std::vector<py::ssize_t> shape(t.ndim), strides(t.ndim);
  for (int k = 0; k < t.ndim; ++k) {
    int64_t v;
    std::memcpy(&v, p + 8 + 8 * k, 8);
    shape[k] = v;
    std::memcpy(&v, p + 8 + 8 * (t.ndim + k), 8);
    strides[k] = v;
  }
  py::dtype dt = t.record ? record_dtype(*t.record) : py::dtype(std::string(scalar_dtype_str(t.scalar)));
  py::object base = owners.base_for(data);
  // Without a base pybind11 copies; with one the result inherits the base's writeable flag.
  py::array r = base.is_none() ? py::array(dt, shape, strides, data) : py::array(dt, shape, strides, data, base);
  // A result typed read-only (a view of a read-only argument, a global array) is returned
  // read-only, as Numba does, even where its base (another argument, or a copy) is writeable.
  if (t.readonly) r.attr("flags").attr("writeable") = false;
  return std::move(r);
}

// A result as Python returns it: bool, int and float for scalars (as Numba), NumPy arrays,
// tuples of those.
py::object result_value(const Type& t, const char* p, ResultOwners& owners) {
  if (t.tag == Type::Tag::Void || t.tag == Type::Tag::None) return py::none();
  if (t.is_optional()) {  // None, or the value after the valid flag (laid out as a tuple)
    bool valid;
    std::memcpy(&valid, p, 1);
    if (!valid) return py::none();
    return result_value(t.elems[0], p + value_layout(t).offsets[1], owners);
  }
  if (t.is_tuple()) {
    py::tuple out(t.elems.size());
    const Layout l = value_layout(t);
    for (size_t i = 0; i < t.elems.size(); ++i) out[i] = result_value(t.elems[i], p + l.offsets[i], owners);
    if (t.tclass) {  // an instance of the user's class, as Numba returns it
      static PyObject* classes =  // kept for the process's life, as a static py::object is not
          py::object(py::module_::import("cujit.decorators").attr("NAMEDTUPLE_CLASSES")).release().ptr();
      return py::handle(classes)[py::str(t.tclass->key)](*out);
    }
    return std::move(out);
  }
  if (t.is_array()) return array_result(t, p, owners);
  if (t.tag == Type::Tag::String) {  // a str: the returned reference is ours (not one inside a list)
    cj::StrHead* head;
    std::memcpy(&head, p, sizeof head);
    py::object r = str_value(head);
    if (owners.list_depth == 0) release_str(head);
    return r;
  }
  if (t.is_list()) {  // the returned handle's reference is ours: the items read, it is dropped
    ListHead* head;
    std::memcpy(&head, p, sizeof head);
    py::object r;
    // Lists and str inside it are its own: read, not released (the outer list's release drops them).
    ++owners.list_depth;
    // A typed.List's storage (an argument's, or one the compiled code made: a new storage): a
    // new typed.List wrapper of it, as Numba's.
    if (owners.share && (t.typed || owners.share->known(head)))
      r = owners.share->wrap(head, t, [&](const Type& it, const char* q) { return result_value(it, q, owners); });
    for (const KArg& a : *owners.kargs)
      if (!r && a.type.is_list() && (ListHead*)(intptr_t)a.bytes[0] == head) r = a.list_source;  // as Numba: the same list
    if (!r) r = list_items(head, t, [&](const char* q) { return result_value(t.elems[0], q, owners); });
    --owners.list_depth;
    if (owners.list_depth == 0) release_list(head);
    return r;
  }
  if (t.is_dict() || t.is_set()) {  // as a list: the returned handle's reference is ours (bindings/dicts.cpp)
    DictHead* head;
    std::memcpy(&head, p, sizeof head);
    py::object r;
    ++owners.list_depth;  // what it holds is its own: read, not released
    if (owners.share && owners.share->known(head))  // a typed.Dict's storage: a new wrapper of it, as Numba's
      r = owners.share->wrap(head, t, [&](const Type& it, const char* q) { return result_value(it, q, owners); });
    for (const KArg& a : *owners.kargs)
      if (!r && a.type.is_set() && (DictHead*)(intptr_t)a.bytes[0] == head) r = a.list_source;  // the same set
    if (!r)
      r = dict_value(head, t, [&](const char* q) { return result_value(t.elems[0], q, owners); },
                     [&](const char* q) { return result_value(t.elems[1], q, owners); });
    --owners.list_depth;
    if (owners.list_depth == 0) release_dict(head);
    return r;
  }
  if (t.is_charseq()) {  // a record's string field: a str or bytes up to its last non-NUL unit, as Numba returns it
    const size_t unit = t.is_unicode_charseq() ? 4 : 1;
    size_t n = (size_t)t.ndim;
    auto code = [&](size_t i) {
      uint32_t c = 0;
      std::memcpy(&c, p + i * unit, unit);
      return c;
    };
    while (n > 0 && code(n - 1) == 0) --n;
    if (!t.is_unicode_charseq()) return py::bytes(p, n);
    return py::reinterpret_steal<py::object>(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, p, (Py_ssize_t)n));
  }
  if (t.is_record()) {  // a copy of the record, as Numba returns one (numpy.record)
    const char* data;
    std::memcpy(&data, p, sizeof data);
    py::array one(record_dtype(*t.record), std::vector<py::ssize_t>{1}, std::vector<py::ssize_t>{}, data);
    return one.attr("view")(py::module_::import("numpy").attr("recarray"))[py::int_(0)];
  }
  if (t.is_enum()) {  // the member of its class with this value, as Numba returns it
    static PyObject* classes =  // kept for the process's life, as a static py::object is not
        py::object(py::module_::import("cujit.decorators").attr("ENUM_CLASSES")).release().ptr();
    const Type value = t.tag == Type::Tag::EnumMember ? t.elems[0] : Type::scalar_of(t.scalar);
    return py::handle(classes)[py::str(t.name)](result_value(value, p, owners));
  }
  return visit_scalar(t.scalar, [&](auto zero) -> py::object {
    using T = decltype(zero);
    T v;
    std::memcpy(&v, p, sizeof(v));
    if constexpr (std::is_same_v<T, HostTime>) {  // np.datetime64/np.timedelta64 of the type's unit, NaT kept
      py::array_t<int64_t> one(1);
      *one.mutable_data() = v.v;
      return one.attr("view")(py::str(scalar_dtype_str(t.scalar)))[py::int_(0)];
    } else if constexpr (is_std_complex<T>::value) return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(v.real(), v.imag()));
    else if constexpr (std::is_same_v<T, bool>) return py::bool_(v);
    else if constexpr (is_host_float<T>) return py::float_((double)v);  // float16 too, as float32
    else return py::int_(v);
  });
}

// Whether the dispatcher can hand a result of this type back to Python.
bool returnable(const Type& t) {
  if (t.is_scalar() || t.is_array() || t.is_record() || t.is_enum() || t.tag == Type::Tag::Void || t.tag == Type::Tag::None ||
      t.tag == Type::Tag::String || t.is_charseq())
    return true;
  if (t.is_optional() || t.is_list() || t.is_set()) return returnable(t.elems[0]);
  if (t.is_dict()) return returnable(t.elems[0]) && returnable(t.elems[1]);
  if (t.is_tuple()) {
    for (const auto& e : t.elems)
      if (!returnable(e)) return false;
    return true;
  }
  return false;
}

class CpuFunction {
 public:
  CpuFunction(std::shared_ptr<FunctionSource> src, const std::vector<std::string>& sigs, bool parallel, bool fastmath,
              bool python_errors, bool boundscheck, py::object snapshot = py::none(), bool folds = false)
      : src_(std::move(src)), snapshot_(std::move(snapshot)), options_{parallel, fastmath, python_errors, boundscheck},
        folds_(folds) {
    for (const auto& s : sigs) {
      Signature sig = parse_signature_or_raise(s);
      specialize(sig.args, sig.ret);
      declared_.push_back(sig.args);
      declared_ret_.push_back(sig.ret);
    }
  }

  py::object call(const py::args& args, const py::kwargs& kw) {
    if (kw.size() > 0) throw InternalError(src_->name + "(): keyword arguments reached the dispatcher unfolded");
    TypedShare share;  // typed.List / typed.Dict arguments: their storages' headers (typed_containers.h)
    std::vector<KArg> karg;
    // The lists made for list arguments: one reference each, dropped whatever happens.
    struct ListRefs {
      std::vector<KArg>& k;
      ~ListRefs() {
        for (KArg& a : k) {
          if (a.type.is_list()) release_list((ListHead*)(intptr_t)a.bytes[0]);
          else if (a.type.tag == Type::Tag::String) release_str((cj::StrHead*)(intptr_t)a.bytes[0]);
          else if (a.type.is_dict() || a.type.is_set()) release_dict((DictHead*)(intptr_t)a.bytes[0]);  // bindings/dicts.cpp
        }
      }
    } list_refs{karg};
    std::vector<Type> types;
    for (size_t i = 0; i < args.size(); ++i) {
      // The same list, set, typed.Dict or typed.List passed twice: one header, which both
      // arguments hold (Numba shares it: a change through one is seen through the other, and
      // the caller's object gets it once), not two copies whose write-backs would lose changes.
      size_t same = i;
      for (size_t j = 0; j < i && same == i; ++j)
        if (args[j].ptr() == args[i].ptr() && (karg[j].type.is_list() || karg[j].type.is_dict() || karg[j].type.is_set())) same = j;
      if (same != i) {
        karg.push_back(karg[same]);
        if (karg[same].type.is_list()) __atomic_add_fetch(&((ListHead*)(intptr_t)karg[same].bytes[0])->refs, 1, __ATOMIC_RELAXED);
        else __atomic_add_fetch(&((DictHead*)(intptr_t)karg[same].bytes[0])->refs, 1, __ATOMIC_RELAXED);
        types.push_back(karg.back().type);
        continue;
      }
      try {
        if (PyList_Check(args[i].ptr())) karg.push_back(marshal_list(args[i], (int)i));  // a reflected list
        else if (PyUnicode_Check(args[i].ptr())) karg.push_back(marshal_str(args[i]));  // bindings/strings.h
        else if (PySet_Check(args[i].ptr())) karg.push_back(marshal_set(args[i], (int)i));  // a reflected set
        else if (is_typed_dict(args[i]) || is_typed_list(args[i])) karg.push_back(share.marshal(args[i], (int)i));
        else if (PyDict_Check(args[i].ptr()))  // Numba: reflected dicts are not supported
          throw UnknownArgumentType((int)i, "non-precise type pyobject: a Python dict (reflected dicts are not supported; "
                                            "pass a numba.typed.Dict)");
        else karg.push_back(marshal(args[i], rt::Backend::Sim, (int)i));
      } catch (const UnknownArgumentType& e) {
        argument_type_error(src_, e.index, e.what());
      }
      types.push_back(karg.back().type);
    }
    Type declared_ret = Type::unknown();  // a declared signature's return type: the result converts to it
    if (!declared_.empty()) {
      types = bind_declared(declared_, karg, types, src_->name);
      for (size_t k = 0; k < declared_.size(); ++k)
        if (declared_[k] == types) { declared_ret = declared_ret_[k]; break; }
    }
    CpuSpec& sp = specialize(types, declared_ret);
    if (sp.build.arg_types.size() != args.size())
      throw py::type_error(src_->name + "() takes " + std::to_string(sp.build.arg_types.size()) + " arguments, got " +
                           std::to_string(args.size()));
    std::vector<void*> params;
    for (auto& a : karg) params.push_back(a.bytes.data());
    std::vector<int64_t> ret(value_layout(sp.build.ret).size / 8 + 2, 0);
    rt::CallArena arena;  // what the call allocates; freed on return unless returned
    const ExcRecord* error;
    {
      py::gil_scoped_release nogil;
      rt::ArenaScope scope(&arena);
      error = sp.fn(params.data(), ret.data());
    }
    ResultOwners owners{&arena, &args, &karg, &share, 0, {}};
    // Numba's reflection: the caller's containers get what the call left in them, also when it
    // raised midway (Numba reflects before it raises; a typed container is shared storage there).
    ++owners.list_depth;  // items read out of the arguments' containers are theirs, not released
    for (size_t k = 0; k < karg.size(); ++k) {
      const KArg& a = karg[k];
      bool again = false;  // an argument passed twice is reflected once
      for (size_t j = 0; j < k; ++j) again = again || (args[j].ptr() == args[k].ptr() && karg[j].bytes == a.bytes);
      if (again) continue;
      if ((a.type.is_list() || a.type.is_dict()) && (is_typed_dict(a.list_source) || is_typed_list(a.list_source)))
        continue;  // written back below
      if (a.type.is_list()) reflect_list(a, [&](const char* q) { return result_value(a.type.elems[0], q, owners); });
      else if (a.type.is_dict() || a.type.is_set())
        reflect_dict(a, [&](const char* q) { return result_value(a.type.elems[0], q, owners); },
                     [&](const char* q) { return result_value(a.type.elems[1], q, owners); });
    }
    share.write_back([&](const Type& t, const char* q) { return result_value(t, q, owners); });
    --owners.list_depth;
    if (error) raise_cpu_exception(sp.build, *error);
    return result_value(sp.build.ret, reinterpret_cast<const char*>(ret.data()), owners);
  }

  /// The argument types of each compiled specialisation, in compile order.
  std::vector<std::vector<std::string>> signatures() {
    std::vector<std::vector<std::string>> r;
    for (const CpuSpec* sp : specs_.all()) {
      std::vector<std::string> one;
      for (const auto& t : sp->build.arg_types) one.push_back(t.str());
      r.push_back(one);
    }
    return r;
  }

  /// The inspect_types() listing of every compiled specialisation, in compile order.
  std::vector<std::string> annotations() {
    std::vector<std::string> r;
    for (const CpuSpec* sp : specs_.all()) r.push_back(sp->build.annotated);
    return r;
  }

  /// The generated C++ of the i-th compiled specialisation (compile order, as signatures()).
  std::string source_at(size_t i) {
    auto all = specs_.all();
    if (i >= all.size()) throw py::index_error("no compiled specialisation " + std::to_string(i));
    return all[i]->build.host_source;
  }

  /// Whether every call is put into parameter order by the Python side first (`_fold`): the
  /// function has defaults or *args. A call with keywords always is.
  bool folds() const { return folds_; }

  std::string inspect_source(const std::vector<std::string>& arg_types) {
    std::vector<Type> t;
    for (auto& a : arg_types) t.push_back(parse_type(a));
    return specialize(t).build.host_source;
  }

 private:
  std::shared_ptr<FunctionSource> src_;  // the text: names and carets; compiles take snapshot_'s
  py::object snapshot_;                  // decorators.snapshot, called on each compile (a miss)
  CpuOptions options_;
  SpecCache<CpuSpec> specs_;
  std::vector<std::vector<Type>> declared_;
  bool folds_ = false;
  std::vector<Type> declared_ret_;  // each declared signature's return type (Unknown: none named)

  CpuSpec& specialize(const std::vector<Type>& types, const Type& ret = Type::unknown()) {
    return specs_.get(types, [&] {
      auto sp = std::make_unique<CpuSpec>();
      sp->build = build_cpu_function(with_function_args(source_for_compile(src_, snapshot_), types), types, options_, ret);
      const Type& r = sp->build.ret;
      if (!returnable(r))
        throw py::type_error(src_->name + "() returns " + r.str() +
                             "; cujit's @jit returns numbers, arrays and tuples of them, or nothing");
      {
        CompileProgress progress("function " + describe_call(src_->name, types));
        py::gil_scoped_release nogil;
        sp->lib = compile_host(sp->build);
      }
      sp->fn = reinterpret_cast<CpuEntry>(sp->lib->symbol(sp->build.symbol));
      // Numba warns while typing; here once the specialisation is built (a filter that makes
      // the warning an error raises it from this call, as Numba's compile would).
      for (const auto& w : sp->build.type_safety_warnings)
        if (PyErr_WarnEx(py::module_::import("cujit.errors").attr("NumbaTypeSafetyWarning").ptr(), w.c_str(), 1) < 0)
          throw py::error_already_set();
      return sp;
    });
  }
};

CpuFunction& live_function(py::handle f) { return initialized<CpuFunction>(f, "@jit function"); }

}  // namespace

void define_cpu(py::module_& m) {
  py::class_<CpuFunction>(m, "CpuFunction", py::dynamic_attr(), "An @jit / @njit CPU function dispatcher.")
      .def(py::init<std::shared_ptr<FunctionSource>, const std::vector<std::string>&, bool, bool, bool, bool, py::object, bool>(),
           py::arg("source"), py::arg("signatures"), py::arg("parallel") = false, py::arg("fastmath") = false,
           py::arg("python_errors") = true, py::arg("boundscheck") = false, py::arg("snapshot") = py::none(),
           py::arg("folds") = false)
      .def("__call__", [](py::handle f, const py::args& a, const py::kwargs& kw) {
        CpuFunction& c = live_function(f);
        // Keywords, defaults and *args are bound by Python's own rules (cpu.py _fold: its
        // TypeErrors are Python's); the fast path is for plain positional calls.
        if (kw.size() > 0 || c.folds()) {
          py::args folded = py::reinterpret_borrow<py::args>(f.attr("_fold")(*a, **kw));
          return c.call(folded, py::kwargs());
        }
        return c.call(a, kw);
      })
      .def_property_readonly("_signatures", [](py::handle f) { return live_function(f).signatures(); })
      .def("_annotations", [](py::handle f) { return live_function(f).annotations(); })
      .def("_source_at", [](py::handle f, size_t i) { return live_function(f).source_at(i); }, py::arg("index"))
      .def("inspect_source", [](py::handle f, const std::vector<std::string>& t) { return live_function(f).inspect_source(t); },
           py::arg("arg_types"),
           "The generated C++ (with prelude) for argument types given as strings ('float64', 'int32[::1]').");
  // Threads of parallel CPU code (prange, target='parallel' ufuncs); cujit/cpu.py checks ranges.
  m.def("max_threads", &rt::max_threads, "NUMBA_NUM_THREADS / CUJIT_NUM_THREADS, else the hardware threads.");
  m.def("get_num_threads", &rt::num_threads);
  m.def("set_num_threads", &rt::set_num_threads, py::arg("n"));
  m.def("set_lapack_library", &rt::set_lapack_library, py::arg("path"));
}

}  // namespace cujit
