// See dicts.h.
#include "bindings/dicts.h"

#include <cstdlib>
#include <cstring>

#include "compiler/layout.h"

namespace py = pybind11;

namespace cujit {

void free_dict_storage(DictHead* h) {
  std::free(h->keys);
  std::free(h->vals);
  std::free(h->live);
  std::free(h->hashes);
  std::free(h->index);
  std::free(h);
}

namespace {

bool plain(const Type& t) {
  if (t.is_scalar()) return true;
  if (!t.is_tuple()) return false;
  for (const auto& e : t.elems)
    if (!plain(e)) return false;
  return true;
}

// A new header holding `keys` (and `vals`, or none for a set), their types `kt` and `vt`.
DictHead* make_head(const std::vector<KArg>& keys, const std::vector<KArg>& vals, const Type& kt, const Type& vt) {
  const size_t n = keys.size(), cap = n ? n : 1;
  const size_t ks = value_layout(kt).size, vs = vt.known() ? value_layout(vt).size : 1;
  auto* h = static_cast<DictHead*>(std::malloc(sizeof(DictHead)));
  char* kd = static_cast<char*>(std::calloc(cap, ks));
  char* vd = static_cast<char*>(std::calloc(cap, vs));
  auto* live = static_cast<uint8_t*>(std::malloc(cap));
  if (!h || !kd || !vd || !live) throw std::bad_alloc();
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(kd + ks * i, keys[i].bytes.data(), ks);
    if (!vals.empty()) std::memcpy(vd + vs * i, vals[i].bytes.data(), vs);
    live[i] = 1;
  }
  // No index: the generated code builds it (and the hashes) on first use (cujit_abi.h).
  *h = DictHead{1, (int64_t)n, (int64_t)n, (int64_t)cap, kd, vd, live, nullptr, nullptr, 0, &free_dict_storage, 0, 0};  // keys and values here are plain bytes: freeing is enough
  return h;
}

}  // namespace

bool is_typed_dict(const py::handle& h) { return py::hasattr(h, "_cj_typed_dict"); }
bool is_typed_list(const py::handle& h) { return py::hasattr(h, "_cj_typed_list"); }

KArg marshal_set(const py::handle& h, int index) {
  if (PySet_GET_SIZE(h.ptr()) == 0) throw py::value_error("cannot compute fingerprint of empty set");  // Numba's words
  std::vector<KArg> keys;
  for (auto v : py::reinterpret_borrow<py::set>(h)) {
    keys.push_back(marshal(v, rt::Backend::Sim, index));
    if (keys.back().type != keys[0].type)
      throw py::type_error("can't unbox heterogeneous set: " + keys[0].type.str() + " != " + keys.back().type.str());
  }
  const Type kt = keys[0].type;
  if (!plain(kt) || (kt.is_scalar() && is_complex(kt.scalar)))
    throw py::type_error("argument " + std::to_string(index) + ": a set of " + kt.str() + " is not supported in compiled code");
  KArg a;
  a.type = Type::set(kt, true);
  a.bytes.push_back((int64_t)(intptr_t)make_head(keys, {}, kt, Type::unknown()));
  a.list_source = py::reinterpret_borrow<py::object>(h);
  return a;
}

namespace {
// A set's items as a list in its order (its table's slot order once the compiled code made the
// table, host_dict.h): Numba boxes a set by adding its items to a Python set in that order.
py::list set_items(const DictHead* head, const Type& t, const ItemReader& key) {
  const size_t ks = value_layout(t.elems[0]).size;
  py::list out;
  auto add = [&](int64_t e) { out.append(key(static_cast<const char*>(head->keys) + ks * (size_t)e)); };
  if (head && head->index) {
    for (int64_t s = 0; s < head->nslots; ++s)
      if (head->index[s] >= 0) add(head->index[s]);
  } else {
    for (int64_t i = 0; head && i < head->used; ++i)
      if (head->live[i]) add(i);
  }
  return out;
}
}  // namespace

py::object dict_value(const DictHead* head, const Type& t, const ItemReader& key, const ItemReader& value) {
  const size_t ks = value_layout(t.elems[0]).size;
  if (t.is_set()) return py::set(set_items(head, t, key));
  const size_t vs = value_layout(t.elems[1]).size;
  py::dict items;
  for (int64_t i = 0; head && i < head->used; ++i)
    if (head->live[i])
      items[key(static_cast<const char*>(head->keys) + ks * (size_t)i)] = value(static_cast<const char*>(head->vals) + vs * (size_t)i);
  return py::module_::import("cujit.typed").attr("Dict").attr("_from_compiled")(items, py::str(t.elems[0].str()), py::str(t.elems[1].str()));
}

void reflect_dict(const KArg& a, const ItemReader& key, const ItemReader& value) {
  const auto* head = reinterpret_cast<const DictHead*>((intptr_t)a.bytes[0]);
  py::object now = dict_value(head, a.type, key, value);
  py::object target = a.list_source;
  if (!now.equal(target)) {  // Numba's: cleared, then its items added in the native set's order
    target.attr("clear")();
    target.attr("update")(set_items(head, a.type, key));
  }
}

void release_dict(DictHead* head) {
  if (head && __atomic_sub_fetch(&head->refs, 1, __ATOMIC_ACQ_REL) == 0) head->destroy(head);
}

}  // namespace cujit
