// Structured dtypes read once into compiler Records (records.h).
#include "bindings/records.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "bindings/numpy_arrays.h"

namespace py = pybind11;

namespace cujit {

bool is_structured_dtype(const py::dtype& dt) { return !dt.attr("fields").is_none(); }

namespace {

// Numba's name of a field type cujit has no type for (it refuses reading it, not the record).
std::string unsupported_name(const py::dtype& dt) {
  const char k = dt.kind();
  const auto size = dt.itemsize();
  if (k == 'c') return size == 8 ? "complex64" : "complex128";
  if (k == 'f' && size == 2) return "float16";
  if (k == 'U') return "[unichr x " + std::to_string(size / 4) + "]";
  if (k == 'S') return "[char x " + std::to_string(size) + "]";
  return py::str(dt).cast<std::string>();
}

RecordPtr build(const py::dtype& dt) {
  Record r;
  r.size = dt.itemsize();
  // The C++ alignment from the fields (NumPy's alignment of a dtype varies with its scalar type:
  // np.recarray's (numpy.record, ...) dtype gives 1 where the plain one gives 4), so one Record
  // spelling has one C++ type: the largest field alignment of an aligned struct, else 1.
  r.align = 1;
  r.aligned = py::cast<bool>(dt.attr("isalignedstruct"));
  py::dict fields = dt.attr("fields");
  for (auto name : py::tuple(dt.attr("names"))) {
    py::tuple info = fields[name];
    RecordField f;
    f.name = py::cast<std::string>(name);
    f.offset = py::cast<int64_t>(info[1]);
    py::dtype ft = py::reinterpret_borrow<py::dtype>(info[0]);
    if (!ft.attr("subdtype").is_none()) {  // ('u1', (5,)): a nested array
      py::tuple sub = ft.attr("subdtype");
      for (auto d : py::tuple(sub[1])) f.shape.push_back(py::cast<int64_t>(d));
      ft = py::reinterpret_borrow<py::dtype>(sub[0]);
    }
    if (r.aligned) r.align = std::max<int64_t>(r.align, is_structured_dtype(ft) ? record_from_dtype(ft)->align
                                                                                 : py::cast<int64_t>(ft.attr("alignment")));
    Scalar s;
    if (is_structured_dtype(ft)) {
      f.type = Type::record_of(record_from_dtype(ft));
    } else if (scalar_from_numpy_dtype(ft, &s)) {
      f.type = Type::scalar_of(s);
    } else if ((ft.kind() == 'S' || ft.kind() == 'U') && f.shape.empty() && ft.itemsize() > 0) {
      // Numba's CharSeq / UnicodeCharSeq: NumPy's bytes, or UCS-4 code points (4 bytes each).
      f.type = ft.kind() == 'U' ? Type::charseq(true, (int)(ft.itemsize() / 4)) : Type::charseq(false, (int)ft.itemsize());
    } else {
      const char k = ft.kind();
      if (k == 'O' || k == 'V')
        throw py::type_error("unsupported array dtype " + py::str(dt).cast<std::string>() + ": field '" + f.name +
                             "' has type " + py::str(ft).cast<std::string>() + ", which compiled code cannot hold");
      const std::string bo = ft.attr("byteorder").cast<std::string>();
      if (bo != "=" && bo != "|")
        throw py::type_error("unsupported array dtype " + py::str(dt).cast<std::string>() + ": field '" + f.name +
                             "' is not in the machine's byte order");
      f.unsupported = unsupported_name(ft);
    }
    r.fields.push_back(std::move(f));
  }
  return make_record(std::move(r));
}

}  // namespace

// The dtype of each Record spelling seen (a result of that type is made with it).
std::mutex& dtypes_mu() { static std::mutex mu; return mu; }
std::map<std::string, PyObject*>& dtypes() { static auto* m = new std::map<std::string, PyObject*>(); return *m; }

RecordPtr record_from_dtype(const py::dtype& dt) {
  // dtypes are immutable and hashable; equal dtypes have one layout.
  static std::mutex& mu = dtypes_mu();
  static std::map<std::string, RecordPtr> memo;  // keyed by the dtype's repr, which names every field
  const std::string key = py::repr(dt).cast<std::string>() + (py::cast<bool>(dt.attr("isalignedstruct")) ? "/a" : "");
  {
    std::lock_guard<std::mutex> g(mu);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
  }
  RecordPtr r = build(dt);
  std::lock_guard<std::mutex> g(mu);
  dtypes().emplace(r->spelling, py::object(dt).release().ptr());  // kept for the process (results)
  return memo.emplace(key, r).first->second;
}

py::dtype record_dtype(const Record& r) {
  std::lock_guard<std::mutex> g(dtypes_mu());
  return py::reinterpret_borrow<py::dtype>(dtypes().at(r.spelling));
}

py::array record_bytes_view(const py::handle& base, char* data, int64_t itemsize, std::vector<int64_t> shape,
                            std::vector<int64_t> strides, bool writeable) {
  shape.push_back(itemsize);
  strides.push_back(1);
  py::array v(py::dtype("u1"), shape, strides, data, base);
  if (!writeable) v.attr("flags").attr("writeable") = false;
  return v;
}

bool is_record_scalar(const py::handle& h) {
  static PyObject* void_type = py::object(py::module_::import("numpy").attr("void")).release().ptr();
  return PyObject_IsInstance(h.ptr(), void_type) == 1 && is_structured_dtype(py::dtype::from_args(h.attr("dtype")));
}

char* record_scalar_data(const py::handle& h) {
  py::dict ai = h.attr("__array_interface__");
  return (char*)(intptr_t)py::cast<int64_t>(py::tuple(ai["data"])[0]);
}

void define_records(py::module_& m) {
  // Numba's spelling of a structured dtype's Record type (types.py's Record objects).
  m.def("record_spelling", [](py::object dt) { return record_from_dtype(py::dtype::from_args(dt))->spelling; });
}

}  // namespace cujit
