// See lists.h.
#include "bindings/lists.h"

#include <cstdlib>
#include <cstring>

#include "bindings/strings.h"
#include "bindings/typed_containers.h"
#include "compiler/layout.h"

namespace py = pybind11;

namespace cujit {

namespace {
// Items of a list made here are plain bytes (numbers, tuples of them): freeing is enough.
void free_plain(ListHead* h) {
  std::free(h->data);
  std::free(h);
}

bool plain_item(const Type& t) {
  if (t.is_scalar()) return true;
  if (!t.is_tuple()) return false;
  for (const auto& e : t.elems)
    if (!plain_item(e)) return false;
  return true;
}
}  // namespace

namespace {
// A reflected list of str (Numba's reflected list(unicode_type)): one reference to each str.
KArg marshal_str_list(const py::handle& h, int index) {
  const py::ssize_t n = PyList_GET_SIZE(h.ptr());
  auto* head = static_cast<ListHead*>(std::malloc(sizeof(ListHead)));
  auto* data = static_cast<cj::StrHead**>(std::calloc((size_t)n, sizeof(cj::StrHead*)));
  if (!head || !data) throw std::bad_alloc();
  *head = ListHead{1, 0, (int64_t)n, data, list_destroy_for(Type::string())};
  KArg a;
  a.type = Type::list(Type::string(), true);
  a.bytes.push_back((int64_t)(intptr_t)head);
  a.list_source = py::reinterpret_borrow<py::object>(h);
  for (py::ssize_t i = 0; i < n; ++i, ++head->size) {
    PyObject* v = PyList_GET_ITEM(h.ptr(), i);
    if (!PyUnicode_Check(v)) {
      release_list(head);
      throw py::type_error(std::string("can't unbox heterogeneous list: unicode_type != ") +
                           marshal(v, rt::Backend::Sim, index).type.str());
    }
    data[i] = (cj::StrHead*)(intptr_t)marshal_str(v).bytes[0];
  }
  return a;
}
}  // namespace

KArg marshal_list(const py::handle& h, int index) {
  const py::ssize_t n = PyList_GET_SIZE(h.ptr());
  if (n == 0) throw py::value_error("cannot compute fingerprint of empty list");  // Numba's words
  if (PyUnicode_Check(PyList_GET_ITEM(h.ptr(), 0))) return marshal_str_list(h, index);
  std::vector<KArg> items;
  for (py::ssize_t i = 0; i < n; ++i) {
    if (PyList_Check(PyList_GET_ITEM(h.ptr(), i)))  // Numba: "cannot reflect element of reflected container"
      throw py::type_error("cannot reflect element of reflected container: a list of lists (argument " +
                           std::to_string(index) + "); pass a list of numbers or tuples");
    items.push_back(marshal(PyList_GET_ITEM(h.ptr(), i), rt::Backend::Sim, index));
    if (items.back().type != items[0].type)
      throw py::type_error("can't unbox heterogeneous list: " + items[0].type.str() + " != " + items.back().type.str());
  }
  const Type item = items[0].type;
  if (!plain_item(item))
    throw py::type_error("argument " + std::to_string(index) + ": a list of " + item.str() +
                         " is not supported as an argument of a @jit function yet (lists of numbers and tuples of numbers are)");
  const size_t size = value_layout(item).size;
  auto* head = static_cast<ListHead*>(std::malloc(sizeof(ListHead)));
  char* data = static_cast<char*>(std::malloc(size * (size_t)n));
  if (!head || !data) throw std::bad_alloc();
  *head = ListHead{1, (int64_t)n, (int64_t)n, data, &free_plain};
  for (py::ssize_t i = 0; i < n; ++i) std::memcpy(data + size * (size_t)i, items[i].bytes.data(), size);
  KArg a;
  a.type = Type::list(item, true);
  a.bytes.push_back((int64_t)(intptr_t)head);
  a.list_source = py::reinterpret_borrow<py::object>(h);
  return a;
}

py::list list_items(const ListHead* head, const Type& list, const ItemReader& read) {
  const size_t size = value_layout(list.elems[0]).size;
  py::list out(head ? head->size : 0);
  for (int64_t i = 0; head && i < head->size; ++i) out[(size_t)i] = read(static_cast<const char*>(head->data) + size * (size_t)i);
  return out;
}

void reflect_list(const KArg& a, const ItemReader& read) {
  const auto* head = reinterpret_cast<const ListHead*>((intptr_t)a.bytes[0]);
  py::list now = list_items(head, a.type, read);
  // A typed.List's items are its list `_l` (python/cujit/typed.py).
  py::list old = py::hasattr(a.list_source, "_cj_typed_list") ? py::list(a.list_source.attr("_l"))
                                                              : py::reinterpret_borrow<py::list>(a.list_source);
  bool same = py::len(now) == py::len(old);
  for (size_t i = 0; same && i < py::len(now); ++i) {
    const int eq = PyObject_RichCompareBool(now[i].ptr(), old[i].ptr(), Py_EQ);
    if (eq < 0) throw py::error_already_set();
    same = eq == 1 && Py_TYPE(now[i].ptr()) == Py_TYPE(old[i].ptr());
  }
  if (!same && PyList_SetSlice(old.ptr(), 0, PY_SSIZE_T_MAX, now.ptr()) < 0) throw py::error_already_set();
}

void release_list(ListHead* head) {
  if (head && __atomic_sub_fetch(&head->refs, 1, __ATOMIC_ACQ_REL) == 0) head->destroy(head);
}

}  // namespace cujit
