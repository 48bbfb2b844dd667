// See strings.h.
#include "bindings/strings.h"

#include <cstdlib>
#include <new>

namespace py = pybind11;

namespace cujit {

KArg marshal_str(const py::handle& h) {
  PyObject* o = h.ptr();
  const Py_ssize_t n = PyUnicode_GET_LENGTH(o);
  cj::StrHead* head = nullptr;
  if (n > 0) {
    head = static_cast<cj::StrHead*>(std::malloc(sizeof(cj::StrHead) + sizeof(uint32_t) * (size_t)(n + 1)));
    if (!head) throw std::bad_alloc();
    const Py_hash_t hash = PyObject_Hash(o);
    if (hash == -1) {
      std::free(head);
      throw py::error_already_set();
    }
    *head = cj::StrHead{1, (int64_t)n, (int64_t)hash};
    // UCS-4 (PyUnicode_AsUCS4 writes the trailing 0 too), whatever CPython's own kind is.
    if (!PyUnicode_AsUCS4(o, reinterpret_cast<Py_UCS4*>(cj::str_data(head)), n + 1, 1)) {
      std::free(head);
      throw py::error_already_set();
    }
  }
  KArg a;
  a.type = Type::string();
  a.bytes.push_back((int64_t)(intptr_t)head);
  return a;
}

py::object str_value(const cj::StrHead* head) {
  if (!head || head->length == 0) return py::str("");
  PyObject* s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, cj::str_data(const_cast<cj::StrHead*>(head)), head->length);
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(s);
}

void release_str(cj::StrHead* head) {
  if (head && __atomic_sub_fetch(&head->refs, 1, __ATOMIC_ACQ_REL) == 0) std::free(head);
}

}  // namespace cujit
