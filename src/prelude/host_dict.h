// Dicts and sets of @jit code (CPU target only; Numba's typed dict and set). A dict is a handle
// (cj::Dict<K, V>, one pointer) to a shared, reference-counted cj::DictHead (cujit_abi.h): copies
// alias as Python's names do, the last handle frees it. Entries stay in insertion order (Python's
// and Numba's iteration order); an index of slots, probed as CPython probes, finds a key by its
// hash. A set is a Dict<K, Unit>. py_hash is CPython's hash() (as Numba's): the hash of an int,
// a float, a bool and a tuple equal Python's. Other headers add overloads of py_hash for their
// types (a string's). Included in programs whose code names a dict, a set or py_hash (pipeline.cpp),
// after host_list.h (keys(), values(), items() are lists).
#include <type_traits>

namespace cj {

// ---- CPython's hash() ---------------------------------------------------------------------------
constexpr uint64_t kHashModulus = (1ULL << 61) - 1;  // _PyHASH_MODULUS
constexpr int kHashBits = 61;

inline int64_t py_hash_uint(uint64_t v) {
  const uint64_t x = v % kHashModulus;
  return (int64_t)x;  // below 2**61: never -1
}
inline int64_t py_hash_int(int64_t v) {
  if (v >= 0) return py_hash_uint((uint64_t)v);
  const uint64_t m = (uint64_t)0 - (uint64_t)v;  // |v|, also for INT64_MIN
  const int64_t h = -(int64_t)(m % kHashModulus);
  return h == -1 ? -2 : h;
}
inline int64_t py_hash_double(double v) {  // _Py_HashDouble
  if (v != v) return 0;                    // NaN (Numba's: CPython >= 3.10 hashes the object)
  if (v == __builtin_inf()) return 314159;
  if (v == -__builtin_inf()) return -314159;
  int e;
  double m = __builtin_frexp(v, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m) {
    x = ((x << 28) & kHashModulus) | x >> (kHashBits - 28);
    m *= 268435456.0;  // 2**28
    e -= 28;
    const uint64_t y = (uint64_t)m;
    m -= (double)y;
    x += y;
    if (x >= kHashModulus) x -= kHashModulus;
  }
  e = e >= 0 ? e % kHashBits : kHashBits - 1 - ((-1 - e) % kHashBits);
  x = ((x << e) & kHashModulus) | x >> (kHashBits - e);
  int64_t h = (int64_t)x * sign;
  return h == -1 ? -2 : h;
}

/// A tuple of generated code (its struct has cj_visit/cj_zip: codegen.cpp's tuple_struct).
template <class T, class = void>
struct is_cj_tuple : std::false_type {};
template <class T>
struct is_cj_tuple<T, std::void_t<decltype(T::cj_arity)>> : std::true_type {};

template <class T>
inline int64_t py_hash(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return py_hash_int((int64_t)v);
  } else if constexpr (std::is_integral_v<T>) {
    return py_hash_uint((uint64_t)v);
  } else if constexpr (is_cj_tuple<T>::value) {  // tuplehash (CPython >= 3.8, xxHash's rounds)
    uint64_t acc = 2870177450012600261ULL;
    v.cj_visit([&](const auto& item) {
      acc += (uint64_t)py_hash(item) * 14029467366897019727ULL;
      acc = (acc << 31) | (acc >> 33);
      acc *= 11400714785074694791ULL;
    });
    acc += (uint64_t)T::cj_arity ^ (2870177450012600261ULL ^ 3527539ULL);
    return acc == (uint64_t)-1 ? 1546275796 : (int64_t)acc;
  } else {
    return py_hash_double((double)v);  // float16/32/64: the double's hash, as Python's float
  }
}

/// Key equality: numbers by ==, tuples item by item.
template <class T>
inline bool key_eq(const T& a, const T& b) {
  if constexpr (is_cj_tuple<T>::value) return a.cj_zip(b, [](const auto& x, const auto& y) { return key_eq(x, y); });
  else return a == b;
}

// ---- Dicts --------------------------------------------------------------------------------------
template <class K, class V>
struct Dict {
  DictHead* h = nullptr;
  Dict() = default;
  Dict(const Dict& o) : h(o.h) { retain(); }
  Dict(Dict&& o) noexcept : h(o.h) { o.h = nullptr; }
  Dict& operator=(const Dict& o) {
    Dict t(o);
    std::swap(h, t.h);
    return *this;
  }
  Dict& operator=(Dict&& o) noexcept {
    std::swap(h, o.h);
    return *this;
  }
  ~Dict() {
    if (h && __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL) == 0) h->destroy(h);
  }
  void retain() {
    if (h) __atomic_add_fetch(&h->refs, 1, __ATOMIC_RELAXED);
  }
  K* keys() const { return static_cast<K*>(h->keys); }
  V* vals() const { return static_cast<V*>(h->vals); }
  int64_t size() const { return h ? h->size : 0; }

  // Entries [0, used) are constructed, live or not.
  static void destroy_head(DictHead* p) {
    for (int64_t i = 0; i < p->used; ++i) {
      static_cast<K*>(p->keys)[i].~K();
      static_cast<V*>(p->vals)[i].~V();
    }
    std::free(p->keys);
    std::free(p->vals);
    std::free(p->live);
    std::free(p->hashes);
    std::free(p->index);
    std::free(p);
  }
  static Dict make() {
    Dict d;
    d.h = static_cast<DictHead*>(std::malloc(sizeof(DictHead)));
    if (!d.h) raise("MemoryError", "cannot allocate a dict");
    *d.h = DictHead{1, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0, &destroy_head};
    return d;
  }

  // Entries compacted (the deleted ones dropped) into room for `need` entries, and the index
  // and hashes rebuilt: at most half the slots hold an entry.
  void rebuild(int64_t need) const {
    int64_t cap = h->cap;
    if (need > cap || h->used > h->size) {
      cap = 8;
      while (cap < need) cap *= 2;
    }
    K* nk = static_cast<K*>(std::malloc(sizeof(K) * (size_t)cap));
    V* nv = static_cast<V*>(std::malloc(sizeof(V) * (size_t)cap));
    uint8_t* nl = static_cast<uint8_t*>(std::malloc((size_t)cap));
    int64_t* nh = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)cap));
    int64_t slots = 8;
    while (slots < 2 * cap) slots *= 2;
    int64_t* ix = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)slots));
    if (!nk || !nv || !nl || !nh || !ix) raise("MemoryError", "cannot allocate a dict");
    for (int64_t s = 0; s < slots; ++s) ix[s] = -1;
    int64_t n = 0;
    for (int64_t i = 0; i < h->used; ++i) {
      if (h->live[i]) {
        new (nk + n) K(std::move(keys()[i]));
        new (nv + n) V(std::move(vals()[i]));
        nh[n] = h->hashes ? h->hashes[i] : py_hash(nk[n]);
        nl[n] = 1;
        ix[free_slot(ix, slots - 1, nh[n])] = n;
        ++n;
      }
      keys()[i].~K();
      vals()[i].~V();
    }
    std::free(h->keys);
    std::free(h->vals);
    std::free(h->live);
    std::free(h->hashes);
    std::free(h->index);
    h->keys = nk, h->vals = nv, h->live = nl, h->hashes = nh, h->index = ix;
    h->cap = cap, h->nslots = slots, h->used = h->size = n;
  }
  static int64_t free_slot(const int64_t* ix, int64_t mask, int64_t hash) {
    uint64_t perturb = (uint64_t)hash, s = (uint64_t)hash & (uint64_t)mask;
    while (ix[s] != -1) {
      perturb >>= 5;
      s = (s * 5 + perturb + 1) & (uint64_t)mask;
    }
    return (int64_t)s;
  }
  void ready() const {
    if (!h->index) rebuild(h->size);  // made by the extension: no index yet
  }
  // The slot holding key k (of hash `hash`), or -1.
  int64_t find_slot(const K& k, int64_t hash) const {
    ready();
    const uint64_t mask = (uint64_t)h->nslots - 1;
    uint64_t perturb = (uint64_t)hash, s = (uint64_t)hash & mask;
    for (;;) {
      const int64_t e = h->index[s];
      if (e == -1) return -1;
      if (e >= 0 && h->hashes[e] == hash && key_eq(keys()[e], k)) return (int64_t)s;
      perturb >>= 5;
      s = (s * 5 + perturb + 1) & mask;
    }
  }
  // The entry of k, or -1.
  int64_t find(const K& k) const {
    if (!h || h->size == 0) return -1;
    const int64_t s = find_slot(k, py_hash(k));
    return s < 0 ? -1 : h->index[s];
  }
  // The entry of k, made (with V()) where it is missing.
  int64_t entry(const K& k) const {
    const int64_t hash = py_hash(k);
    if (h->size > 0) {
      const int64_t s = find_slot(k, hash);
      if (s >= 0) return h->index[s];
    }
    ready();
    if (h->used >= h->cap) rebuild(h->size + 1 > h->cap / 2 ? 2 * (h->size + 1) : h->cap);
    const int64_t e = h->used;
    new (keys() + e) K(k);
    new (vals() + e) V();
    h->live[e] = 1;
    h->hashes[e] = hash;
    h->index[free_slot(h->index, h->nslots - 1, hash)] = e;
    ++h->used;
    ++h->size;
    return e;
  }
  void set(const K& k, const V& v) const {
    V copy(v);  // v may be a value of this dict, which entry() moves
    const int64_t e = entry(k);  // first: it may move the values
    vals()[e] = std::move(copy);
  }
  // Removes entry e found at slot s.
  void erase_at(int64_t s) const {
    const int64_t e = h->index[s];
    h->index[s] = -2;
    h->live[e] = 0;
    keys()[e] = K();
    vals()[e] = V();
    --h->size;
  }
  bool erase(const K& k) const {
    if (!h || h->size == 0) return false;
    const int64_t s = find_slot(k, py_hash(k));
    if (s < 0) return false;
    erase_at(s);
    return true;
  }
};

template <class K, class V>
inline Dict<K, V> dict_new() { return Dict<K, V>::make(); }
template <class K>
[[noreturn]] inline void key_error(const K& k) {
  if constexpr (is_cj_tuple<K>::value) throw PyError{"KeyError", nullptr};
  else {
    PyError e;
    e.type = "KeyError";
    e.nargs = 1;
    e.args[0] = exc_arg(k);
    throw e;
  }
}
template <class K, class V>
inline V dict_get(const Dict<K, V>& d, const K& k) {
  const int64_t e = d.find(k);
  if (e < 0) key_error(k);
  return d.vals()[e];
}
template <class K, class V>
inline void dict_set(const Dict<K, V>& d, const K& k, const V& v) { d.set(k, v); }
template <class K, class V>
inline bool dict_contains(const Dict<K, V>& d, const K& k) { return d.find(k) >= 0; }
template <class K, class V>
inline void dict_del(const Dict<K, V>& d, const K& k) {
  if (!d.erase(k)) throw PyError{"KeyError", nullptr};  // Numba's: no message
}
/// d.get(k): an optional value.
template <class K, class V>
inline Optional<V> dict_get_opt(const Dict<K, V>& d, const K& k) {
  const int64_t e = d.find(k);
  if (e < 0) return Optional<V>{false, V()};
  return Optional<V>{true, d.vals()[e]};
}
template <class K, class V>
inline V dict_get_or(const Dict<K, V>& d, const K& k, const V& dflt) {
  const int64_t e = d.find(k);
  return e < 0 ? dflt : d.vals()[e];
}
template <class K, class V>
inline V dict_pop(const Dict<K, V>& d, const K& k) {
  if (d.size() == 0) throw PyError{"KeyError", nullptr};
  const int64_t s = d.find_slot(k, py_hash(k));
  if (s < 0) throw PyError{"KeyError", nullptr};
  V v = d.vals()[d.h->index[s]];
  d.erase_at(s);
  return v;
}
template <class K, class V>
inline V dict_pop_or(const Dict<K, V>& d, const K& k, const V& dflt) {
  if (d.size() == 0) return dflt;
  const int64_t s = d.find_slot(k, py_hash(k));
  if (s < 0) return dflt;
  V v = d.vals()[d.h->index[s]];
  d.erase_at(s);
  return v;
}
/// The last live entry's (key, value) as tuple struct T, removed.
template <class T, class K, class V>
inline T dict_popitem(const Dict<K, V>& d) {
  if (d.size() == 0) throw PyError{"KeyError", nullptr};
  int64_t e = d.h->used - 1;
  while (!d.h->live[e]) --e;
  T r{d.keys()[e], d.vals()[e]};
  d.erase_at(d.find_slot(d.keys()[e], d.h->hashes[e]));
  return r;
}
template <class K, class V>
inline V dict_setdefault(const Dict<K, V>& d, const K& k, const V& v) {
  const int64_t e = d.find(k);
  if (e >= 0) return d.vals()[e];
  d.set(k, v);
  return v;
}
template <class K, class V>
inline void dict_clear(const Dict<K, V>& d) {
  for (int64_t i = 0; i < d.h->used; ++i)
    if (d.h->live[i]) {
      d.h->live[i] = 0;
      d.keys()[i] = K();
      d.vals()[i] = V();
    }
  d.h->size = 0;
  d.rebuild(0);
}
template <class K, class V>
inline Dict<K, V> dict_copy(const Dict<K, V>& d) {
  Dict<K, V> r = Dict<K, V>::make();
  for (int64_t i = 0; i < d.h->used; ++i)
    if (d.h->live[i]) r.set(d.keys()[i], d.vals()[i]);
  return r;
}
template <class K, class V, class K2, class V2>
inline void dict_update(const Dict<K, V>& d, const Dict<K2, V2>& o) {
  const int64_t n = o.h->used;  // o may be d
  for (int64_t i = 0; i < n; ++i)
    if (o.h->live[i]) d.set(K(o.keys()[i]), V(o.vals()[i]));
}
template <class K, class V>
inline List<K> dict_keys(const Dict<K, V>& d) {
  List<K> r = List<K>::make(d.size());
  for (int64_t i = 0; d.h && i < d.h->used; ++i)
    if (d.h->live[i]) r.push(d.keys()[i]);
  return r;
}
template <class K, class V>
inline List<V> dict_values(const Dict<K, V>& d) {
  List<V> r = List<V>::make(d.size());
  for (int64_t i = 0; d.h && i < d.h->used; ++i)
    if (d.h->live[i]) r.push(d.vals()[i]);
  return r;
}
template <class T, class K, class V>
inline List<T> dict_items(const Dict<K, V>& d) {
  List<T> r = List<T>::make(d.size());
  for (int64_t i = 0; d.h && i < d.h->used; ++i)
    if (d.h->live[i]) r.push(T{d.keys()[i], d.vals()[i]});
  return r;
}
/// d == e: the same keys, each with an equal value.
template <class K, class V>
inline bool dict_eq(const Dict<K, V>& a, const Dict<K, V>& b) {
  if (a.size() != b.size()) return false;
  for (int64_t i = 0; a.h && i < a.h->used; ++i) {
    if (!a.h->live[i]) continue;
    const int64_t e = b.find(a.keys()[i]);
    if (e < 0 || !key_eq(a.vals()[i], b.vals()[e])) return false;
  }
  return true;
}

// ---- Sets ---------------------------------------------------------------------------------------
template <class K>
using Set = Dict<K, Unit>;
template <class K>
inline Set<K> set_new() { return Set<K>::make(); }
template <class K>
inline Set<K> set_of(std::initializer_list<K> items) {
  Set<K> s = Set<K>::make();
  for (const K& k : items) s.set(k, Unit{});
  return s;
}
template <class K>
inline void set_add(const Set<K>& s, const K& k) { s.entry(k); }
template <class K>
inline void set_discard(const Set<K>& s, const K& k) { s.erase(k); }
template <class K>
inline void set_remove(const Set<K>& s, const K& k) {
  if (!s.erase(k)) raise("KeyError", "set.remove(): key not in set");  // Numba's
}
template <class K>
inline K set_pop(const Set<K>& s) {
  if (s.size() == 0) raise("KeyError", "set.pop(): empty set");
  int64_t e = 0;
  while (!s.h->live[e]) ++e;
  K k = s.keys()[e];
  s.erase_at(s.find_slot(k, s.h->hashes[e]));
  return k;
}
template <class K, class K2>
inline void set_update(const Set<K>& s, const Set<K2>& o) {
  const int64_t n = o.h->used;
  for (int64_t i = 0; i < n; ++i)
    if (o.h->live[i]) s.entry(K(o.keys()[i]));
}
template <class K>
inline Set<K> set_copy(const Set<K>& s) { return dict_copy(s); }
template <class K>
inline void set_clear(const Set<K>& s) { dict_clear(s); }
template <class K>
inline bool set_contains(const Set<K>& s, const K& k) { return s.find(k) >= 0; }
template <class K>
inline List<K> set_items(const Set<K>& s) { return dict_keys(s); }
template <class K>
inline Set<K> set_union(const Set<K>& a, const Set<K>& b) {
  Set<K> r = set_copy(a);
  set_update(r, b);
  return r;
}
template <class K>
inline Set<K> set_intersection(const Set<K>& a, const Set<K>& b) {
  Set<K> r = Set<K>::make();
  for (int64_t i = 0; i < a.h->used; ++i)
    if (a.h->live[i] && b.find(a.keys()[i]) >= 0) r.entry(a.keys()[i]);
  return r;
}
template <class K>
inline Set<K> set_difference(const Set<K>& a, const Set<K>& b) {
  Set<K> r = Set<K>::make();
  for (int64_t i = 0; i < a.h->used; ++i)
    if (a.h->live[i] && b.find(a.keys()[i]) < 0) r.entry(a.keys()[i]);
  return r;
}
template <class K>
inline Set<K> set_symmetric_difference(const Set<K>& a, const Set<K>& b) {
  Set<K> r = set_difference(a, b);
  for (int64_t i = 0; i < b.h->used; ++i)
    if (b.h->live[i] && a.find(b.keys()[i]) < 0) r.entry(b.keys()[i]);
  return r;
}
/// a op= b: a's own header takes the result (its other handles see it).
template <class K>
inline void set_assign(const Set<K>& a, const Set<K>& r) {
  if (a.h == r.h) return;
  set_clear(a);
  set_update(a, r);
}
template <class K>
inline bool set_issubset(const Set<K>& a, const Set<K>& b) {
  for (int64_t i = 0; i < a.h->used; ++i)
    if (a.h->live[i] && b.find(a.keys()[i]) < 0) return false;
  return true;
}
template <class K>
inline bool set_issuperset(const Set<K>& a, const Set<K>& b) { return set_issubset(b, a); }
template <class K>
inline bool set_isdisjoint(const Set<K>& a, const Set<K>& b) { return set_intersection(a, b).size() == 0; }
template <class K>
inline bool set_eq(const Set<K>& a, const Set<K>& b) { return a.size() == b.size() && set_issubset(a, b); }

}  // namespace cj
