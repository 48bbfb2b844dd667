// See typed_containers.h.
#include "bindings/typed_containers.h"

#include <cstdlib>
#include <cstring>

#include "bindings/dicts.h"
#include "bindings/lists.h"
#include "bindings/strings.h"
#include "compiler/layout.h"

namespace py = pybind11;

namespace cujit {

namespace {
bool tc_plain(const Type& t) {
  if (t.is_scalar()) return true;
  if (!t.is_tuple()) return false;
  for (const auto& e : t.elems)
    if (!tc_plain(e)) return false;
  return true;
}

// How the header that holds an item drops it: 0 plain bytes, 1 a str, 2 a list, 3 a dict.
int item_kind(const Type& t) {
  if (t.tag == Type::Tag::String) return 1;
  if (t.is_list()) return 2;
  if (t.is_dict()) return 3;
  return 0;
}

template <int Kind>
void release_item(void* slot) {
  if constexpr (Kind != 0) {
    void* p;
    std::memcpy(&p, slot, sizeof p);
    if constexpr (Kind == 1) release_str(static_cast<cj::StrHead*>(p));
    else if constexpr (Kind == 2) release_list(static_cast<ListHead*>(p));
    else release_dict(static_cast<DictHead*>(p));
  }
}

// Destroys a list made here; the compiled code may have grown it (same malloc) or put items of
// its own into it (each holding one reference, as ours do).
template <int Kind>
void destroy_list(ListHead* h) {
  for (int64_t i = 0; i < h->size; ++i) release_item<Kind>(static_cast<char*>(h->data) + sizeof(void*) * (size_t)i);
  std::free(h->data);
  std::free(h);
}

// As host_dict.h's destroy_head: every entry written (deleted ones hold null handles).
template <int K, int V>
void destroy_dict(DictHead* h) {
  for (int64_t i = 0; i < h->used; ++i) {
    release_item<K>(static_cast<char*>(h->keys) + sizeof(void*) * (size_t)i);
    release_item<V>(static_cast<char*>(h->vals) + sizeof(void*) * (size_t)i);
  }
  free_dict_storage(h);
}

// Tuples holding handles (str, typed containers): the header made here keeps the item types
// after itself, which its destroy reads (a destroy is a plain function pointer, with no context).
bool holds_handles(const Type& t) {
  if (item_kind(t) != 0) return true;
  if (!t.is_tuple()) return false;
  for (const auto& e : t.elems)
    if (holds_handles(e)) return true;
  return false;
}

// Drops the references a value of type `t` at `slot` holds (null handles: none).
void release_value(const Type& t, char* slot) {
  switch (item_kind(t)) {
    case 1: release_item<1>(slot); return;
    case 2: release_item<2>(slot); return;
    case 3: release_item<3>(slot); return;
    default: break;
  }
  if (!t.is_tuple()) return;
  const Layout l = value_layout(t);
  for (size_t i = 0; i < t.elems.size(); ++i) release_value(t.elems[i], slot + l.offsets[i]);
}

struct ListBox {  // a list header whose items are tuples holding handles
  ListHead head;  // first: the ListHead* the compiled code holds is the box's address
  Type* item;
};
void destroy_boxed_list(ListHead* h) {
  auto* box = reinterpret_cast<ListBox*>(h);
  const size_t size = value_layout(*box->item).size;
  for (int64_t i = 0; i < h->size; ++i) release_value(*box->item, static_cast<char*>(h->data) + size * (size_t)i);
  std::free(h->data);
  delete box->item;
  std::free(box);
}

struct DictBox {  // a dict header whose keys or values are tuples holding handles
  DictHead head;
  Type* key;
  Type* value;
};
void destroy_boxed_dict(DictHead* h) {
  auto* box = reinterpret_cast<DictBox*>(h);
  const size_t ks = value_layout(*box->key).size, vs = value_layout(*box->value).size;
  for (int64_t i = 0; i < h->used; ++i) {
    release_value(*box->key, static_cast<char*>(h->keys) + ks * (size_t)i);
    release_value(*box->value, static_cast<char*>(h->vals) + vs * (size_t)i);
  }
  std::free(h->keys);
  std::free(h->vals);
  std::free(h->live);
  std::free(h->hashes);
  std::free(h->index);
  delete box->key;
  delete box->value;
  std::free(box);
}

using DictDestroy = void (*)(DictHead*);
template <int K>
DictDestroy dict_destroy_for(int v) {
  switch (v) {
    case 1: return &destroy_dict<K, 1>;
    case 2: return &destroy_dict<K, 2>;
    case 3: return &destroy_dict<K, 3>;
    default: return &destroy_dict<K, 0>;
  }
}

Type parse_item_type(const py::handle& t, const char* what, int index) {
  if (t.is_none()) return Type::unknown();
  Type r;
  try {
    r = parse_type(py::str(t).cast<std::string>());
  } catch (const std::invalid_argument&) {
    r = Type::unknown();
  }
  if (!r.known() || !typed_item_supported(r))
    throw py::type_error("argument " + std::to_string(index) + ": a " + std::string(what) + " of " +
                         py::str(t).cast<std::string>() +
                         " is not supported as an argument of a @jit function yet (numbers, str, tuples of those "
                         "and typed containers of those are)");
  return r;
}

// A number or tuple of numbers as the bytes of type `want` (a Python float in a float32 slot:
// its float32 bytes; the typed container coerced it when it was stored).
KArg plain_as(const py::handle& v, const Type& want, int index) {
  KArg k = cujit::marshal(v, rt::Backend::Sim, index);
  if (k.type == want) return k;
  if (want.is_scalar() && k.type.is_scalar()) {
    py::object np = py::module_::import("numpy");
    return cujit::marshal(np.attr(scalar_name(want.scalar))(v), rt::Backend::Sim, index);
  }
  throw py::type_error("argument " + std::to_string(index) + ": a " + k.type.str() + " where the container holds " + want.str());
}
}  // namespace

void (*list_destroy_for(const Type& item))(ListHead*) {
  switch (item_kind(item)) {
    case 1: return &destroy_list<1>;
    case 2: return &destroy_list<2>;
    case 3: return &destroy_list<3>;
    default:  // plain bytes: freeing is enough
      return [](ListHead* p) {
        std::free(p->data);
        std::free(p);
      };
  }
}

bool typed_item_supported(const Type& t) {
  if (tc_plain(t) || t.tag == Type::Tag::String) return true;
  if (t.is_tuple()) {  // of numbers and str (and such tuples)
    for (const auto& e : t.elems)
      if (!(e.is_scalar() || e.tag == Type::Tag::String || (e.is_tuple() && typed_item_supported(e)))) return false;
    return !t.elems.empty();
  }
  if (t.is_list()) return typed_item_supported(t.elems[0]);
  if (t.is_dict()) return typed_item_supported(t.elems[0]) && typed_item_supported(t.elems[1]);
  return false;
}

std::string typed_spelling(const Type& t) {
  if (t.is_list()) return "ListType[" + typed_spelling(t.elems[0]) + "]";
  if (t.is_dict()) return "DictType[" + typed_spelling(t.elems[0]) + "," + typed_spelling(t.elems[1]) + "]<iv=None>";
  return t.str();
}

KArg TypedShare::marshal(const py::handle& wrapper, int index) {
  const bool is_list = py::hasattr(wrapper, "_cj_typed_list");
  Type t;
  if (is_list) {
    Type it = parse_item_type(wrapper.attr("_item_type"), "typed.List", index);
    if (!it.known())
      throw py::type_error("argument " + std::to_string(index) +
                           ": a typed.List whose item type is not known yet (append to it first, or make it with "
                           "List.empty_list(item_type))");
    t = Type::typed_list(it);
  } else {
    Type kt = parse_item_type(wrapper.attr("_key_type"), "typed.Dict", index);
    Type vt = parse_item_type(wrapper.attr("_value_type"), "typed.Dict", index);
    if (!kt.known() || !vt.known())
      throw py::type_error("argument " + std::to_string(index) +
                           ": a typed.Dict whose key and value types are not known yet (insert into it first, or make it "
                           "with Dict.empty(key_type, value_type))");
    t = Type::dict(kt, vt);
  }
  KArg a;
  a.type = t;
  a.bytes.push_back((int64_t)(intptr_t)head_for(wrapper, t, index));
  a.list_source = py::reinterpret_borrow<py::object>(wrapper);
  return a;
}

// One reference to the header of the wrapper's storage: made (its items put in) the first time.
void* TypedShare::head_for(const py::handle& wrapper, const Type& t, int index) {
  py::object storage = wrapper.attr(t.is_list() ? "_l" : "_d");
  auto it = head_of_.find(storage.ptr());
  if (it != head_of_.end()) {  // another wrapper or slot of the same storage: the same container
    __atomic_add_fetch(static_cast<int64_t*>(it->second), 1, __ATOMIC_RELAXED);  // refs: first in both headers
    return it->second;
  }
  void* head;
  if (t.is_list()) {
    py::list items = storage;
    const size_t n = items.size(), size = value_layout(t.elems[0]).size;
    const bool boxed = t.elems[0].is_tuple() && holds_handles(t.elems[0]);
    auto* h = static_cast<ListHead*>(std::malloc(boxed ? sizeof(ListBox) : sizeof(ListHead)));
    char* data = static_cast<char*>(std::calloc(n ? n : 1, size));
    if (!h || !data) throw std::bad_alloc();
    if (boxed) reinterpret_cast<ListBox*>(h)->item = new Type(t.elems[0]);
    void (*destroy)(ListHead*) = boxed ? &destroy_boxed_list : list_destroy_for(t.elems[0]);
    // Two references: the argument's or slot's, and this call's (dropped by ~TypedShare, so a
    // container the call dropped can still be written back).
    *h = ListHead{2, 0, (int64_t)(n ? n : 1), data, destroy};
    head = h;
    head_of_[storage.ptr()] = head;
    storage_[head] = storage;
    marshalled_.push_back({head, t});
    for (size_t i = 0; i < n; ++i, ++h->size) put(items[i], t.elems[0], data + size * i, index);
  } else {
    py::dict d = storage;
    const Type &kt = t.elems[0], &vt = t.elems[1];
    const size_t n = d.size(), cap = n ? n : 1, ks = value_layout(kt).size, vs = value_layout(vt).size;
    const bool boxed = (kt.is_tuple() && holds_handles(kt)) || (vt.is_tuple() && holds_handles(vt));
    auto* h = static_cast<DictHead*>(std::malloc(boxed ? sizeof(DictBox) : sizeof(DictHead)));
    char* kd = static_cast<char*>(std::calloc(cap, ks));
    char* vd = static_cast<char*>(std::calloc(cap, vs));
    auto* live = static_cast<uint8_t*>(std::calloc(cap, 1));
    if (!h || !kd || !vd || !live) throw std::bad_alloc();
    DictDestroy destroy = nullptr;
    if (boxed) {
      reinterpret_cast<DictBox*>(h)->key = new Type(kt);
      reinterpret_cast<DictBox*>(h)->value = new Type(vt);
      destroy = &destroy_boxed_dict;
    } else {
      switch (item_kind(kt)) {
        case 1: destroy = dict_destroy_for<1>(item_kind(vt)); break;
        default: destroy = dict_destroy_for<0>(item_kind(vt));
      }
    }
    // No index: the generated code builds it (and the hashes) on first use (cujit_abi.h). Two
    // references, as a list's: the holder's and this call's (dropped by ~TypedShare).
    *h = DictHead{2, 0, 0, (int64_t)cap, kd, vd, live, nullptr, nullptr, 0, destroy, 0, 0};
    head = h;
    head_of_[storage.ptr()] = head;
    storage_[head] = storage;
    marshalled_.push_back({head, t});
    size_t i = 0;
    for (auto kv : d) {
      put(kv.first, kt, kd + ks * i, index);
      h->used = h->size = (int64_t)i + 1;  // counted once its key is in, so a failure frees it
      put(kv.second, vt, vd + vs * i, index);
      live[i++] = 1;
    }
  }
  return head;
}

// One item, key or value into its slot (the slot's reference, where it is a handle).
void TypedShare::put(const py::handle& v, const Type& t, char* slot, int index) {
  void* p = nullptr;
  if (t.tag == Type::Tag::String) {
    if (!PyUnicode_Check(v.ptr())) throw py::type_error("argument " + std::to_string(index) + ": a typed container's str item is not a str");
    p = (void*)(intptr_t)marshal_str(v).bytes[0];
  } else if (t.is_list() || t.is_dict()) {
    if (!py::hasattr(v, t.is_list() ? "_cj_typed_list" : "_cj_typed_dict"))
      throw py::type_error("argument " + std::to_string(index) + ": an item of a container of " + typed_spelling(t) +
                           " is not a typed container");
    p = head_for(v, t, index);
  } else if (t.is_tuple() && holds_handles(t)) {  // item by item, each at its offset
    if (!PyTuple_Check(v.ptr()) || (size_t)PyTuple_GET_SIZE(v.ptr()) != t.elems.size())
      throw py::type_error("argument " + std::to_string(index) + ": a typed container's " + t.str() + " item is not such a tuple");
    const Layout l = value_layout(t);
    for (size_t i = 0; i < t.elems.size(); ++i) put(py::reinterpret_borrow<py::tuple>(v)[i], t.elems[i], slot + l.offsets[i], index);
    return;
  } else {
    KArg k = plain_as(v, t, index);
    std::memcpy(slot, k.bytes.data(), value_layout(t).size);
    return;
  }
  std::memcpy(slot, &p, sizeof p);
}

py::object TypedShare::get(const Type& t, const char* slot, const PlainReader& plain) {
  if (t.tag == Type::Tag::String) {
    cj::StrHead* h;
    std::memcpy(&h, slot, sizeof h);
    return str_value(h);
  }
  if (t.is_list() || t.is_dict()) {
    void* h;
    std::memcpy(&h, slot, sizeof h);
    return wrap(h, t, plain);
  }
  if (t.is_tuple() && holds_handles(t)) {
    const Layout l = value_layout(t);
    py::tuple out(t.elems.size());
    for (size_t i = 0; i < t.elems.size(); ++i) out[i] = get(t.elems[i], slot + l.offsets[i], plain);
    return std::move(out);
  }
  return plain(t, slot);
}

// The storage at `head` given the header's contents.
void TypedShare::fill(const void* head, const Type& t, const py::object& storage, const PlainReader& plain) {
  if (t.is_list()) {
    const auto* h = static_cast<const ListHead*>(head);
    const size_t size = value_layout(t.elems[0]).size;
    py::list now(h->size);
    for (int64_t i = 0; i < h->size; ++i) now[(size_t)i] = get(t.elems[0], static_cast<const char*>(h->data) + size * (size_t)i, plain);
    if (PyList_SetSlice(storage.ptr(), 0, PY_SSIZE_T_MAX, now.ptr()) < 0) throw py::error_already_set();
    return;
  }
  const auto* h = static_cast<const DictHead*>(head);
  const size_t ks = value_layout(t.elems[0]).size, vs = value_layout(t.elems[1]).size;
  py::dict now;
  for (int64_t i = 0; i < h->used; ++i)
    if (h->live[i])
      now[get(t.elems[0], static_cast<const char*>(h->keys) + ks * (size_t)i, plain)] =
          get(t.elems[1], static_cast<const char*>(h->vals) + vs * (size_t)i, plain);
  py::dict d = storage;
  d.attr("clear")();
  d.attr("update")(now);
}

py::object TypedShare::wrap(const void* head, const Type& t, const PlainReader& plain) {
  auto it = storage_.find(head);
  py::object storage;
  if (it != storage_.end()) storage = it->second;
  else {  // a container the compiled code made: a new storage (registered first: others may hold it too)
    storage = t.is_list() ? py::object(py::list()) : py::object(py::dict());
    storage_[head] = storage;
    if (head) fill(head, t, storage, plain);
  }
  py::object typed = py::module_::import("cujit.typed");
  if (t.is_list()) return typed.attr("List").attr("_from_compiled")(storage, py::str(typed_spelling(t.elems[0])));
  return typed.attr("Dict").attr("_from_compiled")(storage, py::str(typed_spelling(t.elems[0])), py::str(typed_spelling(t.elems[1])));
}

TypedShare::~TypedShare() {
  for (const auto& [head, t] : marshalled_) {
    if (t.is_list()) release_list(static_cast<ListHead*>(const_cast<void*>(head)));
    else release_dict(static_cast<DictHead*>(const_cast<void*>(head)));
  }
}

void TypedShare::write_back(const PlainReader& plain) {
  for (const auto& [head, t] : marshalled_) fill(head, t, storage_.at(head), plain);
}

}  // namespace cujit
