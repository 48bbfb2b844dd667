// See marshal.h.
#include "bindings/ufunc_fuse.h"
#include "bindings/marshal.h"
#include "bindings/records.h"

#include <cstring>
#include <stdexcept>
#include <tuple>
#include <mutex>
#include <string>
#include <unordered_map>

#include "bindings/common.h"
#include "compiler/fnargs.h"
#include "compiler/overloads.h"
#include "compiler/layout.h"
#include "compiler/scalar_visit.h"

namespace py = pybind11;

namespace cujit {

char layout_of(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t itemsize) {
  auto contiguous = [&](bool c) {
    int64_t expect = itemsize;
    for (size_t k = 0; k < shape.size(); ++k) {
      size_t d = c ? shape.size() - 1 - k : k;
      if (shape[d] != 1 && strides[d] != expect) return false;
      expect *= shape[d];
    }
    return true;
  };
  if (contiguous(true)) return 'C';
  if (contiguous(false)) return 'F';
  return 'A';
}

namespace {
// The words of a cj::Array<T, ndim> (src/abi/cujit_abi.h): data, shape[ndim], strides[ndim].
void array_bytes(KArg& a, char* data, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  a.bytes.reserve(cj::array_words((int)shape.size()));  // one allocation per argument
  a.bytes.push_back((int64_t)(intptr_t)data);
  for (auto s : shape) a.bytes.push_back(s);
  for (auto s : strides) a.bytes.push_back(s);
}

// A structured array: typed as Numba types it (array of its Record; "unaligned" where NumPy's
// flags say so). Used in place on the simulator and by CPU code; on the GPU its bytes are copied
// to the device (a uint8 view with the record as its last axis) and back after the launch.
KArg marshal_record_array(KArg& a, const py::array& arr, rt::Backend backend) {
  const RecordPtr rec = record_from_dtype(arr.dtype());
  std::vector<int64_t> shape(arr.shape(), arr.shape() + arr.ndim()), strides(arr.strides(), arr.strides() + arr.ndim());
  a.type = Type::record_array(rec, (int)shape.size(), layout_of(shape, strides, rec->size));
  a.type.readonly = !arr.writeable();
  // Numba: an array of a packed (not align=True) record is "unaligned", whatever NumPy's flag.
  a.type.unaligned = !rec->aligned || !py::cast<bool>(arr.attr("flags").attr("aligned"));
  if (backend == rt::Backend::Sim) {
    array_bytes(a, (char*)arr.data(), shape, strides);
    a.host_back = arr;  // keeps it alive
    return a;
  }
  py::array bytes = record_bytes_view(arr, (char*)arr.data(), rec->size, shape, strides, arr.writeable());
  a.dev = device_array_from_numpy(bytes, true, backend);
  if (arr.writeable()) a.host_back = bytes;
  std::vector<int64_t> dshape(a.dev->shape.begin(), a.dev->shape.end() - 1), dstrides(a.dev->strides.begin(), a.dev->strides.end() - 1);
  array_bytes(a, a.dev->data, dshape, dstrides);
  return a;
}

// A record scalar (np.void/np.record read from a structured array): passed as a pointer to its
// bytes, as Numba passes a reference, so a kernel's or function's writes to its fields reach the
// array it was read from (on the GPU through a device copy written back after the launch).
KArg marshal_record_scalar(const py::handle& h, rt::Backend backend) {
  KArg a;
  const RecordPtr rec = record_from_dtype(py::dtype::from_args(h.attr("dtype")));
  a.type = Type::record_of(rec);
  char* data = record_scalar_data(h);
  if (backend == rt::Backend::Sim) {
    a.bytes.push_back((int64_t)(intptr_t)data);
    a.host_back = py::reinterpret_borrow<py::object>(h);  // keeps it alive
    return a;
  }
  py::array bytes = record_bytes_view(h, data, rec->size, {}, {}, true);
  a.dev = device_array_from_numpy(bytes, true, backend);
  a.host_back = bytes;
  a.bytes.push_back((int64_t)(intptr_t)a.dev->data);
  return a;
}

}  // namespace

/// Whether h is a NumPy scalar (np.float32(1), np.int64(2), ...) of a dtype cujit has; its
/// scalar kind, looked up once per Python type (per value for datetime64/timedelta64).
bool numpy_scalar_kind(const py::handle& h, Scalar* out) {
  static std::unordered_map<PyTypeObject*, int> kinds;  // -1: not a usable NumPy scalar type
  static std::mutex mu;
  PyTypeObject* tp = Py_TYPE(h.ptr());
  bool time = false;
  {
    std::lock_guard<std::mutex> g(mu);
    auto it = kinds.find(tp);
    if (it != kinds.end()) {
      if (it->second < 0) return false;
      *out = (Scalar)it->second;
      // np.datetime64 and np.timedelta64 are one Python type for every unit: the unit is the
      // value's own (its dtype), never the first one seen.
      if (!is_time(*out)) return true;
      time = true;
    }
  }
  if (time) return scalar_from_numpy_dtype(py::dtype::from_args(h.attr("dtype")), out);
  Scalar s;
  static PyObject* generic = py::object(py::module_::import("numpy").attr("generic")).release().ptr();
  bool ok = PyObject_IsInstance(h.ptr(), generic) == 1 &&
            scalar_from_numpy_dtype(py::dtype::from_args(h.attr("dtype")), &s);
  std::lock_guard<std::mutex> g(mu);
  kinds[tp] = ok ? (int)s : -1;
  if (ok) *out = s;
  return ok;
}

void numpy_scalar_bytes(const py::handle& h, Scalar s, int64_t* word) {
  PyObject* o = h.ptr();
  std::memset(word, 0, 8 * scalar_words(s));
  visit_scalar(s, [&](auto zero) {
    using T = decltype(zero);
    T v{};
    if constexpr (std::is_same_v<T, HostTime>) {  // np.datetime64/np.timedelta64: its count (NaT: INT64_MIN)
      py::object i = py::reinterpret_borrow<py::object>(h).attr("view")("i8");
      v.v = i.cast<int64_t>();
    } else if constexpr (is_std_complex<T>::value) {
      Py_complex c = PyComplex_AsCComplex(o);  // exact for complex64 and complex128 values
      if (c.real == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      v = T((typename T::value_type)c.real, (typename T::value_type)c.imag);
    } else if constexpr (is_host_float<T>) {  // float16 too, rounded once from the double
      double d = PyFloat_AsDouble(o);  // exact for float32 and float64 values
      if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      v = (T)d;
    } else if constexpr (std::is_same_v<T, bool>) {
      int b = PyObject_IsTrue(o);
      if (b < 0) throw py::error_already_set();
      v = b != 0;
    } else {
      py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(o));
      if (!i) throw py::error_already_set();
      // Two's complement: the low bytes of the 64-bit value are the narrow one.
      if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) v = (T)PyLong_AsUnsignedLongLong(i.ptr());
      else v = (T)PyLong_AsLongLong(i.ptr());
      if (PyErr_Occurred()) throw py::error_already_set();
    }
    std::memcpy(word, &v, sizeof(T));
  });
}

namespace {
// C++'s conversion of a value of one scalar type to another, as Numba's casts (complex to real
// keeps the real part; real to complex has a zero imaginary part).
template <class To, class From>
To convert_value(const From& a) {
  if constexpr (std::is_same_v<To, HostTime> || std::is_same_v<From, HostTime>) {
    // No conversion between a datetime64/timedelta64 and another type exists (overloads.cpp).
    if constexpr (std::is_same_v<To, From>) return a;
    else throw std::logic_error("no conversion between a datetime64/timedelta64 and another type");
  } else if constexpr (is_std_complex<To>::value && is_std_complex<From>::value)
    return To((typename To::value_type)a.real(), (typename To::value_type)a.imag());
  else if constexpr (is_std_complex<To>::value)
    return To((typename To::value_type)a, 0);
  else if constexpr (is_std_complex<From>::value)
    return (To)a.real();
  else
    return (To)a;
}
}  // namespace

/// Re-encodes a marshalled scalar of type `from` as type `to` (C++'s conversions, as Numba's).
/// `word` holds scalar_words of the wider of the two.
void convert_scalar_word(int64_t* word, Scalar from, Scalar to) {
  if (from == to) return;
  if (is_time(from) || is_time(to))  // another unit is another count: never copied as is
    throw py::type_error(std::string("cannot convert a ") + scalar_name(from) + " argument to " + scalar_name(to));
  visit_scalar(from, [&](auto a0) {
    using A = decltype(a0);
    A a;
    std::memcpy(&a, word, sizeof(A));
    visit_scalar(to, [&](auto b0) {
      using B = decltype(b0);
      B b = convert_value<B>(a);
      std::memset(word, 0, 8 * scalar_words(to));
      std::memcpy(word, &b, sizeof(B));
    });
  });
}

TupleClassPtr named_tuple_class(const py::handle& cls) {
  // Looked up once per class, and kept for the process's life, as classes of enums are.
  static std::unordered_map<PyObject*, TupleClassPtr> known;
  static std::mutex mu;
  {
    std::lock_guard<std::mutex> g(mu);
    auto it = known.find(cls.ptr());
    if (it != known.end()) return it->second;
  }
  TupleClassPtr c;
  py::object fields = py::getattr(cls, "_fields", py::none());
  if (py::isinstance<py::tuple>(fields)) {  // Numba's test: a tuple subclass with _fields
    static PyObject* key_of = py::object(py::module_::import("cujit.decorators").attr("namedtuple_key")).release().ptr();
    auto t = std::make_shared<TupleClass>();
    t->key = py::handle(key_of)(cls).cast<std::string>();
    t->name = py::str(cls.attr("__name__")).cast<std::string>();
    for (auto f : fields) t->fields.push_back(py::str(f).cast<std::string>());
    c = std::move(t);
    cls.inc_ref();  // the key names this class: it must outlive every specialisation typed with it
  }
  std::lock_guard<std::mutex> g(mu);
  known.emplace(cls.ptr(), c);
  return c;
}

namespace {
// Numba's typeof of a tuple: the tuple of its items' types (UniTuple when they are all one type),
// its bytes the struct of theirs, each at its offset in value_layout.
KArg marshal_tuple(const py::handle& h, rt::Backend backend, int index) {
  KArg a;
  const py::ssize_t n = PyTuple_GET_SIZE(h.ptr());
  std::vector<Type> types;
  for (py::ssize_t i = 0; i < n; ++i) {
    if (PyTuple_GET_ITEM(h.ptr(), i) == Py_None)  // a None item has no bytes in the tuple's struct
      throw UnknownArgumentType(index, "Cannot determine Numba type of a tuple holding None");
    a.items.push_back(marshal(PyTuple_GET_ITEM(h.ptr(), i), backend, index));
    if (is_function_arg(a.items.back().type))  // resolved as arguments only (resolve_function_args)
      throw UnknownArgumentType(index, "Cannot determine Numba type of a tuple holding a function");
    types.push_back(a.items.back().type);
    a.from_host = a.from_host || a.items.back().from_host;
  }
  a.type = Type::tuple(std::move(types));
  if (!PyTuple_CheckExact(h.ptr())) a.type.tclass = named_tuple_class(py::type::of(h));  // null: a plain tuple subclass
  const Layout l = value_layout(a.type);
  a.bytes.assign((l.size + 7) / 8, 0);
  char* out = reinterpret_cast<char*>(a.bytes.data());
  for (size_t i = 0; i < a.items.size(); ++i)
    std::memcpy(out + l.offsets[i], a.items[i].bytes.data(), value_layout(a.items[i].type).size);
  return a;
}

// A @jit function, a device function or a kernel: its key (decorators.function_arg_key). Asked
// only about values no other type fits, so other arguments never reach Python here.
bool function_arg_key(const py::handle& h, std::string* key) {
  static PyObject* key_of = py::object(py::module_::import("cujit.decorators").attr("function_arg_key")).release().ptr();
  py::object k = py::handle(key_of)(h);
  if (k.is_none()) return false;
  *key = k.cast<std::string>();
  return true;
}

}  // namespace

std::shared_ptr<FunctionSource> with_function_args(std::shared_ptr<FunctionSource> fs, const std::vector<Type>& args) {
  py::list keys;
  for (const Type& t : args)
    if (is_function_arg(t)) keys.append(t.name);
  if (keys.empty()) return fs;
  auto copy = std::make_shared<FunctionSource>(*fs);  // a dispatcher's own text is never changed
  py::module_::import("cujit.decorators").attr("add_function_args")(py::cast(copy), keys);
  return copy;
}

namespace {
bool is_enum_member(const py::handle& h) {
  static PyObject* base = py::object(py::module_::import("enum").attr("Enum")).release().ptr();
  return PyObject_IsInstance(h.ptr(), base) == 1;
}

// Numba's typeof of an enum member: EnumMember / IntEnumMember of its class, whose value (a
// number) is its run-time form. Its class is registered (decorators.ENUM_CLASSES) for results.
KArg marshal_enum(const py::handle& h, rt::Backend backend, int index) {
  py::object cls = py::type::of(h);
  KArg a = marshal(h.attr("value"), backend, index);
  if (!a.type.is_scalar() && !a.type.is_tuple())
    throw UnknownArgumentType(index, "Cannot determine Numba type of " + py::repr(cls).cast<std::string>() +
                                         " (an enum member whose value is not a number or a tuple)");
  // Kept for the process's life (a static py::object would be released after Python finalises).
  static PyObject* key_of = py::object(py::module_::import("cujit.decorators").attr("enum_key")).release().ptr();
  static PyObject* int_enum = py::object(py::module_::import("enum").attr("IntEnum")).release().ptr();
  a.type = Type::enum_member(py::handle(key_of)(cls).cast<std::string>(), a.type, PyObject_IsSubclass(cls.ptr(), int_enum) == 1);
  return a;
}
}  // namespace

KArg marshal(const py::handle& h, rt::Backend backend, int index) {
  KArg a;
  auto set_array = [&](Scalar dt, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, char* data) {
    a.type = Type::array(dt, (int)shape.size(), layout_of(shape, strides, scalar_size(dt)));
    array_bytes(a, data, shape, strides);
  };
  if (PyTuple_Check(h.ptr())) return marshal_tuple(h, backend, index);
  if (h.ptr() == Py_None) {  // Numba's none: `if x is None` is known when compiling; no value (a cj::Unit)
    a.type = Type::none();
    a.bytes.assign(1, 0);
    return a;
  }
  if (!PyFloat_CheckExact(h.ptr()) && !PyLong_CheckExact(h.ptr()) && is_enum_member(h)) return marshal_enum(h, backend, index);
  // Device arrays first (the common case: no scalar probes), then plain Python scalars: probing
  // them for __cuda_array_interface__ would raise and format an AttributeError on every launch.
  Scalar np_kind;
  const bool is_dev = py::isinstance<rt::DeviceArray>(h);
  const bool scalar = !is_dev && (PyBool_Check(h.ptr()) || PyLong_CheckExact(h.ptr()) || PyFloat_CheckExact(h.ptr()) ||
                                  PyComplex_CheckExact(h.ptr()) ||
                                  numpy_scalar_kind(h, &np_kind));
  if (is_dev || (!scalar && !is_exact_ndarray(h) && py::hasattr(h, "__cuda_array_interface__"))) {
    a.dev = is_dev ? h.cast<std::shared_ptr<rt::DeviceArray>>() : device_array_from_cai(h);
    fuse::observe(*a.dev);  // the kernel may read or write it: pending ufunc writes run first
    if (a.dev->backend() != backend)
      throw py::value_error("argument " + std::to_string(index) + " is a device array of the " +
                            (a.dev->backend() == rt::Backend::Sim ? "simulator" : "GPU") + ", but the kernel runs on the " +
                            (backend == rt::Backend::Sim ? "simulator" : "GPU"));
    // Its dtype's array type: a record dtype gives an array of that Record (as a host record
    // array), typed and laid out by the same Record.
    const rt::Dtype& dt = a.dev->dtype;
    if (dt.record && a.dev->ndim() == 0) {
      // One record in device memory (d[i] of a record array: numba-cuda's DeviceRecord) is a
      // record argument, a pointer to its bytes, as a host record scalar is.
      a.type = Type::record_of(dt.record);
      a.bytes.push_back((int64_t)(intptr_t)a.dev->data);
    } else {
      a.type = dt.array_type(a.dev->ndim(), layout_of(a.dev->shape, a.dev->strides, dt.itemsize()));
      array_bytes(a, a.dev->data, a.dev->shape, a.dev->strides);
    }
    a.type.readonly = a.dev->readonly;  // a read-only __cuda_array_interface__: stores are refused at typing
    return a;
  }
  if (py::isinstance<py::array>(h)) {
    py::array arr = py::reinterpret_borrow<py::array>(h);
    // Copied to the GPU for the launch (numba-cuda's implicit-copy warning), but for a mapped array
    // of the simulator, which has no __cuda_array_interface__ there and is used in place as the
    // GPU uses mapped memory. (Its type has the property; an array computed from it is not mapped.)
    a.from_host = is_exact_ndarray(h) || !py::hasattr(py::type::of(h), "__cuda_array_interface__") ||
                  py::getattr(h, "_cujit_alloc", py::none()).is_none();
    if (is_structured_dtype(arr.dtype())) return marshal_record_array(a, arr, backend);
    Scalar dt;
    if (!scalar_from_numpy_dtype(arr.dtype(), &dt))
      throw py::type_error("argument " + std::to_string(index) + ": unsupported array dtype " + py::str(arr.dtype()).cast<std::string>());
    if (backend == rt::Backend::Sim) {
      std::vector<int64_t> shape(arr.shape(), arr.shape() + arr.ndim()), strides(arr.strides(), arr.strides() + arr.ndim());
      set_array(dt, shape, strides, (char*)arr.data());
      a.type.readonly = !arr.writeable();  // Numba's typeof: a read-only array type, so stores are refused
      a.host_back = arr;  // keeps it alive; on the simulator the kernel writes into it directly
      return a;
    }
    a.dev = device_array_from_numpy(arr, true, backend);
    if (arr.writeable()) a.host_back = arr;
    set_array(dt, a.dev->shape, a.dev->strides, a.dev->data);
    // Typed by the user's array, as Numba types it (and as the simulator, which uses it in place,
    // does), not by the contiguous copy: a strided view stays layout 'A' on both targets.
    std::vector<int64_t> shape(arr.shape(), arr.shape() + arr.ndim()), strides(arr.strides(), arr.strides() + arr.ndim());
    a.type.layout = layout_of(shape, strides, scalar_size(dt));
    a.type.readonly = !arr.writeable();  // and not copied back (host_back stays None)
    return a;
  }
  // Scalars: Python's bool, int, float become boolean, int64, float64; NumPy scalars keep theirs.
  int64_t word = 0, words[2] = {0, 0};  // words: a NumPy scalar, in its own size (up to 16 bytes)
  Scalar s;
  if (py::isinstance<py::bool_>(h)) {
    s = Scalar::Bool;
    bool v = h.cast<bool>();
    std::memcpy(&word, &v, 1);
  } else if (py::isinstance<py::int_>(h)) {
    // Numba's typeof: int64 when it fits, else uint64 when it fits, else no type at all.
    int overflow = 0;
    s = Scalar::Int64;
    word = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::value_error("Int value is too large: " + py::str(h).cast<std::string>());
      }
      s = Scalar::UInt64;
      std::memcpy(&word, &u, 8);
    } else if (overflow < 0) {
      throw py::value_error("Int value is too large: " + py::str(h).cast<std::string>());
    }
  } else if (PyComplex_CheckExact(h.ptr())) {  // Python's complex is complex128 (Numba's typeof)
    s = Scalar::Complex128;
    numpy_scalar_bytes(h, s, words);
    a.type = Type::scalar_of(s);
    a.bytes.assign(words, words + scalar_words(s));
    return a;
  } else if (py::isinstance<py::float_>(h)) {
    s = Scalar::Float64;
    double v = h.cast<double>();
    std::memcpy(&word, &v, 8);
  } else if (numpy_scalar_kind(h, &np_kind)) {
    s = np_kind;
    numpy_scalar_bytes(h, s, words);
    a.type = Type::scalar_of(s);
    a.bytes.assign(words, words + scalar_words(s));
    return a;
  } else if (is_record_scalar(h)) {
    return marshal_record_scalar(h, backend);
  } else if (std::string key; function_arg_key(h, &key)) {
    // A compiled function (Numba's Dispatcher type): its identity is its type, so each function
    // passed is its own specialisation; no value (a cj::Unit), as None.
    a.type = Type::function(key);
    a.bytes.assign(1, 0);
    return a;
  } else {
    throw UnknownArgumentType(index, "Cannot determine Numba type of " + py::repr(py::type::of(h)).cast<std::string>());
  }
  a.type = Type::scalar_of(s);
  a.bytes.push_back(word);
  return a;
}

namespace {
// The bytes of a value of type `from` at `src` re-encoded as type `to` at `dst`: scalars by
// C++'s conversions (Numba's casts), tuples item by item at each layout's offsets (a declared
// UniTuple(int64, 2) called with (1, 2.5)), anything else (arrays, which fit only exactly) copied.
void convert_value(const char* src, const Type& from, char* dst, const Type& to) {
  if (to.is_scalar() && from.is_scalar()) {
    int64_t w[2] = {0, 0};
    std::memcpy(w, src, scalar_size(from.scalar));
    convert_scalar_word(w, from.scalar, to.scalar);
    std::memcpy(dst, w, scalar_size(to.scalar));
  } else if (to.is_tuple() && from.is_tuple()) {
    const Layout lf = value_layout(from), lt = value_layout(to);
    for (size_t i = 0; i < to.elems.size(); ++i)
      convert_value(src + lf.offsets[i], from.elems[i], dst + lt.offsets[i], to.elems[i]);
  } else {
    std::memcpy(dst, src, value_layout(to).size);
  }
}
}  // namespace

std::vector<Type> bind_declared(const std::vector<std::vector<Type>>& declared, std::vector<KArg>& karg,
                                const std::vector<Type>& actual, const std::string& name) {
  // Numba's overload resolution (compiler/overloads.h). Taking the first that fits called
  // int64(int64) with 1.5.
  const OverloadChoice choice = choose_overload(declared, actual);
  const std::vector<Type>* best = choice.best < 0 ? nullptr : &declared[choice.best];
  std::vector<const std::vector<Type>*> tied;
  for (int i : choice.tied) tied.push_back(&declared[i]);
  if (best != nullptr && tied.empty()) {
    for (size_t i = 0; i < best->size(); ++i)
      if ((*best)[i].is_scalar()) {
        karg[i].bytes.resize(std::max(scalar_words(actual[i].scalar), scalar_words((*best)[i].scalar)));
        convert_scalar_word(&karg[i].bytes[0], actual[i].scalar, (*best)[i].scalar);
        karg[i].bytes.resize(scalar_words((*best)[i].scalar));
      } else if ((*best)[i].is_tuple() && (*best)[i] != actual[i]) {
        std::vector<int64_t> bytes((value_layout((*best)[i]).size + 7) / 8, 0);
        convert_value(reinterpret_cast<const char*>(karg[i].bytes.data()), actual[i], reinterpret_cast<char*>(bytes.data()),
                      (*best)[i]);
        karg[i].bytes = std::move(bytes);
      }
    return *best;
  }
  if (best != nullptr) {
    std::string got, cands;
    for (size_t i = 0; i < actual.size(); ++i) got += (i ? ", " : "") + actual[i].str();
    tied.insert(tied.begin(), best);
    for (const auto* sig : tied) {
      cands += "\n(";
      for (size_t i = 0; i < sig->size(); ++i) cands += (i ? ", " : "") + (*sig)[i].str();
      cands += (sig->size() == 1 ? ",)" : ")");
    }
    throw py::type_error("Ambiguous overloading for " + name + " (" + got + (actual.size() == 1 ? "," : "") +
                         "):" + cands);
  }
  std::string got, want;
  for (size_t i = 0; i < actual.size(); ++i) got += (i ? ", " : "") + actual[i].str();
  for (const auto& sig : declared) {
    want += "\n  (";
    for (size_t i = 0; i < sig.size(); ++i) want += (i ? ", " : "") + sig[i].str();
    want += ")";
  }
  throw py::type_error("No matching definition for argument type(s) " + got + " of " + name +
                       "(); it was declared for:" + want);
}

}  // namespace cujit
