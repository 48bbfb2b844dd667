// See exceptions.h.
#include "bindings/exceptions.h"

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <string>

namespace py = pybind11;

namespace cujit {

namespace {
// The class object: a builtin by name, or a user's class registered at classification
// (decorators.EXC_CLASSES, kept for the process's life as ENUM_CLASSES is).
py::object exception_class(const ExcClass& c) {
  static const std::string kBuiltin = "builtins.";
  if (c.key.rfind(kBuiltin, 0) == 0) return py::module_::import("builtins").attr(c.key.substr(kBuiltin.size()).c_str());
  py::dict classes = py::module_::import("cujit.decorators").attr("EXC_CLASSES");
  py::str key(c.key);
  if (!classes.contains(key)) throw std::logic_error("exception class " + c.name + " is not registered");
  return classes[key];
}

// Makes the instance (the class's own __init__ runs, as Numba calls the class) and raises it.
[[noreturn]] void raise_instance(const py::object& cls, const py::tuple& args) {
  PyObject* exc = PyObject_Call(cls.ptr(), args.ptr(), nullptr);
  if (!exc) throw py::error_already_set();  // the constructor raised: that exception
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  throw py::error_already_set();
}

py::object arg_value(const ExcRecord::Arg& a) {
  switch (a.tag) {
    case 1: return py::int_(a.i);
    case 2: return py::int_((uint64_t)a.i);
    case 3: return py::float_(a.f);
    case 4: return py::bool_(a.i != 0);
    case 5: return py::cast(std::complex<double>(a.f, a.g));
    case 6: return py::str(a.s);
    default: return py::none();
  }
}

py::object arg_value(const ExcArg& a) {
  switch (a.tag) {
    case ExcArg::Tag::Int: return py::int_(a.i);
    case ExcArg::Tag::UInt: return py::int_(a.u);
    case ExcArg::Tag::Float: return py::float_(a.f);
    case ExcArg::Tag::Bool: return py::bool_(a.i != 0);
    case ExcArg::Tag::Complex: return py::cast(std::complex<double>(a.f, a.im));
    case ExcArg::Tag::Str: return py::str(a.s);
    case ExcArg::Tag::None: break;
  }
  return py::none();
}
}  // namespace

void raise_cpu_exception(const Build& b, const ExcRecord& r) {
  if (r.type) {  // a run-time check's builtin class and message (or its arguments: KeyError(key))
    // A builtin class's name, or a module's class ("numpy.linalg.LinAlgError", host_linalg.h).
    const std::string type = r.type;
    const size_t dot = type.rfind('.');
    py::object cls = dot == std::string::npos ? py::module_::import("builtins").attr(r.type)
                                              : py::module_::import(type.substr(0, dot).c_str()).attr(type.substr(dot + 1).c_str());
    py::tuple args(r.msg ? 1 : r.nargs);
    if (r.msg) args[0] = py::str(r.msg);
    for (int k = 0; !r.msg && k < r.nargs; ++k) args[k] = arg_value(r.args[k]);
    raise_instance(cls, args);
  }
  if (r.cls < 0 || (size_t)r.cls >= b.exc_classes.size()) throw std::logic_error("compiled code raised an unknown class");
  py::tuple args(r.nargs);
  for (int k = 0; k < r.nargs; ++k) args[k] = arg_value(r.args[k]);
  raise_instance(exception_class(b.exc_classes[r.cls]), args);
}

void raise_kernel_exception(const Build& b, int site, const uint32_t thread[3], const uint32_t block[3]) {
  if (site < 0 || (size_t)site >= b.raise_sites.size()) throw std::logic_error("GPU code raised at an unknown site");
  const RaiseSite& s = b.raise_sites[site];
  // numba-cuda's dispatcher lists the indices z first ("tid=[z, y, x]").
  std::string prefix = "In function '" + s.function + "', file " + s.file + ", line " + std::to_string(s.line) +
                       ", tid=[" + std::to_string(thread[2]) + ", " + std::to_string(thread[1]) + ", " +
                       std::to_string(thread[0]) + "] ctaid=[" + std::to_string(block[2]) + ", " +
                       std::to_string(block[1]) + ", " + std::to_string(block[0]) + "]";
  py::tuple args(s.args.empty() ? 1 : s.args.size());
  if (s.args.empty()) {
    args[0] = py::str(prefix);
  } else {
    args[0] = py::str(prefix + ": " + py::str(arg_value(s.args[0])).cast<std::string>());
    for (size_t k = 1; k < s.args.size(); ++k) args[k] = arg_value(s.args[k]);
  }
  raise_instance(exception_class(b.exc_classes[s.cls]), args);
}

}  // namespace cujit
