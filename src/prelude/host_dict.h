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
/// A set's entries carry no value: Set<K> is Dict<K, SetSlot>, whose index is Numba's set table.
struct SetSlot {};

template <class K, class V>
struct Dict {
  static constexpr bool kSet = std::is_same_v<V, SetSlot>;
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
    *d.h = DictHead{1, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0, &destroy_head, 0, 0};
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
    if (h->index) return;
    if constexpr (kSet) s_unbox();  // made by the extension (or make()): no table yet
    else rebuild(h->size);
  }
  // The slot holding key k (of hash `hash`, hash_of's), or -1.
  int64_t find_slot(const K& k, int64_t hash) const {
    if constexpr (kSet) {
      ready();
      bool found;
      const int64_t s = s_lookup(k, hash, false, found);
      return found ? s : -1;
    }
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
  // A key's hash; a set's as Numba's set stores it (its table's marks -1 and -2 become -43).
  static int64_t hash_of(const K& k) {
    const int64_t x = py_hash(k);
    if constexpr (kSet) return x == -1 || x == -2 ? -43 : x;
    return x;
  }
  // The entry of k, or -1.
  int64_t find(const K& k) const {
    if (!h || h->size == 0) return -1;
    const int64_t s = find_slot(k, hash_of(k));
    return s < 0 ? -1 : h->index[s];
  }
  // The entry of k, made (with V()) where it is missing.
  int64_t entry(const K& k) const {
    if constexpr (kSet) {
      s_add(k, true);
      return find(k);
    }
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
    const int64_t s = find_slot(k, hash_of(k));
    if (s < 0) return false;
    if constexpr (kSet) s_remove_at(s, true);
    else erase_at(s);
    return true;
  }
  /// f(entry) for each live entry in iteration order: a dict's insertion order, a set's table order.
  template <class F>
  void each(F&& f) const {
    if (!h) return;
    if constexpr (kSet) {
      ready();
      for (int64_t s = 0; s < h->nslots; ++s)
        if (h->index[s] >= 0) f(h->index[s]);
    } else {
      for (int64_t i = 0; i < h->used; ++i)
        if (h->live[i]) f(i);
    }
  }

  // ---- Numba's set table (Set<K> only) ----------------------------------------------------------
  // The order a set iterates in is its table's slot order (Numba's, which is not CPython's), so
  // the table is Numba's: at least 16 slots, a power of two; a key probed from hash & mask, 3
  // slots one by one, then i = i * 5 + 1 + (perturb >>= 5); inserted at the first deleted slot
  // met, else at the empty one that ended the probe; grown 4x when 2 * size >= slots, shrunk
  // when a removal leaves slots >= 4 * max(2 * size, 16); a resize reinserts in slot order.
  // index[s] is an entry, -1 (empty) or -2 (deleted); h->fill counts the slots not empty.
  static int64_t s_alloc_size(int64_t nitems) {
    int64_t n = 16;
    while (n < 2 * nitems) n *= 2;
    return n;
  }
  int64_t s_lookup(const K& k, int64_t hash, bool for_insert, bool& found) const {
    const uint64_t mask = (uint64_t)h->nslots - 1;
    uint64_t i = (uint64_t)hash & mask, perturb = (uint64_t)hash;
    int64_t free_slot = -1;
    for (int64_t probe = 0;; ++probe) {
      const int64_t e = h->index[i];
      if (e >= 0 && h->hashes[e] == hash && key_eq(keys()[e], k)) {
        found = true;
        return (int64_t)i;
      }
      if (e == -1) {
        found = false;
        return for_insert && free_slot >= 0 ? free_slot : (int64_t)i;
      }
      if (for_insert && e == -2 && free_slot < 0) free_slot = (int64_t)i;
      if (probe < 3) {
        i = (i + 1) & mask;
      } else {
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
      }
    }
  }
  // A fresh empty table of n slots (the entries stay; the caller places them).
  void s_table(int64_t n) const {
    int64_t* ix = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)n));
    if (!ix) raise("MemoryError", "cannot allocate set");
    for (int64_t s = 0; s < n; ++s) ix[s] = -1;
    std::free(h->index);
    h->index = ix, h->nslots = n, h->fill = 0, h->finger = 0;
  }
  // Entry e placed in a table holding no deleted slot and no key equal to its own.
  void s_place(int64_t e) const {
    bool found;
    const int64_t s = s_lookup(keys()[e], h->hashes[e], true, found);
    h->index[s] = e;
    ++h->fill;
  }
  // The live entries moved into storage of room `cap` (the removed ones dropped), the table kept.
  void s_compact(int64_t cap) const {
    if (cap < h->size) cap = h->size;
    if (cap < 8) cap = 8;
    K* nk = static_cast<K*>(std::malloc(sizeof(K) * (size_t)cap));
    V* nv = static_cast<V*>(std::malloc(sizeof(V) * (size_t)cap));
    uint8_t* nl = static_cast<uint8_t*>(std::malloc((size_t)cap));
    int64_t* nh = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)cap));
    int64_t* to = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)(h->used + 1)));
    if (!nk || !nv || !nl || !nh || !to) raise("MemoryError", "cannot grow set");
    int64_t n = 0;
    for (int64_t i = 0; i < h->used; ++i) {
      to[i] = -1;
      if (h->live[i]) {
        new (nk + n) K(std::move(keys()[i]));
        new (nv + n) V();
        nl[n] = 1;
        nh[n] = h->hashes[i];
        to[i] = n++;
      }
      keys()[i].~K();
      vals()[i].~V();
    }
    for (int64_t s = 0; h->index && s < h->nslots; ++s)
      if (h->index[s] >= 0) h->index[s] = to[h->index[s]];
    std::free(to);
    std::free(h->keys);
    std::free(h->vals);
    std::free(h->live);
    std::free(h->hashes);
    h->keys = nk, h->vals = nv, h->live = nl, h->hashes = nh;
    h->cap = cap, h->used = h->size = n;
  }
  // The table resized to n slots, the entries reinserted in the old table's slot order.
  void s_resize(int64_t n) const {
    int64_t* order = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)(h->size + 1)));
    if (!order) raise("MemoryError", "cannot resize set");
    int64_t m = 0;
    for (int64_t s = 0; s < h->nslots; ++s)
      if (h->index[s] >= 0) order[m++] = h->index[s];
    s_table(n);
    for (int64_t j = 0; j < m; ++j) s_place(order[j]);
    std::free(order);
  }
  void s_upsize(int64_t nitems) const {
    if (2 * nitems < h->nslots) return;
    int64_t n = h->nslots;
    do n *= 4;
    while (2 * nitems >= n);
    s_resize(n);
  }
  void s_downsize(int64_t nitems) const {
    const int64_t least = 2 * nitems > 16 ? 2 * nitems : 16;
    if (!(4 * least <= h->nslots && h->nslots > 16)) return;
    int64_t n = h->nslots;
    while (least <= n / 2) n /= 2;
    s_resize(n);
  }
  // A set made by the extension (entries in the Python set's order) or by make(): its table,
  // sized for its items, which are inserted in their order without growing (Numba's unboxing).
  void s_unbox() const {
    if (!h->hashes) {
      h->hashes = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)(h->cap > 0 ? h->cap : 1)));
      if (!h->hashes) raise("MemoryError", "cannot allocate set");
      for (int64_t i = 0; i < h->used; ++i) h->hashes[i] = hash_of(keys()[i]);
    }
    s_table(s_alloc_size(h->size));
    for (int64_t i = 0; i < h->used; ++i)
      if (h->live[i]) s_place(i);
  }
  // Key k (of hash `hash`) stored at slot s, found free by s_lookup(for_insert).
  void s_store(int64_t s, const K& k, int64_t hash, bool do_resize) const {
    if (h->used >= h->cap) s_compact(2 * (h->size + 1));
    const int64_t e = h->used++;
    new (keys() + e) K(k);
    new (vals() + e) V();
    h->live[e] = 1;
    h->hashes[e] = hash;
    if (h->index[s] == -1) ++h->fill;
    h->index[s] = e;
    ++h->size;
    if (do_resize) s_upsize(h->size);
  }
  void s_add(const K& k, bool do_resize) const {
    ready();
    const int64_t hash = hash_of(k);
    bool found;
    const int64_t s = s_lookup(k, hash, true, found);
    if (!found) s_store(s, k, hash, do_resize);
  }
  void s_remove_at(int64_t s, bool do_resize) const {
    const int64_t e = h->index[s];
    h->index[s] = -2;
    h->live[e] = 0;
    keys()[e] = K();
    --h->size;
    if (do_resize) s_downsize(h->size);
  }
  /// A new set with a table for `nitems` items (Numba presizes a set from a sized iterable).
  static Dict make_set(int64_t nitems) {
    Dict d = make();
    d.s_table(s_alloc_size(nitems));
    return d;
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
inline List<K> dict_keys(const Dict<K, V>& d) {  // a set's items too, in its order
  List<K> r = List<K>::make(d.size());
  d.each([&](int64_t e) { r.push(d.keys()[e]); });
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
// Numba's set operations, each as Numba builds it, so that the table (and so the order the set
// iterates in, set.pop()'s item) is Numba's: a binary operator copies the larger or smaller
// operand and updates the copy in place; a copy keeps the table where no slot is deleted.
template <class K>
using Set = Dict<K, SetSlot>;
template <class K>
inline Set<K> set_new() { return Set<K>::make_set(0); }
/// An empty set presized for n items (a literal's, set(x) of a sized x).
template <class K>
inline Set<K> set_sized(int64_t n) { return Set<K>::make_set(n); }
/// A set display {a, b, c} (Numba's build_set): presized for its items, which are added last first.
template <class K>
inline Set<K> set_display(std::initializer_list<K> items) {
  Set<K> s = Set<K>::make_set((int64_t)items.size());
  for (size_t i = items.size(); i-- > 0;) s.s_add(items.begin()[i], true);
  return s;
}
/// The order CPython's frozenset of `items` (added in their order) iterates in: its table's, as
/// CPython 3.11's setobject.c fills it (8 slots at first; a key probed from hash & mask, 10 slots
/// one by one where they fit, then i = i * 5 + 1 + (perturb >>= 5); grown to the power of two
/// above 4 * used when fill * 5 >= mask * 3). The index of each distinct item, in `order`.
template <class K>
inline int64_t cpython_set_order(const K* items, int64_t n, int64_t* order) {
  int64_t mask = 7;
  int64_t* tab = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * 8));
  int64_t* hs = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * 8));
  if (!tab || !hs) raise("MemoryError", "cannot allocate set");
  for (int64_t s = 0; s < 8; ++s) tab[s] = -1;
  int64_t fill = 0;
  auto insert_clean = [](int64_t* t, int64_t* th, int64_t m, int64_t j, int64_t hash) {
    uint64_t i = (uint64_t)hash & (uint64_t)m, perturb = (uint64_t)hash;
    for (;;) {
      const int64_t probes = (int64_t)i + 9 <= m ? 9 : 0;
      for (int64_t k = 0; k <= probes; ++k)
        if (t[i + k] == -1) {
          t[i + k] = j, th[i + k] = hash;
          return;
        }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & (uint64_t)m;
    }
  };
  for (int64_t j = 0; j < n; ++j) {
    const int64_t hash = py_hash(items[j]);
    uint64_t i = (uint64_t)hash & (uint64_t)mask, perturb = (uint64_t)hash;
    bool found = false;
    for (;;) {
      const int64_t probes = (int64_t)i + 9 <= mask ? 9 : 0;
      int64_t k = 0, at = -1;
      for (; k <= probes; ++k) {
        const int64_t e = tab[i + k];
        if (e == -1) {
          at = (int64_t)i + k;
          break;
        }
        if (hs[i + k] == hash && key_eq(items[e], items[j])) {
          found = true;
          break;
        }
      }
      if (found) break;
      if (at >= 0) {
        tab[at] = j, hs[at] = hash;
        ++fill;
        break;
      }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & (uint64_t)mask;
    }
    if (found || fill * 5 < mask * 3) continue;
    int64_t size = 8;
    while (size <= 4 * fill) size <<= 1;  // no deletions: used == fill
    int64_t* nt = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)size));
    int64_t* nh = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)size));
    if (!nt || !nh) raise("MemoryError", "cannot allocate set");
    for (int64_t s = 0; s < size; ++s) nt[s] = -1;
    for (int64_t s = 0; s <= mask; ++s)
      if (tab[s] >= 0) insert_clean(nt, nh, size - 1, tab[s], hs[s]);
    std::free(tab);
    std::free(hs);
    tab = nt, hs = nh, mask = size - 1;
  }
  int64_t m = 0;
  for (int64_t s = 0; s <= mask; ++s)
    if (tab[s] >= 0) order[m++] = tab[s];
  std::free(tab);
  std::free(hs);
  return m;
}
/// A set display of constants, which CPython compiles into a frozenset constant (Numba builds
/// that as a display of the frozenset's items): in a `for` (or comprehension) it is that set;
/// elsewhere (3 items or more) an empty set updated with it.
/// `perm`: the items' indices in the frozenset's order, read from the code object (it differs
/// between a fresh compile and a .pyc); without it, the order a fresh compile gives (CPython's
/// compiler builds the frozenset, then its constant merging builds it again from that order).
template <class K>
inline Set<K> set_frozen(std::initializer_list<K> items, bool via_update, std::initializer_list<int64_t> perm = {}) {
  const int64_t n = (int64_t)items.size();
  int64_t* order = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * 2 * (size_t)(n + 1)));
  if (!order) raise("MemoryError", "cannot allocate set");
  int64_t m = (int64_t)perm.size();
  if (m > 0) {
    for (int64_t j = 0; j < m; ++j) order[j] = perm.begin()[j];
  } else {
    K* once = static_cast<K*>(std::malloc(sizeof(K) * (size_t)(n + 1)));
    if (!once) raise("MemoryError", "cannot allocate set");
    int64_t* first = order + n + 1;
    const int64_t m1 = cpython_set_order(items.begin(), n, first);
    for (int64_t j = 0; j < m1; ++j) new (once + j) K(items.begin()[first[j]]);
    m = cpython_set_order(once, m1, order);
    for (int64_t j = 0; j < m; ++j) order[j] = first[order[j]];
    for (int64_t j = 0; j < m1; ++j) once[j].~K();
    std::free(once);
  }
  Set<K> c = Set<K>::make_set(m);
  for (int64_t j = m; j-- > 0;) c.s_add(items.begin()[order[j]], true);
  std::free(order);
  if (!via_update) return c;
  Set<K> r = Set<K>::make_set(0);
  set_update(r, c);
  return r;
}
template <class K>
inline void set_add(const Set<K>& s, const K& k) { s.s_add(k, true); }
template <class K>
inline void set_discard(const Set<K>& s, const K& k) { s.erase(k); }
template <class K>
inline void set_remove(const Set<K>& s, const K& k) {
  if (!s.erase(k)) raise("KeyError", "set.remove(): key not in set");  // Numba's
}
/// The next item from the finger (Numba's: the slot after the last pop's, from slot 1 at first).
template <class K>
inline K set_pop(const Set<K>& s) {
  if (s.size() == 0) raise("KeyError", "set.pop(): empty set");
  s.ready();
  const int64_t mask = s.h->nslots - 1;
  int64_t i = s.h->finger;
  do i = (i + 1) & mask;
  while (s.h->index[i] < 0);
  s.h->finger = i;
  K k = s.keys()[s.h->index[i]];
  s.s_remove_at(i, true);
  return k;
}
template <class K>
inline List<K> set_items(const Set<K>& s) { return dict_keys(s); }
/// set(s) (not s.copy()): a set presized for s's items, which are added in s's order.
template <class K, class K2>
inline Set<K> set_from(const Set<K2>& o) {
  Set<K> r = Set<K>::make_set(o.size());
  o.each([&](int64_t e) { r.s_add(K(o.keys()[e]), true); });
  return r;
}
template <class K>
inline Set<K> set_copy(const Set<K>& s) {
  Set<K> r = Set<K>::make();
  s.ready();
  if (s.h->size == s.h->fill) {  // the same table
    r.s_compact(s.h->size);
    for (int64_t e = 0; e < s.h->used; ++e)
      if (s.h->live[e]) {
        new (r.keys() + r.h->used) K(s.keys()[e]);
        new (r.vals() + r.h->used) SetSlot();
        r.h->live[r.h->used] = 1;
        r.h->hashes[r.h->used++] = s.h->hashes[e];
      }
    r.h->size = r.h->used;
    r.s_table(s.h->nslots);
    int64_t n = 0;  // the entries were written in s's entry order: s's entry e is r's (count of live before e)
    int64_t* to = static_cast<int64_t*>(std::malloc(sizeof(int64_t) * (size_t)(s.h->used + 1)));
    if (!to) raise("MemoryError", "cannot copy set");
    for (int64_t e = 0; e < s.h->used; ++e) to[e] = s.h->live[e] ? n++ : -1;
    for (int64_t i = 0; i < s.h->nslots; ++i) r.h->index[i] = s.h->index[i] >= 0 ? to[s.h->index[i]] : s.h->index[i];
    std::free(to);
    r.h->fill = s.h->fill;
    return r;
  }
  r.s_table(Set<K>::s_alloc_size(s.size()));  // deleted slots: the items reinserted, in s's order
  s.each([&](int64_t e) { r.s_add(s.keys()[e], false); });
  return r;
}
template <class K>
inline void set_clear(const Set<K>& s) {
  s.ready();
  for (int64_t i = 0; i < s.h->used; ++i) s.h->live[i] = 0;
  s.h->size = 0;
  s.s_compact(8);
  s.s_table(16);
}
template <class K>
inline bool set_contains(const Set<K>& s, const K& k) { return s.find(k) >= 0; }
/// s |= o, s.update(o): presized for both, o's items added in o's order, then shrunk if need be.
template <class K, class K2>
inline void set_update(const Set<K>& s, const Set<K2>& o) {
  s.ready();
  List<K2> items = dict_keys(o);  // o may be s
  s.s_upsize(s.size() + items.size());
  for (int64_t i = 0; i < items.size(); ++i) s.s_add(K(items.at(i)), true);
  s.s_downsize(s.size());
}
/// s &= o: s's items not in o removed, in s's slot order.
template <class K>
inline void set_intersection_update(const Set<K>& s, const Set<K>& o) {
  s.ready();
  for (int64_t i = 0; i < s.h->nslots; ++i) {
    const int64_t e = s.h->index[i];
    if (e >= 0 && o.find(s.keys()[e]) < 0) s.s_remove_at(i, false);
  }
  s.s_downsize(s.size());
}
/// s -= o: o's items removed from s, in o's order.
template <class K>
inline void set_difference_update(const Set<K>& s, const Set<K>& o) {
  s.ready();
  List<K> items = dict_keys(o);
  for (int64_t i = 0; i < items.size(); ++i) {
    const int64_t at = s.find_slot(items.at(i), Set<K>::hash_of(items.at(i)));
    if (at >= 0) s.s_remove_at(at, false);
  }
  s.s_downsize(s.size());
}
/// s ^= o: each of o's items (in o's order) removed from s where there, else added.
template <class K>
inline void set_symmetric_difference_update(const Set<K>& s, const Set<K>& o) {
  s.ready();
  List<K> items = dict_keys(o);
  for (int64_t i = 0; i < items.size(); ++i) {
    const K& k = items.at(i);
    const int64_t hash = Set<K>::hash_of(k);
    bool found;
    const int64_t at = s.s_lookup(k, hash, true, found);
    if (found) s.s_remove_at(at, false);
    else s.s_store(at, k, hash, true);
  }
  s.s_downsize(s.size());
}
template <class K>
inline Set<K> set_union(const Set<K>& a, const Set<K>& b) {
  const bool big = a.size() > b.size();
  Set<K> r = set_copy(big ? a : b);
  set_update(r, big ? b : a);
  return r;
}
template <class K>
inline Set<K> set_intersection(const Set<K>& a, const Set<K>& b) {
  const bool small = a.size() < b.size();
  Set<K> r = set_copy(small ? a : b);
  set_intersection_update(r, small ? b : a);
  return r;
}
template <class K>
inline Set<K> set_difference(const Set<K>& a, const Set<K>& b) {
  Set<K> r = set_copy(a);
  set_difference_update(r, b);
  return r;
}
template <class K>
inline Set<K> set_symmetric_difference(const Set<K>& a, const Set<K>& b) {
  const bool big = a.size() > b.size();
  Set<K> r = set_copy(big ? a : b);
  set_symmetric_difference_update(r, big ? b : a);
  return r;
}
template <class K>
inline bool set_issubset(const Set<K>& a, const Set<K>& b) {
  bool ok = a.size() <= b.size();
  a.each([&](int64_t e) { ok = ok && b.find(a.keys()[e]) >= 0; });
  return ok;
}
template <class K>
inline bool set_issuperset(const Set<K>& a, const Set<K>& b) { return set_issubset(b, a); }
template <class K>
inline bool set_isdisjoint(const Set<K>& a, const Set<K>& b) {
  bool none = true;
  a.each([&](int64_t e) { none = none && b.find(a.keys()[e]) < 0; });
  return none;
}
template <class K>
inline bool set_eq(const Set<K>& a, const Set<K>& b) { return a.size() == b.size() && set_issubset(a, b); }

}  // namespace cj
