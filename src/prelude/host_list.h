// Lists of @jit code (CPU target only; Numba's list and reflected list). A list is a handle
// (cj::List<T>, one pointer) to a shared, reference-counted ListHead: copies alias as Python's
// names do, and the last handle frees it, so lists made in compiled code do not outlive their
// last use. The header's layout, which the extension shares, is the ABI header's (cj::ListHead,
// src/abi/cujit_abi.h).
// Included only in programs that use lists (pipeline.cpp), so others compile as before.
#include <initializer_list>
#include <string>
#include <type_traits>
#include <new>
#include <utility>

namespace cj {

template <class T>
struct List {
  ListHead* h = nullptr;
  List() = default;
  List(const List& o) : h(o.h) { retain(); }
  List(List&& o) noexcept : h(o.h) { o.h = nullptr; }
  List& operator=(const List& o) {
    List t(o);
    std::swap(h, t.h);
    return *this;
  }
  List& operator=(List&& o) noexcept {
    std::swap(h, o.h);
    return *this;
  }
  ~List() {
    if (h && __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL) == 0) h->destroy(h);
  }
  void retain() {
    if (h) __atomic_add_fetch(&h->refs, 1, __ATOMIC_RELAXED);
  }
  T* data() const { return static_cast<T*>(h->data); }
  int64_t size() const { return h ? h->size : 0; }
  T& at(int64_t i) const { return data()[i]; }

  static void destroy_head(ListHead* p) {
    for (int64_t i = 0; i < p->size; ++i) static_cast<T*>(p->data)[i].~T();
    std::free(p->data);
    std::free(p);
  }
  static List make(int64_t cap) {
    List l;
    l.h = static_cast<ListHead*>(std::malloc(sizeof(ListHead)));
    if (!l.h) raise("MemoryError", "cannot allocate a list");
    *l.h = ListHead{1, 0, 0, nullptr, &destroy_head};
    l.reserve(cap);
    return l;
  }
  void reserve(int64_t n) const {  // const: the handle stays, the shared header changes
    if (n <= h->cap) return;
    int64_t cap = h->cap < 4 ? 4 : h->cap;
    while (cap < n) cap *= 2;
    T* fresh = static_cast<T*>(std::malloc(sizeof(T) * (size_t)cap));
    if (!fresh) raise("MemoryError", "cannot allocate a list");
    for (int64_t i = 0; i < h->size; ++i) {
      new (fresh + i) T(std::move(data()[i]));
      data()[i].~T();
    }
    std::free(h->data);
    h->data = fresh;
    h->cap = cap;
  }
  void push(const T& v) const {
    T copy(v);  // v may be an item of this list, which reserve moves
    reserve(h->size + 1);
    new (data() + h->size) T(std::move(copy));
    ++h->size;
  }
};

/// [a, b, c]
template <class T>
inline List<T> list_of(std::initializer_list<T> items) {
  List<T> l = List<T>::make((int64_t)items.size());
  for (const T& v : items) l.push(v);
  return l;
}
template <class T>
inline List<T> list_new() { return List<T>::make(0); }

/// Python's index i of a list of n, IndexError(msg) outside it.
inline int64_t list_index(int64_t i, int64_t n, const char* msg) {
  if (i < 0) i += n;
  if (i < 0 || i >= n) raise("IndexError", msg);
  return i;
}
template <class T>
inline T list_get(const List<T>& l, int64_t i) { return l.at(list_index(i, l.size(), "getitem out of range")); }
template <class T, class V>
inline void list_set(const List<T>& l, int64_t i, const V& v) { l.at(list_index(i, l.size(), "setitem out of range")) = T(v); }
template <class T, class V>
inline void list_append(const List<T>& l, const V& v) { l.push(T(v)); }
template <class T>
inline T list_pop(const List<T>& l) {
  if (l.size() == 0) raise("IndexError", "pop from empty list");
  T v(std::move(l.at(l.size() - 1)));
  l.at(l.size() - 1).~T();
  --l.h->size;
  return v;
}
template <class T>
inline T list_pop_at(const List<T>& l, int64_t i) {
  if (l.size() == 0) raise("IndexError", "pop from empty list");
  i = list_index(i, l.size(), "pop index out of range");
  T v(std::move(l.at(i)));
  for (int64_t k = i; k + 1 < l.size(); ++k) l.at(k) = std::move(l.at(k + 1));
  l.at(l.size() - 1).~T();
  --l.h->size;
  return v;
}
template <class T, class V>
inline void list_insert(const List<T>& l, int64_t i, const V& v) {
  const int64_t n = l.size();
  if (i < 0) i = i + n < 0 ? 0 : i + n;
  if (i > n) i = n;
  l.reserve(n + 1);
  new (l.data() + n) T();
  for (int64_t k = n; k > i; --k) l.at(k) = std::move(l.at(k - 1));
  l.at(i) = T(v);
  ++l.h->size;
}
template <class T>
inline void list_clear(const List<T>& l) {
  for (int64_t i = 0; i < l.size(); ++i) l.at(i).~T();
  if (l.h) l.h->size = 0;
}
template <class T>
inline void list_reverse(const List<T>& l) {
  for (int64_t i = 0, j = l.size() - 1; i < j; ++i, --j) std::swap(l.at(i), l.at(j));
}
template <class T>
inline List<T> list_copy(const List<T>& l) {
  List<T> r = List<T>::make(l.size());
  for (int64_t i = 0; i < l.size(); ++i) r.push(l.at(i));
  return r;
}
template <class T, class U>
inline void list_extend(const List<T>& l, const List<U>& o) {
  const int64_t n = o.size();  // o may be l
  l.reserve(l.size() + n);
  for (int64_t i = 0; i < n; ++i) l.push(T(o.at(i)));
}
template <class T, class U>
inline List<T> list_concat(const List<T>& a, const List<U>& b) {
  List<T> r = list_copy(a);
  list_extend(r, b);
  return r;
}
template <class T>
inline List<T> list_repeat(const List<T>& a, int64_t k) {
  List<T> r = List<T>::make(0);
  for (int64_t j = 0; j < k; ++j) list_extend(r, a);
  return r;
}
/// l *= k: in place, as Python's.
template <class T>
inline void list_irepeat(const List<T>& l, int64_t k) {
  const List<T> once = list_copy(l);
  list_clear(l);
  for (int64_t j = 0; j < k; ++j) list_extend(l, once);
}
template <class T>
inline constexpr bool is_list_v = false;
template <class T>
inline constexpr bool is_list_v<List<T>> = true;
template <class T, class U>
inline int list_cmp(const List<T>& a, const List<U>& b);
/// a == b as Python compares items: lists item by item, tuples (the generated structs, with
/// cj_arity and cj_zip; one struct type) item by item, numbers and strs by `==`.
template <class A, class B>
inline bool py_eq(const A& a, const B& b) {
  if constexpr (is_list_v<A> && is_list_v<B>) {
    if (a.size() != b.size()) return false;
    for (int64_t i = 0; i < a.size(); ++i)
      if (!py_eq(a.at(i), b.at(i))) return false;
    return true;
  } else if constexpr (requires { A::cj_arity; }) {
    return a.cj_zip(b, [](const auto& x, const auto& y) { return py_eq(x, y); });
  } else {
    return a == b;
  }
}
/// a < b as Python orders sort keys and list items: numbers and strs by `<`, tuples item by item
/// (the first unequal pair deciding), lists as list_cmp.
template <class A, class B>
inline bool py_less(const A& a, const B& b) {
  if constexpr (is_list_v<A> && is_list_v<B>) {
    return list_cmp(a, b) < 0;
  } else if constexpr (requires { A::cj_arity; }) {
    int order = 0;
    a.cj_zip(b, [&](const auto& x, const auto& y) {
      if (py_less(x, y)) order = -1;
      else if (py_less(y, x)) order = 1;
      return order == 0;
    });
    return order < 0;
  } else {
    return a < b;
  }
}
template <class T, class V>
inline int64_t list_find(const List<T>& l, const V& v) {
  for (int64_t i = 0; i < l.size(); ++i)
    if (py_eq(l.at(i), v)) return i;
  return -1;
}
template <class T, class V>
inline bool list_contains(const List<T>& l, const V& v) { return list_find(l, v) >= 0; }
template <class T, class V>
inline int64_t list_count(const List<T>& l, const V& v) {
  int64_t c = 0;
  for (int64_t i = 0; i < l.size(); ++i) c += py_eq(l.at(i), v);
  return c;
}
template <class T, class V>
inline int64_t list_index_of(const List<T>& l, const V& v) {
  const int64_t i = list_find(l, v);
  if (i < 0) raise("ValueError", "value not in list");
  return i;
}
/// l.index(x, start[, stop]): Numba's bounds (a negative one counts from the end, start clamped
/// at 0, stop at len(l)).
template <class T, class V>
inline int64_t list_index_of(const List<T>& l, const V& v, int64_t start, int64_t stop = 9223372036854775807LL) {
  const int64_t n = l.size();
  if (start < 0) start = start + n < 0 ? 0 : start + n;
  if (stop < 0) stop += n;
  if (stop > n) stop = n;
  for (int64_t i = start; i < stop; ++i)
    if (py_eq(l.at(i), v)) return i;
  raise("ValueError", "value not in list");
}
template <class T, class V>
inline void list_remove(const List<T>& l, const V& v) {
  const int64_t i = list_find(l, v);
  if (i < 0) raise("ValueError", "list.remove(x): x not in list");
  list_pop_at(l, i);
}
/// l.sort() (stable, as Python's; NaN compares as Python's < does: not less; tuples item by item).
template <class T>
inline void list_sort(const List<T>& l, bool reverse) {
  const int64_t n = l.size();
  for (int64_t i = 1; i < n; ++i) {  // insertion sort by binary search: stable, no <algorithm>
    T v(std::move(l.at(i)));
    int64_t lo = 0, hi = i;
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      const bool before = reverse ? py_less(l.at(mid), v) : py_less(v, l.at(mid));
      if (before) hi = mid;
      else lo = mid + 1;
    }
    for (int64_t k = i; k > lo; --k) l.at(k) = std::move(l.at(k - 1));
    l.at(lo) = std::move(v);
  }
}
/// l.sort(key=f, reverse=r) once the keys are computed, one per item in order (as Numba calls
/// the key function): a stable sort by the keys, equal keys keeping their order either way.
template <class T, class K>
inline void list_sort_by(const List<T>& l, const List<K>& keys, bool reverse) {
  const int64_t n = l.size();
  List<int64_t> order = List<int64_t>::make(n);
  for (int64_t i = 0; i < n; ++i) {  // insertion by binary search, as list_sort
    int64_t lo = 0, hi = i;
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      const K& m = keys.at(order.at(mid));
      const bool before = reverse ? py_less(m, keys.at(i)) : py_less(keys.at(i), m);
      if (before) hi = mid;
      else lo = mid + 1;
    }
    list_insert(order, lo, i);
  }
  const List<T> items = list_copy(l);
  for (int64_t i = 0; i < n; ++i) l.at(i) = items.at(order.at(i));
}
/// min(l) and max(l): the first of the least (greatest) items, as Python compares them (a NaN
/// is kept only where it comes first); an empty list raises StopIteration, as Numba's does.
template <class T>
inline T list_min(const List<T>& l) {
  if (l.size() == 0) raise("StopIteration", "");
  T m = l.at(0);
  for (int64_t i = 1; i < l.size(); ++i)
    if (l.at(i) < m) m = l.at(i);
  return m;
}
template <class T>
inline T list_max(const List<T>& l) {
  if (l.size() == 0) raise("StopIteration", "");
  T m = l.at(0);
  for (int64_t i = 1; i < l.size(); ++i)
    if (m < l.at(i)) m = l.at(i);
  return m;
}
template <class T>
inline List<T> list_sorted(const List<T>& l, bool reverse) {
  List<T> r = list_copy(l);
  list_sort(r, reverse);
  return r;
}

/// print() of a list: Python's repr of it ([1, 2.5, 'a']); its items' repr by repr_item, which
/// host_str.h gives a str (found by argument-dependent lookup where the program has strings).
template <class T>
inline void repr_into(std::string& o, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    o += v ? "True" : "False";
  } else if constexpr (std::is_integral_v<T>) {
    o += std::to_string(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    o += float_repr((double)v).s;
  } else {
    repr_item(o, v);
  }
}
template <class T>
inline void repr_item(std::string& o, const List<T>& l) {
  o += "[";
  for (int64_t i = 0; i < l.size(); ++i) {
    if (i) o += ", ";
    repr_into(o, l.at(i));
  }
  o += "]";
}
template <class T>
inline std::string list_repr(const List<T>& l) {
  std::string o;
  repr_item(o, l);
  return o;
}

/// Python's slice of a sequence of n: the first index, the step and the count.
struct SliceRange {
  int64_t start, step, count;
};
inline SliceRange slice_range(int64_t n, bool has_start, int64_t start, bool has_stop, int64_t stop, bool has_step,
                              int64_t step) {
  if (!has_step) step = 1;
  if (step == 0) raise("ValueError", "slice step cannot be zero");
  auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
    if (v < 0) v += n;
    return v < lo ? lo : v > hi ? hi : v;
  };
  if (step > 0) {
    start = has_start ? clamp(start, 0, n) : 0;
    stop = has_stop ? clamp(stop, 0, n) : n;
    return {start, step, stop > start ? (stop - start + step - 1) / step : 0};
  }
  start = has_start ? clamp(start, -1, n - 1) : n - 1;
  stop = has_stop ? clamp(stop, -1, n - 1) : -1;
  return {start, step, start > stop ? (start - stop + (-step) - 1) / (-step) : 0};
}
template <class T>
inline List<T> list_slice(const List<T>& l, SliceRange s) {
  List<T> r = List<T>::make(s.count);
  for (int64_t k = 0; k < s.count; ++k) r.push(l.at(s.start + k * s.step));
  return r;
}
/// l[a:b:c] = v
template <class T, class U>
inline void list_set_slice(const List<T>& l, SliceRange s, const List<U>& v) {
  const List<U> src = (void*)v.h == (void*)l.h ? list_copy(v) : v;
  if (s.step != 1) {
    if (src.size() != s.count) raise("ValueError", "cannot resize extended list slice with step != 1");
    for (int64_t k = 0; k < s.count; ++k) l.at(s.start + k * s.step) = T(src.at(k));
    return;
  }
  List<T> r = List<T>::make(l.size() - s.count + src.size());
  for (int64_t i = 0; i < s.start; ++i) r.push(l.at(i));
  for (int64_t i = 0; i < src.size(); ++i) r.push(T(src.at(i)));
  for (int64_t i = s.start + s.count; i < l.size(); ++i) r.push(l.at(i));
  // The items move into l's own header: other handles of l see the change.
  std::swap(l.h->data, r.h->data);
  std::swap(l.h->size, r.h->size);
  std::swap(l.h->cap, r.h->cap);
}
template <class T, class U>
inline bool list_eq(const List<T>& a, const List<U>& b) {
  if (a.size() != b.size()) return false;
  for (int64_t i = 0; i < a.size(); ++i)
    if (!py_eq(a.at(i), b.at(i))) return false;
  return true;
}
/// a < b by Python's lexicographic order (-1, 0, 1).
template <class T, class U>
inline int list_cmp(const List<T>& a, const List<U>& b) {
  for (int64_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (py_less(a.at(i), b.at(i))) return -1;
    if (py_less(b.at(i), a.at(i))) return 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

}  // namespace cj
